// SPDX-License-Identifier: BSD-3-Clause
// tuning::analyze (row statistics) and tuning::row_length_quantile (Q_R of
// 000 eq. 6-7, by selection) against host oracles on the edge matrices and on
// random row-length distributions.
#include "fixtures/row_lengths.hpp"
#include "fixtures/spmv_check.hpp"
#include "fixtures/types.hpp"

#include <kobalt/tuning/stats.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace kobalt::test {
namespace {

template <class T>
class Stats : public ::testing::Test {};
TYPED_TEST_SUITE(Stats, ValueIndexTypes, TypeNames);

template <class V, class I>
void expect_stats_match(const Triplets<V, I>& assembled, const std::string& what) {
  const auto a = make_csr(assembled);
  const auto s = tuning::analyze(a);
  const auto len = row_lengths(assembled);
  EXPECT_EQ(s.rows, assembled.rows) << what;
  EXPECT_EQ(s.cols, assembled.cols) << what;
  EXPECT_EQ(s.nnz, assembled.nnz()) << what;
  if (len.empty()) {
    EXPECT_EQ(s.min_row_nnz, 0) << what;
    EXPECT_EQ(s.max_row_nnz, 0) << what;
    EXPECT_EQ(s.mean_row_nnz, 0.0) << what;
    EXPECT_EQ(s.variance_row_nnz, 0.0) << what;
    EXPECT_EQ(s.empty_rows, 0) << what;
    return;
  }
  EXPECT_EQ(s.min_row_nnz, *std::min_element(len.begin(), len.end())) << what;
  EXPECT_EQ(s.max_row_nnz, *std::max_element(len.begin(), len.end())) << what;
  EXPECT_EQ(s.empty_rows, std::count(len.begin(), len.end(), std::int64_t{0})) << what;
  const double n = static_cast<double>(len.size());
  const double mean = std::accumulate(len.begin(), len.end(), 0.0) / n;
  double var = 0.0;
  for (auto l : len) var += (l - mean) * (l - mean);
  var /= n;
  EXPECT_NEAR(s.mean_row_nnz, mean, 1e-12 * (1.0 + mean)) << what;
  EXPECT_NEAR(s.variance_row_nnz, var, 1e-10 * (1.0 + var)) << what;
}

TYPED_TEST(Stats, AnalyzeMatchesHostOnEdgeMatrices) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  for (const auto& m : edge_matrices<V, I>()) {
    Triplets<V, I> t = m.matrix;
    t.assemble();
    expect_stats_match(t, m.name);
  }
}

// analyze_moments: analyze's numbers without the distribution, for Csr
// and for a format without a row pointer (Ell).
TYPED_TEST(Stats, MomentsMatchAnalyzeWithoutTheDistribution) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  using exec = Kokkos::DefaultExecutionSpace;
  for (const auto& m : edge_matrices<V, I>()) {
    Triplets<V, I> t = m.matrix;
    t.assemble();
    const auto a = make_csr(t);
    const auto full = tuning::analyze(a);
    const auto e = to_ell(exec(), a);
    expect_same_moments(tuning::analyze_moments(exec(), a), full, m.name + " (Csr)");
    expect_same_moments(tuning::analyze_moments(exec(), e), full, m.name + " (Ell)");
  }
}

TYPED_TEST(Stats, RegularMeansVarianceAtMostTen) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  // Lengths 1, 9, 3, 7: mean 5, variance (16 + 16 + 4 + 4) / 4 = 10 exactly.
  const auto at_limit = tuning::analyze(make_csr(matrix_with_row_lengths<V, I>({1, 9, 3, 7})));
  EXPECT_EQ(at_limit.variance_row_nnz, 10.0);
  EXPECT_TRUE(at_limit.regular());
  // Lengths 0, 10, 3, 7: variance (25 + 25 + 4 + 4) / 4 = 14.5.
  const auto above = tuning::analyze(make_csr(matrix_with_row_lengths<V, I>({0, 10, 3, 7})));
  EXPECT_EQ(above.variance_row_nnz, 14.5);
  EXPECT_FALSE(above.regular());
  EXPECT_EQ(above.empty_rows, 1);
  EXPECT_EQ(above.min_row_nnz, 0);
  EXPECT_EQ(above.max_row_nnz, 10);
}

