// SPDX-License-Identifier: BSD-3-Clause
// 001's SELL-P kernel (Fig. 2-3), written once for the blocks of rows of
// SELL-P (its slices: sellp::slices, sellp_slices.hpp) and of ELL (003
// Alg. 5's column groups: ell::column_groups, ell_column_groups.hpp).
//
// A block is b consecutive rows stored column-major: slot k of local row r
// is at first_slot + k * step + r. t team threads share each row of a block
// (thread j takes slots j, j + t, j + 2t, ...) and the vector lanes take the
// block's rows, so one warp load of a slot column is consecutive in memory
// (coalesced). The t partial sums of a row are added in team scratch (001's
// fan-in); with t = 1 a lane stores its row directly and no scratch or
// barrier is used. A team takes `blocks_per_team` blocks side by side.
//
// `parts` > 1 (003 Alg. 5's nblock_per_row) cuts every block's slots among
// that many league entries (part p, thread j: slots p*t + j, step parts*t);
// the parts then add into y atomically, which the launcher has scaled by
// beta first. parts == 1 stores y = alpha*sum + beta*y, no atomics.
//
// Every lane stops at its first padding slot (000 Alg. 3) and loads its
// slots in batches (row_reduce.hpp: sum_strided_slots).
#pragma once

#include "common.hpp"
#include "row_reduce.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

namespace kobalt::detail {

/// SELL-P's slices as blocks: slice s starts at slice_sets(s), is
/// slice_lengths(s) slots wide, rows b apart.
template <class IndexView>
struct SliceBlocks {
  IndexView sets, lengths;
  const typename IndexView::value_type* order;  // SELL-C-sigma's row of each stored row, or null
  std::int64_t b;
  KOKKOS_INLINE_FUNCTION std::int64_t first_slot(std::int64_t s) const { return sets(s); }
  KOKKOS_INLINE_FUNCTION std::int64_t width(std::int64_t s) const { return lengths(s); }
  KOKKOS_INLINE_FUNCTION std::int64_t step() const { return b; }
  /// The row of y that stored row i sums into.
  KOKKOS_INLINE_FUNCTION std::int64_t row(std::int64_t i) const {
    return order ? static_cast<std::int64_t>(order[i]) : i;
  }
};

/// ELL's rows cut into blocks of b: block s starts at row s*b, every block
/// is the ELL width wide, slots `stride` apart.
struct EllBlocks {
  std::int64_t b, slots, stride;
  KOKKOS_INLINE_FUNCTION std::int64_t first_slot(std::int64_t s) const { return s * b; }
  KOKKOS_INLINE_FUNCTION std::int64_t width(std::int64_t) const { return slots; }
  KOKKOS_INLINE_FUNCTION std::int64_t step() const { return stride; }
  KOKKOS_INLINE_FUNCTION std::int64_t row(std::int64_t i) const { return i; }
};

template <class ExecutionSpace, class Blocks, class IndexView, class ValueView, class XB,
          class YB, bool HasBeta>
struct ColumnGroupsFunctor {
  using scalar = typename YB::scalar;
  using member = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  static constexpr int N = YB::count_max;

  IndexView col;
  ValueView val;
  XB x;
  YB y;
  Blocks blocks;
  scalar alpha, beta;
  std::int64_t rows, b, nblocks;
  int t, parts, blocks_per_team;
  int scratch_level = 0;  ///< where the fan-in's partial sums live (0: shared memory)

  KOKKOS_INLINE_FUNCTION std::int64_t block_rows(std::int64_t s) const {
    return rows - s * b < b ? rows - s * b : b;
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member& team) const {
    // Aligned for scalar: Kokkos aligns scratch to 8 bytes only, and a
    // complex<double> (alignas 16, loaded as one 16-byte word) faulted with
    // cudaErrorMisalignedAddress.
    scalar* partials =
        t > 1 ? static_cast<scalar*>(team.team_scratch(scratch_level)
                                         .get_shmem_aligned(scratch_bytes(blocks_per_team, t, b),
                                                            alignof(scalar)))
              : nullptr;
    const std::int64_t units = nblocks * parts;  // (block, part) pairs
    // More units than an int league can count are taken in a grid stride.
    for (std::int64_t first = std::int64_t(team.league_rank()) * blocks_per_team; first < units;
         first += std::int64_t(team.league_size()) * blocks_per_team) {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, blocks_per_team * t), [&](const int q) {
        const std::int64_t unit = first + q / t;
        if (unit >= units) return;
        const std::int64_t s = unit / parts;
        const std::int64_t j = (unit % parts) * t + q % t;
        const std::int64_t base = blocks.first_slot(s), width = blocks.width(s);
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, int(block_rows(s))), [&](const int r) {
          Sums<scalar, N> sum;
          sum_strided_slots(col, val, x, base + r, blocks.step(), j, std::int64_t(parts) * t,
                            width, sum);
          if (t == 1)
            finish(s * b + r, sum);
          else
            for (int n = 0; n < N; ++n) partials[(std::int64_t(q) * b + r) * N + n] = sum.v[n];
        });
      });
      if (t == 1) continue;
      team.team_barrier();
      // 001's fan-in: each row's t partial sums, added by one lane.
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, blocks_per_team), [&](const int g) {
        const std::int64_t unit = first + g;
        if (unit >= units) return;
        const std::int64_t s = unit / parts;
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, int(block_rows(s))), [&](const int r) {
          Sums<scalar, N> sum;
          for (int j = 0; j < t; ++j)
            for (int n = 0; n < N; ++n)
              sum.v[n] += partials[((std::int64_t(g) * t + j) * b + r) * N + n];
          finish(s * b + r, sum);
        });
      });
      team.team_barrier();  // the next round reuses the scratch
    }
  }

  /// Stored row i's sum into y's row blocks.row(i).
  KOKKOS_INLINE_FUNCTION void finish(std::int64_t stored_row, const Sums<scalar, N>& sum) const {
    const std::int64_t i = blocks.row(stored_row);
    if (parts > 1)
      y.atomic_add(i, alpha, sum);
    else
      y.template store<HasBeta>(i, alpha, sum, beta);
  }

  /// Team scratch of the fan-in: blocks_per_team * t * b partial sums of N.
  KOKKOS_INLINE_FUNCTION static std::size_t scratch_bytes(int blocks_per_team, int t,
                                                          std::int64_t b) {
    return static_cast<std::size_t>(blocks_per_team) * static_cast<std::size_t>(t) *
           static_cast<std::size_t>(b) * N * sizeof(scalar);
  }
  /// What the team reserves: scratch_bytes plus the slack get_shmem_aligned
  /// may skip to align the partial sums.
  KOKKOS_INLINE_FUNCTION static std::size_t reserved_bytes(int blocks_per_team, int t,
                                                           std::int64_t b) {
    return scratch_bytes(blocks_per_team, t, b) + alignof(scalar);
  }
};

