// SPDX-License-Identifier: BSD-3-Clause
// The sequential host oracle every kernel is tested against. It works on
// Triplets (no Kobalt format is involved), accumulates in double (in
// complex<double> for complex values), and also returns the bound
// sum_j |alpha a_ij x_j| + |beta y_i| that tolerances are derived from.
#pragma once

#include "../errors.hpp"
#include "../formats/triplets.hpp"
#include "../scalar.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace kobalt {

namespace detail {
/// |v|: the absolute value, the modulus of a complex v (hypot: no overflow
/// of the squares).
template <class T>
double magnitude(const T& v) {
  if constexpr (is_complex_v<T>) {
    return std::hypot(static_cast<double>(v.real()), static_cast<double>(v.imag()));
  } else {
    return std::abs(static_cast<double>(v));
  }
}
/// Whether v is finite (both parts of a complex v).
template <class T>
bool finite(const T& v) {
  if constexpr (is_complex_v<T>) {
    return std::isfinite(static_cast<double>(v.real())) &&
           std::isfinite(static_cast<double>(v.imag()));
  } else {
    return std::isfinite(static_cast<double>(v));
  }
}
}  // namespace detail

/// What reference_spmv returns: the exact-as-possible result in Acc (double,
/// or Kokkos::complex<double> for complex values), and per row the bound and
/// entry count that the accepted error is derived from.
template <class Acc>
struct BasicReferenceResult {
  std::vector<Acc> y;         ///< alpha*A*x + beta*y_in, in Acc
  std::vector<double> bound;  ///< per row: sum_j |alpha a_ij x_j| + |beta y_in_i|
  std::vector<std::int64_t> entries;  ///< per row: stored entries n_i

  /// The accepted error |got - y_i| of row i for a result computed in Scalar:
  /// (n_i + 4) * eps * bound_i (recursive summation's gamma_n plus the
  /// epilogue's roundings), plus the smallest normal number for bound 0;
  /// eps is that of Scalar's real type. Complex values add 3 eps: a complex
  /// product errs by up to sqrt(2) * gamma_2 (Higham, Accuracy and
  /// Stability, 2nd ed., Lemma 3.5), ~1.5 eps instead of 0.5 eps, once in
  /// the products (summed: 1 eps more) and twice in the epilogue (alpha *
  /// sum, beta * y: 2 eps more); complex additions err like real ones.
  template <class Scalar>
  double tolerance(std::size_t i) const {
    using real = real_type_t<Scalar>;
    const double extra = is_complex_v<Acc> ? 3 : 0;
    return (entries[i] + 4 + extra) * std::numeric_limits<real>::epsilon() * bound[i] +
           std::numeric_limits<real>::min();
  }

  /// Whether `got` (computed in Scalar) is an acceptable row i: within
  /// tolerance, or NaN/Inf where the reference is NaN/Inf (NaN or Inf in A
  /// or x) or where the row's terms overflow Scalar (bound_i beyond its
  /// largest value: the partial sums may overflow in any order).
  template <class Scalar>
  bool accepts(std::size_t i, Acc got) const {
    if (!detail::finite(y[i])) return !detail::finite(got);
    const bool may_overflow =
        !(bound[i] <= static_cast<double>(std::numeric_limits<real_type_t<Scalar>>::max()));
    if (may_overflow && !detail::finite(got)) return true;
    return detail::magnitude(got - y[i]) <= tolerance<Scalar>(i);
  }
};

/// The reference of real values, in double.
using ReferenceResult = BasicReferenceResult<double>;

/// The accumulator of the reference for A of Value, x of X and y of Y:
/// complex<double> if any of them is complex, double otherwise.
template <class Value, class X, class Y>
using reference_scalar_t =
    std::conditional_t<is_complex_v<Value> || is_complex_v<X> || is_complex_v<Y>,
                       Kokkos::complex<double>, double>;

/// y = alpha*A*x + beta*y_in, row by row in reference_scalar_t (double or
/// complex<double>). beta == 0 ignores y_in (NaN in y_in does not
/// propagate). Duplicated entries are summed.
template <class Value, class Index, class X, class Y>
BasicReferenceResult<reference_scalar_t<Value, X, Y>> reference_spmv(
    const Triplets<Value, Index>& a, reference_scalar_t<Value, X, Y> alpha,
    const std::vector<X>& x, reference_scalar_t<Value, X, Y> beta, const std::vector<Y>& y_in) {
  using acc = reference_scalar_t<Value, X, Y>;
  if (x.size() != static_cast<std::size_t>(a.cols) ||
      y_in.size() != static_cast<std::size_t>(a.rows))
    throw dimension_mismatch("reference_spmv: A is " + std::to_string(a.rows) + " x " +
                             std::to_string(a.cols) + ", x has " + std::to_string(x.size()) +
                             " and y has " + std::to_string(y_in.size()) + " entries");
  BasicReferenceResult<acc> r;
  std::vector<acc> sum(a.rows, acc(0));
  std::vector<double> abs_sum(a.rows, 0.0);
  r.entries.assign(a.rows, 0);
  for (std::size_t k = 0; k < a.val.size(); ++k) {
    ++r.entries[a.row[k]];
    const acc term = static_cast<acc>(a.val[k]) * static_cast<acc>(x[a.col[k]]);
    sum[a.row[k]] += term;
    abs_sum[a.row[k]] += detail::magnitude(term);
  }
  r.y.resize(a.rows);
  r.bound.resize(a.rows);
  for (Index i = 0; i < a.rows; ++i) {
    const acc old = beta == acc(0) ? acc(0) : beta * static_cast<acc>(y_in[i]);
    r.y[i] = alpha * sum[i] + old;
    r.bound[i] = detail::magnitude(alpha) * abs_sum[i] + detail::magnitude(old);
  }
  return r;
}

}  // namespace kobalt
