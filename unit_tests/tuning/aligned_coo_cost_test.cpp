// SPDX-License-Identifier: BSD-3-Clause
// 004's AlignedCoo heuristics: Alg. 1 (segment size) on the paper's worked
// example and at its edges, the §IV-D cost model by hand, and Alg. 3's
// choice as an argmin (the printed comparison is inverted, docs/sources.md).
#include "fixtures/row_lengths.hpp"

#include <kobalt/formats/aligned_coo_plan.hpp>
#include <kobalt/tuning/aligned_coo_split.hpp>
#include <kobalt/tuning/select.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace kobalt::test {
namespace {

using aligned_coo::split;
using tuning::aligned_coo_cost;

// An instance per call: a global one would be built before Kokkos starts.
Kokkos::DefaultExecutionSpace exec() { return Kokkos::DefaultExecutionSpace(); }

tuning::seg_shape alg1(const std::vector<std::int64_t>& lengths) {
  return tuning::alg1_segment_size(exec(), row_pointer(lengths));
}
std::int64_t next_fit_lanes(const std::vector<std::int64_t>& lengths, std::int64_t capacity) {
  return detail::next_fit(exec(), row_pointer(lengths), capacity).lanes;
}
tuning::seg_shape shape_in_lanes(const std::vector<std::int64_t>& lengths, std::int64_t lanes) {
  return tuning::seg_part_shape(exec(), row_pointer(lengths), lanes);
}

// 004 §IV-A: the 6 x 5 matrix of Fig. 2 (row lengths 3,1,2,2,1,1, NNZ 10).
// Avg_length = 10/6; rows >= it: r0, r2, r3 -> 3. Num_of_seg = 3,
// Approx = 10/3 = 3, Seg_size = 3; Row_len[3]+Row_len[4] = 3 >= 3 -> 4;
// Row_len[4]+Row_len[5] = 2 < 3 -> stop. The paper prints 4 and 3.
TEST(AlignedCooSegSize, PaperWorkedExample) {
  const auto s = alg1({3, 1, 2, 2, 1, 1});
  EXPECT_EQ(s.seg_size, 4);
  EXPECT_EQ(s.num_seg, 3);
}

TEST(AlignedCooSegSize, EdgesOfTheLoopAndEmptyParts) {
  EXPECT_EQ(alg1({}).seg_size, 0);
  EXPECT_EQ(alg1({0, 0, 0}).num_seg, 0);
  // {1,1,1,3}: Approx 6/3 = 2, Avg_length_rows = #{len >= 1.5} = 1 -> 2;
  // 1+3 >= 3 -> 3; Row_len[3] + Row_len[4](read as 0) = 3 >= 3 -> 4 = NR, stop.
  const auto s = alg1({1, 1, 1, 3});
  EXPECT_EQ(s.seg_size, 4);
  EXPECT_EQ(s.num_seg, 3);
  // One row: Seg_size 1, Num_of_seg its length.
  const auto one = alg1({4096});
  EXPECT_EQ(one.seg_size, 1);
  EXPECT_EQ(one.num_seg, 4096);
}

TEST(AlignedCooSegSize, NextFitPacking) {
  EXPECT_EQ(next_fit_lanes({3, 1, 2, 2, 1, 1}, 3), 4);  // 004 Fig. 2(b)
  EXPECT_EQ(next_fit_lanes({5, 1, 5, 1}, 5), 4);
  EXPECT_EQ(next_fit_lanes({0, 0}, 5), 0);
  // Fixed lanes: the smallest depth that fits them.
  EXPECT_EQ(shape_in_lanes({3, 1, 2, 2, 1, 1}, 3).num_seg, 4);
  EXPECT_EQ(shape_in_lanes({3, 1, 2, 2, 1, 1}, 1).num_seg, 10);
  EXPECT_EQ(shape_in_lanes({3, 1, 2, 2, 1, 1}, 10).num_seg, 3);
}

/// The sequential next-fit the device version replaces: lane of every row.
std::vector<std::int64_t> next_fit_reference(const std::vector<std::int64_t>& len,
                                             std::int64_t capacity) {
  std::vector<std::int64_t> lane_of(len.size(), -1);
  std::int64_t lane = -1, fill = capacity;
  for (std::size_t i = 0; i < len.size(); ++i) {
    if (len[i] > 0 && fill + len[i] > capacity) {
      ++lane;
      fill = 0;
    }
    fill += len[i];
    lane_of[i] = lane;
  }
  return lane_of;
}

// The pointer-doubling next-fit gives every row the lane the sequential loop
// gives it: random lengths with empty rows, runs of equal rows (chains of
// every length up to thousands of lanes), one long row, at capacities from
// the longest row up.
TEST(AlignedCooNextFit, MatchesTheSequentialPackingRowByRow) {
  Lcg rng(2026);
  for (int trial = 0; trial < 24; ++trial) {
    const std::size_t rows = trial < 4 ? std::size_t(trial) : std::size_t(1) << (trial % 13);
    std::vector<std::int64_t> len(rows);
    for (auto& l : len) l = rng.below(trial % 3 == 0 ? 3 : 40);
    if (rows > 8 && trial % 4 == 1) len[rows / 3] = 5000;
    std::int64_t longest = 0;
    for (auto l : len) longest = std::max(longest, l);
    for (std::int64_t capacity : {longest, longest + 1, 2 * longest + 3, 64 * longest + 5}) {
      if (capacity == 0) continue;
      const auto expected = next_fit_reference(len, capacity);
      const auto got = detail::next_fit(exec(), row_pointer(len), capacity);
      const auto lane_of = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), got.lane_of);
      ASSERT_EQ(lane_of.extent(0), rows);
      std::int64_t lanes = 0;
      for (std::size_t i = 0; i < rows; ++i) {
        ASSERT_EQ(lane_of(i), expected[i]) << "trial " << trial << " row " << i << " capacity "
                                           << capacity;
        lanes = std::max<std::int64_t>(lanes, expected[i] + 1);
      }
      EXPECT_EQ(got.lanes, lanes);
    }
  }
}

