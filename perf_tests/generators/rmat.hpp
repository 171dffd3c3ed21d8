// SPDX-License-Identifier: BSD-3-Clause
// rmat:SCALE,EF,a,b,c,seed - R-MAT (Chakrabarti, Zhan and Faloutsos, SDM
// 2004; Graph500 3.0 section 4): E = EF 2^SCALE edges, each choosing one
// quadrant per level with probabilities a, b, c, d = 1 - a - b - c. No
// vertex permutation and no per-level noise: hubs sit at low indices.
// Duplicate edges are summed (the value of (i, j) times its multiplicity),
// self-loops are kept.
//
// Built without sorting, by order statistics (row_engine.hpp): the row bits
// of an edge are independent (row bit 1 with probability c + d), so E
// sorted uniforms mapped through the inverse CDF of the row distribution
// give every edge's row in sorted order, hence the edges per row; given its
// row, an edge's column bits are independent too (bit 1 with probability
// b / (a + b) under a row bit 0, d / (c + d) under a 1), so each row's
// sorted uniforms mapped through that inverse CDF give its columns sorted,
// duplicates adjacent. Both inverse CDFs are monotone compositions of single
// IEEE operations (compare, subtract, multiply by a host-computed
// reciprocal), the same on every backend.
#pragma once

#include "counter_hash.hpp"
#include "row_engine.hpp"
#include "spec.hpp"

#include <cstdint>
#include <string>

namespace kobalt::bench::gen {

/// Per-level inverse CDFs of R-MAT's row and column bits.
struct RmatLevels {
  int scale = 0;
  double q_row = 1, inv_row0 = 1, inv_row1 = 1;          // P(row bit 0) = a + b
  double q_col[2] = {1, 1}, inv_col0[2] = {1, 1}, inv_col1[2] = {1, 1};  // by row bit

  explicit RmatLevels(const spec::rmat& g) : scale(g.scale) {
    const double d = 1.0 - g.a - g.b - g.c;
    q_row = g.a + g.b;
    inv_row0 = 1.0 / q_row;
    inv_row1 = 1.0 / (1.0 - q_row);
    q_col[0] = g.a / (g.a + g.b);
    q_col[1] = g.c / (g.c + d);
    for (int bit = 0; bit < 2; ++bit) {
      inv_col0[bit] = q_col[bit] > 0 ? 1.0 / q_col[bit] : 0.0;
      inv_col1[bit] = q_col[bit] < 1 ? 1.0 / (1.0 - q_col[bit]) : 0.0;
    }
  }

  /// One level: the bit and u rescaled to [0, 1) within the chosen part.
  /// (A branch-free select measured no faster on the host: the cost is the
  /// dependent multiply chain, 21 levels for SCALE 21; with sorted u, as for
  /// the rows, the branch predicts well.)
  KOKKOS_INLINE_FUNCTION static std::int64_t step(double& u, double q, double inv0, double inv1) {
    constexpr double below_one = 0x1.fffffffffffffp-1;
    std::int64_t bit = 0;
    if (u < q) {
      u = u * inv0;
    } else {
      u = (u - q) * inv1;
      bit = 1;
    }
    if (u > below_one) u = below_one;
    return bit;
  }
  /// Row of an edge whose row uniform is u in [0, 1]; monotone in u.
  KOKKOS_INLINE_FUNCTION std::int64_t row(double u) const {
    std::int64_t r = 0;
    for (int level = 0; level < scale; ++level) r = 2 * r + step(u, q_row, inv_row0, inv_row1);
    return r;
  }
  /// Column of an edge in row r whose column uniform is u; monotone in u.
  KOKKOS_INLINE_FUNCTION std::int64_t col(double u, std::int64_t r) const {
    std::int64_t c = 0;
    for (int level = 0; level < scale; ++level) {
      const int bit = static_cast<int>((r >> (scale - 1 - level)) & 1);
      c = 2 * c + step(u, q_col[bit], inv_col0[bit], inv_col1[bit]);
    }
    return c;
  }
};

namespace detail {

/// Edges per row as a sample count (rows with edges get their column gaps).
template <class Device>
struct RmatRowEdges {
  int64_view<Device> start;
  KOKKOS_INLINE_FUNCTION std::int64_t samples(std::int64_t r) const {
    return start(r + 1) - start(r);
  }
};

template <class Device, class IndexView>
struct RmatColumns {
  int64_view<Device> start;
  SortedSamples<Device> sampler;
  IndexView cols;
  RmatLevels levels;
  KOKKOS_INLINE_FUNCTION std::int64_t work(std::int64_t r) const { return start(r + 1) - start(r); }
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t r, std::int64_t k) const {
    cols(start(r) + k) = static_cast<typename IndexView::non_const_value_type>(
        levels.col(sampler.uniform(r, k, work(r)), r));
  }
};

/// flag(e) = 1 where edge e starts a run of equal columns within its row.
template <class Device, class IndexView>
struct RmatRunStarts {
  int64_view<Device> start, flag;
  IndexView cols;
  KOKKOS_INLINE_FUNCTION std::int64_t work(std::int64_t r) const { return start(r + 1) - start(r); }
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t r, std::int64_t k) const {
    const std::int64_t e = start(r) + k;
    flag(e) = (k == 0 || cols(e) != cols(e - 1)) ? 1 : 0;
  }
};

