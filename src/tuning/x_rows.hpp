// SPDX-License-Identifier: BSD-3-Clause
// Rank-2 applies on GPUs: when to gather x from a row-major copy. A
// LayoutLeft x keeps the K values of one of its rows `cols` apart, so an
// entry of A with a scattered column costs K sectors of x (32 bytes each);
// in a row-major copy the K values are one run (K * sizeof(value) bytes, 2
// sectors for 8 doubles). The copy costs one read and one write of x per
// apply, which pays only where the gathers are scattered, x is far larger
// than L2, and each column is gathered often.
#pragma once

#include "profile.hpp"
#include "stats.hpp"

#include <cstdint>

namespace kobalt::tuning {

/// Entries per column of A from which the copy paid: between the matrices
/// where it won and those where it lost (docs/sources.md: "x_rows_min_rhs").
inline constexpr double x_rows_min_entries_per_column = 6.0;

/// True when a rank-2 apply with `columns` right-hand sides of
/// `value_bytes`-byte values should gather x from a row-major copy:
/// - a GPU profile asking for it (x_rows_min_rhs > 0) and columns >=
///   x_rows_min_rhs (the profile's default, tuning/profile.hpp);
/// - an irregular matrix (002 §5.3's variance rule). Regular ones are
///   mostly stencils whose neighbouring rows gather neighbouring columns,
///   already coalesced in LayoutLeft, where the copy lost. Regular rows with
///   scattered columns would win, but the statistics hold no column locality
///   to tell them from stencils;
/// - x larger than L2 (l2_bytes; 0 = unknown counts as larger): a
///   resident x serves its scattered sectors from L2 (every win measured
///   had x far beyond L2);
/// - at least x_rows_min_entries_per_column entries per column.
inline bool stage_x_rows(const MatrixStats& stats, const DeviceProfile& profile,
                         std::int64_t columns, std::int64_t value_bytes) {
  if (!profile.gpu || profile.x_rows_min_rhs <= 0 || columns < profile.x_rows_min_rhs) return false;
  if (stats.regular() || stats.cols <= 0) return false;
  const double x_bytes =
      static_cast<double>(stats.cols) * static_cast<double>(columns) * static_cast<double>(value_bytes);
  if (x_bytes <= static_cast<double>(profile.l2_bytes)) return false;
  return static_cast<double>(stats.nnz) >= x_rows_min_entries_per_column * static_cast<double>(stats.cols);
}

}  // namespace kobalt::tuning