// Fixed lanes: the capacity is the smallest between the longest row and the
// bound ceil(nnz/lanes) + longest - 1 that packs into them.
TEST(AlignedCooNextFit, ShapeForLanesIsTheSmallestCapacityThatFits) {
  Lcg rng(7);
  std::vector<std::int64_t> len(3000);
  for (auto& l : len) l = 1 + rng.below(30);
  std::int64_t nnz = 0, longest = 0;
  for (auto l : len) {
    nnz += l;
    longest = std::max(longest, l);
  }
  auto lanes_at = [&](std::int64_t c) {
    const auto r = next_fit_reference(len, c);
    return r.back() + 1;
  };
  for (std::int64_t lanes : {1, 2, 7, 100, 1000, 2999, 5000}) {
    const auto s = shape_in_lanes(len, lanes);
    EXPECT_EQ(s.seg_size, lanes);
    EXPECT_LE(lanes_at(s.num_seg), lanes) << lanes;
    EXPECT_LE(s.num_seg, std::min(nnz, (nnz + lanes - 1) / lanes + longest - 1)) << lanes;
    if (s.num_seg > longest) {
      EXPECT_GT(lanes_at(s.num_seg - 1), lanes) << lanes;
    }
  }
}

// Defaults: MAX_THREADS 30720, WARP_SIZE 32, WARP_SCHEDULE_TIME 1,
// blocksize 128 (log2 = 7), blocks = ceil(active/128).
TEST(AlignedCooCost, FlatCostByHand) {
  const aligned_coo_cost c;
  EXPECT_EQ(tuning::flat_cost(0, c), 0.0);
  // nnz 1000: iteration 1 * 5 + 1000 mod 32 = 8 + 8 blocks * 7 + 32 warps = 101
  EXPECT_DOUBLE_EQ(tuning::flat_cost(1000, c), 101.0);
  // nnz 100000: active 30720, iteration 4 * 5 + 0 + 240 * 7 + 3125 = 4825
  EXPECT_DOUBLE_EQ(tuning::flat_cost(100000, c), 4825.0);
  aligned_coo_cost fixed = c;
  fixed.blocks = 3;  // 5 + 8 + 3 * 7 + 32
  EXPECT_DOUBLE_EQ(tuning::flat_cost(1000, fixed), 66.0);
}

