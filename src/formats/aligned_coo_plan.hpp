// SPDX-License-Identifier: BSD-3-Clause
// Conversion parameters of AlignedCoo and the host-side plan of its layout:
// which entries of each row go to the seg part, the seg part's shape (004
// Alg. 1), where each row sits in it (next-fit packing, 004 Fig. 1-2), and
// the split choice (004 Alg. 3 as an argmin). The plan reads only the row
// lengths (O(rows) metadata); moving the entries happens on the device in
// convert_aligned_coo.hpp.
#pragma once

#include "aligned_coo.hpp"
#include "storage_size.hpp"
#include "../errors.hpp"
#include "../tuning/aligned_coo_cost.hpp"
#include "../tuning/aligned_coo_seg_size.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace kobalt {

namespace aligned_coo {
/// Parameters of to_aligned_coo (named fields; defaults name their source).
struct params {
  /// Lanes of the seg part (004's Seg_size). 0 (default): 004 Alg. 1, raised
  /// to the lanes the packing needs when Alg. 1's value is too small. A
  /// positive value fixes the lanes; the number of segments then grows until
  /// the rows fit. Ignored when the seg part is empty (it has 0 lanes).
  std::int64_t seg_size = 0;
  /// How rows are split between the parts; default: 004 Alg. 3 (corrected to
  /// an argmin, NOTES.md) with the cost constants in `cost`.
  split choice = split::automatic;
  /// Unit of the hybrid split: a row of length rl keeps rl mod flat_unit
  /// entries in the seg part (004 Alg. 3's trail = rl mod WARP_SIZE). Default
  /// 32, 004's WARP_SIZE, fixed at the format level rather than taken from
  /// arch::warp_size: that is 1 on host backends, where trail would always be
  /// 0 (hybrid = all_flat), and the format must be the same on every backend.
  int flat_unit = 32;
  /// Largest storage in bytes the result may take; 0 = what the device holds.
  std::uint64_t max_bytes = 0;
  /// Constants of 004's cost model, used by split::automatic (unmeasured
  /// defaults, see tuning/aligned_coo_cost.hpp).
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

namespace detail {

/// Entries of a row of length rl that go to the seg part (the row's LAST
/// ones in column order); the first rl - that go to the flat part.
/// Device-callable: the conversion recomputes it per row on the device.
KOKKOS_INLINE_FUNCTION std::int64_t aligned_coo_seg_length(std::int64_t rl,
                                                           aligned_coo::split s,
                                                           std::int64_t flat_unit) {
  if (s == aligned_coo::split::all_seg) return rl;
  if (s == aligned_coo::split::all_flat) return 0;
  return rl % flat_unit;  // hybrid: trail = rl mod WARP_SIZE (004 Alg. 3)
}

/// Lanes that next-fit packing of the rows, in row order, into lanes of
/// `capacity` slots needs (a row never spans two lanes).
inline std::int64_t next_fit_lanes(const std::vector<std::int64_t>& len, std::int64_t capacity) {
  std::int64_t lanes = 0, fill = capacity;
  for (const std::int64_t l : len) {
    if (l == 0) continue;
    if (fill + l > capacity) {
      ++lanes;
      fill = 0;
    }
    fill += l;
  }
  return lanes;
}

/// Shape of the seg part for these seg-part row lengths (see params::seg_size).
inline tuning::seg_shape seg_part_shape(const std::vector<std::int64_t>& len,
                                        std::int64_t seg_size_override) {
  std::int64_t nnz = 0, max_len = 0;
  for (const std::int64_t l : len) {
    nnz += l;
    max_len = std::max(max_len, l);
  }
  if (nnz == 0) return {};
  if (seg_size_override == 0) {
    tuning::seg_shape s = tuning::alg1_segment_size(len);
    // Alg. 1 does not guarantee that the rows fit Seg_size lanes of
    // Num_of_seg slots (e.g. one long row followed by many short ones):
    // raise Seg_size to the lanes the packing needs.
    s.seg_size = std::max(s.seg_size, next_fit_lanes(len, s.num_seg));
    return s;
  }
  // Fixed lanes: the smallest capacity >= the longest row that packs into
  // them, by bisection between max_len (too small, else done) and nnz (one
  // lane holds everything). The result always fits, whether or not next-fit
  // is monotone in the capacity.
  const std::int64_t lanes = seg_size_override;
  std::int64_t lo = max_len, hi = nnz;
  if (next_fit_lanes(len, lo) <= lanes) return {lanes, lo};
  while (hi - lo > 1) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (next_fit_lanes(len, mid) <= lanes)
      hi = mid;
    else
      lo = mid;
  }
  return {lanes, hi};
}

/// Where everything goes; computed on the host from the row lengths.
struct aligned_coo_plan {
  aligned_coo::split split = aligned_coo::split::all_seg;  ///< resolved, never automatic
  tuning::seg_shape shape;                                  ///< seg part shape
  std::int64_t seg_nnz = 0, flat_nnz = 0;
  tuning::aligned_coo_costs costs;  ///< the model's costs (all 0 unless automatic)
  /// Per row: slot of its first seg entry (segment * seg_size + lane); the
  /// k-th follows at + k*seg_size. -1 for rows without seg entries.
  /// Filled by pack_rows (after the storage check).
  std::vector<std::int64_t> row_slot;
  /// Per lane: row of its last entry (the row its padding repeats), or -1.
  std::vector<std::int64_t> lane_row;
};

/// Bytes an AlignedCoo with this plan stores (seg slots incl. padding + flat),
/// saturating so an absurd layout reaches check_storage instead of wrapping.
inline std::uint64_t planned_bytes(const aligned_coo_plan& plan, std::uint64_t entry_bytes) {
  const std::uint64_t slots = saturating_mul(static_cast<std::uint64_t>(plan.shape.seg_size),
                                             static_cast<std::uint64_t>(plan.shape.num_seg));
  return saturating_mul(saturating_add(slots, static_cast<std::uint64_t>(plan.flat_nnz)),
                        entry_bytes);
}

/// Plans the split and the seg part's shape from the row lengths. Alg. 1's
/// while loop and the cost model's packing are sequential scans of O(rows)
/// row lengths, planned on the host; no column or value is read.
inline aligned_coo_plan plan_aligned_coo(const std::vector<std::int64_t>& row_len,
                                         const aligned_coo::params& p) {
  const std::int64_t rows = static_cast<std::int64_t>(row_len.size());
  auto seg_lengths = [&](aligned_coo::split s) {
    std::vector<std::int64_t> len(rows);
    for (std::int64_t i = 0; i < rows; ++i)
      len[i] = aligned_coo_seg_length(row_len[i], s, p.flat_unit);
    return len;
  };
  std::int64_t nnz = 0;
  for (const std::int64_t l : row_len) nnz += l;

  aligned_coo_plan plan;
  plan.split = p.choice;
  if (p.choice == aligned_coo::split::automatic) {
    // 004 Alg. 3: cost of the hybrid parts vs. the whole matrix in each part.
    const auto hybrid_len = seg_lengths(aligned_coo::split::hybrid);
    std::int64_t hybrid_seg_nnz = 0;
    for (const std::int64_t l : hybrid_len) hybrid_seg_nnz += l;
    const auto hybrid_shape = seg_part_shape(hybrid_len, p.seg_size);
    const auto all_seg_shape = seg_part_shape(row_len, p.seg_size);
    plan.costs.hybrid = tuning::seg_cost(hybrid_shape.seg_size, hybrid_shape.num_seg, p.cost) +
                        tuning::flat_cost(nnz - hybrid_seg_nnz, p.cost);
    plan.costs.all_seg = tuning::seg_cost(all_seg_shape.seg_size, all_seg_shape.num_seg, p.cost);
    plan.costs.all_flat = tuning::flat_cost(nnz, p.cost);
    plan.split = tuning::choose_split(plan.costs);
  }
  const auto len = seg_lengths(plan.split);
  plan.shape = seg_part_shape(len, p.seg_size);
  for (const std::int64_t l : len) plan.seg_nnz += l;
  plan.flat_nnz = nnz - plan.seg_nnz;
  return plan;
}

/// Next-fit packing of the rows' seg entries, in row order, into the planned
/// lanes (the loop of next_fit_lanes, recording where each row starts).
/// Inherently sequential (each lane's content depends on every row before
/// it), hence on the host, from the O(rows) row lengths only.
inline void pack_rows(aligned_coo_plan& plan, const std::vector<std::int64_t>& row_len,
                      std::int64_t flat_unit) {
  const std::int64_t rows = static_cast<std::int64_t>(row_len.size());
  const std::int64_t capacity = plan.shape.num_seg, lanes = plan.shape.seg_size;
  plan.row_slot.assign(rows, -1);
  plan.lane_row.assign(lanes, -1);
  std::int64_t lane = -1, fill = capacity;
  for (std::int64_t i = 0; i < rows; ++i) {
    const std::int64_t len = aligned_coo_seg_length(row_len[i], plan.split, flat_unit);
    if (len == 0) continue;
    if (fill + len > capacity) {
      ++lane;
      fill = 0;
    }
    plan.row_slot[i] = fill * lanes + lane;
    plan.lane_row[lane] = i;
    fill += len;
  }
}

}  // namespace detail
}  // namespace kobalt
