// SPDX-License-Identifier: BSD-3-Clause
// The chunk kernel of CSR and COO load_balance (and so of the COO parts of
// Hybrid ell_then_load_balance and ALIGNED_COO flat_then_seg): equal chunks
// of entries per warp over row-sorted entries (000 §3.2.1 Alg. 1's chunks,
// and §3.3's CSR-I over CSR), deterministic and in one launch with beta
// applied. The lanes stride through the chunk (coalesced loads of columns
// and values), each lane gets its entry's row from the format's row source
// (csr_load_balance.hpp walks the row pointer, coo_load_balance.hpp reads
// the row index), and the warp flushes like 000 Alg. 1: a segmented scan
// keyed by row when a row ends inside the window of W entries, or on the
// chunk's last window.
//
// Unlike 000's Alg. 1, y is never updated atomically and never pre-scaled:
// - a row whose entries all lie in one chunk is stored once, with beta
//   (beta == 0 overwrites: NaN in y does not survive);
// - a row split over chunks c1..c2 leaves one partial sum per chunk in the
//   workspace, and the warp whose part arrives last (an atomic counter per
//   split row, behind a memory fence) adds them in a fixed order (lane l
//   takes parts c1 + l, c1 + l + W, ...; the lanes' sums are scanned) and
//   stores the row: the result does not depend on the order the chunks ran
//   in;
// - rows without entries are stored (beta * y) by the chunk that owns them
//   (the row source says which rows a chunk owns and which are empty).
// So one launch per apply, no scale pass, and the same bits on every run.
//
// Mapping: league entry -> team_size warps; team thread -> one chunk of
// entries_per_thread * W entries; vector lane -> a lane of the warp (W =
// the warp width; 1 on hosts, where the chunk is one thread's walk).
#pragma once

#include "common.hpp"
#include "finish_split_rows.hpp"
#include "../arch/arch.hpp"
#include "../compat.hpp"
#include "../errors.hpp"
#include "../tuning/policy.hpp"

#include <cstdint>
#include <string>

namespace kobalt::detail {

/// What a chunk kernel keeps between applies (in the handle) to combine
/// split rows:
/// - partials: two slots of rhs_block partial sums per chunk (its split
///   first row, its split last row), in Part = widest_t of the matrix's
///   values (double, or complex<double>: vectors of either precision fit);
/// - arrived(c): chunks that have left their partial of the split row that
///   starts in chunk c; the last one resets it to 0.
template <class MemorySpace, class Part>
struct ChunkParts {
  Kokkos::View<Part*, MemorySpace> partials;
  Kokkos::View<int*, MemorySpace> arrived;
  std::int64_t chunk = 0;   ///< entries per chunk (the last may be shorter)
  std::int64_t chunks = 0;  ///< ceil(nnz / chunk)
  bool empty_rows = false;  ///< some row has no entries (its y must still be scaled)

