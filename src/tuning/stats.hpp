// SPDX-License-Identifier: BSD-3-Clause
// Row statistics of a matrix, computed once on the device; every strategy
// decision reads these numbers, never the matrix again (DESIGN.md, Tuning).
// Also the row-length quantile Q_R(x) of seed 000 §4, eq. (6)-(7), that the
// hybrid split t = Q_R(x) is built on.
#pragma once

#include "../compat.hpp"
#include "../errors.hpp"

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <ostream>
#include <string>

namespace kobalt::tuning {

// Row-length variance at or below which a matrix counts as regular: 002 §5.3
// (sigma^2 of nonzeros per row <= 10).
inline constexpr double regular_variance_limit = 10.0;

/// Row statistics of a sparse matrix. Row lengths are stored entries per row
/// (explicit zeros count). variance is the population variance
/// (1/rows) * sum_i (n_i - mean)^2; 002 §5.3 does not say which variance it
/// uses, Kobalt takes the population one. All fields are 0 for a matrix
/// without rows.
struct MatrixStats {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::int64_t nnz = 0;
  std::int64_t min_row_nnz = 0;
  std::int64_t max_row_nnz = 0;
  double mean_row_nnz = 0.0;
  double variance_row_nnz = 0.0;
  std::int64_t empty_rows = 0;

  /// 002 §5.3: regular when the row-length variance is at most 10.
  bool regular() const { return variance_row_nnz <= regular_variance_limit; }

