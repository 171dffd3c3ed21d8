// SPDX-License-Identifier: BSD-3-Clause
// kobalt::spmv: the public entry. It checks types and extents, handles the
// degenerate cases, and dispatches to the format's kernel (detail::apply).
#pragma once

#include "../compat.hpp"
#include "../errors.hpp"
#include "aligned_coo.hpp"
#include "common.hpp"
#include "coo_chunks.hpp"
#include "csr_rows.hpp"
#include "csrk.hpp"
#include "ell_rows.hpp"
#include "hybrid.hpp"
#include "sellp_slices.hpp"

#include <Kokkos_Core.hpp>

#include <string>
#include <type_traits>

namespace kobalt {

namespace detail {
template <class Matrix, class XView, class YView>
void check_extents(const Matrix& a, const XView& x, const YView& y) {
  const auto shape = [](auto rows, auto cols) {
    return std::to_string(rows) + " x " + std::to_string(cols);
  };
  if (static_cast<std::int64_t>(x.extent(0)) != static_cast<std::int64_t>(a.cols()))
    throw dimension_mismatch("kobalt::spmv: A is " + shape(a.rows(), a.cols()) + " but x has " +
                             std::to_string(x.extent(0)) + " rows");
  if (static_cast<std::int64_t>(y.extent(0)) != static_cast<std::int64_t>(a.rows()))
    throw dimension_mismatch("kobalt::spmv: A is " + shape(a.rows(), a.cols()) + " but y has " +
                             std::to_string(y.extent(0)) + " rows");
  if (x.extent(1) != y.extent(1))
    throw dimension_mismatch("kobalt::spmv: x has " + std::to_string(x.extent(1)) +
                             " columns (right-hand sides) but y has " +
                             std::to_string(y.extent(1)));
}
}  // namespace detail

/// y = alpha*A*x + beta*y on `exec`.
///
/// - x, y: rank-1 Views, or rank-2 LayoutLeft Views with one column per
///   right-hand side. beta == 0 overwrites y: NaN or Inf in y do not survive.
/// - A: any Kobalt format; its memory space and the Views' must be accessible
///   from `exec`. The matrix may hold float while x and y hold double: the
///   kernel accumulates in y's value type.
/// - Throws dimension_mismatch when the extents do not fit.
/// - Each kernel launches under a label "kobalt::spmv<format,strategy>".
template <class ExecutionSpace, class Matrix, class XView, class YView>
void spmv(const ExecutionSpace& exec, typename YView::const_value_type alpha, const Matrix& a,
          const XView& x, typename YView::const_value_type beta, const YView& y) {
  static_assert(Kokkos::is_execution_space<ExecutionSpace>::value,
                "kobalt::spmv: the first argument must be a Kokkos execution space instance");
  static_assert(Kokkos::is_view<XView>::value, "kobalt::spmv: x must be a Kokkos::View");
  static_assert(Kokkos::is_view<YView>::value, "kobalt::spmv: y must be a Kokkos::View");
  constexpr int rank = compat::rank_v<YView>;
  static_assert(compat::rank_v<XView> == rank, "kobalt::spmv: x and y must have the same rank");
  static_assert(rank == 1 || rank == 2, "kobalt::spmv: x and y must be rank-1 or rank-2 Views");
  static_assert(rank == 1 || (std::is_same_v<typename XView::array_layout, Kokkos::LayoutLeft> &&
                              std::is_same_v<typename YView::array_layout, Kokkos::LayoutLeft>),
                "kobalt::spmv: rank-2 x and y must be LayoutLeft (one column per right-hand side)");
  static_assert(std::is_same_v<typename YView::value_type, typename YView::non_const_value_type>,
                "kobalt::spmv: y must not be a View of const");
  static_assert(std::is_floating_point_v<typename YView::non_const_value_type>,
                "kobalt::spmv: y must hold float or double");
  static_assert(
      Kokkos::SpaceAccessibility<ExecutionSpace, typename XView::memory_space>::accessible &&
          Kokkos::SpaceAccessibility<ExecutionSpace, typename YView::memory_space>::accessible &&
          Kokkos::SpaceAccessibility<ExecutionSpace,
                                     typename Matrix::memory_space>::accessible,
      "kobalt::spmv: A, x and y must live in memory the execution space can access");

  detail::check_extents(a, x, y);
  if (a.rows() == 0 || y.extent(1) == 0) return;
  using scalar = typename YView::non_const_value_type;
  auto one_rhs = [&](const auto& xj, const auto& yj) {
    if (a.nnz() == 0 || alpha == scalar(0)) {
      detail::scale(exec, beta, yj);
    } else {
      detail::apply(exec, alpha, a, xj, beta, yj);
    }
  };
  if constexpr (rank == 1) {
    one_rhs(x, y);
  } else {
    for (std::size_t j = 0; j < y.extent(1); ++j)
      one_rhs(Kokkos::subview(x, Kokkos::ALL, j), Kokkos::subview(y, Kokkos::ALL, j));
  }
}

/// spmv on the default instance of the matrix's execution space.
template <class Matrix, class XView, class YView>
void spmv(typename YView::const_value_type alpha, const Matrix& a, const XView& x,
          typename YView::const_value_type beta, const YView& y) {
  spmv(typename Matrix::execution_space(), alpha, a, x, beta, y);
}

}  // namespace kobalt
