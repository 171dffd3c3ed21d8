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

TEST(ReferenceSpmv, RejectsWrongSizes) {
  EXPECT_THROW(reference_spmv(small(), 1.0, std::vector<double>(2), 0.0, std::vector<double>(3)),
               dimension_mismatch);
}

}  // namespace
}  // namespace kobalt