/// y = alpha*A*x + beta*y over `nblocks` blocks of b rows: team_size =
/// blocks_per_team * t threads (s.row_threads = t; fewer blocks per team,
/// then fewer threads per row, where the backend's largest team is smaller),
/// s.vector_length lanes over each block's rows, `parts` league entries per
/// block (> 1: y scaled by beta first, then atomic adds). The fan-in scratch
/// lives in level 0 while it fits there and in level 1 otherwise.
template <class ExecutionSpace, class Blocks, class IndexView, class ValueView, class XView,
          class YView>
void ell_sellp_column_groups(const ExecutionSpace& exec, const tuning::LaunchShape& s,
                 const std::string& label, typename YView::non_const_value_type alpha,
                 const Blocks& blocks, std::int64_t rows, std::int64_t b, std::int64_t nblocks,
                 int parts, const IndexView& col, const ValueView& val, const XView& x,
                 typename YView::non_const_value_type beta, const YView& y) {
  using policy_type = Kokkos::TeamPolicy<ExecutionSpace>;
  if (nblocks == 0) return;
  const int requested_t = s.row_threads > 0 ? s.row_threads : 1;
  if (s.team_size % requested_t != 0)
    throw invalid_parameter("kobalt: " + label + ": team_size " + std::to_string(s.team_size) +
                            " is not a multiple of the threads per row " +
                            std::to_string(requested_t));
  const std::int64_t units = nblocks * parts;
  if (parts > 1) scale(exec, beta, y);
  for_each_column_block(x, y, [&](auto xb, auto yb) {
    dispatch_beta(parts > 1 ? decltype(beta)(0) : beta, [&](auto has_beta) {
      using functor = ColumnGroupsFunctor<ExecutionSpace, Blocks, IndexView, ValueView,
                                        decltype(xb), decltype(yb), decltype(has_beta)::value>;
      functor f{col, val, xb, yb, blocks, alpha, beta, rows, b, nblocks, requested_t, parts,
                s.team_size / requested_t};
      // The kernel's registers can cap the team below the requested size
      // (Kokkos refuses larger teams): first fewer blocks per team, then
      // fewer threads per row. Any t is correct (thread j takes slots j,
      // j + t, ...; padding ends every row) and the result does not depend
      // on it beyond rounding; a power of two keeps the slot pattern per warp.
      // Seen with complex<double>: its registers capped the team below the 16
      // threads per row ELL asked for.
      const auto probe = checked_team_policy<policy_type>(exec, label, 1, 1, s.vector_length);
      const int most = functor_team_size_max(probe, f);
      if (most < 1)
        throw invalid_parameter("kobalt: " + label + ": the backend runs no team of " +
                                std::to_string(s.vector_length) + " lanes for this kernel");
      while (f.t > most) f.t /= 2;
      f.blocks_per_team = std::max(1, std::min(s.team_size, most) / f.t);
      const int t = f.t;
      // Level-0 scratch (shared memory on GPUs) while the fan-in fits, level 1
      // otherwise: complex<double> with 8 right-hand sides needs 65,696 bytes
      // at t = 16, where a CUDA block has 49,152 by default.
      const std::size_t level0 = static_cast<std::size_t>(policy_type::scratch_size_max(0));
      while (f.blocks_per_team > 1 && functor::reserved_bytes(f.blocks_per_team, t, b) > level0)
        f.blocks_per_team /= 2;
      // Past level 1's limit too (long slices), fewer threads per row: any t is correct.
      const std::size_t level1 = static_cast<std::size_t>(policy_type::scratch_size_max(1));
      while (f.t > 1 && functor::reserved_bytes(f.blocks_per_team, f.t, b) > level0 &&
             functor::reserved_bytes(f.blocks_per_team, f.t, b) > level1)
        f.t /= 2;
      const int league = static_cast<int>(std::min<std::int64_t>(
          (units + f.blocks_per_team - 1) / f.blocks_per_team, std::numeric_limits<int>::max()));
      auto policy = checked_team_policy<policy_type>(exec, label, league, f.blocks_per_team * f.t,
                                                     s.vector_length);
      if (f.t > 1) {
        const std::size_t bytes = functor::reserved_bytes(f.blocks_per_team, f.t, b);
        f.scratch_level = bytes <= level0 ? 0 : 1;
        check_team_scratch(exec, label, f.scratch_level, bytes);
        policy.set_scratch_size(f.scratch_level, compat::per_team(bytes));
      }
      team_parallel_for(label, policy, f);
    });
  });
}

}  // namespace kobalt::detail
