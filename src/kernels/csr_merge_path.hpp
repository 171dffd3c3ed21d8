// SPDX-License-Identifier: BSD-3-Clause
// CSR "merge_path" (Merrill & Garland, "Merge-based parallel sparse
// matrix-vector multiplication", SC'16; 000 only names it, no seed specifies it):
// SpMV as a merge of the row ends (row_ptr[1..rows]) with the nonzero
// indices 0..nnz-1. The merge path has rows + nnz items; it is cut into
// tiles of equal length, one per warp, so every warp does the same work
// whatever the rows (a row of 2e6 entries spans thousands of tiles; empty
// rows cost one item each). Each tile's start is one merge-path search in
// the row pointer, done once in the handle (make_csr_merge_path).
//
// A tile runs in three steps, as in CUB's AgentSpmv (read, not copied):
//  1. the warp computes the products val * x[col] of the tile's nonzeros
//     (coalesced loads, all gathers in flight at once) and loads the tile's
//     row ends, both into team scratch;
//  2. each lane searches its own stretch of entries_per_thread items of the
//     tile in scratch and walks it: a nonzero adds its product, a row end
//     leaves the row's total in scratch. A lane's first row may have begun
//     in earlier lanes: its sum waits for step 3;
//  3. the lanes' unfinished sums are combined by the segmented scan keyed by
//     row (arch::segmented_scan), each lane adds its predecessors' carry to
//     its first row, the last lane leaves the tile's carry (the row still
//     open at the tile's end) in the workspace, and the warp stores the
//     totals of the tile's rows, coalesced (as CUB's AgentSpmv does).
// The open rows (a run of tiles t..u that all end inside one row r, which
// tile u + 1 finishes) are then completed in one of two ways, both in tile
// order, without atomics on y and with the same bits on every run:
//  - one launch, when no run is longer than W tiles (the common case: rows
//    up to a few thousand entries; the selector decides from the longest
//    row, tuning::select(..., csr::merge_path)): tile u + 1 leaves its part of row r (its
//    head) beside the carries instead of storing it, each part is counted,
//    and the warp that counts the last one adds carries t..u and the head
//    and stores the row (finish_split_rows.hpp, as load_balance does);
//  - a second launch (the fixup) otherwise: tile u + 1 stores its head with
//    beta and the fixup adds each run's carries; runs of thousands of tiles
//    (Zipf's and R-MAT's full rows) are summed there by whole teams, which
//    one finishing warp could not match (see the fixup's comment).
// Why one launch: a launch costs about as much as a whole SpMV of 1e5-4e5
// nonzeros, where merge_path trailed cuSPARSE; back to back the one-launch
// form gains under 2e5 nonzeros (docs/sources.md: "merge_path_one_launch_runs").
//
// Mapping: league entry -> team_size warps; team thread -> one tile of
// entries_per_thread * W items; vector lane -> a lane of the warp (W = the
// warp width). Where the policy has warps share a tile (row_threads > 1),
// a team walks each tile instead (csr_merge_path_team.hpp). Hosts (W = 1)
// walk a tile per thread and the calling thread does the fixup
// (csr_merge_path_host.hpp).
#pragma once

#include "../range.hpp"
#include "common.hpp"
#include "strategy_kernel.hpp"
#include "csr_merge_path_host.hpp"
#include "csr_merge_path_team.hpp"
#include "finish_split_rows.hpp"
#include "../arch/arch.hpp"
#include "../errors.hpp"
#include "../formats/csr.hpp"
#include "../tuning/policy.hpp"

#include <cstdint>
#include <string>

namespace kobalt::detail {

/// What the merge-path kernel keeps between applies (in the handle):
/// - tile_row(t), t = 0..tiles: the row coordinate of tile t's start on the
///   merge path (tile t starts at diagonal t * tile, nonzero t * tile -
///   tile_row(t)); tile t leaves row tile_row(t + 1) open;
/// - run_last(t): the last tile that leaves the same row open as tile t (a
///   row of 2e6 entries leaves one open over ~8,000 tiles; the fixup reads
///   this instead of searching);
/// - carries: rhs_block partial sums per tile, the open row's part, in Part
///   = widest_t of the matrix's values;
/// - in one-launch form only (GPUs, the policy's LaunchForm::one_launch,
///   no run longer than the warp width):
///   run_first(t), the first tile of t's run; heads, rhs_block partial sums
///   per tile, the part of the row left open by the tile before; and
///   arrived(t), the parts of the run starting at tile t counted so far
///   (the last one resets it to 0).
template <class MemorySpace, class Part>
struct CsrMergePath {
  Kokkos::View<std::int64_t*, MemorySpace> tile_row;
  Kokkos::View<std::int64_t*, MemorySpace> run_last;
  Kokkos::View<Part*, MemorySpace> carries;
  Kokkos::View<std::int64_t*, MemorySpace> run_first;
  Kokkos::View<Part*, MemorySpace> heads;
  Kokkos::View<int*, MemorySpace> arrived;
  std::int64_t tile = 0;         ///< merge-path items (row ends + nonzeros) per tile
  std::int64_t longest_run = 0;  ///< the most tiles that end inside one row

