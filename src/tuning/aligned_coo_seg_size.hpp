// SPDX-License-Identifier: BSD-3-Clause
// Segment size of ALIGNED_COO's seg part: 004 Alg. 1, with the reading
// choices the printed pseudo-code leaves open stated beside each step.
#pragma once

#include "../range.hpp"
#include "../formats/aligned_coo_plan.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>

namespace kobalt::tuning {

using kobalt::detail::seg_shape;

/// Row_len[i] from its prefix, 0 at i >= rows (Alg. 1 reads Row_len[NR]).
template <class PrefixView>
KOKKOS_INLINE_FUNCTION std::int64_t length_at(const PrefixView& prefix, std::int64_t rows,
                                              std::int64_t i) {
  return i < rows ? static_cast<std::int64_t>(prefix(i + 1) - prefix(i)) : std::int64_t(0);
}

namespace detail {
/// Adds one per row of at least `least` entries (Alg. 1's Avg_length_rows).
template <class PrefixView>
struct AlignedCooLongRowsFunctor {
  using value_type = std::int64_t;
  PrefixView prefix;
  std::int64_t rows, least;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, std::int64_t& c) const {
    if (length_at(prefix, rows, i) >= least) ++c;
  }
};

/// The first row i whose length and the next row's add to less than
/// num_seg (the end of Alg. 1's while loop), by a Min reduction.
template <class PrefixView>
struct AlignedCooLoopEndFunctor {
  PrefixView prefix;
  std::int64_t rows, num_seg;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, std::int64_t& m) const {
    if (length_at(prefix, rows, i) + length_at(prefix, rows, i + 1) < num_seg && i < m) m = i;
  }
};
}  // namespace detail

/// 004 Alg. 1 on the seg part's row lengths, indexed in the original row
/// order (NNZ = their sum, NR = their count), given as their prefix
/// (prefix(i + 1) - prefix(i) = Row_len[i]) on the device, computed on `exec`:
///   Avg_length      = NNZ / NR
///   Avg_length_rows = #{i : Row_len[i] >= Avg_length}
///   Num_of_seg      = max_i Row_len[i]
///   Approx_seg_size = NNZ / Num_of_seg
///   Seg_size        = max(Approx_seg_size, Avg_length_rows)
///   while Row_len[Seg_size] + Row_len[Seg_size+1] >= Num_of_seg and Seg_size < NR:
///       Seg_size += 1
/// Readings (each reproduces 004's worked example, 6 x 5 with NNZ = 10:
/// Seg_size = 4, Num_of_seg = 3):
/// - Avg_length is the exact quotient (Row_len[i] >= NNZ/NR is tested as
///   Row_len[i] >= ceil(NNZ/NR), the same for integer lengths).
///   Integer division would give Avg_length = 1, Avg_length_rows = 6 and
///   Seg_size = 6 in the example, not the printed 4.
/// - Approx_seg_size is integer division (floor); ceil also gives 4 there.
/// - The loop tests Seg_size < NR first (004 prints it second, which would
///   read past the array) and reads Row_len[NR] as 0.
/// An empty seg part (NNZ = 0) gives {0, 0}. Alg. 1 does not guarantee that
/// the rows fit Seg_size lanes of Num_of_seg slots: the packing that follows
/// (aligned_coo_plan.hpp) raises Seg_size when they do not.
template <class ExecutionSpace, class PrefixView>
seg_shape alg1_segment_size(const ExecutionSpace& exec, const PrefixView& prefix) {
  using range = range_policy<ExecutionSpace>;
  const std::int64_t rows = static_cast<std::int64_t>(prefix.extent(0)) - 1;
  if (rows < 1) return {};
  const std::int64_t nnz = kobalt::detail::prefix_total(exec, prefix);
  if (nnz == 0) return {};
  const std::int64_t max_len = kobalt::detail::longest_row(exec, prefix);
  // len >= NNZ/NR exactly  <=>  len >= ceil(NNZ/NR) for integer len.
  const std::int64_t avg_length_ceil = (nnz + rows - 1) / rows;
  std::int64_t avg_length_rows = 0;
  Kokkos::parallel_reduce(
      "kobalt::aligned_coo::alg1_long_rows", range(exec, 0, rows),
      detail::AlignedCooLongRowsFunctor<PrefixView>{prefix, rows, avg_length_ceil},
      avg_length_rows);
  seg_shape s;
  s.num_seg = max_len;
  s.seg_size = std::max(nnz / max_len, avg_length_rows);
  // The while loop stops at the first Seg_size >= its start where the two
  // lengths add to less than Num_of_seg, or at NR.
  std::int64_t stop = rows;
  if (s.seg_size < rows) {
    const std::int64_t num_seg = s.num_seg;
    Kokkos::parallel_reduce(
        "kobalt::aligned_coo::alg1_loop", range(exec, s.seg_size, rows),
        detail::AlignedCooLoopEndFunctor<PrefixView>{prefix, rows, num_seg},
        Kokkos::Min<std::int64_t>(stop));
    exec.fence();
    if (stop > rows) stop = rows;
    s.seg_size = stop;
  }
  return s;
}

}  // namespace kobalt::tuning