  friend std::ostream& operator<<(std::ostream& os, const MatrixStats& s) {
    return os << "{rows=" << s.rows << ", cols=" << s.cols << ", nnz=" << s.nnz
              << ", min_row_nnz=" << s.min_row_nnz << ", max_row_nnz=" << s.max_row_nnz
              << ", mean_row_nnz=" << s.mean_row_nnz
              << ", variance_row_nnz=" << s.variance_row_nnz
              << ", empty_rows=" << s.empty_rows << "}";
  }
};

/// Row statistics of a Csr (any class with rows(), cols(), nnz(), row_ptr()
/// and an execution_space), computed on the device with two parallel_reduce
/// passes over the row pointer (min/max/empty, then the variance around the
/// mean, which is numerically safer than a sum of squares).
template <class CsrMatrix>
MatrixStats analyze(const CsrMatrix& a) {
  using exec = typename CsrMatrix::execution_space;
  using Index = typename CsrMatrix::index_type;
  MatrixStats s;
  s.rows = static_cast<std::int64_t>(a.rows());
  s.cols = static_cast<std::int64_t>(a.cols());
  s.nnz = a.nnz();
  if (s.rows == 0) return s;
  compat::ScopedRegion region("kobalt::tuning::analyze");
  const auto row_ptr = a.row_ptr();
  Index min_len = 0, max_len = 0;
  std::int64_t empty = 0;
  Kokkos::parallel_reduce(
      "kobalt::tuning::analyze::extrema", Kokkos::RangePolicy<exec>(0, s.rows),
      KOKKOS_LAMBDA(const std::int64_t i, Index& lo, Index& hi, std::int64_t& e) {
        const Index len = row_ptr(i + 1) - row_ptr(i);
        if (len < lo) lo = len;
        if (len > hi) hi = len;
        if (len == 0) ++e;
      },
      Kokkos::Min<Index>(min_len), Kokkos::Max<Index>(max_len),
      Kokkos::Sum<std::int64_t>(empty));
  s.min_row_nnz = static_cast<std::int64_t>(min_len);
  s.max_row_nnz = static_cast<std::int64_t>(max_len);
  s.empty_rows = empty;
  s.mean_row_nnz = static_cast<double>(s.nnz) / static_cast<double>(s.rows);
  const double mean = s.mean_row_nnz;
  double squares = 0.0;
  Kokkos::parallel_reduce(
      "kobalt::tuning::analyze::variance", Kokkos::RangePolicy<exec>(0, s.rows),
      KOKKOS_LAMBDA(const std::int64_t i, double& acc) {
        const double d = static_cast<double>(row_ptr(i + 1) - row_ptr(i)) - mean;
        acc += d * d;
      },
      Kokkos::Sum<double>(squares));
  s.variance_row_nnz = squares / static_cast<double>(s.rows);
  return s;
}

/// floor(x * n), exactly, for 0 <= x <= 1 and 0 <= n <= 2^53 (the product is
/// split into its rounded value and its exact error with one fma, so no
/// rounding of x * n can move the result across an integer).
inline std::int64_t floor_product(double x, std::int64_t n) {
  const double nd = static_cast<double>(n);
  const double p = x * nd;
  const double error = std::fma(x, nd, -p);  // x * n - p, exact
  double f = std::floor(p);
  if (f == p && error < 0.0) f -= 1.0;
  return static_cast<std::int64_t>(f);
}

namespace detail {
/// Smallest row length t with |{rows with length <= t}| > rank, by counting
/// selection: a device histogram of row lengths (atomic increments), an
/// inclusive scan over it, and a Min reduction for the first bin whose
/// cumulative count exceeds rank. O(rows + max_row_nnz) work, no sort;
/// 0 <= rank < rows.
template <class ExecutionSpace, class IndexView>
std::int64_t row_length_order_statistic(const IndexView& row_ptr, std::int64_t rows,
                                        std::int64_t max_row_nnz, std::int64_t rank) {
  using Index = typename IndexView::non_const_value_type;
  using count_view = Kokkos::View<Index*, typename IndexView::device_type>;
  const std::int64_t bins = max_row_nnz + 1;
  count_view count("kobalt::tuning::row_length_histogram", bins);
  Kokkos::parallel_for(
      "kobalt::tuning::quantile::histogram", Kokkos::RangePolicy<ExecutionSpace>(0, rows),
      KOKKOS_LAMBDA(const std::int64_t i) {
        Kokkos::atomic_add(&count(row_ptr(i + 1) - row_ptr(i)), Index(1));
      });
  Kokkos::parallel_scan(
      "kobalt::tuning::quantile::cumulate", Kokkos::RangePolicy<ExecutionSpace>(0, bins),
      KOKKOS_LAMBDA(const std::int64_t t, Index& partial, const bool final) {
        partial += count(t);
        if (final) count(t) = partial;
      });
  std::int64_t t_min = max_row_nnz;
  Kokkos::parallel_reduce(
      "kobalt::tuning::quantile::select", Kokkos::RangePolicy<ExecutionSpace>(0, bins),
      KOKKOS_LAMBDA(const std::int64_t t, std::int64_t& m) {
        if (static_cast<std::int64_t>(count(t)) > rank && t < m) m = t;
      },
      Kokkos::Min<std::int64_t>(t_min));
  return t_min;
}
}  // namespace detail

/// Q_R(x) of 000 eq. (6)-(7): the smallest t in N = {0, 1, 2, ...} with
/// x < F_R(t), where F_R(t) = |{rows of length <= t}| / rows. Equivalently
/// the (floor(x * rows) + 1)-th smallest row length, found by selection on
/// the device (a histogram, not a sort).
///
/// Ends of the range (000 Table 1):
/// - x < 0: every t satisfies x < F_R(t) (F_R >= 0), so Q_R(x) = 0: no ELL
///   columns, the whole matrix in COO. (Not the shortest row: t = 0 exactly.)
/// - 1 - 1/rows <= x < 1: Q_R(x) = the longest row, the whole matrix in ELL.
/// - x >= 1: no t satisfies x < F_R(t) <= 1; Kobalt defines Q_R(x) = the
///   longest row, the limit of the x -> 1 end (whole matrix in ELL).
/// - a matrix without rows: 0.
/// Throws invalid_parameter if x is NaN or infinite.
template <class CsrMatrix>
std::int64_t row_length_quantile(const CsrMatrix& a, double x) {
  if (!std::isfinite(x))
    throw invalid_parameter("kobalt::tuning::row_length_quantile: x = " + std::to_string(x) +
                            " must be finite (000 eq. 6 takes a real x)");
  const std::int64_t rows = static_cast<std::int64_t>(a.rows());
  if (rows == 0 || x < 0.0) return 0;
  const std::int64_t longest = static_cast<std::int64_t>(a.max_row_nnz());
  if (x >= 1.0) return longest;
  const std::int64_t rank = floor_product(x, rows);  // in [0, rows - 1]
  if (rank >= rows - 1) return longest;
  compat::ScopedRegion region("kobalt::tuning::row_length_quantile");
  return detail::row_length_order_statistic<typename CsrMatrix::execution_space>(
      a.row_ptr(), rows, longest, rank);
}

}  // namespace kobalt::tuning