/// The x values every quantile test walks: both ends of Table 1 of 000, the
/// paper's key values, and points just beside the rank boundaries.
std::vector<double> quantile_points(std::int64_t rows) {
  std::vector<double> xs = {-1.0, -1e-12, 0.0, 1e-12, 0.1, 0.25, 1.0 / 3.0, 0.4, 0.5,
                            0.75, 0.9, 0.99, 1.0, 1.5, 1e300, -1e300};
  if (rows > 0) {
    const double n = static_cast<double>(rows);
    xs.push_back(1.0 - 1.0 / n);
    xs.push_back(std::nextafter(1.0 - 1.0 / n, 0.0));
    xs.push_back(0.5 / n);
    xs.push_back(std::nextafter(1.0 / n, 0.0));
    xs.push_back(1.0 / n);
  }
  return xs;
}

template <class V, class I>
void expect_quantiles_match(const Triplets<V, I>& assembled, const std::string& what) {
  const auto a = make_csr(assembled);
  const auto len = row_lengths(assembled);
  for (double x : quantile_points(assembled.rows)) {
    EXPECT_EQ(tuning::row_length_quantile(a, x), quantile_oracle(len, x))
        << what << " x=" << x;
  }
  // The selection view of the same number: the (floor(x n) + 1)-th smallest.
  if (!len.empty()) {
    for (double x : {0.0, 0.2, 0.5, 0.8}) {
      auto copy = len;
      const auto k = static_cast<std::size_t>(std::floor(x * copy.size()));
      std::nth_element(copy.begin(), copy.begin() + k, copy.end());
      EXPECT_EQ(tuning::row_length_quantile(a, x), copy[k]) << what << " nth_element x=" << x;
    }
  }
}

/// entries_beyond(analyze(a), t) against the rows counted one by one, for
/// every t from 0 past the longest row.
template <class V, class I>
void expect_entries_beyond_match(const Triplets<V, I>& assembled, const std::string& what) {
  const auto a = make_csr(assembled);
  const auto len = row_lengths(assembled);
  const tuning::MatrixStats s = tuning::analyze(a);
  for (std::int64_t t = 0; t <= s.max_row_nnz + 1; ++t) {
    std::int64_t beyond = 0;
    for (const std::int64_t l : len) beyond += std::max<std::int64_t>(l - t, 0);
    EXPECT_EQ(tuning::entries_beyond(s, t), beyond) << what << " t=" << t;
  }
}

TYPED_TEST(Stats, EntriesBeyondCountsHybridsCooPart) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  for (const auto& m : edge_matrices<V, I>()) {
    Triplets<V, I> t = m.matrix;
    t.assemble();
    expect_entries_beyond_match(t, m.name);
  }
  Lcg rng(11);
  std::vector<std::int64_t> len(17000);
  for (auto& l : len) l = rng.below(200) == 0 ? 1020 + rng.below(300) : rng.below(5);
  expect_entries_beyond_match(matrix_with_row_lengths<V, I>(len), "17000 rows, some of 1020-1319");
  // The moments alone hold no distribution; a negative width is no split.
  const auto a = make_csr(matrix_with_row_lengths<V, I>({1, 2, 3}));
  EXPECT_THROW(tuning::entries_beyond(
                   tuning::analyze_moments(typename decltype(a)::execution_space(), a), 1),
               invalid_parameter);
  EXPECT_THROW(tuning::entries_beyond(tuning::analyze(a), -1), invalid_parameter);
  EXPECT_EQ(tuning::entries_beyond(tuning::analyze(a), 1), 3);
}

TYPED_TEST(Stats, QuantileMatchesOracleOnEdgeMatrices) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  for (const auto& m : edge_matrices<V, I>()) {
    Triplets<V, I> t = m.matrix;
    t.assemble();
    expect_quantiles_match(t, m.name);
  }
}