  std::int64_t tiles() const {
    return tile_row.extent(0) > 0 ? static_cast<std::int64_t>(tile_row.extent(0)) - 1 : 0;
  }
  /// Open rows finished in the tile kernel (no fixup launch).
  bool one_launch() const { return arrived.extent(0) > 0; }
  std::size_t bytes() const {
    return (tile_row.extent(0) + run_last.extent(0) + run_first.extent(0)) *
               sizeof(std::int64_t) +
           (carries.extent(0) + heads.extent(0)) * sizeof(Part) + arrived.extent(0) * sizeof(int);
  }
};

/// The row coordinate where diagonal d crosses the merge path of the row
/// ends `row_ptr(1..rows)` and the nonzeros 0..nnz-1: the number of row ends
/// consumed within the first d items (a row end goes before the nonzero
/// with the same index: that nonzero belongs to a later row).
template <class RowPtr>
KOKKOS_INLINE_FUNCTION std::int64_t merge_path_row(const RowPtr& row_ptr, std::int64_t rows,
                                                   std::int64_t nnz, std::int64_t d) {
  std::int64_t lo = d > nnz ? d - nnz : 0, hi = d < rows ? d : rows;
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (static_cast<std::int64_t>(row_ptr(mid + 1)) <= d - mid - 1) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/// tile_row(t): the row where tile t's merge-path diagonal starts.
template <class RowPtr, class TileRows>
struct MergePathTilesFunctor {
  RowPtr row_ptr;
  TileRows tile_row;
  std::int64_t rows, nnz, items, tile;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t t) const {
    const std::int64_t d = t * tile < items ? t * tile : items;
    tile_row(t) = merge_path_row(row_ptr, rows, nnz, d);
  }
};

/// run_first(t), run_last(t): the ends of the run of tiles that share tile
/// t's last row; the longest run that leaves a row open, by a Max reducer.
template <class TileView>
struct MergePathRunsFunctor {
  using value_type = std::int64_t;
  TileView tile_row, run_last, run_first;
  std::int64_t rows, tiles;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t t, std::int64_t& most) const {
    // The first and the last u with tile_row(u + 1) == tile_row(t + 1)
    // (tile_row does not decrease).
    const std::int64_t r = tile_row(t + 1);
    std::int64_t lo = t, hi = tiles - 1;
    while (lo < hi) {
      const std::int64_t mid = lo + (hi - lo + 1) / 2;
      if (tile_row(mid + 1) == r) lo = mid;
      else hi = mid - 1;
    }
    run_last(t) = lo;
    std::int64_t first = 0, up = t;
    while (first < up) {
      const std::int64_t mid = first + (up - first) / 2;
      if (tile_row(mid + 1) == r) up = mid;
      else first = mid + 1;
    }
    run_first(t) = first;
    // The row left open at the matrix's end (r == rows) is no run.
    if (r < rows && lo - first + 1 > most) most = lo - first + 1;
  }
};

/// The merge-path tiles of a Csr for tiles of `tile` items: one search per
/// tile, then two per tile for the ends of its run, on `exec` (a host sync
/// for the longest run). The one-launch workspace only where `form` (the
/// selector's choice) asks for it, on GPUs, and the measured runs allow it:
/// a form forced on another matrix or tile falls back to the fixup launch.
template <class ExecutionSpace, class Value, class Index, class Device, class Offset>
CsrMergePath<typename Device::memory_space, widest_t<Value>> make_csr_merge_path(
    const ExecutionSpace& exec, const Csr<Value, Index, Device, Offset>& a, std::int64_t tile,
    tuning::LaunchForm form) {
  using memory_space = typename Device::memory_space;
  CsrMergePath<memory_space, widest_t<Value>> p;
  p.tile = tile;
  const std::int64_t rows = a.rows(), nnz = a.nnz(), items = rows + nnz;
  const std::int64_t tiles = tile > 0 ? (items + tile - 1) / tile : 0;
  if (tiles == 0) return p;
  p.tile_row = Kokkos::View<std::int64_t*, memory_space>(
      compat::uninitialized(exec, "kobalt::tile_rows"), tiles + 1);
  p.carries = Kokkos::View<widest_t<Value>*, memory_space>(
      compat::uninitialized(exec, "kobalt::tile_carries"),
      static_cast<std::size_t>(tiles * rhs_block));
  const auto row_ptr = a.row_ptr();
  const auto tile_row = p.tile_row;
  Kokkos::parallel_for(
      "kobalt::merge_path_tiles", range_policy<ExecutionSpace>(exec, 0, tiles + 1),
      MergePathTilesFunctor<typename Csr<Value, Index, Device, Offset>::row_ptr_view,
                            decltype(p.tile_row)>{row_ptr, tile_row, rows, nnz, items, tile});
  p.run_last = Kokkos::View<std::int64_t*, memory_space>(
      compat::uninitialized(exec, "kobalt::tile_runs"), tiles);
  Kokkos::View<std::int64_t*, memory_space> run_first(
      compat::uninitialized(exec, "kobalt::tile_run_starts"), tiles);
  const auto run_last = p.run_last;
  std::int64_t longest = 0;
  Kokkos::parallel_reduce(
      "kobalt::merge_path_runs", range_policy<ExecutionSpace>(exec, 0, tiles),
      MergePathRunsFunctor<decltype(p.tile_row)>{tile_row, run_last, run_first, rows, tiles},
      Kokkos::Max<std::int64_t>(longest));
  p.longest_run = longest;
  arch::with_lane_width(exec, [&](auto width) {
    constexpr int W = decltype(width)::value;
    if (W == 1 || form != tuning::LaunchForm::one_launch ||
        longest > tuning::merge_path_one_launch_runs * W)
      return;
    p.run_first = run_first;
    p.heads = Kokkos::View<widest_t<Value>*, memory_space>(
        compat::uninitialized(exec, "kobalt::tile_heads"),
        static_cast<std::size_t>(tiles * rhs_block));
    p.arrived = Kokkos::View<int*, memory_space>(
        Kokkos::view_alloc(exec, std::string("kobalt::tile_arrivals")), tiles);
  });
  return p;
}

