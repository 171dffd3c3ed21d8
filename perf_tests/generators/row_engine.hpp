// SPDX-License-Identifier: BSD-3-Clause
// The generators' engine, run entirely on the device: row lengths -> scan ->
// row pointer, then every row's entries written in parallel; plus the sorted
// random samples that give "K distinct random columns" already sorted, so no
// generator sorts or deduplicates anything.
//
// Sorted samples (order statistics by exponential spacings): with m + 1
// i.i.d. exponential gaps g_0..g_m and S_j = g_0 + ... + g_j, the ratios
// S_j / S_m (j < m) are distributed as the m sorted values of m i.i.d.
// uniforms on (0, 1) (Devroye, Non-Uniform Random Variate Generation, 1986,
// ch. V.2). The gaps come from the counter hash of (seed, row, j) in fixed
// point and are summed by one integer prefix scan over all rows, which is
// exact and so independent of the scan's association order. A sorted
// multiset v_0 <= ... <= v_{m-1} in [0, n - m] becomes m distinct sorted
// columns c_j = v_j + j in [0, n): sorted and duplicate-free by construction.
// Against a uniform m-subset of [0, n) the one difference is that ties
// v_j = v_{j+1}, i.e. adjacent columns c and c + 1, are half as frequent
// (multinomial rather than uniform weight on multisets: m (m - 1) / 2n
// adjacent pairs per row instead of m (m - 1) / n); every larger gap has the
// uniform law up to O(1/n). For SpMV traffic this is immaterial, and it buys
// exact counts with no sort, no rejection and no per-row sequential loop.
//
// Mapping of every per-row kernel (row_items): league entry -> a chunk of
// rows; team thread -> one row; vector lane -> that row's entries (lanes per
// row = the largest power of two <= the mean work per row, at most a warp;
// team size and rows per team from tuning::select_row_policy, the library's
// row-kernel policy). Rows longer than long_row_items go to a second launch:
// league entry -> a chunk of one long row's items, team thread -> an item.
#pragma once

#include "counter_hash.hpp"

#include <kobalt/formats/csr_arrays.hpp>
#include <kobalt/formats/storage_limit.hpp>
#include <kobalt/tuning/select.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace kobalt::bench::gen {

/// Size of a generated matrix, known on the host before anything is built.
struct Shape {
  std::int64_t rows = 0, cols = 0, nnz = 0;
};

template <class Device>
using int64_view = Kokkos::View<std::int64_t*, Device>;

// Rows with more work items than this go to the chunked kernel, so one
// very long row (arrow's first row, zipf's top ranks, R-MAT hubs) is spread
// over many teams instead of one team's lanes; not yet measured (a first cut:
// at 2^16 items a row's lanes still loop a few thousand times).
inline constexpr std::int64_t long_row_items = std::int64_t(1) << 16;
// Items per league entry of the chunked kernel; not yet measured.
inline constexpr std::int64_t long_row_chunk = std::int64_t(1) << 12;

template <class ExecutionSpace, class Body>
struct RowItems {
  using policy = Kokkos::TeamPolicy<ExecutionSpace, Kokkos::Schedule<Kokkos::Dynamic>>;
  using member = typename policy::member_type;
  Body body;
  std::int64_t rows, rows_per_team;

  KOKKOS_INLINE_FUNCTION void operator()(const member& team) const {
    const std::int64_t first = static_cast<std::int64_t>(team.league_rank()) * rows_per_team;
    const std::int64_t last = first + rows_per_team < rows ? first + rows_per_team : rows;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, first, last), [&](const std::int64_t i) {
      const std::int64_t n = body.work(i);
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, n > long_row_items ? 0 : n),
                           [&](const std::int64_t k) { body(i, k); });
    });
  }
};

/// League entry c -> chunk c of the long rows: long row j owns chunks
/// [chunk_start(j), chunk_start(j + 1)); team threads share the chunk's items.
template <class ExecutionSpace, class Body>
struct LongRowChunks {
  using policy = Kokkos::TeamPolicy<ExecutionSpace, Kokkos::Schedule<Kokkos::Dynamic>>;
  using member = typename policy::member_type;
  Body body;
  Kokkos::View<std::int64_t*, typename ExecutionSpace::memory_space> row, chunk_start;
  std::int64_t long_rows;

  KOKKOS_INLINE_FUNCTION void operator()(const member& team) const {
    const std::int64_t c = team.league_rank();
    std::int64_t lo = 0, hi = long_rows - 1;  // last j with chunk_start(j) <= c
    while (lo < hi) {
      const std::int64_t mid = (lo + hi + 1) / 2;
      if (chunk_start(mid) <= c)
        lo = mid;
      else
        hi = mid - 1;
    }
    const std::int64_t i = row(lo), first = (c - chunk_start(lo)) * long_row_chunk;
    const std::int64_t n = body.work(i);
    const std::int64_t last = first + long_row_chunk < n ? first + long_row_chunk : n;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, first, last),
                         [&](const std::int64_t k) { body(i, k); });
  }
};