  std::size_t bytes() const {
    return partials.extent(0) * sizeof(Part) + arrived.extent(0) * sizeof(int);
  }
};

/// Where chunk cc's part of a split row whose first chunk is c1 starts in
/// ChunkParts::partials: slot 2cc + 1 when the row starts in cc (the
/// chunk's last row), 2cc when it started earlier.
KOKKOS_INLINE_FUNCTION std::int64_t part_slot(std::int64_t cc, std::int64_t c1) {
  return (2 * cc + (cc == c1 ? 1 : 0)) * rhs_block;
}

/// Allocates the parts of `nnz` entries in chunks of `chunk`, on `exec`
/// (the counters zeroed).
template <class MemorySpace, class Part, class ExecutionSpace>
ChunkParts<MemorySpace, Part> make_chunk_parts(const ExecutionSpace& exec, std::int64_t nnz,
                                               std::int64_t chunk, bool empty_rows) {
  ChunkParts<MemorySpace, Part> p;
  p.chunk = chunk;
  p.chunks = chunk > 0 ? (nnz + chunk - 1) / chunk : 0;
  p.empty_rows = empty_rows;
  if (p.chunks == 0) return p;
  p.partials = Kokkos::View<Part*, MemorySpace>(
      compat::uninitialized(exec, "kobalt::chunk_partials"),
      static_cast<std::size_t>(2 * p.chunks * rhs_block));
  p.arrived = Kokkos::View<int*, MemorySpace>(
      Kokkos::view_alloc(exec, std::string("kobalt::chunk_arrivals")), p.chunks);
  return p;
}

/// The entries [start, end) of one row, as row sources return them.
struct RowSpan {
  std::int64_t start, end;
};

/// The chunk kernel over a row source `Rows`, which provides (all
/// KOKKOS_INLINE_FUNCTION):
/// - for_each_empty<W>(c, first, last, lane, f): calls f(r) for this lane's
///   share of the rows without entries that chunk c scales (every such row
///   by exactly one chunk and lane);
/// - start(c, first, lane) -> the lane's cursor, before entry first + lane;
/// - row_of(cursor, k): the row of entry k (k increasing per lane, W apart);
/// - next_ends(cursor, row, k + W): the row of entry k ends before entry
///   k + W (the lane's next entry, which the cursor may read ahead);
/// - ends_by(cursor, row, e): the row's last entry is before entry e;
/// - started_before(cursor, row, first): the row has entries before `first`;
/// - span(cursor, row, k) -> RowSpan: the entries of the row that holds
///   entry k.
template <class ExecutionSpace, int W, class Rows, class IndexView, class ValueView, class XB,
          class YB, bool HasBeta>
struct LoadBalanceChunksFunctor {
  using index_type = typename IndexView::non_const_value_type;
  using scalar = typename YB::scalar;
  using part = widest_t<scalar>;
  using member = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  using L = arch::lanes<ExecutionSpace>;
  static constexpr int N = XB::count_max;

  Rows rows;
  IndexView col;
  ValueView val;
  XB x;
  YB y;
  scalar alpha, beta;
  // Raw pointers into the handle's ChunkParts (which owns them): Views
  // would take the functor past Kokkos' 512-byte constant-memory launch
  // threshold (launch_size_test; docs/sources.md: "Large kernel objects").
  part* partials;
  int* arrived;
  std::int64_t nnz, chunk, chunks;
  bool empty_rows;

  using Finish = LastPart<index_type>;

  /// Chunk c's part s of row r (split over chunks c1..c2, c1 = start / chunk)
  /// goes to its slot and is counted; the part counted last is returned.
  KOKKOS_INLINE_FUNCTION Finish arrive(std::int64_t c, index_type r, std::int64_t start,
                                       std::int64_t end, const Sums<scalar, N>& s) const {
    const std::int64_t c1 = start / chunk, c2 = (end - 1) / chunk;
    for (int j = 0; j < N; ++j) partials[part_slot(c, c1) + j] = static_cast<part>(s.v[j]);
    Kokkos::memory_fence();  // the part is visible before the count says so
    return count_part<ExecutionSpace>(arrived, r, c1, c2);
  }

