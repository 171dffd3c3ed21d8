// SPDX-License-Identifier: BSD-3-Clause
// Pieces every kernel shares: the y epilogue and the beta scaling of y.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <type_traits>

namespace kobalt::detail {

/// y_i = alpha*sum (HasBeta == false: y's old value, NaN included, is never
/// read) or alpha*sum + beta*y_i. The only compile-time switch besides the
/// vector width (STYLE.md practice 6).
template <bool HasBeta, class Scalar, class YRef>
KOKKOS_INLINE_FUNCTION void store_row(YRef&& y_i, Scalar alpha, Scalar sum, Scalar beta) {
  if constexpr (HasBeta) {
    y_i = alpha * sum + beta * y_i;
  } else {
    (void)beta;
    y_i = alpha * sum;
  }
}

/// Calls launch(std::bool_constant<beta != 0>{}): the kernels' one
/// compile-time switch on beta, picked at run time.
template <class Scalar, class Launch>
void dispatch_beta(Scalar beta, Launch&& launch) {
  if (beta == Scalar(0))
    launch(std::false_type{});
  else
    launch(std::true_type{});
}

/// y = beta*y, with beta == 0 writing zeros (NaN in y does not survive).
/// Used before kernels that accumulate into y with atomics.
template <class ExecutionSpace, class YView>
void scale(const ExecutionSpace& exec, typename YView::non_const_value_type beta,
           const YView& y) {
  using scalar = typename YView::non_const_value_type;
  const std::int64_t n = static_cast<std::int64_t>(y.extent(0));
  if (beta == scalar(0)) {
    Kokkos::parallel_for(
        "kobalt::scale<zero>", Kokkos::RangePolicy<ExecutionSpace>(exec, 0, n),
        KOKKOS_LAMBDA(const std::int64_t i) { y(i) = scalar(0); });
  } else if (beta != scalar(1)) {
    Kokkos::parallel_for(
        "kobalt::scale", Kokkos::RangePolicy<ExecutionSpace>(exec, 0, n),
        KOKKOS_LAMBDA(const std::int64_t i) { y(i) *= beta; });
  }
}

/// "kobalt::spmv<format,strategy>": the label every kernel launches under.
inline std::string kernel_label(const char* format, const char* strategy) {
  return std::string("kobalt::spmv<") + format + "," + strategy + ">";
}

}  // namespace kobalt::detail
