// SPDX-License-Identifier: BSD-3-Clause
// ALIGNED_COO's split and lanes: 004 Alg. 3 (the cost model as an argmin)
// chooses how rows are divided between the seg and flat parts, 004 Alg. 1
// the lanes of the seg part. Planned from the row lengths in row
// order (Alg. 1 indexes them, the packing is next-fit), on the device from
// the row pointer: no column or value is read.
#pragma once

#include "aligned_coo_cost.hpp"
#include "aligned_coo_seg_size.hpp"
#include "../errors.hpp"
#include "../formats/aligned_coo_plan.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

namespace kobalt {

namespace aligned_coo {
/// Parameters of the automatic ALIGNED_COO conversion (plan/convert.hpp);
/// tuning::select resolves them into an aligned_coo::layout.
struct params {
  /// Lanes of the seg part (004's Seg_size). 0 (default): 004 Alg. 1, raised
  /// to the lanes the packing needs when Alg. 1's value is too small. A
  /// positive value fixes the lanes; the number of segments then grows until
  /// the rows fit. Ignored when the seg part is empty (it has 0 lanes).
  std::int64_t seg_size = 0;
  /// How rows are split between the parts; default: 004 Alg. 3 (corrected to
  /// an argmin, docs/sources.md) with the cost constants in `cost`.
  split choice = split::automatic;
  /// Unit of the hybrid split: a row of length rl keeps rl mod flat_unit
  /// entries in the seg part (004 Alg. 3's trail = rl mod WARP_SIZE). Default
  /// 32, 004's WARP_SIZE, fixed at the format level rather than taken from
  /// arch::warp_size: that is 1 on host backends, where trail would always be
  /// 0 (hybrid = all_flat), and the format must be the same on every backend.
  int flat_unit = 32;
  /// Largest storage in bytes the result may take; 0 = what the device holds.
  std::uint64_t max_bytes = 0;
  /// Constants of 004's cost model, used by split::automatic (defaults and
  /// their check: tuning/aligned_coo_cost.hpp).
  tuning::aligned_coo_cost cost = {};
};

/// Throws invalid_parameter unless every field is in range.
inline void validate(const params& p) {
  auto fail = [](const std::string& what) {
    throw invalid_parameter("kobalt::to_aligned_coo: " + what);
  };
  if (p.seg_size < 0)
    fail("seg_size must be >= 0 (0 = 004 Alg. 1), got " + std::to_string(p.seg_size));
  if (p.flat_unit < 1) fail("flat_unit must be >= 1, got " + std::to_string(p.flat_unit));
  switch (p.choice) {
    case split::automatic:
    case split::hybrid:
    case split::all_seg:
    case split::all_flat: break;
    default: fail("choice is not a value of aligned_coo::split");
  }
  tuning::validate(p.cost);
}
}  // namespace aligned_coo

namespace tuning {

/// Shape of the seg part whose row lengths are prefix(i + 1) - prefix(i):
/// 004 Alg. 1 raised to the lanes the packing needs when Alg. 1's value is
/// too small (lanes_override = 0), or the given lanes with the smallest
/// capacity that fits (kobalt::detail::seg_shape_for_lanes).
template <class ExecutionSpace, class PrefixView>
kobalt::detail::seg_shape seg_part_shape(const ExecutionSpace& exec, const PrefixView& prefix,
                                         std::int64_t lanes_override) {
  if (lanes_override != 0)
    return kobalt::detail::seg_shape_for_lanes(exec, prefix, lanes_override).shape;
  kobalt::detail::seg_shape s = alg1_segment_size(exec, prefix);
  if (s.num_seg == 0) return s;
  // Alg. 1 does not guarantee that the rows fit Seg_size lanes of
  // Num_of_seg slots (e.g. one long row followed by many short ones).
  s.seg_size = std::max(s.seg_size, kobalt::detail::next_fit(exec, prefix, s.num_seg).lanes);
  return s;
}

/// The resolved split with the model's costs (all 0 unless automatic).
struct aligned_coo_choice {
  aligned_coo::split split = aligned_coo::split::all_seg;  ///< The split (never automatic).
  kobalt::detail::seg_shape shape;  ///< Lanes and segments of the seg part.
  aligned_coo_costs costs;  ///< The model's cost of each split.
};

/// 004 Alg. 3 (corrected to an argmin) when p.choice is automatic, and the
/// seg part's shape (Alg. 1 when p.seg_size is 0), for the rows of a CSR
/// row pointer, on `exec`. A split whose storage at `entry_bytes` per slot
/// exceeds `storage_limit` bytes costs +infinity: 004's model counts no
/// padding, and Alg. 1's all_seg layout of a power-law matrix needs
/// hundreds of GB (docs/sources.md: "aligned_coo_cost defaults"), so the
/// printed argmin would pick a layout that cannot be built. 0 = no limit.
template <class ExecutionSpace, class RowPtr>
aligned_coo_choice choose_aligned_coo(const ExecutionSpace& exec, const RowPtr& row_ptr,
                                      const aligned_coo::params& p,
                                      std::uint64_t entry_bytes = 0,
                                      std::uint64_t storage_limit = 0) {
  using kobalt::detail::seg_prefix;
  aligned_coo_choice c;
  c.split = p.choice;
  if (p.choice == aligned_coo::split::automatic) {
    // 004 Alg. 3: cost of the hybrid parts vs. the whole matrix in each part.
    const std::int64_t nnz = kobalt::detail::prefix_total(exec, row_ptr);
    const auto hybrid_prefix = seg_prefix(exec, row_ptr, aligned_coo::split::hybrid, p.flat_unit);
    const std::int64_t hybrid_seg_nnz = kobalt::detail::prefix_total(exec, hybrid_prefix);
    const auto hybrid_shape = seg_part_shape(exec, hybrid_prefix, p.seg_size);
    const auto all_seg_shape = seg_part_shape(exec, row_ptr, p.seg_size);
    c.costs.hybrid = seg_cost(hybrid_shape.seg_size, hybrid_shape.num_seg, hybrid_seg_nnz, p.cost) +
                     flat_cost(nnz - hybrid_seg_nnz, p.cost);
    c.costs.all_seg = seg_cost(all_seg_shape.seg_size, all_seg_shape.num_seg, nnz, p.cost);
    c.costs.all_flat = flat_cost(nnz, p.cost);
    auto too_large = [&](const kobalt::detail::seg_shape& s, std::int64_t flat_nnz) {
      using kobalt::detail::saturating_add;
      using kobalt::detail::saturating_mul;
      const std::uint64_t slots = saturating_mul(static_cast<std::uint64_t>(s.seg_size),
                                                 static_cast<std::uint64_t>(s.num_seg));
      return storage_limit != 0 &&
             saturating_mul(saturating_add(slots, static_cast<std::uint64_t>(flat_nnz)),
                            entry_bytes) > storage_limit;
    };
    const double never = std::numeric_limits<double>::infinity();
    if (too_large(hybrid_shape, nnz - hybrid_seg_nnz)) c.costs.hybrid = never;
    if (too_large(all_seg_shape, 0)) c.costs.all_seg = never;
    c.split = choose_split(c.costs);
    if (c.split == aligned_coo::split::hybrid) c.shape = hybrid_shape;
    if (c.split == aligned_coo::split::all_seg) c.shape = all_seg_shape;
    return c;
  }
  c.shape = seg_part_shape(exec, seg_prefix(exec, row_ptr, c.split, p.flat_unit), p.seg_size);
  return c;
}

}  // namespace tuning
}  // namespace kobalt