namespace detail {

/// Counts the rows i with more than long_row_items items.
template <class Body>
struct CountLongRowsFunctor {
  using value_type = std::int64_t;
  Body body;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, std::int64_t& n) const {
    n += body.work(i) > long_row_items;
  }
};

/// Lists the long rows (row(j) = i) and their chunk counts (in
/// chunk_start(j + 1)), in row order.
template <class Body, class View>
struct ListLongRowsFunctor {
  using value_type = std::int64_t;
  Body body;
  View row, chunk_start;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, std::int64_t& j,
                                         const bool final) const {
    const std::int64_t n = body.work(i);
    if (n <= long_row_items) return;
    if (final) {
      row(j) = i;
      chunk_start(j + 1) = (n + long_row_chunk - 1) / long_row_chunk;
    }
    ++j;
  }
};

/// chunk_start(j) <- chunk_start(0) + ... + chunk_start(j), in place.
template <class View>
struct LongChunkStartsFunctor {
  using value_type = std::int64_t;
  View chunk_start;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t j, std::int64_t& partial,
                                         const bool final) const {
    partial += chunk_start(j);
    if (final) chunk_start(j) = partial;
  }
};

}  // namespace detail

/// body(i, k) for every row i in [0, rows) and k in [0, body.work(i)).
/// mean_work (work per row on average) sets the lanes per row. Rows with
/// more than long_row_items items run in chunks of long_row_chunk, one per
/// league entry (a second launch over the few long rows).
template <class ExecutionSpace, class Body>
void row_items(const std::string& label, std::int64_t rows, std::int64_t mean_work,
               const Body& body) {
  if (rows <= 0) return;
  const tuning::DeviceProfile profile = tuning::cached_profile_of(ExecutionSpace());
  // Within the backend's team, as tuning::select fits the kernels' launches.
  std::string clamped;
  const tuning::LaunchShape p = tuning::fit_launch(
      tuning::row_launch(
          profile, tuning::floor_pow2_capped(mean_work > 1 ? mean_work : 1, profile.warp_width),
          "rows"),
      profile.team_limits, profile.gpu, clamped);
  const std::int64_t league = (rows + p.rows_per_team - 1) / p.rows_per_team;
  typename RowItems<ExecutionSpace, Body>::policy policy(static_cast<int>(league), p.team_size,
                                                          p.vector_length);
  Kokkos::parallel_for(label, policy, RowItems<ExecutionSpace, Body>{body, rows, p.rows_per_team});

  using range = Kokkos::RangePolicy<ExecutionSpace>;
  std::int64_t long_rows = 0;
  Kokkos::parallel_reduce(
      label + "::count_long", range(0, rows),
      detail::CountLongRowsFunctor<Body>{body}, long_rows);
  if (long_rows == 0) return;
  using view = Kokkos::View<std::int64_t*, typename ExecutionSpace::memory_space>;
  view row(compat::uninitialized(label + "::long_rows"), long_rows);
  view chunk_start(compat::uninitialized(label + "::long_chunks"), long_rows + 1);
  std::int64_t chunks = 0;
  Kokkos::parallel_scan(
      label + "::long_rows", range(0, rows),
      detail::ListLongRowsFunctor<Body, view>{body, row, chunk_start});
  Kokkos::deep_copy(Kokkos::subview(chunk_start, 0), std::int64_t(0));
  Kokkos::parallel_scan(
      label + "::long_chunks", range(0, long_rows + 1),
      detail::LongChunkStartsFunctor<view>{chunk_start}, chunks);
  typename LongRowChunks<ExecutionSpace, Body>::policy chunk_policy(static_cast<int>(chunks),
                                                                    Kokkos::AUTO);
  Kokkos::parallel_for(label + "::long", chunk_policy,
                       LongRowChunks<ExecutionSpace, Body>{body, row, chunk_start, long_rows});
}

namespace detail {

/// v(i) <- v(0) + ... + v(i - 1), in place.
template <class View>
struct ExclusiveScanFunctor {
  using T = typename View::non_const_value_type;
  using value_type = T;
  View v;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, T& partial, const bool final) const {
    const T x = v(i);
    if (final) v(i) = partial;
    partial += x;
  }
};

}  // namespace detail

