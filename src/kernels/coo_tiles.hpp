// SPDX-License-Identifier: BSD-3-Clause
// COO load_balance on GPUs: a team takes a tile of consecutive row-sorted
// entries and each of its threads a run of E of them, read with 16-byte
// loads and summed in order, so rows inside a run cost no lane exchange.
// One segmented scan per warp, keyed by the row each run ends in, then the
// warps' open sums through scratch, join the runs of a row; a row that
// crosses a tile border leaves a part per tile, combined as in
// load_balance_chunks.hpp (finish_split_rows.hpp). One launch, beta
// applied, the same bits on every run; rows without entries come from the
// handle's list. The GPU form of coo::load_balance (LaunchForm::team_tiles,
// coo_load_balance.hpp), with the chunk kernel's workspace: a chunk is a
// tile.
//
// Mapping: league entry -> one tile of team_size * E entries; team thread
// th (vector length 1: consecutive threads make the hardware warps) ->
// entries th*E .. th*E + E - 1 of the tile.
#pragma once

#include "common.hpp"
#include "finish_split_rows.hpp"
#include "load_balance_chunks.hpp"
#include "../arch/arch.hpp"
#include "../errors.hpp"
#include "../tuning/policy.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <limits>
#include <string>

namespace kobalt::detail {

/// E consecutive T, read as one object on a 16-byte boundary: one or more
/// 16-byte loads instead of E narrow ones.
template <class T, int E>
struct alignas(16) RunOf {
  T v[E];
};

template <class ExecutionSpace, int W, class Rows, class IndexView, class ValueView, class XB,
          class YB, bool HasBeta>
struct CooTilesFunctor {
  using index_type = typename IndexView::non_const_value_type;
  using value_type = typename ValueView::non_const_value_type;
  using scalar = typename YB::scalar;
  using part = widest_t<scalar>;
  using member = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  using L = arch::lanes<ExecutionSpace>;
  using sums = Sums<scalar, XB::count_max>;
  using Finish = LastPart<index_type>;
  static constexpr int N = XB::count_max;
  static constexpr int E = tuning::team_tile_run;
  /// A row index past the last entry's; a class constant because
  /// numeric_limits' functions are host functions to nvcc.
  static constexpr index_type none = std::numeric_limits<index_type>::max();
  static_assert(E * sizeof(index_type) % 16 == 0 && E * sizeof(value_type) % 16 == 0);

  Rows rows;  // CooRowIndices: the row indices and the rows without entries
  IndexView col;
  ValueView val;
  XB x;
  YB y;
  scalar alpha, beta;
  part* partials;  // raw, as in load_balance_chunks.hpp: the handle owns them
  int* arrived;
  // Per tile, the first tile of its first row and the last tile of its last
  // row (coo_load_balance.hpp): a search over the tiles' borders was a
  // chain of dependent loads as long as the row's tiles' logarithm, twice.
  const std::int64_t* border_tiles;
  std::int64_t nnz, tile;
  std::int64_t empty_per_tile;  // rows of the empty list each tile scales
  bool aligned;  // row, col and val start on 16-byte boundaries