  /// The warp adds the parts of the row `mine` holds, chunk by chunk
  /// (finish_split_rows.hpp). All W lanes call this together.
  KOKKOS_INLINE_FUNCTION void finish(int lane, const Finish& mine) const {
    finish_split_row<ExecutionSpace, W, HasBeta>(
        lane, mine, y, alpha, beta, arrived,
        [&](std::int64_t cc, const Finish& run) { return partials + part_slot(cc, run.first); });
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member& team) const {
    const std::int64_t c =
        static_cast<std::int64_t>(team.league_rank()) * team.team_size() + team.team_rank();
    if (c >= chunks) return;
    const std::int64_t first = c * chunk;
    const std::int64_t last = first + chunk < nnz ? first + chunk : nnz;
    Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, W), [&](const int lane) {
      constexpr index_type none = index_type(-1);
      if (empty_rows)
        rows.template for_each_empty<W>(c, first, last, lane, [&](const index_type r) {
          y.template store<HasBeta>(r, alpha, Sums<scalar, N>(), beta);
        });
      auto cursor = rows.start(c, first, lane);
      Sums<scalar, N> c_sum, carry;  // carry: the unfinished row of the previous flush
      index_type carry_row = none;
      Finish head, tail;  // the split rows this chunk finishes, if it is their last part
      for (std::int64_t base = first; base < last; base += W) {
        const std::int64_t k = base + lane;
        index_type key = none;
        if (k < last) {
          // The entry's loads (and rank-1's gather) go out before the walk
          // to its row, whose loads they do not depend on.
          const auto v = val(k);
          const auto column = col(k);
          if constexpr (N == 1) {
            const scalar xk = scalar(x.x(column));
            key = rows.row_of(cursor, k);
            c_sum.v[0] += scalar(v) * xk;
          } else {
            key = rows.row_of(cursor, k);
            x.fma(c_sum, v, column);
          }
        }
        const bool final_window = base + W >= last;
        // 000 Alg. 1 line 6: flush when some lane's next entry (k + W) lies
        // in another row, or on the final window; otherwise every lane keeps
        // accumulating its own row.
        const bool row_changes = key != none && rows.next_ends(cursor, key, k + W);
        if (!final_window && !L::template any<W>(row_changes)) continue;
        const std::int64_t window_end = base + W < last ? base + W : last;
        const bool ends = key != none && rows.ends_by(cursor, key, window_end);  // last entry here
        arch::segmented_scan<ExecutionSpace, W>(lane, key, c_sum.v);
        if (arch::segment_end<ExecutionSpace, W>(lane, key) && key != none) {
          if (key == carry_row) c_sum += carry;
          const bool before = rows.started_before(cursor, key, first);
          if (ends && !before) {
            y.template store<HasBeta>(key, alpha, c_sum, beta);  // the whole row is here
          } else if (ends || final_window) {  // the row crosses a chunk border
            const auto sp = rows.span(cursor, key, k);
            (before ? head : tail) = arrive(c, key, sp.start, sp.end, c_sum);
          }
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

/// y = alpha*A*x + beta*y over `nnz` row-sorted entries (col, val) with the
/// row source `rows` and the parts `p` (chunks of s.entries_per_thread *
/// s.vector_length entries).
template <class ExecutionSpace, class Rows, class IndexView, class ValueView, class XView,
          class YView, class MemorySpace>
void load_balance_chunks(const ExecutionSpace& exec, const tuning::LaunchShape& s,
                  const std::string& label, typename YView::non_const_value_type alpha,
                  const Rows& rows, const IndexView& col, const ValueView& val, const XView& x,
                  typename YView::non_const_value_type beta, const YView& y,
                  const ChunkParts<MemorySpace, widest_t<typename YView::non_const_value_type>>&
                      p) {
  const std::int64_t nnz = static_cast<std::int64_t>(val.extent(0));
  arch::with_lane_width(exec, [&](auto width) {
    constexpr int W = decltype(width)::value;
    check_warp_partition(label, s, W, p.chunk, "chunks");
    if (p.chunks != (nnz + p.chunk - 1) / p.chunk)
      throw invalid_parameter("kobalt: " + label + ": the chunk partition is for another matrix");
    const auto league_of = [chunks = p.chunks](int team) { return (chunks + team - 1) / team; };
    for_each_column_block(x, y, [&](auto xb, auto yb) {
      dispatch_beta(beta, [&](auto has_beta) {
        using functor = LoadBalanceChunksFunctor<ExecutionSpace, W, Rows, IndexView, ValueView,
                                          decltype(xb), decltype(yb), decltype(has_beta)::value>;
        team_parallel_for_fitted(exec, label, s.team_size, W, league_of,
                                 functor{rows, col, val, xb, yb, alpha, beta, p.partials.data(),
                                         p.arrived.data(), nnz, p.chunk, p.chunks, p.empty_rows});
      });
    });
  });
}

}  // namespace kobalt::detail
