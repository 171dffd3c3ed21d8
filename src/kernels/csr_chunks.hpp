// SPDX-License-Identifier: BSD-3-Clause
// CSR "load_balance" (000 §3.3's CSR-I: COO-like nonzero chunks over CSR),
// deterministic and in one launch. The entries are cut into chunks of equal
// size, one per warp, whatever the rows: no row serialises a warp, however
// long. The lanes stride through the chunk (coalesced loads of columns and
// values, as 000 Alg. 1), each lane finds its entry's row by walking the row
// pointer forward from the row of its previous entry (the chunk's first row
// comes from a search done once, in the handle: csr_chunk_rows), and the
// warp flushes like 000 Alg. 1: a segmented scan keyed by row when a row
// ends inside the window of W entries, or on the chunk's last window.
//
// Unlike 000's CSR-I, y is never updated atomically and never pre-scaled:
// - a row whose entries all lie in one chunk is stored once, with beta
//   (beta == 0 overwrites: NaN in y does not survive);
// - a row split over chunks c1..c2 leaves one partial sum per chunk in the
//   workspace, and the warp whose part arrives last (an atomic counter per
//   split row, behind a memory fence) adds them in a fixed order (lane l
//   takes parts c1 + l, c1 + l + W, ...; the lanes' sums are scanned) and
//   stores the row: the result does not depend on the order the chunks ran
//   in;
// - empty rows are stored (beta * y) by the chunk whose range holds their
//   row-pointer value.
// So one launch per apply, no scale pass, and the same bits on every run.
//
// Mapping: league entry -> team_size warps; team thread -> one chunk of
// entries_per_thread * W entries; vector lane -> a lane of the warp (W =
// the warp width; 1 on hosts, where the chunk is one thread's walk).
#pragma once

#include "common.hpp"
#include "../arch/arch.hpp"
#include "../errors.hpp"
#include "../formats/csr.hpp"
#include "../tuning/policy.hpp"

#include <cstdint>
#include <string>

namespace kobalt::detail {

/// What the CSR chunk kernel keeps between applies (in the handle):
/// - first_row(c), c = 0..chunks: the first row whose row-pointer value
///   lies in chunk c (rows for c = chunks), so chunk c owns rows
///   [first_row(c), first_row(c + 1));
/// - partials: two slots of rhs_block partial sums per chunk (its split
///   first row, its split last row);
/// - arrived(c): chunks that have left their partial of the split row that
///   starts in chunk c; the last one resets it to 0.
template <class MemorySpace>
struct CsrChunks {
  Kokkos::View<std::int64_t*, MemorySpace> first_row;
  Kokkos::View<double*, MemorySpace> partials;
  Kokkos::View<int*, MemorySpace> arrived;
  std::int64_t chunk = 0;  ///< entries per chunk (the last may be shorter)
  bool empty_rows = false;  ///< some row has no entries (its y must still be scaled)

  std::int64_t chunks() const {
    return first_row.extent(0) > 0 ? static_cast<std::int64_t>(first_row.extent(0)) - 1 : 0;
  }
  std::size_t bytes() const {
    return first_row.extent(0) * sizeof(std::int64_t) + partials.extent(0) * sizeof(double) +
           arrived.extent(0) * sizeof(int);
  }
};

/// The chunk partition of a Csr for chunks of `chunk` entries: one binary
/// search in the row pointer per chunk, on `exec`.
template <class ExecutionSpace, class Value, class Index, class Device>
CsrChunks<typename Device::memory_space> make_csr_chunks(const ExecutionSpace& exec,
                                                         const Csr<Value, Index, Device>& a,
                                                         std::int64_t chunk) {
  using memory_space = typename Device::memory_space;
  CsrChunks<memory_space> p;
  p.chunk = chunk;
  const std::int64_t nnz = a.nnz();
  const std::int64_t chunks = chunk > 0 ? (nnz + chunk - 1) / chunk : 0;
  if (chunks == 0) return p;
  p.first_row = Kokkos::View<std::int64_t*, memory_space>(
      compat::uninitialized(exec, "kobalt::chunk_rows"), chunks + 1);
  p.partials = Kokkos::View<double*, memory_space>(
      compat::uninitialized(exec, "kobalt::chunk_partials"),
      static_cast<std::size_t>(2 * chunks * rhs_block));
  p.arrived = Kokkos::View<int*, memory_space>(
      Kokkos::view_alloc(exec, std::string("kobalt::chunk_arrivals")), chunks);
  const auto row_ptr = a.row_ptr();
  const auto first_row = p.first_row;
  const std::int64_t rows = a.rows();
  Kokkos::parallel_for(
      "kobalt::csr_chunk_rows", Kokkos::RangePolicy<ExecutionSpace>(exec, 0, chunks + 1),
      KOKKOS_LAMBDA(const std::int64_t c) {
        if (c == 0 || c == chunks) {
          first_row(c) = c == 0 ? 0 : rows;
          return;
        }
        // lower_bound: the first r with row_ptr(r) >= c * chunk.
        const std::int64_t target = c * chunk;
        std::int64_t lo = 0, hi = rows;
        while (lo < hi) {
          const std::int64_t mid = lo + (hi - lo) / 2;
          if (static_cast<std::int64_t>(row_ptr(mid)) < target) lo = mid + 1;
          else hi = mid;
        }
        first_row(c) = lo;
      });
  std::int64_t empty = 0;
  Kokkos::parallel_reduce(
      "kobalt::csr_empty_rows", Kokkos::RangePolicy<ExecutionSpace>(exec, 0, rows),
      KOKKOS_LAMBDA(const std::int64_t r, std::int64_t& n) {
        if (row_ptr(r) == row_ptr(r + 1)) ++n;
      },
      empty);
  p.empty_rows = empty > 0;
  return p;
}

template <class ExecutionSpace, int W, class IndexView, class ValueView, class XB, class YB,
          bool HasBeta>
struct CsrChunkFunctor {
  using index_type = typename IndexView::non_const_value_type;
  using scalar = typename YB::scalar;
  using member = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  using L = arch::lanes<ExecutionSpace>;
  static constexpr int N = XB::count_max;