/// Slots per lane in one round of the tile kernel's loads: 8 for rank-1
/// real values (a default tile, 8 items per lane, in one round), 4 as
/// before for complex values and rank-2 blocks, whose sums take 2-16 times
/// the registers. At 8 the fp64 kernel takes more registers (lower
/// occupancy), which one round of loads outweighs (docs/sources.md).
template <class Scalar, int N>
inline constexpr int merge_path_batch = sizeof(Scalar) * N <= 8 ? 8 : 4;

/// Team scratch of one warp's tile: the products (tile x N values), the
/// totals of the rows that end in the tile (tile x N values), then the row
/// ends (tile + 1 indices), each part rounded up to 16 bytes so the row
/// ends (int64 after an odd number of floats) and the next warp's products
/// stay aligned (UBSan found the misaligned case).
template <class Scalar, class Index, int N>
struct TileScratch {
  // Products and row ends each start on a 16-byte boundary, and so does
  // the block: aligned for the scalar alone (4 bytes for float), int64 ends
  // faulted with cudaErrorMisalignedAddress (float/int64).
  static constexpr std::size_t alignment = 16;
  static_assert(alignof(Scalar) <= alignment && alignof(Index) <= alignment);
  KOKKOS_INLINE_FUNCTION static std::size_t round16(std::size_t b) {
    return (b + alignment - 1) / alignment * alignment;
  }
  KOKKOS_INLINE_FUNCTION static std::size_t products_bytes(std::int64_t tile) {
    return round16(static_cast<std::size_t>(tile * N) * sizeof(Scalar));
  }
  KOKKOS_INLINE_FUNCTION static std::size_t bytes(std::int64_t tile) {
    return 2 * products_bytes(tile) + round16(static_cast<std::size_t>(tile + 1) * sizeof(Index));
  }
};

template <class ExecutionSpace, int W, class OffsetView, class IndexView, class ValueView,
          class XB, class YB, bool HasBeta, bool Fixup>
struct CsrMergePathFunctor {
  using index_type = typename IndexView::non_const_value_type;
  using offset_type = typename OffsetView::non_const_value_type;
  using scalar = typename YB::scalar;
  using member = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  static constexpr int N = XB::count_max;

  OffsetView row_ptr;
  IndexView col;
  ValueView val;
  XB x;
  YB y;
  scalar alpha, beta;
  const std::int64_t* tile_row;  // raw: the handle's CsrMergePath owns them
  widest_t<scalar>* carries;
  // One-launch form (CsrMergePath::one_launch); null in the fixup form.
  const std::int64_t* run_first;
  const std::int64_t* run_last;
  widest_t<scalar>* heads;
  int* arrived;
  std::int64_t rows, nnz, tile, tiles;
  int per_lane, scratch_level;

  /// Part k of a run (finish_split_rows.hpp): carries of its tiles, then the head
  /// of the tile that finishes the row (the run's last part).
  KOKKOS_INLINE_FUNCTION const widest_t<scalar>* part_of(
      std::int64_t k, const LastPart<index_type>& run) const {
    return (k < run.last ? carries : heads) + k * rhs_block;
  }

  /// One round of a lane's products: s[b] for the tile's item k0 + b*W
  /// (coalesced, evict-first loads; docs/sources.md: "merge_path_batch").
  template <int Batch>
  KOKKOS_FORCEINLINE_FUNCTION void products_round(Sums<scalar, N> (&s)[Batch], int k0,
                                                  std::int64_t z0, int tile_nnz) const {
    using load = arch::loads<ExecutionSpace>;
    for (int b = 0; b < Batch; ++b) {
      const int k = k0 + b * W;
      if (k < tile_nnz)
        x.fma(s[b], load::streaming(val.data() + z0 + k), load::streaming(col.data() + z0 + k));
    }
  }

