// SPDX-License-Identifier: BSD-3-Clause
// tuning::select for CSR-k: the block shape of 002 §4.1 per rdensity case,
// and the layout (k, super-row sizes) of a conversion.
#pragma once

#include "csrk_sizes.hpp"
#include "launch_shapes.hpp"
#include "strategy.hpp"
#include "../errors.hpp"

#include <algorithm>
#include <string>

namespace kobalt::tuning {

/// A block shape of 002 §4.1, in the paper's own terms.
struct CsrkBlockShape {
  int lanes_per_row;           ///< threads over a row's nonzeros (GPUSpMV-3.5 x; 1 = GPUSpMV-3)
  int rows_in_parallel;        ///< threads over the rows of a super-row
  int super_rows_in_parallel;  ///< threads over the super-rows of a super-super-row
};

/// 002 §4.1, block dimensions per rdensity case (measured on the paper's
/// Volta and Ampere GPUs; used unchanged on every GPU):
inline constexpr CsrkBlockShape csrk_block_shapes[4] = {
    {1, 8, 12},   // case 1, r <= 8:       8 x 12     (GPUSpMV-3; a warp = 8 x 4)
    {4, 8, 12},   // case 2, 8 < r <= 16:  4 x 8 x 12 (GPUSpMV-3.5)
    {8, 8, 8},    // case 3, 16 < r <= 32: 8 x 8 x 8
    {16, 8, 4}};  // case 4, r > 32:       16 x 8 x 4 (a warp = 2 rows)

/// CSR-k with k levels (2 or 3), rdensity = nnz / rows from the statistics.
/// The shape is the paper's, independent of SSRS and SRS, which 002 leaves
/// unrelated to it (docs/sources.md: case 1 has 12 super-row threads for SSRS ≈
/// 6-8): surplus super-row slots idle, row slots loop.
/// - GPUs: the block shape of r's case (csrk_block_shapes), lanes capped at
///   the warp. k = 3 keeps the 2-D mapping (rows x super-rows); k = 2 has one
///   super-row per team, so all rows_in_parallel x super_rows_in_parallel
///   threads take its rows (same team size; our choice, 002 gives no GPU
///   shape for CSR-2).
/// - Hosts: one thread, one lane: Listing 1's nested loops, one league entry
///   per (super-)super-row under a static schedule (002 §5.2).
inline SpmvPolicy select(const MatrixStats& stats, const DeviceProfile& profile, csrk::groups,
                         int k) {
  LaunchShape s;
  s.part = k == 3 ? "k3" : "k2";
  std::string rule = "one thread per (super-)super-row, nested loops (002 Listing 1)";
  if (profile.gpu) {
    const int c = csrk_rdensity_case(stats.mean_row_nnz);
    const CsrkBlockShape& shape = csrk_block_shapes[c - 1];
    s.vector_length = std::min(shape.lanes_per_row, std::max(profile.warp_width, 1));
    s.team_size = shape.rows_in_parallel * shape.super_rows_in_parallel;
    s.row_threads = k == 3 ? shape.rows_in_parallel : s.team_size;
    rule = "block shape of rdensity case " + std::to_string(c) + " (002 §4.1)";
  }
  return detail::policy(profile, "csrk", csrk::groups::name, {s}, rule);
}

/// CSR-k: k = 0 -> the profile's k; sizes 0 -> csrk_default_sizes (002 §4.1
/// model on GPUs, 96 / 8 on hosts). Throws invalid_parameter for k not in
/// {0, 2, 3}, negative sizes and a super_super_row_size with k = 2.
inline csrk::layout select(const MatrixStats& stats, const DeviceProfile& profile,
                           const csrk::parameters& p) {
  if (p.k != 0 && p.k != 2 && p.k != 3)
    throw invalid_parameter("kobalt::to_csrk: k = " + std::to_string(p.k) +
                            ", must be 2 or 3 (or 0 for the device's default)");
  if (p.super_row_size < 0)
    throw invalid_parameter("kobalt::to_csrk: super_row_size = " +
                            std::to_string(p.super_row_size) + ", must be >= 1 (0 = default)");
  if (p.super_super_row_size < 0)
    throw invalid_parameter("kobalt::to_csrk: super_super_row_size = " +
                            std::to_string(p.super_super_row_size) +
                            ", must be >= 1 (0 = default)");
  const int k = p.k != 0 ? p.k : profile.csrk_k;
  if (k == 2 && p.super_super_row_size != 0)
    throw invalid_parameter("kobalt::to_csrk: super_super_row_size = " +
                            std::to_string(p.super_super_row_size) +
                            " given with k = 2; super-super-rows exist for k = 3 only");
  const CsrkSizes defaults = csrk_default_sizes(profile, k, stats.mean_row_nnz);
  csrk::layout l;
  l.k = k;
  l.super_row_size = p.super_row_size != 0 ? p.super_row_size : defaults.super_row_size;
  l.super_super_row_size =
      k == 2 ? 0
             : (p.super_super_row_size != 0 ? p.super_super_row_size
                                            : defaults.super_super_row_size);
  l.order = p.order;
  l.max_bytes = p.max_bytes;
  return l;
}

}  // namespace kobalt::tuning
