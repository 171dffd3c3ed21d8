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

//     | 1+i   2  |        x = (1 - i, 3i)
// A = |  0   -2i |        A x = ((1+i)(1-i) + 2*3i, -2i*3i) = (2 + 6i, 6)
// y = i*A*x + (1 - i)*y_in with y_in = (1, 2i):
//   y_0 = i(2 + 6i) + (1 - i) = -6 + 2i + 1 - i = -5 + i
//   y_1 = 6i + (1 - i)2i = 6i + 2i + 2 = 2 + 8i
TEST(ReferenceSpmv, ComplexHandCheckedProduct) {
  using C = Kokkos::complex<double>;
  Triplets<Kokkos::complex<float>, int> t;
  t.rows = 2;
  t.cols = 2;
  t.push_back(0, 0, {1, 1});
  t.push_back(0, 1, {2, 0});
  t.push_back(1, 1, {0, -2});
  const auto r = reference_spmv(t, C(0, 1), std::vector<C>{C(1, -1), C(0, 3)}, C(1, -1),
                                std::vector<C>{C(1, 0), C(0, 2)});
  EXPECT_EQ(r.y, (std::vector<C>{C(-5, 1), C(2, 8)}));
  // bound = |i| (|2| + |6i|) + |(1 - i) 1|, |i| |6| + |(1 - i) 2i|
  EXPECT_DOUBLE_EQ(r.bound[0], 8 + std::sqrt(2.0));
  EXPECT_DOUBLE_EQ(r.bound[1], 6 + 2 * std::sqrt(2.0));
  // A complex result is judged by |got - y|: an error in the imaginary part
  // alone counts, and NaN in either part is refused where y is finite.
  const double tol = r.tolerance<Kokkos::complex<float>>(0);
  EXPECT_TRUE(r.accepts<Kokkos::complex<float>>(0, C(-5 + tol / 2, 1)));
  EXPECT_FALSE(r.accepts<Kokkos::complex<float>>(0, C(-5, 1 + 2 * tol)));
  EXPECT_FALSE(
      r.accepts<Kokkos::complex<float>>(0, C(-5, std::numeric_limits<double>::quiet_NaN())));
  // complex<float>'s tolerance: (n_i + 4 + 3) * float eps * bound + float min.
  EXPECT_DOUBLE_EQ(tol, (2 + 4 + 3) * double(std::numeric_limits<float>::epsilon()) * r.bound[0] +
                            double(std::numeric_limits<float>::min()));
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
