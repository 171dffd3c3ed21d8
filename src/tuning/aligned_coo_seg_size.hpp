// SPDX-License-Identifier: BSD-3-Clause
// Segment size of ALIGNED_COO's seg part: 004 Alg. 1, with the reading
// choices the printed pseudo-code leaves open stated beside each step.
#pragma once

#include "../formats/aligned_coo_plan.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace kobalt::tuning {

using kobalt::detail::seg_shape;

/// 004 Alg. 1 on the seg part's row lengths, indexed in the original row
/// order (NNZ = their sum, NR = their count):
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
inline seg_shape alg1_segment_size(const std::vector<std::int64_t>& row_len) {
  const std::int64_t rows = static_cast<std::int64_t>(row_len.size());
  std::int64_t nnz = 0, max_len = 0;
  for (const std::int64_t len : row_len) {
    nnz += len;
    max_len = std::max(max_len, len);
  }
  if (nnz == 0) return {};
  // len >= NNZ/NR exactly  <=>  len >= ceil(NNZ/NR) for integer len.
  const std::int64_t avg_length_ceil = (nnz + rows - 1) / rows;
  std::int64_t avg_length_rows = 0;
  for (const std::int64_t len : row_len)
    if (len >= avg_length_ceil) ++avg_length_rows;
  seg_shape s;
  s.num_seg = max_len;
  s.seg_size = std::max(nnz / max_len, avg_length_rows);
  auto len_at = [&](std::int64_t i) { return i < rows ? row_len[i] : std::int64_t(0); };
  while (s.seg_size < rows && len_at(s.seg_size) + len_at(s.seg_size + 1) >= s.num_seg)
    ++s.seg_size;
  return s;
}

}  // namespace kobalt::tuning
