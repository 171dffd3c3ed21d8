// SPDX-License-Identifier: BSD-3-Clause
// SELL-C-sigma's row order (Kreutzer et al., SIAM J. Sci. Comput. 36(5),
// 2014; seed 001 §4 names it as SELL-P's next step, docs/sources.md): the rows of
// each window of sigma consecutive rows sorted by decreasing length, ties in
// row order, so rows of similar length share a slice and pad less. One team
// per window sorts (length, row) keys in team scratch with a bitonic network:
// deterministic, no atomics, O(sigma log^2 sigma) work per window.
#pragma once

#include "../compat.hpp"
#include "../errors.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

namespace kobalt::detail {

/// Largest sort window: the keys of one window (8 bytes each) live in one
/// team's scratch, 256 KB at this size. A limit of this implementation, not
/// of the format (SELL-C-sigma papers go up to sorting every row).
inline constexpr std::int64_t max_sort_window = std::int64_t{1} << 15;

/// Windows of up to this many keys sort in level-0 scratch (32 KB, under
/// CUDA's and HIP's 48/64 KB static per-block limits); larger ones in level 1.
inline constexpr std::int64_t level0_sort_keys = 4096;

inline void check_sort_window(std::int64_t sigma, std::int64_t slice_size, const char* who) {
  if (sigma < 1 || sigma > max_sort_window || (sigma > 1 && sigma % slice_size != 0))
    throw invalid_parameter(std::string(who) + ": sort_window = " + std::to_string(sigma) +
                            " must be 1 (no sorting) or a multiple of slice_size = " +
                            std::to_string(slice_size) + " up to " +
                            std::to_string(max_sort_window));
}

/// Sorts each window of sigma rows by decreasing length (a bitonic network
/// over `width` keys in team scratch) and writes the windows' row order.
template <class ExecutionSpace, class IndexView, class RowPtr>
struct SellpSortWindowsFunctor {
  using Index = typename IndexView::non_const_value_type;
  using member = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  using key = std::uint64_t;
  using keys_view = Kokkos::View<key*, typename ExecutionSpace::scratch_memory_space,
                                 Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  // key = complemented length (high 32 bits) | row within the window (low 32
  // bits): ascending keys are decreasing lengths, ties by row. Lengths of
  // 2^32 - 1 or more saturate; such rows keep their row order.
  static constexpr key low32 = 0xffffffffu;
  RowPtr row_ptr;
  IndexView order;
  std::int64_t rows, sigma, width, windows;
  int level;

  KOKKOS_INLINE_FUNCTION void operator()(const member& team) const {
    keys_view keys(team.team_scratch(level), width);
    for (std::int64_t w = team.league_rank(); w < windows; w += team.league_size()) {
      const std::int64_t first = w * sigma;
      const std::int64_t count = rows - first < sigma ? rows - first : sigma;
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, width), [&](const std::int64_t q) {
        if (q < count) {
          const key len = static_cast<key>(row_ptr(first + q + 1) - row_ptr(first + q));
          keys(q) = ((low32 - (len < low32 ? len : low32)) << 32) | static_cast<key>(q);
        } else {
          keys(q) = ~key(0);  // past the window: sorts last
        }
      });
      team.team_barrier();
      for (std::int64_t k = 2; k <= width; k *= 2) {
        for (std::int64_t j = k / 2; j > 0; j /= 2) {
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, width / 2),
                               [&](const std::int64_t q) {
                                 const std::int64_t lo = (q / j) * 2 * j + q % j, hi = lo + j;
                                 const bool ascending = (lo & k) == 0;
                                 const key a = keys(lo), b = keys(hi);
                                 if ((a > b) == ascending) {
                                   keys(lo) = b;
                                   keys(hi) = a;
                                 }
                               });
          team.team_barrier();
        }
      }
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, count), [&](const std::int64_t q) {
        order(first + q) = static_cast<Index>(first + static_cast<std::int64_t>(keys(q) & low32));
      });
      team.team_barrier();  // the next window reuses the keys
    }
  }
};

/// order(k) = the row of the matrix placed at position k when the rows of
/// every window [w*sigma, (w+1)*sigma) are sorted by decreasing length
/// (row_ptr(i+1) - row_ptr(i)), ties in increasing row order.
template <class IndexView, class ExecutionSpace, class RowPtr>
IndexView rows_sorted_in_windows(const ExecutionSpace& exec, const RowPtr& row_ptr,
                                 std::int64_t rows, std::int64_t sigma) {
  using policy_type = Kokkos::TeamPolicy<ExecutionSpace>;
  using functor = SellpSortWindowsFunctor<ExecutionSpace, IndexView, RowPtr>;
  IndexView order(compat::uninitialized("kobalt::sellp::row_order"), rows);
  if (rows == 0) return order;
  const std::int64_t window = sigma < rows ? sigma : rows;
  std::int64_t width = 1;  // the network's size: a power of two >= window
  while (width < window) width *= 2;
  const int level = width <= level0_sort_keys ? 0 : 1;
  const std::int64_t windows = (rows + sigma - 1) / sigma;
  // More windows than an int league counts are taken in a grid stride.
  const int league = static_cast<int>(windows < (std::int64_t{1} << 30) ? windows : std::int64_t{1} << 30);
  policy_type policy(exec, league, Kokkos::AUTO);
  policy.set_scratch_size(level, compat::per_team(functor::keys_view::shmem_size(width)));
  Kokkos::parallel_for("kobalt::convert<sellp>::sort_windows", policy,
                       functor{row_ptr, order, rows, sigma, width, windows, level});
  return order;
}

}  // namespace kobalt::detail