  IndexView row_ptr, col;
  ValueView val;
  XB x;
  YB y;
  scalar alpha, beta;
  // Raw pointers into the handle's CsrChunks (which owns them): three Views
  // would take the functor past Kokkos' 512-byte constant-memory launch
  // threshold (520 bytes measured by launch_size_test on the H200).
  const std::int64_t* first_row;
  double* partials;
  int* arrived;
  std::int64_t nnz, chunk, chunks;
  bool empty_rows;

  /// Slot of chunk cc's part of a row whose first chunk is c1: 2cc + 1 when
  /// the row starts in cc (the chunk's last row), 2cc when it started earlier.
  KOKKOS_INLINE_FUNCTION std::int64_t slot(std::int64_t cc, std::int64_t c1) const {
    return (2 * cc + (cc == c1 ? 1 : 0)) * rhs_block;
  }

  /// A split row's last part to arrive (found by arrive()), to be finished
  /// by the whole warp after the chunk's loop.
  struct Finish {
    index_type row = index_type(-1);
    std::int64_t c1 = 0, c2 = 0;
  };

  /// Chunk c's part s of row r (split over chunks c1..c2, c1 = start / chunk)
  /// goes to its slot; the part that arrives last is returned as a Finish.
  KOKKOS_INLINE_FUNCTION Finish arrive(std::int64_t c, index_type r, std::int64_t start,
                                       std::int64_t end, const Sums<scalar, N>& s) const {
    Finish f;
    const std::int64_t c1 = start / chunk, c2 = (end - 1) / chunk;
    for (int j = 0; j < N; ++j) partials[slot(c, c1) + j] = static_cast<double>(s.v[j]);
    Kokkos::memory_fence();  // the part is visible before the count says so
    const int before = Kokkos::atomic_fetch_add(&arrived[c1], 1);
    if (before == static_cast<int>(c2 - c1)) {
      f.row = r;
      f.c1 = c1;
      f.c2 = c2;
    }
    return f;
  }

