// SPDX-License-Identifier: BSD-3-Clause
// CSR merge_path with a tile per team (GPUs): the steps of the warp tile of
// csr_merge_path.hpp, cut across all the team's threads. Every thread loads
// its share of the tile's products and row ends into team scratch, walks its
// own stretch of the merge path, and the team combines the threads' open
// sums with one segmented scan (per warp, then across the warps through
// scratch) before the tile's rows are stored, coalesced, by all threads.
// Longer tiles than a warp's amortize what each tile pays once (its start,
// the carry, the count of a split row) and a team's threads keep fewer
// values in flight each, so more warps fit an SM.
//
// Mapping: one team = one tile of tile items; team thread th = the
// (th mod W)-th lane of warp th / W (a team of vector length 1, whose
// consecutive threads make the hardware warps); each thread walks
// per_thread items. Split rows are finished as in csr_merge_path.hpp
// (finish_split_rows.hpp, or the fixup launch).
#pragma once

#include "common.hpp"
#include "finish_split_rows.hpp"
#include "../arch/arch.hpp"
#include "../formats/csr.hpp"
#include "../tuning/policy.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <type_traits>

namespace kobalt::detail {

/// Team scratch of a team tile: one array of (tile + 1) x N values (the
/// products of the tile's nonzeros, a spare slot, then the totals of its
/// rows: together the tile's items), the row ends (tile + 1 indices), and per warp the end
/// row and open sum of its last thread; each part on a 16-byte boundary.
template <class Scalar, class Index, int N>
struct TeamTileScratch {
  static constexpr std::size_t alignment = 16;
  static_assert(alignof(Scalar) <= alignment && alignof(Index) <= alignment);
  KOKKOS_INLINE_FUNCTION static std::size_t round16(std::size_t b) {
    return (b + alignment - 1) / alignment * alignment;
  }
  KOKKOS_INLINE_FUNCTION static std::size_t values_bytes(std::int64_t tile) {
    return round16(static_cast<std::size_t>((tile + 1) * N) * sizeof(Scalar));
  }
  KOKKOS_INLINE_FUNCTION static std::size_t ends_bytes(std::int64_t tile) {
    return round16(static_cast<std::size_t>(tile + 1) * sizeof(Index));
  }
  KOKKOS_INLINE_FUNCTION static std::size_t keys_bytes(int warps) {
    return round16(static_cast<std::size_t>(warps) * sizeof(int));
  }
  KOKKOS_INLINE_FUNCTION static std::size_t bytes(std::int64_t tile, int warps) {
    return values_bytes(tile) + ends_bytes(tile) + keys_bytes(warps) +
           round16(static_cast<std::size_t>(warps * N) * sizeof(Scalar));
  }
};

/// Loads per thread in one round of the team tile's loads: all issued
/// before their stores to scratch, few enough to keep the registers low.
inline constexpr int merge_path_team_batch = 4;

template <class ExecutionSpace, int W, class OffsetView, class IndexView, class ValueView,
          class XB, class YB, bool HasBeta, int Level, bool ValuesL2Only>
struct CsrMergePathTeamFunctor {
  using index_type = typename IndexView::non_const_value_type;
  using offset_type = typename OffsetView::non_const_value_type;
  using scalar = typename YB::scalar;
  using member = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  using sums = Sums<scalar, XB::count_max>;
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
  std::int64_t rows, nnz, tile;
  int per_thread;

  KOKKOS_INLINE_FUNCTION const widest_t<scalar>* part_of(
      std::int64_t k, const LastPart<index_type>& run) const {
    return (k < run.last ? carries : heads) + k * rhs_block;
  }

