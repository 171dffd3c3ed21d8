// SPDX-License-Identifier: BSD-3-Clause
// tuning::choose_format (issue 16): the rule that must fire on hand-made
// statistics of each class, and the break-even on expected applies.
#include "fixtures/profiles.hpp"

#include <kobalt/tuning/choose.hpp>

#include <gtest/gtest.h>

#include <limits>
#include <string>

namespace kobalt::test {
namespace {

using tuning::auto_format;
using tuning::MatrixStats;

MatrixStats stats_of(std::int64_t rows, double mean, double variance, std::int64_t longest) {
  MatrixStats s;
  s.rows = s.cols = rows;
  s.nnz = static_cast<std::int64_t>(mean * static_cast<double>(rows));
  s.mean_row_nnz = mean;
  s.variance_row_nnz = variance;
  s.max_row_nnz = longest;
  return s;
}

/// The format chosen, with the rule's text checked for `phrase`.
auto_format chosen(const MatrixStats& s, const tuning::DeviceProfile& p, std::int64_t applies,
                   const std::string& phrase) {
  const auto c = tuning::choose_format(s, p, applies);
  EXPECT_NE(c.rule.find(phrase), std::string::npos) << c.rule;
  EXPECT_EQ(c.rule.rfind(tuning::format_name(c.format), 0), 0u) << c.rule;
  return c.format;
}

const MatrixStats stencil = stats_of(8000000, 7.0, 0.1, 7);       // regular, 5.6e7
const MatrixStats power_law = stats_of(4000000, 16.0, 3e4, 1e5);  // irregular, 6.4e7
const MatrixStats mid_graph = stats_of(40000, 10.0, 1e3, 700);    // irregular, 4e5
const MatrixStats small = stats_of(3000, 5.0, 0.5, 6);            // 1.5e4

TEST(ChooseFormat, GpuRegularTakesEll) {
  EXPECT_EQ(chosen(stencil, fake_gpu_profile(), 1000, "regular (002 §5.3), ELL"),
            auto_format::ell);
}

TEST(ChooseFormat, GpuLargeIrregularTakesHybrid) {
  EXPECT_EQ(chosen(power_law, fake_gpu_profile(), 1000, "irregular (002 §5.3)"),
            auto_format::hybrid);
}

TEST(ChooseFormat, GpuMidIrregularStaysInCsr) {
  EXPECT_EQ(chosen(mid_graph, fake_gpu_profile(), 1000, "CSR automatic (003 Alg. 3)"),
            auto_format::csr);
}

TEST(ChooseFormat, SmallMatricesStayInCsr) {
  EXPECT_EQ(chosen(small, fake_gpu_profile(), 1000000, "auto_min_convert_nnz"), auto_format::csr);
}

TEST(ChooseFormat, HostsStayInCsr) {
  tuning::DeviceProfile host = host_profile();
  ASSERT_EQ(host.auto_min_convert_nnz, 0);
  EXPECT_EQ(chosen(stencil, host, 1000000, "converts nothing"), auto_format::csr);
  EXPECT_EQ(chosen(power_law, host, 1000000, "converts nothing"), auto_format::csr);
}

// A conversion is made from its break-even number of applies on, not before.
TEST(ChooseFormat, FewAppliesStayInCsr) {
  const auto gpu = fake_gpu_profile();
  const std::int64_t ell = tuning::break_even_applies(gpu.auto_ell_speedup,
                                                      gpu.auto_ell_setup_spmvs);
  const std::int64_t hybrid = tuning::break_even_applies(gpu.auto_hybrid_speedup,
                                                         gpu.auto_hybrid_setup_spmvs);
  // 22.5 / (1 - 1/1.47) = 70.4; 34 / (1 - 1/1.24) = 175.7.
  EXPECT_EQ(ell, 71);
  EXPECT_EQ(hybrid, 176);
  EXPECT_EQ(chosen(stencil, gpu, ell - 1, "stays in CSR"), auto_format::csr);
  EXPECT_EQ(chosen(stencil, gpu, ell, "pays off after 71 applies"), auto_format::ell);
  EXPECT_EQ(chosen(power_law, gpu, hybrid - 1, "stays in CSR"), auto_format::csr);
  EXPECT_EQ(chosen(power_law, gpu, hybrid, "pays off after 176 applies"), auto_format::hybrid);
  // A format no faster than CSR never pays off.
  EXPECT_EQ(tuning::break_even_applies(1.0, 5.0), std::numeric_limits<std::int64_t>::max());
  tuning::DeviceProfile slow = gpu;
  slow.auto_ell_speedup = 0.9;
  EXPECT_EQ(chosen(stencil, slow, std::numeric_limits<std::int64_t>::max() - 1, "stays in CSR"),
            auto_format::csr);
}

// The profile's threshold moves the small-matrix rule (kobalt-tune sets it).
TEST(ChooseFormat, ProfileThresholdDecides) {
  tuning::DeviceProfile p = fake_gpu_profile();
  p.auto_min_convert_nnz = 1000;
  EXPECT_EQ(chosen(small, p, 1000, "regular"), auto_format::ell);
  p.auto_min_convert_nnz = 100000000;
  EXPECT_EQ(chosen(stencil, p, 1000, "auto_min_convert_nnz"), auto_format::csr);
  p.auto_min_convert_nnz = 1000;
  p.auto_hybrid_min_nnz = 1000;
  EXPECT_EQ(chosen(mid_graph, p, 1000, "auto_hybrid_min_nnz = 1000, Hybrid"), auto_format::hybrid);
}

}  // namespace
}  // namespace kobalt::test