/// v(i) <- v(0) + ... + v(i - 1) for i in [0, n), in place (integer: exact).
template <class ExecutionSpace, class View>
void exclusive_scan(const View& v, std::int64_t n, const std::string& label) {
  Kokkos::parallel_scan(label, Kokkos::RangePolicy<ExecutionSpace>(0, n),
                        detail::ExclusiveScanFunctor<View>{v});
}

/// One element of a device view, copied to the host.
template <class View>
typename View::non_const_value_type read_back(const View& v, std::int64_t i) {
  typename View::non_const_value_type x{};
  Kokkos::deep_copy(x, Kokkos::subview(v, i));
  return x;
}

/// Sorted random samples of every row: row i owns samples(i) + 1 gaps
/// (none when samples(i) == 0) starting at base(i) of the scanned prefix.
/// A sample's position S_j (an integer: gaps are whole units of 2^-16) gets
/// a dither in [0, 1) of a unit from its own hash, so positions have full
/// double resolution; since every gap is >= 1 unit, dithered positions keep
/// their order.
template <class Device>
struct SortedSamples {
  int64_view<Device> base, prefix;
  std::uint64_t seed = 0, dither_stream = 0;

  /// The j-th smallest (j < m) of row i's m sorted uniforms in [0, 1);
  /// m must be the samples(i) the table was built with.
  KOKKOS_INLINE_FUNCTION double uniform(std::int64_t i, std::int64_t j, std::int64_t m) const {
    const std::int64_t b = base(i), p0 = prefix(b);
    const double dither = unit_interval(hash(seed, dither_stream, static_cast<std::uint64_t>(i),
                                             static_cast<std::uint64_t>(j)));
    return (static_cast<double>(prefix(b + j + 1) - p0) + dither) /
           static_cast<double>(prefix(b + m + 1) - p0);
  }

  /// The j-th smallest (j < m) of m distinct sorted integers in [0, n) drawn
  /// for row i (m <= n): the multiset floor(u_j (n - m + 1)) plus j.
  KOKKOS_INLINE_FUNCTION std::int64_t distinct(std::int64_t i, std::int64_t j, std::int64_t m,
                                               std::int64_t n) const {
    const std::int64_t span = n - m;
    std::int64_t v = static_cast<std::int64_t>(uniform(i, j, m) * static_cast<double>(span + 1));
    if (v > span) v = span;
    return v + j;
  }
};

template <class Device, class Model>
struct GapBody {
  int64_view<Device> base, prefix;
  Model model;
  std::uint64_t seed, stream;
  KOKKOS_INLINE_FUNCTION std::int64_t work(std::int64_t i) const { return base(i + 1) - base(i); }
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t k) const {
    prefix(base(i) + k) = exponential_gap(
        hash(seed, stream, static_cast<std::uint64_t>(i), static_cast<std::uint64_t>(k)));
  }
};

namespace detail {

/// base(i + 1): the gaps of row i (model.samples(i) + 1, none without samples).
template <class Device, class Model>
struct SampleCountFunctor {
  int64_view<Device> base;
  Model model;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    const std::int64_t m = model.samples(i);
    base(i + 1) = m > 0 ? m + 1 : 0;
  }
};

}  // namespace detail

/// Builds the sorted samples of rows [0, rows): model.samples(i) per row,
/// gaps keyed by (seed, stream, i, k), dithers by (seed, stream +
/// stream_dither, i, k). Temporary storage: (rows + 1) + (sum of samples +
/// rows + 1) int64.
template <class Device, class Model>
SortedSamples<Device> make_sorted_samples(const Model& model, std::int64_t rows,
                                          std::uint64_t seed, std::uint64_t stream,
                                          std::int64_t mean_work) {
  using exec = typename Device::execution_space;
  SortedSamples<Device> s;
  s.seed = seed;
  s.dither_stream = stream + stream_dither;
  s.base = int64_view<Device>("kobalt::bench::samples::base", rows + 1);
  const auto base = s.base;
  Kokkos::parallel_for(
      "kobalt::bench::samples::count", Kokkos::RangePolicy<exec>(0, rows),
      detail::SampleCountFunctor<Device, Model>{base, model});
  kobalt::detail::scan_row_ptr(exec(), base, rows, "kobalt::bench::samples::base_scan");
  const std::int64_t total = read_back(base, rows);
  s.prefix = int64_view<Device>(compat::uninitialized("kobalt::bench::samples::prefix"), total + 1);
  row_items<exec>("kobalt::bench::samples::gaps", rows, mean_work,
                  GapBody<Device, Model>{base, s.prefix, model, seed, stream});
  Kokkos::deep_copy(Kokkos::subview(s.prefix, total), std::int64_t(0));
  exclusive_scan<exec>(s.prefix, total + 1, "kobalt::bench::samples::prefix_scan");
  return s;
}

