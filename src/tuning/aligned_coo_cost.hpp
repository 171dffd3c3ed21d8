// SPDX-License-Identifier: BSD-3-Clause
// The run-time cost model of 004 §IV-D and the choice it drives (Alg. 3):
// keep ALIGNED_COO hybrid (seg part + flat part), or put the whole matrix in
// the seg part, or the whole matrix in the flat (COO) part.
//
// Two corrections to the printed paper (docs/sources.md, 004's corrections):
// - Alg. 3 as printed switches to an option when it is the MOST expensive;
//   choose_split() takes the argmin instead.
// - The seg cost prints active_threads = max(threads_required, MAX_THREADS)
//   (sic). With max, iteration is always 1 and every seg kernel pays for
//   MAX_THREADS/WARP_SIZE warps however small it is. Kobalt uses min, as in
//   the COO_flat cost and as Alg. 2's grid-stride loop (idx += MAX_THREADS)
//   implies: at most MAX_THREADS threads are active.
//
// MAX_THREADS, WARP_SCHEDULE_TIME, blocks and blocksize have no values in
// 004. The defaults below name where they come from; a sweep of MAX_THREADS
// and WARP_SCHEDULE_TIME found no values that pick the measured fastest split
// more often, so they are kept (docs/sources.md: "aligned_coo_cost defaults").
// The model counts segments and warps, not bytes, so it cannot see that a
// skewed matrix's seg part is mostly padding: seg_cost adds a padding term.
#pragma once

#include "../errors.hpp"
#include "../formats/aligned_coo.hpp"
#include "../formats/storage_limit.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

