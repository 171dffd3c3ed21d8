// SPDX-License-Identifier: BSD-3-Clause
// The sequential host oracle every kernel is tested against. It works on
// Triplets (no Kobalt format is involved), accumulates in double, and also
// returns the bound sum_j |alpha a_ij x_j| + |beta y_i| that tolerances are
// derived from.
#pragma once

#include "../errors.hpp"
#include "../formats/triplets.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace kobalt {

/// What spmv_reference returns: the exact-as-possible result in double, and
/// per row the bound and entry count that the accepted error is derived from.
struct ReferenceResult {
  std::vector<double> y;      ///< alpha*A*x + beta*y_in, in double
  std::vector<double> bound;  ///< per row: sum_j |alpha a_ij x_j| + |beta y_in_i|
  std::vector<std::int64_t> entries;  ///< per row: stored entries n_i

  /// The accepted error of row i for a result computed in Scalar:
  /// (n_i + 4) * eps * bound_i (recursive summation's gamma_n plus the
  /// epilogue's roundings), plus the smallest normal number for bound 0.
  template <class Scalar>
  double tolerance(std::size_t i) const {
    return (entries[i] + 4) * std::numeric_limits<Scalar>::epsilon() * bound[i] +
           std::numeric_limits<Scalar>::min();
  }

  /// Whether `got` (computed in Scalar) is an acceptable row i: within
  /// tolerance, or NaN/Inf where the reference is NaN/Inf (NaN or Inf in A
  /// or x) or where the row's terms overflow Scalar (bound_i beyond its
  /// largest value: the partial sums may overflow in any order).
  template <class Scalar>
  bool accepts(std::size_t i, double got) const {
    if (!std::isfinite(y[i])) return !std::isfinite(got);
    const bool may_overflow =
        !(bound[i] <= static_cast<double>(std::numeric_limits<Scalar>::max()));
    if (may_overflow && !std::isfinite(got)) return true;
    return std::abs(got - y[i]) <= tolerance<Scalar>(i);
  }
};

/// y = alpha*A*x + beta*y_in, row by row in double. beta == 0 ignores y_in
/// (NaN in y_in does not propagate). Duplicated entries are summed.
template <class Value, class Index, class X, class Y>
ReferenceResult reference_spmv(const Triplets<Value, Index>& a, double alpha,
                               const std::vector<X>& x, double beta,
                               const std::vector<Y>& y_in) {
  if (x.size() != static_cast<std::size_t>(a.cols) ||
      y_in.size() != static_cast<std::size_t>(a.rows))
    throw dimension_mismatch("reference_spmv: A is " + std::to_string(a.rows) + " x " +
                             std::to_string(a.cols) + ", x has " + std::to_string(x.size()) +
                             " and y has " + std::to_string(y_in.size()) + " entries");
  ReferenceResult r;
  std::vector<double> sum(a.rows, 0.0), abs_sum(a.rows, 0.0);
  r.entries.assign(a.rows, 0);
  for (std::size_t k = 0; k < a.val.size(); ++k) {
    ++r.entries[a.row[k]];
    const double term = static_cast<double>(a.val[k]) * static_cast<double>(x[a.col[k]]);
    sum[a.row[k]] += term;
    abs_sum[a.row[k]] += std::abs(term);
  }
  r.y.resize(a.rows);
  r.bound.resize(a.rows);
  for (Index i = 0; i < a.rows; ++i) {
    const double old = beta == 0.0 ? 0.0 : beta * static_cast<double>(y_in[i]);
    r.y[i] = alpha * sum[i] + old;
    r.bound[i] = std::abs(alpha) * abs_sum[i] + std::abs(old);
  }
  return r;
}

}  // namespace kobalt