/// Writes entry `pos` of row i of the Csr under construction.
template <class IndexView, class ValueView>
struct RowWriter {
  using index_type = typename IndexView::non_const_value_type;
  using value_type = typename ValueView::non_const_value_type;
  IndexView row_ptr, col;
  ValueView val;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t pos, std::int64_t c,
                                         double v) const {
    const std::int64_t at = static_cast<std::int64_t>(row_ptr(i)) + pos;
    col(at) = static_cast<index_type>(c);
    val(at) = static_cast<value_type>(v);
  }
};

template <class Model, class Writer>
struct FillBody {
  Model model;
  Writer out;
  KOKKOS_INLINE_FUNCTION std::int64_t length(std::int64_t i) const {
    return static_cast<std::int64_t>(out.row_ptr(i + 1) - out.row_ptr(i));
  }
  KOKKOS_INLINE_FUNCTION std::int64_t work(std::int64_t i) const {
    return model.work(i, length(i));
  }
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t k) const {
    model.fill(i, k, length(i), out);
  }
};

/// Throws index_overflow when rows, cols or nnz do not fit Index and
/// format_too_large when the Csr plus `temp_bytes` exceed max_bytes (0 = the
/// device's memory); called before anything is allocated.
template <class Value, class Index, class Device>
void check_generated_size(const std::string& what, const Shape& s, std::uint64_t temp_bytes,
                          std::uint64_t max_bytes) {
  checked_index<Index>(static_cast<std::uint64_t>(s.rows), (what + ": rows").c_str());
  checked_index<Index>(static_cast<std::uint64_t>(s.cols), (what + ": cols").c_str());
  checked_index<Index>(static_cast<std::uint64_t>(s.nnz), (what + ": nnz").c_str());
  check_storage<typename Device::memory_space>(
      what, kobalt::detail::saturating_add(kobalt::detail::csr_bytes<Value, Index>(s.rows, s.nnz),
                                           temp_bytes),
      max_bytes);
}

namespace detail {

/// row_ptr(i + 1) = model.length(i): row i's entry count, before the scan.
template <class Index, class RowPtr, class Model>
struct RowLengthsFunctor {
  RowPtr row_ptr;
  Model model;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    row_ptr(i + 1) = static_cast<Index>(model.length(i));
  }
};

}  // namespace detail

/// Builds the Csr of a row model: row_ptr from model.length(i) by a scan,
/// then model.fill(i, k, length, writer) for k in [0, model.work(i, length)).
/// The model's rows must be sorted and duplicate-free by construction; the
/// scanned nnz must equal shape.nnz (the closed form the caller checked).
/// mean_work is the model's work per row on average (sets the lanes per row).
/// Model interface (all KOKKOS_INLINE_FUNCTION, const):
///   std::int64_t length(i); std::int64_t work(i, length);
///   template <class W> void fill(i, k, length, const W& w)  -> w(i, pos, col, value)
template <class Value, class Index, class Device, class Model>
Csr<Value, Index, Device> build_csr(const Model& model, const Shape& shape, std::int64_t mean_work,
                                    const std::string& what, std::uint64_t max_bytes) {
  using exec = typename Device::execution_space;
  auto arrays = kobalt::detail::CsrArrays<Value, Index, Device>::allocate(exec(), shape.rows, shape.nnz,
                                                                          max_bytes);
  const auto row_ptr = arrays.row_ptr;
  Kokkos::parallel_for(
      "kobalt::bench::generate::lengths", Kokkos::RangePolicy<exec>(0, shape.rows),
      detail::RowLengthsFunctor<Index, typename Csr<Value, Index, Device>::index_view, Model>{
          row_ptr, model});
  kobalt::detail::scan_row_ptr(exec(), row_ptr, shape.rows, "kobalt::bench::generate::row_ptr");
  const std::int64_t scanned = static_cast<std::int64_t>(read_back(row_ptr, shape.rows));
  if (scanned != shape.nnz)
    throw std::logic_error(what + ": row lengths sum to " + std::to_string(scanned) +
                           ", the closed form gives " + std::to_string(shape.nnz));
  using writer = RowWriter<typename Csr<Value, Index, Device>::index_view,
                           typename Csr<Value, Index, Device>::value_view>;
  row_items<exec>("kobalt::bench::generate::fill", shape.rows, mean_work,
                  FillBody<Model, writer>{model, writer{row_ptr, arrays.col, arrays.val}});
  return arrays.finish(exec(), static_cast<Index>(shape.rows), static_cast<Index>(shape.cols));
}

}  // namespace kobalt::bench::gen
