// SPDX-License-Identifier: BSD-3-Clause
// The oracle itself, on hand-checked matrices.
#include <kobalt/kernels/reference.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace kobalt {
namespace {

//     | 1  0  2 |        x = (1, 2, 3)
// A = | 0  0  0 |        A x = (7, 0, 18)
//     | 4  5  0 |
//     ...plus a duplicate (2,1,+1): row 2 becomes 4, 6 -> A x = (7, 0, 16)
Triplets<double, int> small() {
  Triplets<double, int> t;
  t.rows = 3;
  t.cols = 3;
  t.push_back(0, 0, 1.0);
  t.push_back(0, 2, 2.0);
  t.push_back(2, 0, 4.0);
  t.push_back(2, 1, 5.0);
  t.push_back(2, 1, 1.0);  // duplicate: summed
  return t;
}

TEST(ReferenceSpmv, HandCheckedProduct) {
  const auto r = reference_spmv(small(), 1.0, std::vector<double>{1, 2, 3}, 0.0,
                                std::vector<double>(3, 0.0));
  EXPECT_EQ(r.y, (std::vector<double>{7, 0, 16}));
  EXPECT_EQ(r.bound, (std::vector<double>{7, 0, 16}));
}

TEST(ReferenceSpmv, AlphaBetaAndBound) {
  //  y = -2*A*x + 0.5*y_in with y_in = (2, 4, -8)
  const auto r = reference_spmv(small(), -2.0, std::vector<double>{1, -2, 3}, 0.5,
                                std::vector<double>{2, 4, -8});
  // A*x = (1+6, 0, 4-12) = (7, 0, -8)
  EXPECT_EQ(r.y, (std::vector<double>{-14 + 1, 0 + 2, 16 - 4}));
  // bound = 2*(|1|+|6|) + 1, 2*0 + 2, 2*(|4|+|-12|) + 4
  EXPECT_EQ(r.bound, (std::vector<double>{15, 2, 36}));
}

TEST(ReferenceSpmv, BetaZeroIgnoresNaN) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto r = reference_spmv(small(), 1.0, std::vector<double>{1, 2, 3}, 0.0,
                                std::vector<double>{nan, nan, nan});
  EXPECT_EQ(r.y, (std::vector<double>{7, 0, 16}));
}

TEST(ReferenceSpmv, AccumulatesInDouble) {
  // 1e8 + 1 - 1e8 in float loses the 1; the reference must not.
  Triplets<float, int> t;
  t.rows = 1;
  t.cols = 3;
  t.push_back(0, 0, 1e8f);
  t.push_back(0, 1, 1.0f);
  t.push_back(0, 2, -1e8f);
  const auto r = reference_spmv(t, 1.0, std::vector<float>{1, 1, 1}, 0.0, std::vector<float>{0});
  EXPECT_EQ(r.y[0], 1.0);
}

// accepts(): within tolerance, or NaN/Inf only where the reference allows it.
TEST(ReferenceSpmv, AcceptsNaNAndInfOnlyWhereTheReferenceHasThem) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  Triplets<float, int> t;
  t.rows = 4;
  t.cols = 2;
  t.push_back(0, 0, 1.0f);                                      // finite row
  t.push_back(1, 0, std::numeric_limits<float>::quiet_NaN());  // NaN in A
  t.push_back(2, 1, std::numeric_limits<float>::infinity());   // Inf in A
  t.push_back(3, 0, 3e38f);                                     // finite in double,
  t.push_back(3, 1, 3e38f);                                     // overflows float
  const auto r = reference_spmv(t, 1.0, std::vector<float>{1, 1}, 0.0, std::vector<float>(4, 0));
  EXPECT_TRUE(r.accepts<float>(0, 1.0));
  EXPECT_FALSE(r.accepts<float>(0, nan));
  EXPECT_FALSE(r.accepts<float>(0, inf));
  EXPECT_FALSE(r.accepts<float>(0, 1.5));
  EXPECT_TRUE(r.accepts<float>(1, nan));
  EXPECT_FALSE(r.accepts<float>(1, 0.0));
  EXPECT_TRUE(r.accepts<float>(2, inf));
  EXPECT_TRUE(r.accepts<float>(2, nan));  // Inf - Inf in another order
  EXPECT_FALSE(r.accepts<float>(2, 1.0));
  EXPECT_TRUE(r.accepts<float>(3, inf));  // the float sum overflows
  EXPECT_TRUE(r.accepts<float>(3, 6e38));
  EXPECT_FALSE(r.accepts<double>(3, inf));  // in double it must not
}

TEST(ReferenceSpmv, RejectsWrongSizes) {
  EXPECT_THROW(reference_spmv(small(), 1.0, std::vector<double>(2), 0.0, std::vector<double>(3)),
               dimension_mismatch);
}

}  // namespace
}  // namespace kobalt