TYPED_TEST(Stats, QuantileMatchesOracleOnRandomDistributions) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  Lcg rng(2024);
  for (std::int64_t rows : {1, 2, 3, 7, 10, 64, 333, 1000}) {
    for (int shape = 0; shape < 3; ++shape) {
      std::vector<std::int64_t> len(static_cast<std::size_t>(rows));
      for (auto& l : len) {
        if (shape == 0) l = rng.below(6);                                  // narrow
        if (shape == 1) l = rng.below(4) == 0 ? rng.below(200) : rng.below(3);  // skewed
        if (shape == 2) l = 5;                                             // constant
      }
      expect_quantiles_match(matrix_with_row_lengths<V, I>(len),
                             "rows=" + std::to_string(rows) + " shape=" + std::to_string(shape));
    }
  }
}

TYPED_TEST(Stats, QuantileMatchesOracleAcrossHistogramTeamsAndLongRows) {
  // More rows than one histogram team counts (8192) and lengths on both
  // sides of the 1024 bins counted in team scratch.
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  Lcg rng(7);
  std::vector<std::int64_t> len(17000);
  for (auto& l : len) l = rng.below(200) == 0 ? 1020 + rng.below(300) : rng.below(5);
  expect_quantiles_match(matrix_with_row_lengths<V, I>(len), "17000 rows, some of 1020-1319");
}

TYPED_TEST(Stats, QuantileByHandOnRowsOfLengthOneToTen) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  // R = {1, ..., 10}, F_R(t) = t / 10 for 1 <= t <= 10, F_R(0) = 0.
  const auto a = make_csr(matrix_with_row_lengths<V, I>({1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
  EXPECT_EQ(tuning::row_length_quantile(a, 0.5), 6);    // 0.5 < t/10 first at t = 6
  EXPECT_EQ(tuning::row_length_quantile(a, 0.0), 1);    // 0 < F_R(1) = 0.1: no padding
  EXPECT_EQ(tuning::row_length_quantile(a, -0.5), 0);   // x < 0: all COO, t = 0
  EXPECT_EQ(tuning::row_length_quantile(a, 0.25), 3);   // 0.25 < 0.3
  EXPECT_EQ(tuning::row_length_quantile(a, 0.89), 9);   // 0.89 < 0.9
  EXPECT_EQ(tuning::row_length_quantile(a, 0.9), 10);   // 1 - 1/|R|: all ELL
  EXPECT_EQ(tuning::row_length_quantile(a, 1.0), 10);   // x >= 1: longest row
}

TYPED_TEST(Stats, QuantileRejectsNonFiniteX) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  const auto a = make_csr(matrix_with_row_lengths<V, I>({1, 2, 3}));
  EXPECT_THROW(tuning::row_length_quantile(a, std::numeric_limits<double>::quiet_NaN()),
               invalid_parameter);
  EXPECT_THROW(tuning::row_length_quantile(a, std::numeric_limits<double>::infinity()),
               invalid_parameter);
  EXPECT_THROW(tuning::row_length_quantile(a, -std::numeric_limits<double>::infinity()),
               invalid_parameter);
}

TEST(FloorProduct, IsExactAtIntegerBoundaries) {
  // 0.3 in binary is below 3/10, so floor(0.3 * 10) is 2, although the
  // rounded product 0.3 * 10 is exactly 3.0.
  EXPECT_EQ(0.3 * 10.0, 3.0);
  EXPECT_EQ(tuning::floor_product(0.3, 10), 2);
  EXPECT_EQ(tuning::floor_product(0.5, 10), 5);
  EXPECT_EQ(tuning::floor_product(0.25, 10), 2);
  EXPECT_EQ(tuning::floor_product(1.0, 7), 7);
  EXPECT_EQ(tuning::floor_product(0.0, 7), 0);
  EXPECT_EQ(tuning::floor_product(std::nextafter(1.0, 0.0), 3), 2);
}

}  // namespace
}  // namespace kobalt::test
