// SPDX-License-Identifier: BSD-3-Clause
// 004's AlignedCoo heuristics: Alg. 1 (segment size) on the paper's worked
// example and at its edges, the §IV-D cost model by hand, and Alg. 3's
// choice as an argmin (the printed comparison is inverted, NOTES.md).
#include <kobalt/formats/aligned_coo_plan.hpp>
#include <kobalt/tuning/aligned_coo_split.hpp>
#include <kobalt/tuning/select.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace kobalt::test {
namespace {

using aligned_coo::split;
using tuning::aligned_coo_cost;

// 004 §IV-A: the 6 x 5 matrix of Fig. 2 (row lengths 3,1,2,2,1,1, NNZ 10).
// Avg_length = 10/6; rows >= it: r0, r2, r3 -> 3. Num_of_seg = 3,
// Approx = 10/3 = 3, Seg_size = 3; Row_len[3]+Row_len[4] = 3 >= 3 -> 4;
// Row_len[4]+Row_len[5] = 2 < 3 -> stop. The paper prints 4 and 3.
TEST(AlignedCooSegSize, PaperWorkedExample) {
  const auto s = tuning::alg1_segment_size({3, 1, 2, 2, 1, 1});
  EXPECT_EQ(s.seg_size, 4);
  EXPECT_EQ(s.num_seg, 3);
}

TEST(AlignedCooSegSize, EdgesOfTheLoopAndEmptyParts) {
  EXPECT_EQ(tuning::alg1_segment_size({}).seg_size, 0);
  EXPECT_EQ(tuning::alg1_segment_size({0, 0, 0}).num_seg, 0);
  // {1,1,1,3}: Approx 6/3 = 2, Avg_length_rows = #{len >= 1.5} = 1 -> 2;
  // 1+3 >= 3 -> 3; Row_len[3] + Row_len[4](read as 0) = 3 >= 3 -> 4 = NR, stop.
  const auto s = tuning::alg1_segment_size({1, 1, 1, 3});
  EXPECT_EQ(s.seg_size, 4);
  EXPECT_EQ(s.num_seg, 3);
  // One row: Seg_size 1, Num_of_seg its length.
  const auto one = tuning::alg1_segment_size({4096});
  EXPECT_EQ(one.seg_size, 1);
  EXPECT_EQ(one.num_seg, 4096);
}

TEST(AlignedCooSegSize, NextFitPacking) {
  EXPECT_EQ(detail::next_fit_lanes({3, 1, 2, 2, 1, 1}, 3), 4);  // 004 Fig. 2(b)
  EXPECT_EQ(detail::next_fit_lanes({5, 1, 5, 1}, 5), 4);
  EXPECT_EQ(detail::next_fit_lanes({0, 0}, 5), 0);
  // Fixed lanes: the smallest depth that fits them.
  EXPECT_EQ(tuning::seg_part_shape({3, 1, 2, 2, 1, 1}, 3).num_seg, 4);
  EXPECT_EQ(tuning::seg_part_shape({3, 1, 2, 2, 1, 1}, 1).num_seg, 10);
  EXPECT_EQ(tuning::seg_part_shape({3, 1, 2, 2, 1, 1}, 10).num_seg, 3);
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
  EXPECT_EQ(tuning::seg_cost(0, 5, c), 0.0);
  // Fig. 2: 4 lanes x 3 segments: iteration 1 * 3 + 1 warp = 4.
  EXPECT_DOUBLE_EQ(tuning::seg_cost(4, 3, c), 4.0);
  // 100000 lanes: active = min(100000, 30720) -> iteration 4 * 5 + 960 warps.
  // The printed max would give 1 * 5 + 3125.
  EXPECT_DOUBLE_EQ(tuning::seg_cost(100000, 5, c), 980.0);
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
  const tuning::aligned_coo_choice c = tuning::choose_aligned_coo(row_len, p);
  const aligned_coo::layout l = tuning::select(row_len, tuning::DeviceProfile{}, p);
  EXPECT_EQ(l.choice, c.split);
  EXPECT_EQ(l.seg_size, std::max<std::int64_t>(c.shape.seg_size, 1));
  const detail::aligned_coo_plan plan = detail::plan_layout(row_len, l);
  EXPECT_EQ(plan.split, c.split);
  return Plan{c.split, c.costs, plan.seg_nnz, plan.flat_nnz};
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
  // all_seg: 2 lanes x 4097 segments (4098); all_flat(8097): 5 + 1 + 64*7 + 254 = 708.
  std::vector<std::int64_t> skewed(4001, 1);
  skewed[0] = 4097;
  const auto sk = plan_for(skewed);
  EXPECT_DOUBLE_EQ(sk.costs.hybrid, 484.0);
  EXPECT_DOUBLE_EQ(sk.costs.all_seg, 4098.0);
  EXPECT_DOUBLE_EQ(sk.costs.all_flat, 708.0);
  EXPECT_EQ(sk.split_choice, split::hybrid);
  EXPECT_EQ(sk.seg_nnz, 4001);
  EXPECT_EQ(sk.flat_nnz, 4096);
}

}  // namespace
}  // namespace kobalt::test