  /// The warp adds the parts of the row `mine` holds (on one lane at most):
  /// lane l sums parts c1 + l, c1 + l + W, ... with four accumulators, then
  /// the lanes' sums are combined by the segmented scan on one key; the
  /// order is fixed, so the result is the same on every run. All W lanes
  /// call this together.
  KOKKOS_INLINE_FUNCTION void finish(int lane, const Finish& mine) const {
    const std::uint64_t holders = L::template ballot<W>(mine.row != index_type(-1));
    if (holders == 0) return;
    int source = 0;
    while (((holders >> source) & 1u) == 0) ++source;
    const index_type r = L::template shfl<W>(mine.row, source);
    const std::int64_t c1 = L::template shfl<W>(mine.c1, source);
    const std::int64_t c2 = L::template shfl<W>(mine.c2, source);
    Kokkos::memory_fence();
    scalar part[4][N] = {};
    int u = 0;
    for (std::int64_t cc = c1 + lane; cc <= c2; cc += W, u = (u + 1) & 3) {
      // Volatile: the parts were written by other SMs; do not read a stale L1 line.
      const volatile double* p = partials + slot(cc, c1);
      for (int j = 0; j < N; ++j) part[u][j] += static_cast<scalar>(p[j]);
    }
    Sums<scalar, N> total;
    for (int j = 0; j < N; ++j) total.v[j] = (part[0][j] + part[1][j]) + (part[2][j] + part[3][j]);
    arch::segmented_scan<ExecutionSpace, W>(lane, 0, total.v);
    if (lane == W - 1) {
      y.template store<HasBeta>(r, alpha, total, beta);
      arrived[c1] = 0;  // ready for the next apply (launches on one instance are ordered)
    }
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member& team) const {
    const std::int64_t c =
        static_cast<std::int64_t>(team.league_rank()) * team.team_size() + team.team_rank();
    if (c >= chunks) return;
    const std::int64_t first = c * chunk;
    const std::int64_t last = first + chunk < nnz ? first + chunk : nnz;
    Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, W), [&](const int lane) {
      constexpr index_type none = index_type(-1);
      const index_type owned_first = static_cast<index_type>(first_row[c]);
      if (empty_rows) {
        const index_type owned_end = static_cast<index_type>(first_row[c + 1]);
        for (index_type r = owned_first + lane; r < owned_end; r += W)
          if (row_ptr(r) == row_ptr(r + 1))
            y.template store<HasBeta>(r, alpha, Sums<scalar, N>(), beta);
      }
      // The row holding entry `first`: owned_first, or the row before it when
      // that one started in an earlier chunk.
      index_type r = owned_first;
      if (static_cast<std::int64_t>(row_ptr(r)) > first) --r;
      std::int64_t start = row_ptr(r), end = row_ptr(r + 1);
      Sums<scalar, N> c_sum, carry;  // carry: the unfinished row of the previous flush
      index_type carry_row = none;
      Finish head, tail;  // the split rows this chunk finishes, if it is their last part
      for (std::int64_t base = first; base < last; base += W) {
        const std::int64_t k = base + lane;
        index_type key = none;
        if (k < last) {
          while (end <= k) {  // walk to the row of entry k (skips empty rows)
            ++r;
            start = end;
            end = row_ptr(r + 1);
          }
          key = r;
          x.fma(c_sum, val(k), col(k));
        }
        const std::int64_t window_end = base + W < last ? base + W : last;
        const bool ends = key != none && end <= window_end;  // the row's last entry is here
        const bool final_window = base + W >= last;
        // 000 Alg. 1 line 6: flush when some lane's next entry (k + W) lies
        // in another row, or on the final window; otherwise every lane keeps
        // accumulating its own row.
        const bool row_changes = key != none && end <= k + W;
        if (!final_window && !L::template any<W>(row_changes)) continue;
        arch::segmented_scan<ExecutionSpace, W>(lane, key, c_sum.v);
        if (arch::segment_end<ExecutionSpace, W>(lane, key) && key != none) {
          if (key == carry_row) c_sum += carry;
          if (ends && start >= first)
            y.template store<HasBeta>(key, alpha, c_sum, beta);  // the whole row is here
          else if (ends || final_window)  // the row crosses a chunk border
            (start < first ? head : tail) = arrive(c, key, start, end, c_sum);
        }
        // Lane W-1's row goes on into the next window: its total is the carry.
        const bool goes_on = !final_window && !ends;
        carry_row = L::template shfl<W>(goes_on ? key : none, W - 1);
        for (int j = 0; j < N; ++j) carry.v[j] = L::template shfl<W>(c_sum.v[j], W - 1);
        c_sum = Sums<scalar, N>();
      }
      // The split rows whose last part arrived here, each summed by the warp.
      finish(lane, head);
      finish(lane, tail);
    });
  }
};

/// y = alpha*A*x + beta*y for a Csr with the chunk partition `p` (made by
/// make_csr_chunks with s.entries_per_thread * s.vector_length entries per
/// chunk).
template <class ExecutionSpace, class Value, class Index, class Device, class XView, class YView>
void csr_chunks(const ExecutionSpace& exec, const tuning::LaunchShape& s,
                const std::string& label, typename YView::non_const_value_type alpha,
                const Csr<Value, Index, Device>& a, const XView& x,
                typename YView::non_const_value_type beta, const YView& y,
                const CsrChunks<typename Device::memory_space>& p) {
  using matrix = Csr<Value, Index, Device>;
  const std::int64_t nnz = a.nnz();
  arch::with_lane_width(exec, [&](auto width) {
    constexpr int W = decltype(width)::value;
    check_warp_partition(label, s, W, p.chunk, "chunks");
    const std::int64_t chunks = p.chunks();
    if (chunks != (nnz + p.chunk - 1) / p.chunk)
      throw invalid_parameter("kobalt: " + label + ": the chunk partition is for another matrix");
    const std::int64_t league = (chunks + s.team_size - 1) / s.team_size;
    Kokkos::TeamPolicy<ExecutionSpace> policy(exec, static_cast<int>(league), s.team_size, W);
    for_each_column_block(x, y, [&](auto xb, auto yb) {
      dispatch_beta(beta, [&](auto has_beta) {
        using functor =
            CsrChunkFunctor<ExecutionSpace, W, typename matrix::index_view,
                            typename matrix::value_view, decltype(xb), decltype(yb),
                            decltype(has_beta)::value>;
        Kokkos::parallel_for(label, policy,
                             functor{a.row_ptr(), a.col_indices(), a.values(), xb, yb, alpha,
                                     beta, p.first_row.data(), p.partials.data(),
                                     p.arrived.data(), nnz, p.chunk, chunks, p.empty_rows});
      });
    });
  });
}

}  // namespace kobalt::detail
