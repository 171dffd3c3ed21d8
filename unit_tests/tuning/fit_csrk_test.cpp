// SPDX-License-Identifier: BSD-3-Clause
// kobalt-tune's CSR-k fit (tune/fit_csrk.hpp) on hand-made grid and
// candidate times: the grids of 002 §4.1-4.2, the candidates the grid
// suggests (the regression's coefficients, the best constant, §4.2's
// geometric mean) and the choice between them.
#include "fixtures/profiles.hpp"
#include "tune/fit_csrk.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace kobalt::test {
namespace {

using tuning::CsrkSizes;
using tuning::SweepSample;

/// Times over `grid` that are 1 at `best` and grow with the distance in
/// log2 of each size from it, so `best` is the sample's optimum.
SweepSample peaked_at(const std::string& name, double rdensity,
                      const std::vector<CsrkSizes>& grid, CsrkSizes best) {
  SweepSample s{name, rdensity, {}};
  for (const auto& g : grid)
    s.seconds.push_back(1.0 + std::fabs(std::log2(double(g.super_super_row_size) /
                                                  double(best.super_super_row_size))) +
                        std::fabs(std::log2(double(g.super_row_size) / double(best.super_row_size))));
  return s;
}

TEST(FitCsrk, GridsAreThePapers) {
  const auto gpu = tuning::csrk_sweep_grid(3);
  ASSERT_EQ(gpu.size(), 64u);  // 002 §4.1: {4,6,8,12,16,24,32,48}^2
  EXPECT_EQ(gpu.front().super_super_row_size, 4);
  EXPECT_EQ(gpu.front().super_row_size, 4);
  EXPECT_EQ(gpu[1].super_row_size, 6);
  EXPECT_EQ(gpu.back().super_super_row_size, 48);
  EXPECT_EQ(gpu.back().super_row_size, 48);
  const auto host = tuning::csrk_sweep_grid(2);
  ASSERT_EQ(host.size(), 18u);  // 002 §4.2: 8 ... 3072
  EXPECT_EQ(host.front().super_row_size, 8);
  EXPECT_EQ(host[1].super_row_size, 12);
  EXPECT_EQ(host.back().super_row_size, 3072);
}

TEST(FitCsrk, GpuCandidatesRegressTheBestSizesOnRdensity) {
  const auto grid = tuning::csrk_sweep_grid(3);
  // Best sizes that fall with density, on the grid: (48, 24) at r = 2,
  // (16, 8) at r = 16.
  const std::vector<SweepSample> s = {peaked_at("sparse", 2, grid, {48, 24}),
                                      peaked_at("dense", 16, grid, {16, 8})};
  tuning::DeviceProfile h200 = fake_gpu_profile();
  h200.csrk_model = "hopper";
  const auto c = tuning::csrk_candidates(s, grid, 3, h200);
  ASSERT_EQ(c.size(), 5u);
  EXPECT_EQ(c[0].profile.csrk_model, "hopper");  // the profile's own first
  EXPECT_EQ(c[1].profile.csrk_model, "volta");
  EXPECT_EQ(c[2].profile.csrk_model, "ampere");
  // Two points: the regression passes through both.
  const auto& reg = c[3].profile;
  EXPECT_EQ(reg.csrk_model, "fitted");
  EXPECT_NEAR(reg.csrk_ssrs_log, (48.0 - 16.0) / std::log(8.0), 1e-9);
  EXPECT_NEAR(reg.csrk_ssrs_constant - reg.csrk_ssrs_log * std::log(2.0), 48, 1e-9);
  EXPECT_NEAR(reg.csrk_srs_constant - reg.csrk_srs_log * std::log(16.0), 8, 1e-9);
  const CsrkSizes at16 = tuning::csrk_default_sizes(reg, 3, 16);
  EXPECT_EQ(at16.super_super_row_size, 16);
  EXPECT_EQ(at16.super_row_size, 8);
  // The best constant: a constant model with ln coefficients 0.
  const auto& constant = c[4].profile;
  EXPECT_EQ(constant.csrk_model, "fitted");
  EXPECT_EQ(constant.csrk_ssrs_log, 0);
  EXPECT_EQ(constant.csrk_srs_log, 0);
  // A profile on 002's Ampere model is not listed twice.
  EXPECT_EQ(tuning::csrk_candidates(s, grid, 3, fake_gpu_profile()).size(), 4u);
}

TEST(FitCsrk, KeepsTheCandidateClosestToTheGridBest) {
  const auto grid = tuning::csrk_sweep_grid(3);
  const std::vector<SweepSample> s = {peaked_at("a", 2, grid, {48, 24}),
                                      peaked_at("b", 16, grid, {16, 8})};
  tuning::DeviceProfile base = fake_gpu_profile();
  base.csrk_model = "hopper";
  base.auto_ell_speedup = 1.75;  // other keys pass through
  const auto c = tuning::csrk_candidates(s, grid, 3, base);
  // Candidate 3 (the regression) at the grid best on both; the others slower.
  std::vector<std::vector<double>> t = {{2, 2}, {3, 1.5}, {1.5, 3}, {1, 1}, {2, 1.2}};
  const auto fit = tuning::fit_csrk(s, grid, 3, c, t, base);
  EXPECT_EQ(fit.profile.csrk_model, "fitted");
  EXPECT_EQ(fit.profile.csrk_ssrs_log, c[3].profile.csrk_ssrs_log);
  EXPECT_EQ(fit.profile.auto_ell_speedup, 1.75);
  EXPECT_NE(fit.report.find("kept: log regression"), std::string::npos) << fit.report;
  EXPECT_NE(fit.report.find("002 Volta"), std::string::npos) << fit.report;
  EXPECT_NE(fit.report.find("SSRS 48, SRS 24"), std::string::npos) << fit.report;
  // Ties keep the earlier candidate: the profile's own.
  t = {{1, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 1}};
  EXPECT_EQ(tuning::fit_csrk(s, grid, 3, c, t, base).profile.csrk_model, "hopper");
  // Nothing measured: the profile stays.
  const auto none = tuning::fit_csrk({}, grid, 3, {}, {}, base);
  EXPECT_EQ(none.profile.csrk_model, "hopper");
  EXPECT_NE(none.report.find("no CSR-k candidate"), std::string::npos) << none.report;
}

TEST(FitCsrk, HostCandidatesTakeTheGeometricMeanOfTheBestSrs) {
  const auto grid = tuning::csrk_sweep_grid(2);
  const std::vector<SweepSample> s = {peaked_at("a", 5, grid, {1, 32}),
                                      peaked_at("b", 7, grid, {1, 512}),
                                      peaked_at("c", 9, grid, {1, 128})};
  const auto c = tuning::csrk_candidates(s, grid, 2, host_profile());
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0].profile.csrk_super_row_size, host_profile().csrk_super_row_size);
  EXPECT_EQ(c[1].profile.csrk_super_row_size, 128);  // (32 * 512 * 128)^(1/3)
  EXPECT_EQ(c[2].profile.csrk_super_row_size, 128);  // closest to all three in log2
  EXPECT_EQ(c[1].profile.csrk_model, "none");
  const auto fit = tuning::fit_csrk(s, grid, 2, c, {{3, 3, 3}, {1, 2, 1}, {1, 2, 1}},
                                    host_profile());
  EXPECT_EQ(fit.profile.csrk_super_row_size, 128);
  EXPECT_NE(fit.report.find("kept: geometric mean"), std::string::npos) << fit.report;
  EXPECT_TRUE(fit.warnings.empty()) << fit.report;  // three matrices measured
  // Two matrices: the keys are still set, with a warning in the report.
  const std::vector<SweepSample> two(s.begin(), s.begin() + 2);
  const auto few = tuning::fit_csrk(two, grid, 2, tuning::csrk_candidates(two, grid, 2, host_profile()),
                                    {{3, 3}, {1, 2}, {1, 2}}, host_profile());
  ASSERT_EQ(few.warnings.size(), 1u) << few.report;
  EXPECT_NE(few.warnings[0].find("fitted from 2 matrices measured"), std::string::npos)
      << few.warnings[0];
  EXPECT_NE(few.report.find(few.warnings[0]), std::string::npos) << few.report;
}

}  // namespace
}  // namespace kobalt::test
