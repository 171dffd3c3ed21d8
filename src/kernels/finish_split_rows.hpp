// SPDX-License-Identifier: BSD-3-Clause
// Rows split over several warps' work (chunks of entries, merge-path tiles),
// combined in the same launch without atomics on y: each warp writes its part
// of the row to the workspace, fences and counts it (an atomic counter per
// split row that acquires, arch::arrivals); the warp that counts the last
// part adds all parts in a fixed order and stores the row. The order does
// not depend on which warp ran first, so the result is the same bits on
// every run. Used by load_balance_chunks.hpp (CSR and COO load_balance)
// and csr_merge_path.hpp (tiles in one launch).
#pragma once

#include "common.hpp"
#include "../arch/arch.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kobalt::detail {

/// A split row whose last part a lane counted: parts first..last, counted at
/// arrived[first]. row == -1: nothing to finish.
template <class Index>
struct LastPart {
  Index row = Index(-1);
  std::int64_t first = 0, last = 0;
};

/// Counts a part of row `row` (parts first..last, counter arrived[first])
/// after the caller wrote it and fenced (Kokkos::memory_fence, once for all
/// the parts a warp wrote); returns the row to finish if this part is the
/// last one counted. The count acquires: the lane that reads the final
/// count sees every part.
template <class ExecutionSpace, class Index>
KOKKOS_INLINE_FUNCTION LastPart<Index> count_part(int* arrived, Index row, std::int64_t first,
                                                  std::int64_t last) {
  LastPart<Index> f;
  const int before = arch::arrivals<ExecutionSpace>::count(&arrived[first]);
  if (before == static_cast<int>(last - first)) {
    f.row = row;
    f.first = first;
    f.last = last;
  }
  return f;
}

/// The warp finishes the split row `mine` holds (on one lane at most):
/// lane l sums parts first + l, first + l + W, ... with four accumulators
/// (part_of(k, run) points at part k's values; run holds the row, first and
/// last on every lane), the lanes' sums are combined by the segmented scan
/// on one key, and lane W-1 stores y_row = alpha * total + beta * y_row and
/// resets the counter for the next apply (launches on one instance are
/// ordered). All W lanes call this together.
template <class ExecutionSpace, int W, bool HasBeta, class YB, class Index, class PartOf>
KOKKOS_INLINE_FUNCTION void finish_split_row(int lane, const LastPart<Index>& mine, const YB& y,
                                             typename YB::scalar alpha,
                                             typename YB::scalar beta, int* arrived,
                                             const PartOf& part_of) {
  using scalar = typename YB::scalar;
  using L = arch::lanes<ExecutionSpace>;
  constexpr int N = YB::count_max;
  const std::uint64_t holders = L::template ballot<W>(mine.row != Index(-1));
  if (holders == 0) return;
  const int source = L::first_lane(holders);
  LastPart<Index> run;
  run.row = L::template shfl<W>(mine.row, source);
  run.first = L::template shfl<W>(mine.first, source);
  run.last = L::template shfl<W>(mine.last, source);
  // The source lane's count acquired the parts; the warp's sync orders
  // every lane's reads after it. (A fence here, after the count, undid the
  // acquiring count's gain: see arch::arrivals in arch/cuda.hpp.)
  L::template sync<W>();
  // Part first + lane + m W goes to accumulator m mod 4, in four named
  // sums rotated after each part (s0 takes the next one): an array indexed
  // by m lives in local memory, and guarded loads per step were slower still
  // (docs/sources.md: "the finishing warp's four sums"). The total is
  // (a0 + a1) + (a2 + a3) of the accumulators, as with the array.
  Sums<scalar, N> s0, s1, s2, s3;
  int m = 0;
  for (std::int64_t k = run.first + lane; k <= run.last; k += W, ++m) {
    // Volatile: the parts were written by other SMs; do not read a stale L1 line.
    const auto* p = part_of(k, run);
    for (int j = 0; j < N; ++j) s0.v[j] += static_cast<scalar>(read_volatile(p + j));
    const Sums<scalar, N> next = s1;
    s1 = s2;
    s2 = s3;
    s3 = s0;
    s0 = next;
  }
  // After m parts s_j holds a_((j + m) mod 4): for odd m the pairs are
  // s3 + s0 and s1 + s2 (a0 + a1 and a2 + a3, or the other way round).
  Sums<scalar, N> total;
  for (int j = 0; j < N; ++j)
    total.v[j] = m % 2 == 0 ? (s0.v[j] + s1.v[j]) + (s2.v[j] + s3.v[j])
                            : (s3.v[j] + s0.v[j]) + (s1.v[j] + s2.v[j]);
  arch::segmented_scan<ExecutionSpace, W>(lane, 0, total.v);
  if (lane == W - 1) {
    y.template store<HasBeta>(run.row, alpha, total, beta);
    arrived[run.first] = 0;
  }
}

}  // namespace kobalt::detail