  /// The thread that counted a split row's last part adds its parts in
  /// order and stores the row: team tiles are long, so runs are short, and
  /// a warp-wide sum (finish_split_row) held registers the whole kernel paid for.
  KOKKOS_INLINE_FUNCTION void finish_alone(const LastPart<index_type>& run) const {
    if (run.row == index_type(-1)) return;
    sums total;
    for (std::int64_t k = run.first; k <= run.last; ++k) {
      const widest_t<scalar>* p = part_of(k, run);
      for (int j = 0; j < N; ++j) total.v[j] += static_cast<scalar>(read_volatile(p + j));
    }
    y.template store<HasBeta>(run.row, alpha, total, beta);
    arrived[run.first] = 0;
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member& team) const {
    using L = arch::lanes<ExecutionSpace>;
    using scratch = TeamTileScratch<scalar, index_type, N>;
    const int threads = team.team_size();
    const int th = team.team_rank();
    const int lane = th % W, warp = th / W, warps = threads / W;
    const std::int64_t t = team.league_rank();

    char* base = static_cast<char*>(team_scratch_aligned(
        team, Level, scratch::bytes(tile, warps), scratch::alignment));
    scalar* values = reinterpret_cast<scalar*>(base);
    index_type* ends = reinterpret_cast<index_type*>(base + scratch::values_bytes(tile));
    int* warp_key =
        reinterpret_cast<int*>(base + scratch::values_bytes(tile) + scratch::ends_bytes(tile));
    scalar* warp_sum = reinterpret_cast<scalar*>(base + scratch::values_bytes(tile) +
                                                 scratch::ends_bytes(tile) +
                                                 scratch::keys_bytes(warps));

    const std::int64_t d0 = t * tile;
    const std::int64_t d1 = d0 + tile < rows + nnz ? d0 + tile : rows + nnz;
    const std::int64_t r0 = tile_row[t], r1 = tile_row[t + 1];
    const std::int64_t z0 = d0 - r0;
    // Within a tile everything is counted in int (tile < 2^31, checked by
    // the launcher): 64-bit locals cost two registers each.
    const int tile_rows = static_cast<int>(r1 - r0);
    const int tile_nnz = static_cast<int>((d1 - r1) - z0);
    // The totals of the tile's rows follow its products in `values`, after
    // one spare slot: the walk's last load past the products reads it.
    scalar* totals = values + static_cast<std::ptrdiff_t>(tile_nnz + 1) * N;

    // Step 1: products and row ends into scratch, coalesced; the first row
    // end's load is issued with the first round of nonzeros (one latency).
    // Not evict-first: team tiles run where the matrix fits the L2, so the
    // next apply finds it there. ValuesL2Only keeps the values out of L1
    // (tuning::ValueLoads) where they nearly fill the L2 (docs/sources.md).
    const offset_type first_end = th < tile_rows ? row_ptr.data()[r0 + th + 1]
                                                 : offset_type(0);
    const auto* tile_val = val.data() + z0;
    const auto* tile_col = col.data() + z0;
    for (int k0 = th; k0 < tile_nnz; k0 += merge_path_team_batch * threads) {
      sums s[merge_path_team_batch];
      for (int b = 0; b < merge_path_team_batch; ++b) {
        const int k = k0 + b * threads;
        if (k < tile_nnz) {
          if constexpr (ValuesL2Only)
            x.fma(s[b], arch::loads<ExecutionSpace>::cached_in_l2(tile_val + k), tile_col[k]);
          else
            x.fma(s[b], tile_val[k], tile_col[k]);
        }
      }
      for (int b = 0; b < merge_path_team_batch; ++b) {
        const int k = k0 + b * threads;
        if (k < tile_nnz)
          for (int j = 0; j < N; ++j) values[k * N + j] = s[b].v[j];
      }
    }
    if (th < tile_rows) ends[th] = static_cast<index_type>(static_cast<std::int64_t>(first_end) - z0);
    for (int k = th + threads; k < tile_rows; k += threads)
      ends[k] = static_cast<index_type>(
          static_cast<std::int64_t>(row_ptr.data()[r0 + k + 1]) - z0);
    // The row left open at the tile's end: its nonzeros in this tile all count.
    if (th == 0) ends[tile_rows] = static_cast<index_type>(tile_nnz);
    team.team_barrier();

    // Step 2: the thread's stretch of the merge path, found by a search in
    // the row ends and walked item by item.
    const int items = static_cast<int>(d1 - d0);
    const int start = th * per_thread < items ? th * per_thread : items;
    const int stop = start + per_thread < items ? start + per_thread : items;
    int lo = start > tile_nnz ? start - tile_nnz : 0;
    int hi = start < tile_rows ? start : tile_rows;
    while (lo < hi) {
      const int mid = lo + (hi - lo) / 2;
      if (static_cast<int>(ends[mid]) <= start - mid - 1) lo = mid + 1;
      else hi = mid;
    }
    const int first_row = lo;
    int i = lo, k = start - lo;
    sums sum;
    // Without branches: each item loads a product and a row end, and a row
    // end stores its row's sum (the first one gets its carry later). A
    // branch per item ran both paths on every warp step where lanes differed.
    for (int d = start; d < stop; ++d) {
      const bool nonzero = k < static_cast<int>(ends[i]);
      if (!nonzero)
        for (int j = 0; j < N; ++j) totals[i * N + j] = sum.v[j];
      for (int j = 0; j < N; ++j) sum.v[j] = nonzero ? sum.v[j] + values[k * N + j] : scalar(0);
      k += nonzero ? 1 : 0;
      i += nonzero ? 0 : 1;
    }

    // Step 3: the open sums, keyed by the row each thread ends in, scanned
    // in the warp; each warp's last thread leaves its row and sum in scratch.
    arch::segmented_scan<ExecutionSpace, W>(lane, i, sum.v);
    sums carry_in;  // within the warp: the sum the thread before left open
    for (int j = 0; j < N; ++j) {
      const scalar up = L::template shfl_up<W>(sum.v[j], 1);
      carry_in.v[j] = lane > 0 ? up : scalar(0);
    }
    // Whether the thread starts in the row the warp starts in: only that
    // row carries sums from earlier warps.
    const bool warp_start_row = first_row == L::template shfl<W>(first_row, 0);
    if (lane == W - 1) {
      warp_key[warp] = i;
      for (int j = 0; j < N; ++j) warp_sum[warp * N + j] = sum.v[j];
    }
    team.team_barrier();
    // The sum open at the end of warp w - 1 (its row: before_key), from the
    // warps' last threads in order; the same for every thread of a warp.
    sums before;
    int before_key = -1;
    for (int w = 0; w < warp; ++w) {
      const int key = warp_key[w];
      for (int j = 0; j < N; ++j)
        before.v[j] = (key == before_key ? before.v[j] : scalar(0)) + warp_sum[w * N + j];
      before_key = key;
    }
    if (warp_start_row) carry_in += before;

    const bool one_launch = arrived != nullptr;
    bool head_part = false;
    if (i > first_row) {  // the thread ended its first row: add the carry
      sums head;
      for (int j = 0; j < N; ++j) head.v[j] = totals[first_row * N + j] + carry_in.v[j];
      // Row 0 began in the tile before (t > 0): in one launch it is a part.
      head_part = one_launch && first_row == 0 && t > 0;
      if (head_part) {
        for (int j = 0; j < N; ++j)
          heads[t * rhs_block + j] = static_cast<widest_t<scalar>>(head.v[j]);
      } else {
        for (int j = 0; j < N; ++j) totals[first_row * N + j] = head.v[j];
      }
    }
    // The tile's carry: the last thread's sum, with the earlier warps' when
    // the whole last warp lies in their row.
    const bool last = th == threads - 1;
    if (last) {
      if (i == before_key) sum += before;
      for (int j = 0; j < N; ++j)
        carries[t * rhs_block + j] = static_cast<widest_t<scalar>>(sum.v[j]);
    }
    if (one_launch) {
      LastPart<index_type> head_run, tail_run;
      const bool tail_part = last && r1 < rows;
      if (head_part || tail_part) Kokkos::memory_fence();  // parts visible before their counts
      if (head_part)
        head_run = count_part<ExecutionSpace>(arrived, static_cast<index_type>(r0),
                                              run_first[t - 1], t);
      if (tail_part)
        tail_run = count_part<ExecutionSpace>(arrived, static_cast<index_type>(r1), run_first[t],
                                              run_last[t] + 1);
      finish_alone(head_run);
      finish_alone(tail_run);
    }
    team.team_barrier();  // every row total is in scratch

    // The rows that end in the tile, coalesced: row 0 unless it is a part.
    const int first_stored = one_launch && t > 0 ? 1 : 0;
    for (int r = first_stored + th; r < tile_rows; r += threads) {
      sums total;
      for (int j = 0; j < N; ++j) total.v[j] = totals[r * N + j];
      y.template store<HasBeta>(static_cast<index_type>(r0 + r), alpha, total, beta);
    }
  }
};

/// The team-tile launch of csr_merge_path for one block of right-hand sides
/// (xb, yb): a team of s.row_threads warps of W lanes per tile of `p`, with
/// its scratch at level 0 where the tile's values fit (rank-1 values of any
/// type at the default tiles), else at level 1.
template <int W, class ExecutionSpace, class Value, class Index, class Device, class Offset,
          class XB, class YB, class Tiles>
void launch_team_tiles(const ExecutionSpace& exec, const tuning::LaunchShape& s,
                       const std::string& label, typename YB::scalar alpha,
                       const Csr<Value, Index, Device, Offset>& a, const XB& xb,
                       typename YB::scalar beta, const YB& yb, const Tiles& p) {
  using matrix = Csr<Value, Index, Device, Offset>;
  using policy_type = Kokkos::TeamPolicy<ExecutionSpace>;
  using scratch = TeamTileScratch<typename YB::scalar, Index, XB::count_max>;
  const int threads = s.row_threads * W;
  // + alignment: what get_shmem_aligned may skip to align the block.
  const std::size_t bytes = scratch::bytes(p.tile, s.row_threads) + scratch::alignment;
  const int level = bytes <= static_cast<std::size_t>(policy_type::scratch_size_max(0)) ? 0 : 1;
  check_team_scratch(exec, label, level, bytes);
  const auto launch = [&](auto has_beta, auto at_level, auto values_l2_only) {
    using functor =
        CsrMergePathTeamFunctor<ExecutionSpace, W, typename matrix::row_ptr_view,
                                typename matrix::col_view, typename matrix::val_view, XB, YB,
                                decltype(has_beta)::value, decltype(at_level)::value,
                                decltype(values_l2_only)::value>;
    const functor f{a.row_ptr(),       a.col_indices(),    a.values(),         xb,
                    yb,                alpha,              beta,               p.tile_row.data(),
                    p.carries.data(),  p.run_first.data(), p.run_last.data(),  p.heads.data(),
                    p.arrived.data(),  a.rows(),           a.nnz(),            p.tile,
                    static_cast<int>(s.entries_per_thread)};
    auto policy = checked_team_policy<policy_type>(exec, label, p.tiles(), threads, 1);
    policy.set_scratch_size(level, Kokkos::PerTeam(bytes));
    team_parallel_for(label, policy, f);
  };
  const auto at_level = [&](auto has_beta, auto values_l2_only) {
    // The level is a template argument: a pointer known to be in shared
    // memory keeps the kernel's 32-bit addressing and registers.
    if (level == 0) launch(has_beta, std::integral_constant<int, 0>{}, values_l2_only);
    else launch(has_beta, std::integral_constant<int, 1>{}, values_l2_only);
  };
  dispatch_beta(beta, [&](auto has_beta) {
    if (s.value_loads == tuning::ValueLoads::l2_only) at_level(has_beta, std::true_type{});
    else at_level(has_beta, std::false_type{});
  });
}

}  // namespace kobalt::detail
