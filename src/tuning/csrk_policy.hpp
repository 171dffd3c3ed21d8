// SPDX-License-Identifier: BSD-3-Clause
// CsrkPolicy: the launch shape of the CSR-k kernel (kernels/csrk.hpp), and
// its selection from 002 §4.1's rdensity cases. A team is the paper's CUDA
// block: row_threads team threads share a super-row (the block's row
// dimension), team_size / row_threads super-rows run side by side (the
// block's super-row dimension), vector_length lanes share a row's nonzeros
// (GPUSpMV-3.5's x dimension; 1 = GPUSpMV-3, each row serial).
#pragma once

#include "csrk_sizes.hpp"
#include "../kernels/arch/arch.hpp"

#include <algorithm>
#include <ostream>
#include <sstream>
#include <string>

namespace kobalt {

struct CsrkPolicy {
  int team_size = 1;      ///< team threads = row_threads x super-rows in parallel
  int vector_length = 1;  ///< vector lanes that share one row (1 = each row serial)
  int row_threads = 1;    ///< team threads that share one super-row's rows

  /// Super-rows of a super-super-row processed side by side.
  int super_row_threads() const { return team_size / row_threads; }

  std::string str() const {
    std::ostringstream s;
    s << *this;
    return s.str();
  }
  friend std::ostream& operator<<(std::ostream& os, const CsrkPolicy& p) {
    return os << "{team_size=" << p.team_size << ", vector_length=" << p.vector_length
              << ", row_threads=" << p.row_threads << "}";
  }
};

namespace tuning {

/// A block shape of 002 §4.1, in the paper's own terms.
struct CsrkBlockShape {
  int lanes_per_row;       ///< threads over a row's nonzeros (GPUSpMV-3.5 x; 1 = GPUSpMV-3)
  int rows_in_parallel;    ///< threads over the rows of a super-row
  int super_rows_in_parallel;  ///< threads over the super-rows of a super-super-row
};

// 002 §4.1, block dimensions per rdensity case (measured on V100 and A100;
// used unchanged on every GPU until kobalt-tune measures per device):
inline constexpr CsrkBlockShape csrk_block_shapes[4] = {
    {1, 8, 12},    // case 1, r <= 8:       8 x 12     (GPUSpMV-3; a warp = 8 x 4)
    {4, 8, 12},    // case 2, 8 < r <= 16:  4 x 8 x 12 (GPUSpMV-3.5)
    {8, 8, 8},     // case 3, 16 < r <= 32: 8 x 8 x 8
    {16, 8, 4}};   // case 4, r > 32:       16 x 8 x 4 (a warp = 2 rows)

/// Launch shape for the CSR-k kernel of a matrix with k levels (2 or 3) and
/// rdensity = nnz / rows. The shape is the paper's, independent of SSRS and
/// SRS, which 002 leaves unrelated to it (NOTES.md: case 1 has 12 super-row
/// threads for SSRS ≈ 6-8): surplus super-row slots idle, row slots loop.
/// - GPU backends (arch::warp_size > 1): the block shape of r's case
///   (csrk_block_shapes), lanes capped at the warp. k = 3 keeps the 2-D
///   mapping (rows x super-rows); k = 2 has one super-row per team, so all
///   rows_in_parallel x super_rows_in_parallel threads take its rows (same
///   team size; our choice, 002 gives no GPU shape for CSR-2).
/// - Host backends: one thread, one lane: Listing 1's nested loops, one
///   league entry per (super-)super-row under Kokkos' static schedule (002
///   runs OpenMP with static scheduling, §5.2).
template <class ExecutionSpace>
CsrkPolicy select_csrk_policy(int k, double rdensity) {
  constexpr int warp = arch::warp_size<ExecutionSpace>;
  CsrkPolicy p;
  if constexpr (warp > 1) {
    const CsrkBlockShape& shape = csrk_block_shapes[csrk_rdensity_case(rdensity) - 1];
    p.vector_length = std::min(shape.lanes_per_row, warp);
    p.team_size = shape.rows_in_parallel * shape.super_rows_in_parallel;
    p.row_threads = k == 3 ? shape.rows_in_parallel : p.team_size;
  } else {
    (void)k;
    (void)rdensity;
  }
  return p;
}

}  // namespace tuning
}  // namespace kobalt