  /// With the fixup, a tile where no row ends is just its carry: its lanes
  /// add their products in registers and the warp sums them, without the
  /// scratch, search and walk (docs/sources.md: "merge_path_one_row_tiles").
  KOKKOS_INLINE_FUNCTION void sum_one_row(const member& team, std::int64_t t, std::int64_t z0,
                                          int tile_nnz) const {
    Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, W), [&](const int lane) {
      constexpr int batch = merge_path_batch<scalar, N>;
      Sums<scalar, N> sum;
      for (int k0 = lane; k0 < tile_nnz; k0 += batch * W) {
        Sums<scalar, N> s[batch];
        products_round(s, k0, z0, tile_nnz);
        for (int b = 0; b < batch; ++b) sum += s[b];
      }
      arch::segmented_scan<ExecutionSpace, W>(lane, 0, sum.v);  // lane W - 1: the total
      if (lane == W - 1)
        for (int j = 0; j < N; ++j)
          carries[t * rhs_block + j] = static_cast<widest_t<scalar>>(sum.v[j]);
    });
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member& team) const {
    const std::int64_t t =
        static_cast<std::int64_t>(team.league_rank()) * team.team_size() + team.team_rank();
    const bool active = t < tiles;  // idle warps still meet the team barrier
    // This warp's scratch: the team's block, cut per team thread.
    using scratch = TileScratch<scalar, index_type, N>;
    const std::size_t per_warp = scratch::bytes(tile);
    // Aligned for the scalar and the row ends (per_warp keeps it so for
    // every warp): Kokkos aligns scratch to 8 bytes only, too little for
    // complex<double>.
    char* base = static_cast<char*>(team_scratch_aligned(team, scratch_level,
                                                         team.team_size() * per_warp,
                                                         scratch::alignment)) +
                 team.team_rank() * per_warp;
    scalar* products = reinterpret_cast<scalar*>(base);
    scalar* row_totals = reinterpret_cast<scalar*>(base + scratch::products_bytes(tile));
    index_type* ends = reinterpret_cast<index_type*>(base + 2 * scratch::products_bytes(tile));

    const std::int64_t d0 = active ? t * tile : 0;
    const std::int64_t d1 = active ? (d0 + tile < rows + nnz ? d0 + tile : rows + nnz) : 0;
    const std::int64_t r0 = active ? tile_row[t] : 0, r1 = active ? tile_row[t + 1] : 0;
    const std::int64_t z0 = d0 - r0;
    // Within a tile everything is counted in int (tile < 2^31, checked by
    // the launcher): 64-bit locals cost two registers each, and registers
    // bound this kernel's occupancy (docs/sources.md: "merge_path_batch").
    const int tile_rows = static_cast<int>(r1 - r0);
    const int tile_nnz = static_cast<int>((d1 - r1) - z0);

    const bool one_row = Fixup && active && tile_rows == 0;
    if (one_row) sum_one_row(team, t, z0, tile_nnz);

    // Step 1: products and row ends into scratch, coalesced. The matrix is
    // read once: evict-first loads keep x in L2 (docs/sources.md: "Evict-first
    // loads").
    using load = arch::loads<ExecutionSpace>;
    Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, W), [&](const int lane) {
      if (one_row) return;  // summed above
      // Rounds of `batch` slots per lane: a round issues all its row-end
      // loads, nonzero loads and gathers before its stores to scratch (a
      // store between them would have to wait: scratch may alias val for
      // the compiler). Row ends and nonzeros share the round: at 8 items
      // per lane a tile of 256 items is one round, so a warp waits for one
      // load and one gather latency instead of the five of separate loops
      // of 4: on small graphs the launch is latency-bound, under one wave
      // (docs/sources.md: "merge_path_batch").
      constexpr int batch = merge_path_batch<scalar, N>;
      const int most = tile_nnz > tile_rows ? tile_nnz : tile_rows;
      for (int k0 = lane; k0 < most; k0 += batch * W) {
        // Offsets as stored (Index-wide by default, no 64-bit registers);
        // relative to the tile they fit index_type.
        offset_type e[batch];
        for (int b = 0; b < batch; ++b)
          if (k0 + b * W < tile_rows) e[b] = load::streaming(row_ptr.data() + r0 + k0 + b * W + 1);
        Sums<scalar, N> s[batch];
        products_round(s, k0, z0, tile_nnz);
        for (int b = 0; b < batch; ++b) {
          const int k = k0 + b * W;
          if (k < tile_nnz)
            for (int j = 0; j < N; ++j) products[k * N + j] = s[b].v[j];
          if (k < tile_rows)
            ends[k] = static_cast<index_type>(static_cast<std::int64_t>(e[b]) - z0);
        }
      }
      // The row left open at the tile's end: its nonzeros in this tile all count.
      if (lane == 0) ends[tile_rows] = static_cast<index_type>(tile_nnz);
    });
    team.team_barrier();
    if (!active || one_row) return;

    // Steps 2 and 3: each lane walks its stretch, then the carries; the
    // rows that end in the tile are stored last, by the whole warp.
    Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, W), [&](const int lane) {
      using L = arch::lanes<ExecutionSpace>;
      const int items = static_cast<int>(d1 - d0);
      const int start = lane * per_lane < items ? lane * per_lane : items;
      const int stop = start + per_lane < items ? start + per_lane : items;
      // The lane's start on the tile's merge path (rows, nonzeros relative).
      int lo = start > tile_nnz ? start - tile_nnz : 0;
      int hi = start < tile_rows ? start : tile_rows;
      while (lo < hi) {
        const int mid = lo + (hi - lo) / 2;
        if (static_cast<int>(ends[mid]) <= start - mid - 1) lo = mid + 1;
        else hi = mid;
      }
      int i = lo, k = start - lo;
      Sums<scalar, N> sum, head;  // head: the lane's first row, waiting for its carry
      int head_row = -1;
      for (int d = start; d < stop; ++d) {
        if (k < static_cast<int>(ends[i])) {
          for (int j = 0; j < N; ++j) sum.v[j] += products[k * N + j];
          ++k;
        } else {
          if (head_row < 0) {
            head = sum;
            head_row = i;
          } else {
            for (int j = 0; j < N; ++j) row_totals[i * N + j] = sum.v[j];
          }
          sum = Sums<scalar, N>();
          ++i;
        }
      }
      // Lane l ends in row i, where lane l + 1 starts: the scan keyed by the
      // end row sums each run of lanes that end in the same row.
      arch::segmented_scan<ExecutionSpace, W>(lane, i, sum.v);
      Sums<scalar, N> carry_in;
      for (int j = 0; j < N; ++j) {
        const scalar up = L::template shfl_up<W>(sum.v[j], 1);
        carry_in.v[j] = lane > 0 ? up : scalar(0);
      }
      // One launch: the row tile t - 1 left open (row r0, this tile's head
      // part) and the row this tile leaves open (r1, its carry) are parts of
      // runs, counted after they are written; the warp that counts a run's
      // last part finishes its row. One fence before both counts, and the
      // rows that end in the tile are stored after them, so the fence waits
      // for the two parts only: a fence per count, each behind the walk's
      // stores of y, stalled the warps (docs/sources.md: "arch::arrivals::count").
      const bool one_launch = arrived != nullptr;
      bool head_part = false;
      if (head_row >= 0) {
        head += carry_in;
        head_part = one_launch && head_row == 0 && t > 0;
        if (head_part) {
          for (int j = 0; j < N; ++j)
            heads[t * rhs_block + j] = static_cast<widest_t<scalar>>(head.v[j]);
        } else {
          for (int j = 0; j < N; ++j) row_totals[head_row * N + j] = head.v[j];
        }
      }
      const bool tail_part = lane == W - 1 && one_launch && r1 < rows;
      if (lane == W - 1)
        for (int j = 0; j < N; ++j)
          carries[t * rhs_block + j] = static_cast<widest_t<scalar>>(sum.v[j]);
      LastPart<index_type> head_run, tail_run;
      if (one_launch) {
        Kokkos::memory_fence();  // the parts are visible before the counts say so
        if (head_part)
          head_run = count_part<ExecutionSpace>(arrived, static_cast<index_type>(r0),
                                                run_first[t - 1], t);
        if (tail_part)
          tail_run = count_part<ExecutionSpace>(arrived, static_cast<index_type>(r1), run_first[t],
                                                run_last[t] + 1);
        const auto part = [&](std::int64_t p, const LastPart<index_type>& run) {
          return part_of(p, run);
        };
        finish_split_row<ExecutionSpace, W, HasBeta>(lane, head_run, y, alpha, beta, arrived, part);
        finish_split_row<ExecutionSpace, W, HasBeta>(lane, tail_run, y, alpha, beta, arrived, part);
      }
      // The rows that end in the tile, coalesced: row 0 unless it is a part.
      const int first_row = L::template ballot<W>(head_part) != 0 ? 1 : 0;
      L::template sync<W>();  // every lane's row totals are in scratch
      for (int r = first_row + lane; r < tile_rows; r += W) {
        Sums<scalar, N> total;
        for (int j = 0; j < N; ++j) total.v[j] = row_totals[r * N + j];
        y.template store<HasBeta>(static_cast<index_type>(r0 + r), alpha, total, beta);
      }
    });
  }
};

