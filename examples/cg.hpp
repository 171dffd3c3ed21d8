// SPDX-License-Identifier: BSD-3-Clause
// Unpreconditioned conjugate gradients over Kokkos Views, with the product
// and the inner product given by the caller: a handle on one device, or a
// distributed handle with inner products summed over the ranks.
#pragma once

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>

namespace example {

using Vector = Kokkos::View<double*>;

/// sum_i a(i) * b(i) over this process's entries.
inline double local_dot(const Vector& a, const Vector& b) {
  double result = 0;
  Kokkos::parallel_reduce(
      "example::cg::dot", static_cast<std::int64_t>(a.extent(0)),
      KOKKOS_LAMBDA(const std::int64_t i, double& s) { s += a(i) * b(i); }, result);
  return result;
}

/// y = alpha * x + beta * y
inline void axpby(double alpha, const Vector& x, double beta, const Vector& y) {
  Kokkos::parallel_for(
      "example::cg::axpby", static_cast<std::int64_t>(x.extent(0)),
      KOKKOS_LAMBDA(const std::int64_t i) { y(i) = alpha * x(i) + beta * y(i); });
}

struct CgResult {
  int iterations = 0;
  double seconds = 0, spmv_seconds = 0, relative_residual = 0;
};

/// CG from x = 0 until ||r|| <= tol * ||b|| or max_iters iterations:
/// `apply(p, q)` computes q = A p, `dot(a, b)` the inner product (over all
/// of the vector, wherever its parts live).
template <class Apply, class Dot>
CgResult cg(const Apply& apply, const Dot& dot, const Vector& b, const Vector& x, double tol,
            int max_iters) {
  const auto n = b.extent(0);
  Vector r("r", n), p("p", n), q("q", n);
  Kokkos::deep_copy(x, 0.0);
  Kokkos::deep_copy(r, b);
  Kokkos::deep_copy(p, b);
  const double b_norm = std::sqrt(dot(b, b));
  double rr = b_norm * b_norm;
  CgResult result;
  Kokkos::Timer total;
  while (result.iterations < max_iters && std::sqrt(rr) > tol * b_norm) {
    Kokkos::Timer spmv;
    apply(p, q);
    Kokkos::fence();
    result.spmv_seconds += spmv.seconds();
    const double alpha = rr / dot(p, q);
    axpby(alpha, p, 1.0, x);
    axpby(-alpha, q, 1.0, r);
    const double rr_next = dot(r, r);
    axpby(1.0, r, rr_next / rr, p);
    rr = rr_next;
    ++result.iterations;
  }
  Kokkos::fence();
  result.seconds = total.seconds();
  result.relative_residual = std::sqrt(rr) / b_norm;
  return result;
}

}  // namespace example