template <class Device, class IndexView, class ValueView>
struct RmatFill {
  int64_view<Device> start, position;
  IndexView cols, out_col;
  ValueView out_val;
  std::uint64_t seed;
  KOKKOS_INLINE_FUNCTION std::int64_t work(std::int64_t r) const { return start(r + 1) - start(r); }
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t r, std::int64_t k) const {
    const std::int64_t e = start(r) + k, end = start(r + 1);
    if (k != 0 && cols(e) == cols(e - 1)) return;  // not the first of its run
    std::int64_t run = 1;
    while (e + run < end && cols(e + run) == cols(e)) ++run;
    const std::int64_t p = position(e);
    out_col(p) = cols(e);
    out_val(p) = static_cast<typename ValueView::non_const_value_type>(
        static_cast<double>(run) * hashed_value(seed, r, cols(e)));
  }
};

/// prefix(k): the k-th exponential gap of the row uniforms.
template <class Device>
struct RmatRowGapsFunctor {
  int64_view<Device> prefix;
  std::uint64_t seed;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t k) const {
    prefix(k) = exponential_gap(hash(seed, stream_rmat_rows, 0, static_cast<std::uint64_t>(k)));
  }
};

/// cols(e): the row of edge e, from its dithered sorted uniform through the
/// row CDF.
template <class Index, class Device, class IndexView>
struct RmatRowsFunctor {
  int64_view<Device> prefix;
  IndexView cols;
  RmatLevels levels;
  std::uint64_t seed;
  double scale_u;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t e) const {
    const double dither = unit_interval(
        hash(seed, stream_rmat_rows + stream_dither, 0, static_cast<std::uint64_t>(e)));
    cols(e) = static_cast<Index>(
        levels.row((static_cast<double>(prefix(e + 1)) + dither) * scale_u));
  }
};

/// start(r) = e for the rows r after edge e - 1's row up to edge e's (the
/// rows that start at edge e; edges for the rows after the last edge).
template <class Device, class IndexView>
struct RmatRowStartsFunctor {
  int64_view<Device> start;
  IndexView cols;
  std::int64_t rows, edges;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t e) const {
    const std::int64_t previous = e == 0 ? -1 : static_cast<std::int64_t>(cols(e - 1));
    const std::int64_t current = e == edges ? rows : static_cast<std::int64_t>(cols(e));
    for (std::int64_t r = previous + 1; r <= current; ++r) start(r) = e;
  }
};

/// row_ptr(r): the merged position of row r's first edge.
template <class Index, class Device, class IndexView>
struct RmatRowPtrFunctor {
  IndexView row_ptr;
  int64_view<Device> start, position;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t r) const {
    row_ptr(r) = static_cast<Index>(position(start(r)));
  }
};

}  // namespace detail