/// The fixup: for each row left open by a run of tiles t..u = run_last(t)
/// (all ending in the same row), y_row += alpha * (carries t..u), in a
/// fixed order. One lane per tile; a lane whose tile starts a run of at most
/// W tiles sums it alone. Longer runs (long rows) are listed in team scratch
/// and summed by the whole team, one after the other: thread i of the team
/// takes tiles t + i, t + i + 4T, ... (T threads) into four accumulators,
/// each warp adds its lanes with the segmented scan on one key, and one
/// thread adds the warps' totals in warp order. The order of the list does
/// not change any sum, so the result is the same bits on every call. Only
/// that run writes row r now.
///
/// Whole teams, not one warp: a warp summing Zipf's full rows alone (a chain
/// of dependent loads per lane over thousands of tiles) made the fixup a large
/// share of merge_path's time (docs/sources.md: "merge_path_one_launch_runs").
template <class ExecutionSpace, int W, class YB>
struct CsrMergeFixupFunctor {
  using scalar = typename YB::scalar;
  using member = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  static constexpr int N = YB::count_max;

  /// A run of more than W tiles: its first and last tile and its row.
  struct LongRun {
    std::int64_t first, last, row;
  };

  YB y;
  scalar alpha;
  const std::int64_t* tile_row;
  const std::int64_t* run_last;
  const widest_t<scalar>* carries;
  std::int64_t rows, tiles;