  /// Tile t's part s of row r (tiles c1..c2), counted.
  KOKKOS_INLINE_FUNCTION Finish arrive(std::int64_t t, index_type r, std::int64_t c1,
                                       std::int64_t c2, const sums& s) const {
    for (int j = 0; j < N; ++j) partials[part_slot(t, c1) + j] = static_cast<part>(s.v[j]);
    Kokkos::memory_fence();  // the part is visible before the count says so
    return count_part<ExecutionSpace>(arrived, r, c1, c2);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member& team) const {
    const int threads = team.team_size();
    const int th = team.team_rank();
    const int lane = th % W, warp = th / W, warps = threads / W;
    const std::int64_t t = team.league_rank();
    const std::int64_t t0 = t * tile;
    const std::int64_t t1 = t0 + tile < nnz ? t0 + tile : nnz;

    // Scratch: per warp the row its last run ends in, its open sums and the
    // row its first run starts in.
    index_type* warp_key = static_cast<index_type*>(
        team_scratch_aligned(team, 0, static_cast<std::size_t>(warps) * sizeof(index_type), 16));
    index_type* warp_first = static_cast<index_type*>(
        team_scratch_aligned(team, 0, static_cast<std::size_t>(warps) * sizeof(index_type), 16));
    scalar* warp_sum = static_cast<scalar*>(
        team_scratch_aligned(team, 0, static_cast<std::size_t>(warps * N) * sizeof(scalar), 16));

    // Tile t scales rows empty_per_tile*t .. of the list: no 64-bit
    // division per thread, which cost more than the tile's entries.
    if (empty_per_tile > 0) {
      const std::int64_t begin = t * empty_per_tile;
      const std::int64_t end = begin + empty_per_tile < rows.empty_count
                                   ? begin + empty_per_tile : rows.empty_count;
      for (std::int64_t i = begin + th; i < end; i += threads)
        y.template store<HasBeta>(rows.empty[i], alpha, sums(), beta);
    }

    // The thread's run: whole runs with 16-byte loads, the matrix's last
    // partial run (or unaligned arrays) entry by entry.
    const std::int64_t e0 = t0 + static_cast<std::int64_t>(th) * E;
    index_type r[E], c[E];
    value_type v[E];
    if (aligned && e0 + E <= t1) {
      using IndexRun = RunOf<index_type, E>;
      using ValueRun = RunOf<value_type, E>;
      const IndexRun rr = *reinterpret_cast<const IndexRun*>(rows.row.data() + e0);
      const IndexRun cc = *reinterpret_cast<const IndexRun*>(col.data() + e0);
      const ValueRun vv = *reinterpret_cast<const ValueRun*>(val.data() + e0);
      for (int j = 0; j < E; ++j) {
        r[j] = rr.v[j];
        c[j] = cc.v[j];
        v[j] = vv.v[j];
      }
    } else {
      for (int j = 0; j < E; ++j) {
        const bool in = e0 + j < t1;
        r[j] = in ? rows.row(e0 + j) : none;
        c[j] = in ? col(e0 + j) : index_type(0);
        v[j] = in ? val(e0 + j) : value_type(0);
      }
    }
    // The tile's border rows, read with the run (their latency overlaps it).
    const index_type tile_first = rows.row(t0), tile_last = rows.row(t1 - 1);
    const bool open_start = t0 > 0 && rows.row(t0 - 1) == tile_first;
    const bool open_end = t1 < nnz && rows.row(t1) == tile_last;
    const std::int64_t first_tile = border_tiles[2 * t], last_tile = border_tiles[2 * t + 1];
    // Rank-1: every gather of x before any store to y, which the compiler
    // cannot tell apart from x and would hold back the gathers after it
    // (docs/sources.md: "team_tile_run"). The gathers go to registers of
    // their own without a test (a missing entry's column is 0), so all E
    // issue at once. Rank-2 blocks issue N loads per entry and keep theirs.
    sums product[N == 1 ? E : 1];
    if constexpr (N == 1) {
      scalar xv[E];
      for (int j = 0; j < E; ++j) xv[j] = scalar(x.x(c[j]));
      for (int j = 0; j < E; ++j)
        if (r[j] != none) product[j].v[0] += scalar(v[j]) * xv[j];
    }
    // In order over the run: a row that starts and ends inside it is the
    // thread's alone and stored at once; the first row's sum is kept (it
    // may have begun before the run), the last row's stays open.
    const index_type first = r[0];
    index_type key = first;
    sums s, head;
    bool split = false;
    for (int j = 0; j < E; ++j) {
      if (r[j] != key) {
        if (split) y.template store<HasBeta>(key, alpha, s, beta);
        else head = s;
        split = true;
        key = r[j];
        s = sums();
      }
      if constexpr (N == 1) s += product[j];
      else if (r[j] != none) x.fma(s, v[j], c[j]);
    }

    // The open sums, keyed by the row each run ends in, scanned in the warp.
    arch::segmented_scan<ExecutionSpace, W>(lane, key, s.v);
    const index_type key_before = L::template shfl_up<W>(key, 1);
    sums open_before;  // the scanned sum of the lane before, in its row key_before
    for (int j = 0; j < N; ++j) open_before.v[j] = L::template shfl_up<W>(s.v[j], 1);
    const index_type next_first = L::template shfl_down<W>(first, 1);
    const index_type warp_start = L::template shfl<W>(first, 0);
    if (lane == W - 1) {
      warp_key[warp] = key;
      for (int j = 0; j < N; ++j) warp_sum[warp * N + j] = s.v[j];
    }
    if (lane == 0) warp_first[warp] = first;
    team.team_barrier();
    // The sum open at the end of warp w - 1, in row before_key: earlier
    // warps chain only where a whole warp lies in one row.
    sums before;
    index_type before_key = none;
    for (int w = 0; w < warp; ++w) {
      const index_type k = warp_key[w];
      for (int j = 0; j < N; ++j)
        before.v[j] = (k == before_key ? before.v[j] : scalar(0)) + warp_sum[w * N + j];
      before_key = k;
    }

    Finish head_fin, tail_fin;
    // The run's first row ends inside it: its total is the head plus what
    // the runs before left open in that row.
    if (split && first != none) {
      if (lane > 0 && key_before == first) head += open_before;
      if (first == warp_start && before_key == first) head += before;
      if (open_start && first == tile_first)
        head_fin = arrive(t, first, first_tile, t, head);
      else
        y.template store<HasBeta>(first, alpha, head, beta);
    }
    // The run's last row ends here when the next run starts another.
    const index_type next =
        lane < W - 1 ? next_first : (warp + 1 < warps ? warp_first[warp + 1] : none);
    if (key != none && next != key) {
      if (key == warp_start && before_key == key) s += before;
      // The tile's first row counts as its head part, so that each of
      // head_fin and tail_fin has at most one holder per tile.
      const bool from_before = open_start && key == tile_first;
      const bool goes_on = open_end && key == tile_last;
      if (from_before || goes_on) {
        const std::int64_t c1 = from_before ? first_tile : t;
        const std::int64_t c2 = goes_on ? last_tile : t;
        (from_before ? head_fin : tail_fin) = arrive(t, key, c1, c2, s);
      } else {
        y.template store<HasBeta>(key, alpha, s, beta);
      }
    }
    // The split rows whose last part arrived here, each summed by its warp.
    const auto part_of = [&](std::int64_t cc, const Finish& run) {
      return partials + part_slot(cc, run.first);
    };
    finish_split_row<ExecutionSpace, W, HasBeta>(lane, head_fin, y, alpha, beta, arrived, part_of);
    finish_split_row<ExecutionSpace, W, HasBeta>(lane, tail_fin, y, alpha, beta, arrived, part_of);
  }
};

/// y = alpha*A*x + beta*y over `nnz` row-sorted entries (rows' row
/// indices, col, val) in the tiles of `p` (chunks of s.team_size *
/// tuning::team_tile_run entries), on GPUs; s is a team_tiles launch.
template <class ExecutionSpace, class Rows, class IndexView, class ValueView, class XView,
          class YView, class MemorySpace>
void coo_tiles(const ExecutionSpace& exec, const tuning::LaunchShape& s, const std::string& label,
               typename YView::non_const_value_type alpha, const Rows& rows, const IndexView& col,
               const ValueView& val, const XView& x, typename YView::non_const_value_type beta,
               const YView& y,
               const ChunkParts<MemorySpace, widest_t<typename YView::non_const_value_type>>& p,
               const std::int64_t* border_tiles) {
  using index_type = typename IndexView::non_const_value_type;
  const std::int64_t nnz = static_cast<std::int64_t>(val.extent(0));
  // Hosts run the tiles with warps of one thread where a policy asks for
  // them (the selector gives them to GPUs only): so the tests check them
  // without a GPU.
  arch::with_lane_width(exec, [&](auto width) {
    using Lanes = decltype(width);
    if (s.vector_length != 1 || s.team_size % Lanes::value != 0 ||
        s.entries_per_thread != tuning::team_tile_run)
      throw invalid_parameter("kobalt: " + label + " needs vector_length 1, whole warps of " +
                              std::to_string(Lanes::value) + " threads and " +
                              std::to_string(tuning::team_tile_run) + " entries per thread, got " +
                              s.str());
    if (p.chunk != static_cast<std::int64_t>(s.team_size) * tuning::team_tile_run ||
        p.chunks != (nnz + p.chunk - 1) / p.chunk)
      throw invalid_parameter("kobalt: " + label + ": the tiles are for another matrix or shape");
    const auto address = [](const void* q) { return reinterpret_cast<std::uintptr_t>(q); };
    const bool aligned =
        (address(rows.row.data()) | address(col.data()) | address(val.data())) % 16 == 0;
    const std::int64_t empty_per_tile = (rows.empty_count + p.chunks - 1) / p.chunks;
    using policy_type = Kokkos::TeamPolicy<ExecutionSpace>;
    const int warps = s.team_size / Lanes::value;
    for_each_column_block(x, y, [&](auto xb, auto yb) {
      using XB = decltype(xb);
      using YB = decltype(yb);
      // Three arrays, each padded to its 16-byte boundary.
      const std::size_t scratch =
          3 * 16 + 2 * static_cast<std::size_t>(warps) * sizeof(index_type) +
          static_cast<std::size_t>(warps * XB::count_max) * sizeof(typename YB::scalar);
      check_team_scratch(exec, label, 0, scratch);
      dispatch_beta(beta, [&](auto has_beta) {
        using functor = CooTilesFunctor<ExecutionSpace, Lanes::value, Rows, IndexView,
                                        ValueView, XB, YB, decltype(has_beta)::value>;
        auto policy = checked_team_policy<policy_type>(exec, label, p.chunks, s.team_size, 1);
        policy.set_scratch_size(0, compat::per_team(scratch));
        team_parallel_for(label, policy,
                          functor{rows, col, val, xb, yb, alpha, beta, p.partials.data(),
                                  p.arrived.data(), border_tiles, nnz, p.chunk, empty_per_tile,
                                  aligned});
      });
    });
  });
}

}  // namespace kobalt::detail