/// The R-MAT Csr (see the file comment). Temporary device storage of at
/// most (16 + sizeof(Index)) E + 24 (2^SCALE) bytes, plus the Csr bounded by
/// E entries, is checked before any allocation; nnz (after merging
/// duplicates) is checked against Index before the Csr's arrays are
/// allocated.
template <class Value, class Index, class Device>
Csr<Value, Index, Device> generate_rmat(const spec::rmat& g, const std::string& what,
                                        std::uint64_t max_bytes) {
  using exec = typename Device::execution_space;
  using index_view = typename Csr<Value, Index, Device>::index_view;
  const std::int64_t rows = std::int64_t(1) << g.scale, edges = g.edge_factor * rows;
  const RmatLevels levels(g);
  // Peak: start + column prefix + base + cols + flags; the Csr gets nnz <= E.
  // Saturating: E reaches 2^63 (rmat:0,2^62 passes the parser), where 8 E
  // wrapped to a small count that passed the check, and the arrays of E
  // entries were allocated at a wrapped size (a heap-buffer-overflow, WRITE
  // of size 8, found by fuzz/specs_fuzz in session 24, traced in session 26).
  using kobalt::detail::saturating_add;
  using kobalt::detail::saturating_mul;
  const auto e = static_cast<std::uint64_t>(edges), r = static_cast<std::uint64_t>(rows);
  const std::uint64_t temp = saturating_add(
      saturating_add(saturating_mul(r + 1, 16), saturating_mul(saturating_add(e, r + 1), 8)),
      saturating_add(saturating_mul(e, sizeof(Index)), saturating_mul(saturating_add(e, 1), 8)));
  check_generated_size<Value, Index, Device>(what, {rows, rows, 0}, temp, max_bytes);
  check_storage<typename Device::memory_space>(
      what, saturating_add(temp, saturating_mul(e, sizeof(Index) + sizeof(Value))), max_bytes);

  // 1. Rows: E sorted uniforms from E + 1 gaps (dithered as in
  //    SortedSamples), mapped through the row CDF; start(r) = first edge of
  //    row r, found where the row changes.
  int64_view<Device> start("kobalt::bench::rmat::start", rows + 1);
  index_view cols(compat::uninitialized("kobalt::bench::rmat::cols"), edges);
  {
    int64_view<Device> prefix(compat::uninitialized("kobalt::bench::rmat::row_prefix"), edges + 2);
    const std::uint64_t seed = g.seed;
    Kokkos::parallel_for(
        "kobalt::bench::rmat::row_gaps", Kokkos::RangePolicy<exec>(0, edges + 1),
        detail::RmatRowGapsFunctor<Device>{prefix, seed});
    Kokkos::deep_copy(Kokkos::subview(prefix, edges + 1), std::int64_t(0));
    exclusive_scan<exec>(prefix, edges + 2, "kobalt::bench::rmat::row_scan");
    const std::int64_t total = read_back(prefix, edges + 1);
    const double scale_u = 1.0 / static_cast<double>(total);  // total >= E + 1: gaps >= 1
    // Rows, sorted, into `cols` (reused for the columns below).
    Kokkos::parallel_for(
        "kobalt::bench::rmat::rows", Kokkos::RangePolicy<exec>(0, edges),
        detail::RmatRowsFunctor<Index, Device, index_view>{prefix, cols, levels, seed, scale_u});
  }
  Kokkos::parallel_for(
      "kobalt::bench::rmat::row_starts", Kokkos::RangePolicy<exec>(0, edges + 1),
      detail::RmatRowStartsFunctor<Device, index_view>{start, cols, rows, edges});

  // 2. Columns of every row, sorted, from per-row sorted uniforms.
  {
    const auto sampler = make_sorted_samples<Device>(detail::RmatRowEdges<Device>{start}, rows,
                                                     g.seed, stream_rmat_cols, g.edge_factor);
    row_items<exec>("kobalt::bench::rmat::cols", rows, g.edge_factor,
                    detail::RmatColumns<Device, index_view>{start, sampler, cols, levels});
  }

  // 3. Merge duplicates: run starts -> positions (exclusive scan) -> nnz.
  int64_view<Device> position(compat::uninitialized("kobalt::bench::rmat::position"), edges + 1);
  row_items<exec>("kobalt::bench::rmat::runs", rows, g.edge_factor,
                  detail::RmatRunStarts<Device, index_view>{start, position, cols});
  Kokkos::deep_copy(Kokkos::subview(position, edges), std::int64_t(0));
  exclusive_scan<exec>(position, edges + 1, "kobalt::bench::rmat::run_scan");
  const std::int64_t nnz = read_back(position, edges);
  checked_index<Index>(static_cast<std::uint64_t>(nnz), (what + ": nnz").c_str());

  auto arrays = kobalt::detail::CsrArrays<Value, Index, Device>::allocate(exec(), rows, nnz, max_bytes);
  const auto row_ptr = arrays.row_ptr;
  Kokkos::parallel_for(
      "kobalt::bench::rmat::row_ptr", Kokkos::RangePolicy<exec>(0, rows + 1),
      detail::RmatRowPtrFunctor<Index, Device, index_view>{row_ptr, start, position});
  row_items<exec>("kobalt::bench::rmat::fill", rows, g.edge_factor,
                  detail::RmatFill<Device, index_view, typename Csr<Value, Index, Device>::value_view>{
                      start, position, cols, arrays.col, arrays.val, g.seed});
  return arrays.finish(exec(), static_cast<Index>(rows), static_cast<Index>(rows));
}

}  // namespace kobalt::bench::gen