  /// Team scratch for `warps` team threads: the long runs starting in the
  /// team's tiles (disjoint runs of more than W tiles: fewer than `warps`
  /// start among warps * W tiles; one more for safety), the warps' totals
  /// and the count, plus the slack of three aligned allocations.
  KOKKOS_INLINE_FUNCTION static std::size_t scratch_bytes(int warps) {
    return static_cast<std::size_t>(warps + 1) * sizeof(LongRun) +
           static_cast<std::size_t>(warps) * N * sizeof(scalar) + sizeof(int) +
           alignof(LongRun) + alignof(scalar) + alignof(int);
  }

  KOKKOS_INLINE_FUNCTION void add_carry(Sums<scalar, N>& s, std::int64_t tt) const {
    for (int j = 0; j < N; ++j) s.v[j] += static_cast<scalar>(carries[tt * rhs_block + j]);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member& team) const {
    const int warps = team.team_size();
    auto& scratch = team.team_scratch(0);
    LongRun* runs = static_cast<LongRun*>(
        scratch.get_shmem_aligned((warps + 1) * sizeof(LongRun), alignof(LongRun)));
    scalar* warp_totals = static_cast<scalar*>(
        scratch.get_shmem_aligned(warps * N * sizeof(scalar), alignof(scalar)));
    int* count = static_cast<int*>(scratch.get_shmem_aligned(sizeof(int), alignof(int)));
    Kokkos::single(Kokkos::PerTeam(team), [&]() { *count = 0; });
    team.team_barrier();

    const std::int64_t first =
        (static_cast<std::int64_t>(team.league_rank()) * warps + team.team_rank()) * W;
    Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, W), [&](const int lane) {
      const std::int64_t t = first + lane;
      std::int64_t r = rows, last = -1;
      if (t < tiles) {
        r = tile_row[t + 1];
        // Something open at the tile's end, and t the first tile of its run.
        if (r < rows && (t == 0 || tile_row[t] != r)) last = run_last[t];
      }
      if (last >= 0 && last - t < W) {
        Sums<scalar, N> total;
        for (std::int64_t tt = t; tt <= last; ++tt) add_carry(total, tt);
        y.add(r, alpha, total);
      } else if (last >= 0) {
        runs[Kokkos::atomic_fetch_add(count, 1)] = LongRun{t, last, r};
      }
    });
    team.team_barrier();

    const int long_runs = *count;
    for (int k = 0; k < long_runs; ++k) {
      const LongRun run = runs[k];
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, W), [&](const int lane) {
        const std::int64_t stride = static_cast<std::int64_t>(warps) * W;
        Sums<scalar, N> p0, p1, p2, p3;
        for (std::int64_t tt = run.first + team.team_rank() * W + lane; tt <= run.last;
             tt += 4 * stride) {
          add_carry(p0, tt);
          if (tt + stride <= run.last) add_carry(p1, tt + stride);
          if (tt + 2 * stride <= run.last) add_carry(p2, tt + 2 * stride);
          if (tt + 3 * stride <= run.last) add_carry(p3, tt + 3 * stride);
        }
        Sums<scalar, N> total;
        for (int j = 0; j < N; ++j) total.v[j] = (p0.v[j] + p1.v[j]) + (p2.v[j] + p3.v[j]);
        arch::segmented_scan<ExecutionSpace, W>(lane, 0, total.v);
        if (lane == W - 1)
          for (int j = 0; j < N; ++j) warp_totals[team.team_rank() * N + j] = total.v[j];
      });
      team.team_barrier();
      Kokkos::single(Kokkos::PerTeam(team), [&]() {
        Sums<scalar, N> sum;
        for (int w = 0; w < warps; ++w)
          for (int j = 0; j < N; ++j) sum.v[j] += warp_totals[w * N + j];
        y.add(run.row, alpha, sum);
      });
      team.team_barrier();  // warp_totals is reused by the next run
    }
  }
};