TEST(AlignedCooCost, SegCostUsesMinNotThePrintedMax) {
  const aligned_coo_cost c;
  EXPECT_EQ(tuning::seg_cost(0, 5, 0, c), 0.0);
  // Fig. 2: 4 lanes x 3 segments, full: iteration 1 * 3 + 1 warp = 4.
  EXPECT_DOUBLE_EQ(tuning::seg_cost(4, 3, 12, c), 4.0);
  // 100000 lanes: active = min(100000, 30720) -> iteration 4 * 5 + 960 warps.
  // The printed max would give 1 * 5 + 3125.
  EXPECT_DOUBLE_EQ(tuning::seg_cost(100000, 5, 500000, c), 980.0);
}

TEST(AlignedCooCost, SegCostPricesPaddingPerWarp) {
  const aligned_coo_cost c;
  // 4 x 3 slots holding 5 entries: 7 padding slots are one more warp.
  EXPECT_DOUBLE_EQ(tuning::seg_cost(4, 3, 5, c), 5.0);
  // 100000 x 5 slots holding 100000 entries: 400000 padding slots, 12500
  // warps on top of the 980 of the full layout.
  EXPECT_DOUBLE_EQ(tuning::seg_cost(100000, 5, 100000, c), 980.0 + 12500.0);
  // More slots than an int64 holds: still a finite, huge cost.
  const std::int64_t big = std::int64_t(1) << 40;
  EXPECT_GT(tuning::seg_cost(big, big, 1, c), 1e20);
}

TEST(AlignedCooCost, ChoiceIsTheArgmin) {
  // Printed Alg. 3 would move everything to flat here (the most expensive).
  EXPECT_EQ(tuning::choose_split({3.0, 5.0, 7.0}), split::hybrid);
  EXPECT_EQ(tuning::choose_split({10.0, 5.0, 7.0}), split::all_seg);
  EXPECT_EQ(tuning::choose_split({10.0, 9.0, 2.0}), split::all_flat);
  // Ties prefer fewer kernels: all_seg, then all_flat, then hybrid.
  EXPECT_EQ(tuning::choose_split({5.0, 5.0, 5.0}), split::all_seg);
  EXPECT_EQ(tuning::choose_split({5.0, 9.0, 5.0}), split::all_flat);
}

TEST(AlignedCooCost, BadConstantsThrow) {
  auto with = [](auto change) {
    aligned_coo_cost c;
    change(c);
    return c;
  };
  EXPECT_NO_THROW(tuning::validate(aligned_coo_cost{}));
  EXPECT_THROW(tuning::validate(with([](auto& c) { c.max_threads = 0; })), invalid_parameter);
  EXPECT_THROW(tuning::validate(with([](auto& c) { c.warp_size = 0; })), invalid_parameter);
  EXPECT_THROW(tuning::validate(with([](auto& c) { c.warp_schedule_time = -1; })),
               invalid_parameter);
  EXPECT_THROW(tuning::validate(with([](auto& c) {
                 c.warp_schedule_time = std::numeric_limits<double>::quiet_NaN();
               })),
               invalid_parameter);
  EXPECT_THROW(tuning::validate(with([](auto& c) { c.block_size = 0; })), invalid_parameter);
  EXPECT_THROW(tuning::validate(with([](auto& c) { c.blocks = -1; })), invalid_parameter);
}

/// What detail::plan_aligned_coo returned before the plan layer: the split
/// and costs of 004 Alg. 3 (tuning::choose_aligned_coo), and the sizes of
/// both parts of the layout tuning::select resolves it to.
struct Plan {
  split split_choice;
  tuning::aligned_coo_costs costs;
  std::int64_t seg_nnz, flat_nnz;
};

