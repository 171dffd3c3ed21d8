// SPDX-License-Identifier: BSD-3-Clause
// The concrete layout of an AlignedCoo and its host-side plan: which entries
// of each row go to the seg part, the seg part's shape for the given lanes,
// and where each row sits in it (next-fit packing, 004 Fig. 1-2). The plan
// reads only the row lengths (O(rows) metadata); moving the entries happens
// on the device in convert_aligned_coo.hpp. Choosing the split and the lanes
// (004 Alg. 1 and 3) is tuning's (tuning/aligned_coo_split.hpp).
#pragma once

#include "aligned_coo.hpp"
#include "storage_size.hpp"
#include "../errors.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace kobalt {

namespace aligned_coo {
/// The layout to_aligned_coo() builds, concrete (tuning::select resolves
/// aligned_coo::params, with its automatic split and Alg. 1 lane count, into
/// this).
struct layout {
  /// hybrid, all_seg or all_flat (automatic throws invalid_parameter).
  split choice = split::all_seg;
  /// Lanes of the seg part, >= 1 when it holds entries; the segments grow
  /// until the rows fit. Ignored when the seg part is empty.
  std::int64_t seg_size = 1;
  /// Unit of the hybrid split (004 Alg. 3's WARP_SIZE), >= 1.
  int flat_unit = 32;
  /// Largest storage in bytes the result may take; 0 = what the device holds.
  std::uint64_t max_bytes = 0;
};

/// Throws invalid_parameter unless every field is in range.
inline void validate(const layout& l) {
  auto fail = [](const std::string& what) {
    throw invalid_parameter("kobalt::to_aligned_coo: " + what);
  };
  if (l.seg_size < 1) fail("seg_size must be >= 1, got " + std::to_string(l.seg_size));
  if (l.flat_unit < 1) fail("flat_unit must be >= 1, got " + std::to_string(l.flat_unit));
  switch (l.choice) {
    case split::hybrid:
    case split::all_seg:
    case split::all_flat: break;
    case split::automatic:
      fail("choice = automatic must be resolved first (tuning::select, or the to_aligned_coo "
           "overload that takes aligned_coo::params)");
      break;
    default: fail("choice is not a value of aligned_coo::split");
  }
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

/// Shape of a seg part: seg_size lanes (slots per segment) x num_seg segments.
struct seg_shape {
  std::int64_t seg_size = 0;  ///< lanes; 004's Seg_size
  std::int64_t num_seg = 0;   ///< segments; 004's Num_of_seg (= lane capacity)
};

/// Shape of the seg part for these seg-part row lengths in `lanes` lanes:
/// the smallest capacity >= the longest row that packs into them, by
/// bisection between max_len (too small, else done) and nnz (one lane holds
/// everything). The result always fits, whether or not next-fit is monotone
/// in the capacity. An empty seg part has shape {0, 0}.
inline seg_shape seg_shape_for_lanes(const std::vector<std::int64_t>& len, std::int64_t lanes) {
  std::int64_t nnz = 0, max_len = 0;
  for (const std::int64_t l : len) {
    nnz += l;
    max_len = std::max(max_len, l);
  }
  if (nnz == 0) return {};
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

/// Seg-part row lengths of every row under split s.
inline std::vector<std::int64_t> seg_lengths(const std::vector<std::int64_t>& row_len,
                                             aligned_coo::split s, std::int64_t flat_unit) {
  std::vector<std::int64_t> len(row_len.size());
  for (std::size_t i = 0; i < row_len.size(); ++i)
    len[i] = aligned_coo_seg_length(row_len[i], s, flat_unit);
  return len;
}

/// Where everything goes; computed on the host from the row lengths.
struct aligned_coo_plan {
  aligned_coo::split split = aligned_coo::split::all_seg;  ///< resolved, never automatic
  seg_shape shape;                                          ///< seg part shape
  std::int64_t seg_nnz = 0, flat_nnz = 0;
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

/// The plan of a concrete layout: the shape for its lanes and the sizes of
/// both parts, from the row lengths.
inline aligned_coo_plan plan_layout(const std::vector<std::int64_t>& row_len,
                                    const aligned_coo::layout& l) {
  aligned_coo_plan plan;
  plan.split = l.choice;
  const auto len = seg_lengths(row_len, l.choice, l.flat_unit);
  plan.shape = seg_shape_for_lanes(len, l.seg_size);
  std::int64_t nnz = 0;
  for (const std::int64_t r : row_len) nnz += r;
  for (const std::int64_t r : len) plan.seg_nnz += r;
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