/// y = alpha*A*x + beta*y for a Csr with the merge-path tiles `p` (made by
/// make_csr_merge_path with s.entries_per_thread * s.vector_length items per
/// tile): the tile kernel, then the fixup unless p.one_launch(), under
/// `label` and `fixup_label`.
template <class ExecutionSpace, class Value, class Index, class Device, class Offset, class XView,
          class YView>
void csr_merge_path(const ExecutionSpace& exec, const tuning::LaunchShape& s,
                    const std::string& label, const std::string& fixup_label,
                    typename YView::non_const_value_type alpha,
                    const Csr<Value, Index, Device, Offset>& a, const XView& x,
                    typename YView::non_const_value_type beta, const YView& y,
                    const CsrMergePath<typename Device::memory_space, widest_t<Value>>& p) {
  using matrix = Csr<Value, Index, Device, Offset>;
  using scalar = typename YView::non_const_value_type;
  using policy_type = Kokkos::TeamPolicy<ExecutionSpace>;
  const std::int64_t rows = a.rows(), nnz = a.nnz();
  arch::with_lane_width(exec, [&](auto width) {
    constexpr int W = decltype(width)::value;
    // Nested lambdas name the width through the type: nvcc's host pass
    // rejects a captured constexpr W inside their if constexpr branches.
    using Lanes = decltype(width);
    if (s.row_threads > 1) {
      if (s.vector_length != W || s.entries_per_thread * W * s.row_threads != p.tile)
        throw invalid_parameter("kobalt: " + label + ": the handle's tiles of " +
                                std::to_string(p.tile) + " items are not " +
                                std::to_string(s.row_threads) + " warps of " + std::to_string(W) +
                                " lanes x " + std::to_string(s.entries_per_thread));
    } else {
      check_warp_partition(label, s, W, p.tile, "tiles");
    }
    const std::int64_t tiles = p.tiles();
    if (tiles != (rows + nnz + p.tile - 1) / p.tile)
      throw invalid_parameter("kobalt: " + label + ": the merge-path tiles are for another matrix");
    if (tiles == 0) return;
    if (p.tile > (std::int64_t(1) << 30))
      throw invalid_parameter("kobalt: " + label + ": tiles of " + std::to_string(p.tile) +
                              " items; at most 2^30");
    for_each_column_block(x, y, [&](auto xb, auto yb) {
      constexpr int N = decltype(xb)::count_max;
      // Hosts: a thread walks its tile (csr_merge_path_host.hpp). More tiles
      // than threads (tuning::host_tiles_per_thread) are handed out
      // dynamically, so a thread slowed by its x gathers takes fewer; one
      // per thread stays the static split, each thread on the same tile
      // every call (its part stays in its caches). Results do not depend on
      // which thread walks a tile (carries are added in tile order).
      if constexpr (Lanes::value == 1) {
        const bool dynamic = tiles > exec.concurrency();
        dispatch_beta(beta, [&](auto has_beta) {
          using functor = CsrMergeWalkFunctor<typename matrix::row_ptr_view,
                                              typename matrix::col_view,
                                              typename matrix::val_view, decltype(xb),
                                              decltype(yb), decltype(has_beta)::value>;
          const functor f{a.row_ptr(), a.col_indices(), a.values(), xb, yb, alpha, beta,
                          p.tile_row.data(), p.carries.data(), rows, nnz, p.tile};
          if (dynamic)
            Kokkos::parallel_for(
                label,
                Kokkos::RangePolicy<ExecutionSpace, Kokkos::Schedule<Kokkos::Dynamic>>(
                    exec, 0, tiles, Kokkos::ChunkSize(1)),
                f);
          else
            Kokkos::parallel_for(
                label,
                Kokkos::RangePolicy<ExecutionSpace, Kokkos::Schedule<Kokkos::Static>>(exec, 0,
                                                                                      tiles),
                f);
        });
        exec.fence();  // the carries are complete
        merge_walk_fixup(yb, alpha, p.tile_row.data(), p.run_last.data(), p.carries.data(), rows,
                         tiles);
      } else {
        if (s.row_threads > 1) {
          launch_team_tiles<Lanes::value>(exec, s, label, alpha, a, xb, beta, yb, p);
        } else {
          using tile_scratch = TileScratch<scalar, Index, N>;
          const std::size_t per_warp = tile_scratch::bytes(p.tile);
          constexpr std::size_t slack = tile_scratch::alignment;
          // Level 0 (shared memory on GPUs) while the team's tiles fit, level 1
          // otherwise (large host tiles, wide rank-2 blocks); teams shrink to
          // fit level 0 before that.
          const std::size_t level0 =
              static_cast<std::size_t>(policy_type::scratch_size_max(0));
          // The one-row fast path is compiled into the fixup form only: in the
          // one-launch form its mere presence slowed small graphs.
          const auto launch = [&](auto has_beta, auto fixup) {
            using functor = CsrMergePathFunctor<ExecutionSpace, Lanes::value,
                                                typename matrix::row_ptr_view,
                                                typename matrix::col_view,
                                                typename matrix::val_view, decltype(xb),
                                                decltype(yb), decltype(has_beta)::value,
                                                decltype(fixup)::value>;
            functor f{a.row_ptr(), a.col_indices(), a.values(), xb, yb, alpha,
                      beta, p.tile_row.data(), p.carries.data(),
                      p.run_first.data(), p.run_last.data(), p.heads.data(),
                      p.arrived.data(), rows, nnz, p.tile, tiles,
                      static_cast<int>(s.entries_per_thread), 0};
            // Each warp walks its own tile (team.team_size() warps per team), so
            // the team may shrink: to fit level 0, then to what the kernel's
            // registers allow (Kokkos' team_size_max, asked at the scratch chosen).
            int team_size = s.team_size;
            while (team_size > 1 && team_size * per_warp + slack > level0) team_size /= 2;
            const auto policy_for = [&](int team) {
              f.scratch_level = team * per_warp + slack <= level0 ? 0 : 1;
              auto policy = checked_team_policy<policy_type>(exec, label, (tiles + team - 1) / team,
                                                             team, Lanes::value);
              // + slack: what get_shmem_aligned may skip to align the block.
              check_team_scratch(exec, label, f.scratch_level, team * per_warp + slack);
              policy.set_scratch_size(f.scratch_level, Kokkos::PerTeam(team * per_warp + slack));
              return policy;
            };
            auto policy = policy_for(team_size);
            const int most = functor_team_size_max(policy, f);
            if (most < 1)
              throw invalid_parameter("kobalt: " + label + ": the backend runs no team of " +
                                      std::to_string(Lanes::value) + " lanes for this kernel");
            if (team_size > most) policy = policy_for(most);
            Kokkos::parallel_for(label, policy, f);
          };
          dispatch_beta(beta, [&](auto has_beta) {
            if (p.one_launch()) launch(has_beta, std::false_type{});
            else launch(has_beta, std::true_type{});
          });
        }
        if (p.one_launch()) return;
        using fixup = CsrMergeFixupFunctor<ExecutionSpace, Lanes::value, decltype(yb)>;
        const fixup g{yb, alpha, p.tile_row.data(), p.run_last.data(), p.carries.data(), rows,
                      tiles};
        const auto fixup_policy = [&](int team) {
          const std::int64_t per_team = std::int64_t{team} * Lanes::value;
          auto policy = checked_team_policy<policy_type>(
              exec, fixup_label, (tiles + per_team - 1) / per_team, team, Lanes::value);
          check_team_scratch(exec, fixup_label, 0, fixup::scratch_bytes(team));
          policy.set_scratch_size(0, Kokkos::PerTeam(fixup::scratch_bytes(team)));
          return policy;
        };
        // The fixup's tiles per team follow its team size, as the tile kernel's.
        auto fixup_launch = fixup_policy(s.team_size);
        const int fixup_most = functor_team_size_max(fixup_launch, g);
        if (fixup_most < 1)
          throw invalid_parameter("kobalt: " + fixup_label + ": the backend runs no team of " +
                                  std::to_string(Lanes::value) + " lanes for this kernel");
        if (s.team_size > fixup_most) fixup_launch = fixup_policy(fixup_most);
        Kokkos::parallel_for(fixup_label, fixup_launch, g);
      }
    });
  });
}