Plan plan_for(const std::vector<std::int64_t>& row_len) {
  const aligned_coo::params p{};
  const auto row_ptr = row_pointer(row_len);
  const tuning::aligned_coo_choice c = tuning::choose_aligned_coo(exec(), row_ptr, p);
  const aligned_coo::layout l = tuning::select(exec(), row_ptr, tuning::DeviceProfile{}, p);
  EXPECT_EQ(l.choice, c.split);
  EXPECT_EQ(l.seg_size, std::max<std::int64_t>(c.shape.seg_size, 1));
  const auto plan = detail::plan_layout(exec(), row_ptr, l);
  EXPECT_EQ(plan.split, c.split);
  return Plan{c.split, c.costs, plan.seg_nnz, plan.flat_nnz};
}

// A split whose layout would not fit the storage limit is never chosen:
// the diagonal's seg layouts (1000 slots of 16 bytes) exceed 1000 bytes, so
// the flat part takes everything although the model prefers the seg part.
TEST(AlignedCooCost, LayoutsOverTheStorageLimitAreSkipped) {
  const auto diag = row_pointer(std::vector<std::int64_t>(1000, 1));
  const aligned_coo::params p{};
  EXPECT_EQ(tuning::choose_aligned_coo(exec(), diag, p).split, split::all_seg);
  EXPECT_EQ(tuning::choose_aligned_coo(exec(), diag, p, 16, 1u << 20).split, split::all_seg);
  const auto c = tuning::choose_aligned_coo(exec(), diag, p, 16, 1000);
  EXPECT_EQ(c.split, split::all_flat);
  EXPECT_TRUE(std::isinf(c.costs.all_seg));
  EXPECT_TRUE(std::isinf(c.costs.hybrid));
  aligned_coo::params limited;
  limited.max_bytes = 1000;
  EXPECT_EQ(tuning::select(exec(), diag, tuning::DeviceProfile{}, limited, 16).choice,
            split::all_flat);
}

// Matrices where the answer is clear under the default constants.
TEST(AlignedCooCost, DecisionOnClearCases) {
  // Diagonal, 1000 rows: one segment of 1000 lanes (1 + 32 warps = 33)
  // against COO_flat 101; hybrid has no flat part and ties with all_seg.
  const auto diag = plan_for(std::vector<std::int64_t>(1000, 1));
  EXPECT_DOUBLE_EQ(diag.costs.all_seg, 33.0);
  EXPECT_DOUBLE_EQ(diag.costs.hybrid, 33.0);
  EXPECT_DOUBLE_EQ(diag.costs.all_flat, 101.0);
  EXPECT_EQ(diag.split_choice, split::all_seg);

  // One row of 4096 = 128 warps: the seg part would be 1 lane x 4096
  // segments (4097); flat: 5 + 0 + 32 blocks * 7 + 128 = 357; hybrid = flat.
  const auto dense = plan_for({4096});
  EXPECT_DOUBLE_EQ(dense.costs.all_seg, 4097.0);
  EXPECT_DOUBLE_EQ(dense.costs.all_flat, 357.0);
  EXPECT_DOUBLE_EQ(dense.costs.hybrid, 357.0);
  EXPECT_EQ(dense.split_choice, split::all_flat);

  // One row of 4097 then 4000 rows of 1: hybrid puts 4096 in flat (357) and
  // the 4001 trails in one segment of 4001 lanes (1 + 126 = 127): 484.
  // all_seg: 2 lanes x 4097 segments (4098) + 97 padding slots (4 warps);
  // all_flat(8097): 5 + 1 + 64*7 + 254 = 708.
  std::vector<std::int64_t> skewed(4001, 1);
  skewed[0] = 4097;
  const auto sk = plan_for(skewed);
  EXPECT_DOUBLE_EQ(sk.costs.hybrid, 484.0);
  EXPECT_DOUBLE_EQ(sk.costs.all_seg, 4102.0);
  EXPECT_DOUBLE_EQ(sk.costs.all_flat, 708.0);
  EXPECT_EQ(sk.split_choice, split::hybrid);
  EXPECT_EQ(sk.seg_nnz, 4001);
  EXPECT_EQ(sk.flat_nnz, 4096);
}

}  // namespace
}  // namespace kobalt::test