namespace kobalt::tuning {

/// Constants of 004's cost model (§IV-D). Costs are in abstract units; only
/// their comparison matters.
struct aligned_coo_cost {
  /// MAX_THREADS: threads the device runs at once. No value in 004; default
  /// [ext] Bell & Garland's SpMV code (which CUSP's COO_flat, 004's baseline,
  /// comes from): MAX_THREADS = 30 * 1024. A current GPU's far larger count
  /// changes no choice in the sweep above.
  std::int64_t max_threads = 30 * 1024;
  /// WARP_SIZE of the modelled device: 32 (004 ran on a Fermi C2070).
  std::int64_t warp_size = 32;
  /// WARP_SCHEDULE_TIME (004 also writes WARP_SCHD_TIME): cost of scheduling
  /// one warp. No value in 004; 1 unit per warp. Swept (above): no value
  /// picks the measured fastest split more often.
  double warp_schedule_time = 1.0;
  /// blocksize of the COO_flat kernel. No value in 004; default [ext] Bell &
  /// Garland's COO_flat launcher, BLOCK_SIZE = 128. Not measured.
  std::int64_t block_size = 128;
  /// blocks of the COO_flat kernel. No value in 004; 0 (default) derives it
  /// as ceil(active_threads / block_size), which is what a launch of
  /// active_threads threads in blocks of block_size uses.
  std::int64_t blocks = 0;
};

/// Throws invalid_parameter unless every constant is in range.
inline void validate(const aligned_coo_cost& c) {
  auto fail = [](const std::string& what) {
    throw invalid_parameter("kobalt::aligned_coo cost model: " + what);
  };
  if (c.max_threads < 1) fail("max_threads must be >= 1, got " + std::to_string(c.max_threads));
  if (c.warp_size < 1) fail("warp_size must be >= 1, got " + std::to_string(c.warp_size));
  if (!(c.warp_schedule_time >= 0.0) || std::isinf(c.warp_schedule_time))
    fail("warp_schedule_time must be finite and >= 0, got " +
         std::to_string(c.warp_schedule_time));
  if (c.block_size < 1) fail("block_size must be >= 1, got " + std::to_string(c.block_size));
  if (c.blocks < 0) fail("blocks must be >= 0 (0 = derived), got " + std::to_string(c.blocks));
}

/// T(COO_flat) of 004 §IV-D for a COO part of `nnz` entries:
///   iteration*log2(WARP_SIZE) + (nnz mod WARP_SIZE)
///   + blocks*log2(blocksize) + warps*WARP_SCHEDULE_TIME,
/// with active_threads = min(MAX_THREADS, nnz), warps = ceil(nnz/WARP_SIZE),
/// iteration = ceil(nnz/active_threads). An empty part launches nothing: 0.
inline double flat_cost(std::int64_t nnz, const aligned_coo_cost& c) {
  if (nnz <= 0) return 0.0;
  const std::int64_t active = nnz < c.max_threads ? nnz : c.max_threads;
  const std::int64_t warps = kobalt::detail::ceil_div(nnz, c.warp_size);
  const std::int64_t iteration = kobalt::detail::ceil_div(nnz, active);
  const double thread_cost = std::log2(static_cast<double>(c.warp_size));
  const double serial_cost = static_cast<double>(nnz % c.warp_size);
  const std::int64_t blocks =
      c.blocks != 0 ? c.blocks : kobalt::detail::ceil_div(active, c.block_size);
  const double blocks_reduction_cost = std::log2(static_cast<double>(c.block_size));
  return static_cast<double>(iteration) * thread_cost + serial_cost +
         static_cast<double>(blocks) * blocks_reduction_cost +
         static_cast<double>(warps) * c.warp_schedule_time;
}

/// T(Aligned_COO_seg) of 004 §IV-D for `seg_size` lanes and `segments`
/// segments: iteration*segments + warps*WARP_SCHEDULE_TIME, with
/// active_threads = min(seg_size, MAX_THREADS) (004 prints max: see the file
/// comment), warps = ceil(active_threads/WARP_SIZE),
/// iteration = ceil(seg_size/active_threads); plus Kobalt's padding term,
/// ceil(padding_slots/WARP_SIZE)*WARP_SCHEDULE_TIME, where padding_slots =
/// seg_size*segments - `entries`. An empty part costs 0.
///
/// The padding term is ours: 004 prices a segment as one iteration, as if
/// its lanes were full, so a layout of mostly padding looks cheap. The warps
/// that sweep the padding are priced as the flat part prices each of its
/// warps. It moves the skewed matrices to the split measured fastest and
/// leaves the regular ones (docs/sources.md, 004's corrections).
inline double seg_cost(std::int64_t seg_size, std::int64_t segments, std::int64_t entries,
                       const aligned_coo_cost& c) {
  if (seg_size <= 0 || segments <= 0) return 0.0;
  const std::int64_t active = seg_size < c.max_threads ? seg_size : c.max_threads;
  const std::int64_t warps = kobalt::detail::ceil_div(active, c.warp_size);
  const std::int64_t iteration = kobalt::detail::ceil_div(seg_size, active);
  // In double: seg_size * segments can pass 2^63 for the layouts this rules out.
  const double slots = static_cast<double>(seg_size) * static_cast<double>(segments);
  const double padding = std::max(0.0, slots - static_cast<double>(entries));
  return static_cast<double>(iteration) * static_cast<double>(segments) +
         static_cast<double>(warps) * c.warp_schedule_time +
         std::ceil(padding / static_cast<double>(c.warp_size)) * c.warp_schedule_time;
}

/// Modelled costs of the three layouts of one matrix.
struct aligned_coo_costs {
  double hybrid = 0;    ///< seg_cost(trail part) + flat_cost(whole-warp part)
  double all_seg = 0;   ///< seg_cost(whole matrix in the seg part)
  double all_flat = 0;  ///< flat_cost(nnz)
};

/// Alg. 3, corrected to an argmin (004 prints the inverted comparison; see
/// docs/sources.md). Ties go to the split with fewer kernels: all_seg, then
/// all_flat, then hybrid. A tie with hybrid happens when one of its parts is
/// empty, and then both splits store the same thing. Never returns automatic.
inline aligned_coo::split choose_split(const aligned_coo_costs& t) {
  if (t.all_seg <= t.all_flat && t.all_seg <= t.hybrid) return aligned_coo::split::all_seg;
  if (t.all_flat <= t.hybrid) return aligned_coo::split::all_flat;
  return aligned_coo::split::hybrid;
}

}  // namespace kobalt::tuning