/// csr::merge_path: the handle keeps the tile starts.
template <>
struct strategy_kernel<csr::merge_path> {
  /// Tile starts and carries.
  template <class Matrix>
  using workspace = CsrMergePath<typename Matrix::memory_space, workspace_scalar<Matrix>>;
  /// Tiles of the policy's launch length.
  template <class E, class Matrix>
  static workspace<Matrix> make_workspace(const E& exec, const Matrix& a,
                                          const tuning::SpmvPolicy& policy) {
    const auto& l = policy.launches.at(0);
    return make_csr_merge_path(exec, a, chunk_entries(l) * l.row_threads, l.form);
  }
  /// The tile kernel, and the fixup where the tiles need one.
  template <class E, class V, class I, class D, class O, class X, class Y, class W>
  static void run(const E& exec, const tuning::SpmvPolicy& p, const W& workspace,
                  typename Y::non_const_value_type alpha, const Csr<V, I, D, O>& a, const X& x,
                  typename Y::non_const_value_type beta, const Y& y) {
    static const std::string merge_path_label = kernel_label("csr", "merge_path");
    static const std::string fixup_label = merge_path_label + "::fixup";
    csr_merge_path(exec, p.launches.at(0), merge_path_label, fixup_label, alpha, a, x, beta, y,
                   workspace);
  }
};

}  // namespace kobalt::detail
