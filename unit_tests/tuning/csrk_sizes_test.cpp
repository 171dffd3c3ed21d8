// SPDX-License-Identifier: BSD-3-Clause
// CSR-k sizes (002 §4.1 log model, §4.2 fallback). The launch shapes
// (002 §4.1 block dimensions) are tuning::select's: select_test.cpp.
#include "fixtures/profiles.hpp"

#include <kobalt/tuning/csrk_sizes.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace kobalt::tuning {
namespace {

struct Worked {
  double rdensity;
  std::int64_t volta_ssrs, volta_srs, ampere_ssrs, ampere_srs;
};

// docs/sources.md, 002's worked values (literal reading), as (SSRS, SRS).
TEST(CsrkSizes, ModelGivesTheWorkedValuesOfNotes) {
  const Worked table[] = {{2, 8, 9, 8, 18},
                          {5, 7, 8, 7, 15},
                          {12, 9, 12, 6, 48},
                          {20, 20, 10, 13, 39},
                          {40, 20, 10, 8, 16}};
  for (const Worked& w : table) {
    const CsrkSizes v = csrk_model_sizes(csrk_volta_model, w.rdensity);
    const CsrkSizes a = csrk_model_sizes(csrk_ampere_model, w.rdensity);
    EXPECT_EQ(v.super_super_row_size, w.volta_ssrs) << "volta r=" << w.rdensity;
    EXPECT_EQ(v.super_row_size, w.volta_srs) << "volta r=" << w.rdensity;
    EXPECT_EQ(a.super_super_row_size, w.ampere_ssrs) << "ampere r=" << w.rdensity;
    EXPECT_EQ(a.super_row_size, w.ampere_srs) << "ampere r=" << w.rdensity;
  }
}

// Hand-computed from the formulas (literal reading), one more point per
// case boundary: r = 8 is case 1, r = 16 case 2, r = 32 case 3.
//   Volta  r = 8:  8.900 - 1.25 ln 8 = 6.30 -> 6;   10.146 - 1.5 ln 8 = 7.03 -> 7
//   Volta  r = 16: 5.43 -> 5 -> round(7.5) = 8;     5.99 -> 6 -> 12
//   Volta  r = 32: 4.57 -> 5 -> 20, SRS = 10
//   Ampere r = 16: 5.51 -> 6;                       10.80 -> 11 -> 44
//   Ampere r = 32: 4.60 -> 5 -> round(12.5) = 13 (half up), SRS = 39
TEST(CsrkSizes, CaseBoundariesAndHalfUpRounding) {
  EXPECT_EQ(csrk_rdensity_case(8.0), 1);
  EXPECT_EQ(csrk_rdensity_case(8.0001), 2);
  EXPECT_EQ(csrk_rdensity_case(16.0), 2);
  EXPECT_EQ(csrk_rdensity_case(32.0), 3);
  EXPECT_EQ(csrk_rdensity_case(32.5), 4);
  auto sizes = [](const CsrkSizeModel& m, double r) {
    const CsrkSizes s = csrk_model_sizes(m, r);
    return std::make_pair(s.super_super_row_size, s.super_row_size);
  };
  EXPECT_EQ(sizes(csrk_volta_model, 8), std::make_pair(std::int64_t(6), std::int64_t(7)));
  EXPECT_EQ(sizes(csrk_volta_model, 16), std::make_pair(std::int64_t(8), std::int64_t(12)));
  EXPECT_EQ(sizes(csrk_volta_model, 32), std::make_pair(std::int64_t(20), std::int64_t(10)));
  EXPECT_EQ(sizes(csrk_ampere_model, 16), std::make_pair(std::int64_t(6), std::int64_t(44)));
  EXPECT_EQ(sizes(csrk_ampere_model, 32), std::make_pair(std::int64_t(13), std::int64_t(39)));
  EXPECT_EQ(round_half_up(12.5), 13);
  EXPECT_EQ(round_half_up(-0.5), 0);
  EXPECT_EQ(round_half_up(2.4999), 2);
}

TEST(CsrkSizes, OutsideTheTrainingDataSizesStayPositive) {
  // r < 1 (and r = 0, an empty matrix) is evaluated at r = 1.
  const CsrkSizes at_one = csrk_model_sizes(csrk_ampere_model, 1.0);
  EXPECT_EQ(at_one.super_super_row_size, 9);  // round(9.175)
  EXPECT_EQ(at_one.super_row_size, 21);       // round(20.5) half up
  for (double r : {0.0, 0.25, std::numeric_limits<double>::quiet_NaN()}) {
    const CsrkSizes s = csrk_model_sizes(csrk_ampere_model, r);
    EXPECT_EQ(s.super_super_row_size, at_one.super_super_row_size) << r;
    EXPECT_EQ(s.super_row_size, at_one.super_row_size) << r;
  }
  for (double r : {1e3, 1e6, 1e12}) {
    for (const CsrkSizeModel* m : {&csrk_volta_model, &csrk_ampere_model}) {
      const CsrkSizes s = csrk_model_sizes(*m, r);
      EXPECT_GE(s.super_super_row_size, 1) << m->name << " r=" << r;
      EXPECT_GE(s.super_row_size, 1) << m->name << " r=" << r;
    }
  }
}

TEST(CsrkSizes, DefaultsOfTheHostBackend) {
  const DeviceProfile host = test::default_host_profile();
  ASSERT_FALSE(host.gpu);
  EXPECT_EQ(host.warp_width, 1);  // host backends have one lane
  EXPECT_EQ(host.csrk_model, "none");
  EXPECT_EQ(host.csrk_super_super_row_size, 8);  // what host_csrk_super_super_row_size was
  for (double r : {0.0, 3.0, 50.0}) {
    const CsrkSizes k2 = csrk_default_sizes(host, 2, r);
    EXPECT_EQ(k2.super_row_size, 96);  // 002 §4.2
    const CsrkSizes k3 = csrk_default_sizes(host, 3, r);
    EXPECT_EQ(k3.super_row_size, 96);
    EXPECT_EQ(k3.super_super_row_size, host.csrk_super_super_row_size);
  }
}

// A GPU profile built by hand (warp 32, the Ampere size model): what the
// test used to get by specialising arch::traits for a FakeGpu space.
TEST(CsrkSizes, DefaultsOfGpuBackendsUseTheAmpereModel) {
  const DeviceProfile gpu = test::fake_gpu_profile();
  for (double r : {2.0, 5.0, 12.0, 20.0, 40.0}) {
    const CsrkSizes model = csrk_model_sizes(csrk_ampere_model, r);
    const CsrkSizes k3 = csrk_default_sizes(gpu, 3, r);
    EXPECT_EQ(k3.super_super_row_size, model.super_super_row_size) << r;
    EXPECT_EQ(k3.super_row_size, model.super_row_size) << r;
    const CsrkSizes k2 = csrk_default_sizes(gpu, 2, r);
    EXPECT_EQ(k2.super_row_size, model.super_row_size * model.super_super_row_size) << r;
  }
  // A profile file may name the Volta model instead.
  DeviceProfile volta = gpu;
  volta.csrk_model = "volta";
  const CsrkSizes v = csrk_default_sizes(volta, 3, 12.0);
  EXPECT_EQ(v.super_super_row_size, csrk_model_sizes(csrk_volta_model, 12.0).super_super_row_size);
  EXPECT_EQ(v.super_row_size, csrk_model_sizes(csrk_volta_model, 12.0).super_row_size);
}

// The H200's model is the constant (32, 8) the re-measured grid chose: the
// same sizes at every rdensity and case; CSR-2 gets 32 x 8 = 256 rows.
TEST(CsrkSizes, HopperModelIsTheMeasuredConstant) {
  DeviceProfile h200 = test::fake_gpu_profile();
  h200.csrk_model = "hopper";
  ASSERT_EQ(csrk_model_named("hopper"), &csrk_hopper_model);
  for (double r : {0.5, 2.0, 7.0, 12.0, 27.0, 48.0, 80.0, 1e6}) {
    const CsrkSizes k3 = csrk_default_sizes(h200, 3, r);
    EXPECT_EQ(k3.super_super_row_size, 32) << r;
    EXPECT_EQ(k3.super_row_size, 8) << r;
    EXPECT_EQ(csrk_default_sizes(h200, 2, r).super_row_size, 256) << r;
  }
}

// kobalt-tune's "fitted" model: the profile's four coefficients, no case
// rules (a case-2 rdensity keeps the formula's sizes), each size >= 1.
TEST(CsrkSizes, FittedModelReadsTheProfilesCoefficients) {
  DeviceProfile p = test::fake_gpu_profile();
  p.csrk_model = "fitted";
  p.csrk_ssrs_constant = 20;
  p.csrk_ssrs_log = 4;
  p.csrk_srs_constant = 6;
  p.csrk_srs_log = -2;  // sizes that grow with rdensity are allowed
  CsrkSizeModel m{};
  ASSERT_TRUE(csrk_model_of(p, m));
  EXPECT_STREQ(m.name, "fitted");
  const CsrkSizes at1 = csrk_default_sizes(p, 3, 1.0);
  EXPECT_EQ(at1.super_super_row_size, 20);
  EXPECT_EQ(at1.super_row_size, 6);
  const double r = 12.0;  // case 2: no adjustment
  const CsrkSizes at12 = csrk_default_sizes(p, 3, r);
  EXPECT_EQ(at12.super_super_row_size, round_half_up(20 - 4 * std::log(r)));
  EXPECT_EQ(at12.super_row_size, round_half_up(6 + 2 * std::log(r)));
  EXPECT_EQ(csrk_default_sizes(p, 3, 1e9).super_super_row_size, 1);  // clamped
  p.csrk_model = "none";
  EXPECT_FALSE(csrk_model_of(p, m));
}

// A fitted profile with absurd coefficients (the reader refuses them; a
// profile built in code does not pass it) saturates at csrk_size_max
// instead of overflowing: csrk_srs_constant 1e15 with a large SSRS once
// overflowed SRS x SSRS for k = 2 (signed 64-bit, undefined behaviour).
TEST(CsrkSizes, HugeCoefficientsSaturate) {
  DeviceProfile p = test::fake_gpu_profile();
  p.csrk_model = "fitted";
  p.csrk_ssrs_constant = 1e15;
  p.csrk_ssrs_log = -1e15;
  p.csrk_srs_constant = 1e15;
  p.csrk_srs_log = 0;
  for (const double r : {1.0, 12.0, 1e9}) {
    const CsrkSizes k3 = csrk_default_sizes(p, 3, r);
    EXPECT_EQ(k3.super_super_row_size, csrk_size_max) << r;
    EXPECT_EQ(k3.super_row_size, csrk_size_max) << r;
    const CsrkSizes k2 = csrk_default_sizes(p, 2, r);
    EXPECT_EQ(k2.super_row_size, csrk_size_max) << r;
    EXPECT_EQ(k2.super_super_row_size, 1) << r;
  }
  p.csrk_ssrs_constant = -1e300;  // far below: every size at least one
  EXPECT_EQ(csrk_default_sizes(p, 3, 2.0).super_super_row_size, 1);
  EXPECT_EQ(round_half_up(1e300), csrk_size_max);
  EXPECT_EQ(round_half_up(-1e300), -csrk_size_max);
  EXPECT_EQ(round_half_up(std::numeric_limits<double>::quiet_NaN()), 0);
  EXPECT_EQ(round_half_up(2.5), 3);
  // Within the limit the product is exact: SRS x SSRS for k = 2.
  p.csrk_ssrs_constant = 46341;
  p.csrk_ssrs_log = 0;
  p.csrk_srs_constant = 46340;
  EXPECT_EQ(csrk_default_sizes(p, 2, 1.0).super_row_size, std::int64_t{46341} * 46340);
}

}  // namespace
}  // namespace kobalt::tuning
