// SPDX-License-Identifier: BSD-3-Clause
// The sweep fits of kobalt-tune (tune/fit_sweep.hpp) on hand-made times:
// each matrix's best candidate, the share of the best a candidate keeps,
// the best constant, 002 §4.1's logarithmic regression and §4.2's geometric
// mean of the best sizes.
#include "tune/fit_sweep.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace kobalt::tuning {
namespace {

TEST(FitSweep, BestCandidateSkipsUnmeasuredTimes) {
  EXPECT_EQ(best_candidate({"a", 4, {3e-3, 0, 1e-3, 2e-3}}), 2u);
  EXPECT_EQ(best_candidate({"tie", 4, {2e-3, 1e-3, 1e-3}}), 1u);  // the first of equal ones
  EXPECT_EQ(best_candidate({"none", 4, {0, -1}}), 2u);              // none measured: size
}

TEST(FitSweep, ShareOfBestIsTheGeometricMeanOfBestOverTime) {
  const std::vector<SweepSample> s = {{"a", 4, {1.0, 2.0, 4.0}}, {"b", 9, {4.0, 1.0, 2.0}}};
  EXPECT_NEAR(candidate_share(s, 0), std::sqrt(1.0 * 0.25), 1e-12);
  EXPECT_NEAR(candidate_share(s, 1), std::sqrt(0.5 * 1.0), 1e-12);
  EXPECT_NEAR(candidate_share(s, 2), std::sqrt(0.25 * 0.5), 1e-12);
  EXPECT_EQ(best_constant(s, 3), 1u);
  // A time not measured counts as that matrix's worst candidate.
  EXPECT_NEAR(share_of_best(s, {0.0, 1.0}), std::sqrt(0.25 * 1.0), 1e-12);
  // Faster than the grid's best (sizes off the grid) gives a share above 1.
  EXPECT_NEAR(share_of_best(s, {0.5, 0.5}), 2.0, 1e-12);
  // A matrix with nothing measured does not count.
  const std::vector<SweepSample> with_empty = {{"a", 4, {1.0, 2.0}}, {"c", 2, {0, 0}}};
  EXPECT_NEAR(candidate_share(with_empty, 1), 0.5, 1e-12);
  EXPECT_EQ(share_of_best({}, {}), 0);
}

TEST(FitSweep, TheStartingValueStaysUnlessAnotherGainsTheMargin) {
  // Shares: candidate 0 0.5, candidate 1 1.0 (the best everywhere), 2 0.96.
  const std::vector<SweepSample> s = {{"a", 4, {2.0, 1.0, 1.04}}, {"b", 9, {2.0, 1.0, 1.04}}};
  EXPECT_EQ(best_constant_from(s, 3, 1), 1u);   // the start is the best
  EXPECT_EQ(best_constant_from(s, 3, 0), 1u);   // 1.0 >= 1.05 * 0.5: moves
  EXPECT_EQ(best_constant_from(s, 3, 2), 2u);   // 1.0 < 1.05 * 0.96: stays
  EXPECT_EQ(best_constant_from(s, 3, 3), 1u);   // no starting candidate: the best
  // On both sides of the margin: candidate 0 takes 1.05 x (1 +- 1e-6) as
  // long as candidate 1, the best.
  const std::vector<SweepSample> beyond = {{"a", 4, {sweep_min_gain * 1.000001, 1.0}}};
  EXPECT_EQ(best_constant_from(beyond, 2, 0), 1u);
  const std::vector<SweepSample> within = {{"a", 4, {sweep_min_gain * 0.999999, 1.0}}};
  EXPECT_EQ(best_constant_from(within, 2, 0), 0u);
  EXPECT_EQ(best_constant_from({}, 2, 1), 1u);  // no samples: nothing to move for
  const std::vector<SweepSample> unmeasured = {{"a", 4, {0, 0}}};
  EXPECT_EQ(best_constant_from(unmeasured, 2, 1), 1u);
  // What the choice gains over the start: 1.0 / 0.5 from candidate 0; 1
  // where the start stays; infinity where the start was no candidate.
  EXPECT_NEAR(gain_from(s, 3, 0), 2.0, 1e-12);
  EXPECT_EQ(gain_from(s, 3, 1), 1.0);
  EXPECT_EQ(gain_from(s, 3, 2), 1.0);
  EXPECT_EQ(gain_from(s, 3, 3), std::numeric_limits<double>::infinity());
  EXPECT_EQ(gain_from(unmeasured, 2, 1), 1.0);
  EXPECT_EQ(gain_from({}, 2, 0), 1.0);
}

TEST(FitSweep, LogRegressionRecoversAnExactModel) {
  // y = 9.175 - 1.32 ln x (002's Ampere SSRS before rounding).
  std::vector<double> x = {2, 5, 12, 20, 40}, y;
  for (double v : x) y.push_back(9.175 - 1.32 * std::log(v));
  const LogFit f = log_regression(x, y);
  EXPECT_NEAR(f.constant, 9.175, 1e-9);
  EXPECT_NEAR(f.log, 1.32, 1e-9);
  EXPECT_NEAR(f.at(12), 9.175 - 1.32 * std::log(12.0), 1e-9);
  EXPECT_NEAR(f.at(0.5), f.constant, 1e-12);  // x < 1 taken as 1
}

TEST(FitSweep, LogRegressionOfNoisyPointsAndDegenerateInputs) {
  // Least squares by hand: u = ln x = {0, ln 4}, y = {10, 4}: slope
  // (4 - 10) / ln 4, so log = 6 / ln 4 and constant = 10.
  const LogFit two = log_regression({1, 4}, {10, 4});
  EXPECT_NEAR(two.log, 6 / std::log(4.0), 1e-12);
  EXPECT_NEAR(two.constant, 10, 1e-12);
  // Sizes that grow with density give a negative ln coefficient.
  EXPECT_LT(log_regression({2, 8, 32}, {4, 8, 12}).log, 0);
  // One distinct x: the mean, no slope. No points: zeros.
  const LogFit flat = log_regression({6, 6, 6}, {8, 16, 24});
  EXPECT_EQ(flat.log, 0);
  EXPECT_NEAR(flat.constant, 16, 1e-12);
  EXPECT_EQ(log_regression({}, {}).constant, 0);
}

TEST(FitSweep, GeometricMeanOfTheBestValues) {
  const std::vector<double> srs = {8, 32, 128};
  const std::vector<SweepSample> s = {{"a", 4, {1, 2, 3}},   // best 8
                                      {"b", 9, {3, 2, 1}},   // best 128
                                      {"c", 9, {0, 0, 0}}};  // not measured: left out
  EXPECT_NEAR(geometric_mean_of_best(s, srs), 32, 1e-9);
  EXPECT_EQ(geometric_mean_of_best({}, srs), 0);
}

}  // namespace
}  // namespace kobalt::tuning
