// SPDX-License-Identifier: BSD-3-Clause
// kobalt::spmv: the public entry. It checks types and extents, handles the
// degenerate cases, and dispatches (plan/dispatch.hpp) with the handle's
// policy: entry -> dispatch -> functor.
#pragma once

#include "../compat.hpp"
#include "../errors.hpp"
#include "../formats/mode.hpp"
#include "../scalar.hpp"
#include "../kernels/common.hpp"
#include "../kernels/x_rows.hpp"
#include "../tuning/stats.hpp"
#include "dispatch.hpp"
#include "handle.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <type_traits>

namespace kobalt {

namespace detail {
/// x must have as many rows as op(A) has columns, y as op(A) has rows, and
/// both the same number of columns (right-hand sides).
template <class Matrix, class XView, class YView>
void check_extents(const Matrix& a, const XView& x, const YView& y, Mode mode = Mode::none) {
  const std::int64_t rows = transposes(mode) ? a.cols() : a.rows();
  const std::int64_t cols = transposes(mode) ? a.rows() : a.cols();
  const bool x_fits = static_cast<std::int64_t>(x.extent(0)) == cols;
  const bool y_fits = static_cast<std::int64_t>(y.extent(0)) == rows;
  if (x_fits && y_fits && x.extent(1) == y.extent(1)) return;
  // Messages are built only here: every apply runs this check, and at the
  // launch floor its host time is the apply's.
  const std::string op = mode == Mode::none ? std::string("A")
                                            : std::string("op(A) (mode ") + mode_name(mode) + ")";
  const std::string shape = std::to_string(rows) + " x " + std::to_string(cols);
  if (!x_fits)
    throw dimension_mismatch("kobalt::spmv: " + op + " is " + shape + " but x has " +
                             std::to_string(x.extent(0)) + " rows");
  if (!y_fits)
    throw dimension_mismatch("kobalt::spmv: " + op + " is " + shape + " but y has " +
                             std::to_string(y.extent(0)) + " rows");
  throw dimension_mismatch("kobalt::spmv: x has " + std::to_string(x.extent(1)) +
                           " columns (right-hand sides) but y has " + std::to_string(y.extent(1)));
}

/// y must not share memory with x: an in-place y = A*x would read entries of
/// x that the kernel has already overwritten (a wrong answer, no error).
/// Compares the Views' address ranges (data() to the end of their span), so
/// two strided Views that interleave in one allocation count as overlapping.
template <class XView, class YView>
void check_no_alias(const XView& x, const YView& y) {
  if (x.span() == 0 || y.span() == 0) return;
  const auto x_first = reinterpret_cast<std::uintptr_t>(x.data());
  const auto y_first = reinterpret_cast<std::uintptr_t>(y.data());
  const auto x_end = x_first + x.span() * sizeof(typename XView::value_type);
  const auto y_end = y_first + y.span() * sizeof(typename YView::value_type);
  if (x_first < y_end && y_first < x_end)
    throw invalid_parameter("kobalt::spmv: y overlaps x in memory (" +
                            std::to_string(x.span()) + " and " + std::to_string(y.span()) +
                            " entries); give y its own storage");
}

/// The layouts of rank-2 x and y the kernels take (each entry read as
/// x(c, j), so the layout changes only which accesses coalesce).
template <class Layout>
inline constexpr bool is_column_layout_v =
    std::is_same_v<Layout, Kokkos::LayoutLeft> || std::is_same_v<Layout, Kokkos::LayoutRight>;

template <class ExecutionSpace, class Matrix, class XView, class YView>
constexpr void check_types() {
  static_assert(Kokkos::is_execution_space<ExecutionSpace>::value,
                "kobalt::spmv: the first argument must be a Kokkos execution space instance");
  static_assert(Kokkos::is_view<XView>::value, "kobalt::spmv: x must be a Kokkos::View");
  static_assert(Kokkos::is_view<YView>::value, "kobalt::spmv: y must be a Kokkos::View");
  constexpr int rank = compat::rank_v<YView>;
  static_assert(compat::rank_v<XView> == rank, "kobalt::spmv: x and y must have the same rank");
  static_assert(rank == 1 || rank == 2, "kobalt::spmv: x and y must be rank-1 or rank-2 Views");
  static_assert(rank == 1 || (is_column_layout_v<typename XView::array_layout> &&
                              is_column_layout_v<typename YView::array_layout>),
                "kobalt::spmv: rank-2 x and y must be LayoutLeft or LayoutRight (one column per "
                "right-hand side); copy a LayoutStride View into one of them first");
  static_assert(std::is_same_v<typename YView::value_type, typename YView::non_const_value_type>,
                "kobalt::spmv: y must not be a View of const");
  using y_scalar = typename YView::non_const_value_type;
  static_assert(is_scalar_v<y_scalar>,
                "kobalt::spmv: y must hold float, double or their Kokkos::complex");
  // The kernels accumulate in y's type; the handle's partial sums are kept
  // in the widest scalar of the matrix's kind (kernels/common.hpp).
  static_assert(is_complex_v<y_scalar> == is_complex_v<typename Matrix::value_type>,
                "kobalt::spmv: a complex matrix needs complex x and y, a real one real x and y");
  static_assert(
      Kokkos::SpaceAccessibility<ExecutionSpace, typename XView::memory_space>::accessible &&
          Kokkos::SpaceAccessibility<ExecutionSpace, typename YView::memory_space>::accessible &&
          Kokkos::SpaceAccessibility<ExecutionSpace,
                                     typename Matrix::memory_space>::accessible,
      "kobalt::spmv: A, x and y must live in memory the execution space can access");
}
}  // namespace detail

/// y = alpha*A*x + beta*y on `exec` with the setup in `handle` (built for A).
///
/// - x, y: rank-1 Views, or rank-2 Views with one column per right-hand
///   side, each LayoutLeft or LayoutRight (one launch per block of 8
///   columns, each entry of A loaded once per block). beta == 0 overwrites
///   y: NaN or Inf in y do not survive. On GPUs, where
///   handle.stages_x_rows() says so (skewed matrices, x larger than L2, >= 8
///   right-hand sides: tuning/x_rows.hpp), a LayoutLeft x is first copied
///   row-major into memory the handle keeps, and the kernels gather from the
///   copy; a LayoutRight x is read as it is.
/// - A: any Kobalt format; its memory space and the Views' must be accessible
///   from `exec`. The matrix may hold float while x and y hold double: the
///   kernel accumulates in y's value type.
/// - Throws dimension_mismatch when the extents do not fit, and
///   invalid_parameter when y overlaps x in memory or the handle was built
///   for another matrix.
/// - Each kernel launches under a label "kobalt::spmv<format,strategy>".
template <class ExecutionSpace, class Matrix, class HandleSpace, class XView, class YView>
void spmv(const ExecutionSpace& exec, const SpmvHandle<Matrix, HandleSpace>& handle,
          typename YView::const_value_type alpha, const Matrix& a, const XView& x,
          typename YView::const_value_type beta, const YView& y) {
  detail::check_types<ExecutionSpace, Matrix, XView, YView>();
  static_assert(std::is_same_v<ExecutionSpace, HandleSpace>,
                "kobalt::spmv: the handle was built for another execution space type");
  detail::check_handle(handle, a);
  detail::check_extents(a, x, y);
  detail::check_no_alias(x, y);
  using scalar = typename YView::non_const_value_type;
  if (a.rows() == 0 || y.extent(1) == 0) return;
  if (a.nnz() == 0 || alpha == scalar(0)) {
    detail::scale(exec, beta, y);
    return;
  }
  // A LayoutRight x is already what the row-major copy would be.
  if constexpr (compat::rank_v<XView> == 2 && detail::may_stage_x_rows<ExecutionSpace> &&
                !std::is_same_v<typename XView::array_layout, Kokkos::LayoutRight>) {
    using x_value = typename XView::non_const_value_type;
    if (handle.stages_x_rows(static_cast<std::int64_t>(x.extent(1)),
                             static_cast<std::int64_t>(sizeof(x_value)))) {
      detail::dispatch(exec, handle.strategy(), handle.policy(), handle.workspace(), alpha,
                       handle.matrix(), handle.x_rows(exec, x), beta, y);
      return;
    }
  }
  detail::dispatch(exec, handle.strategy(), handle.policy(), handle.workspace(), alpha,
                   handle.matrix(), x, beta, y);
}

/// spmv without a handle: selects the policy from the statistics the format
/// knows without a pass over it (tuning::summary_stats) and the cached device
/// profile, with `strategy` (default: the format's first), then dispatches
/// like spmv with a handle. For repeated products build a handle once
/// (make_handle) instead; a strategy whose record keeps a workspace (a
/// permuted CsrK, CSR load_balance and merge_path, which csr::automatic
/// picks for skewed matrices, the load_balance COO parts, ALIGNED_COO's
/// row list) builds it on every call here, and rank-2 x is never copied
/// row-major (the handle's stages_x_rows() needs the row statistics).
template <class ExecutionSpace, class Matrix, class XView, class YView,
          class = std::enable_if_t<Kokkos::is_execution_space<ExecutionSpace>::value>>
void spmv(const ExecutionSpace& exec, typename YView::const_value_type alpha, const Matrix& a,
          const XView& x, typename YView::const_value_type beta, const YView& y,
          const typename tuning::format_strategy<Matrix>::type& strategy = {}) {
  detail::check_types<ExecutionSpace, Matrix, XView, YView>();
  detail::check_extents(a, x, y);
  detail::check_no_alias(x, y);
  using scalar = typename YView::non_const_value_type;
  if (a.rows() == 0 || y.extent(1) == 0) return;
  if (a.nnz() == 0 || alpha == scalar(0)) {
    detail::scale(exec, beta, y);
    return;
  }
  const auto stats = tuning::summary_stats(a);
  const auto& profile = tuning::cached_profile_of(exec);
  const auto resolved = tuning::resolve(stats, profile, strategy);
  const auto policy = detail::policy_for(stats, profile, a, resolved);
  // Records that keep nothing allocate nothing here (detail::without_workspace).
  detail::dispatch(exec, resolved, policy, detail::make_workspace(exec, a, resolved, policy), alpha,
                   a, x, beta, y);
}

/// spmv on the default instance of the matrix's execution space.
template <class Matrix, class XView, class YView>
void spmv(typename YView::const_value_type alpha, const Matrix& a, const XView& x,
          typename YView::const_value_type beta, const YView& y,
          const typename tuning::format_strategy<Matrix>::type& strategy = {}) {
  spmv(typename Matrix::execution_space(), alpha, a, x, beta, y, strategy);
}

namespace detail {
/// The mode an apply really needs: C is N and H is T for real values.
template <class Value>
Mode effective_mode(const char* mode) {
  const Mode m = parse_mode(mode);
  if (is_complex_v<Value>) return m;
  return transposes(m) ? Mode::transpose : Mode::none;
}
}  // namespace detail

/// y = alpha*op(A)*x + beta*y with op given by `mode` as KokkosSparse::spmv
/// spells it: "N" (A), "T" (A^T), "C" (conj(A)) or "H" (A^H); for real
/// values C is N and H is T. Modes other than N apply a Csr copy of op(A)
/// that the handle builds at the first such apply and keeps
/// (SpmvHandle::op_handle: one conversion and A's storage once more). x has
/// op(A)'s columns, y its rows; otherwise as spmv without a mode. Throws
/// invalid_parameter for an unknown mode.
template <class ExecutionSpace, class Matrix, class HandleSpace, class XView, class YView>
void spmv(const ExecutionSpace& exec, const SpmvHandle<Matrix, HandleSpace>& handle,
          const char mode[], typename YView::const_value_type alpha, const Matrix& a,
          const XView& x, typename YView::const_value_type beta, const YView& y) {
  const Mode m = detail::effective_mode<typename Matrix::value_type>(mode);
  if (m == Mode::none) {
    spmv(exec, handle, alpha, a, x, beta, y);
    return;
  }
  detail::check_types<ExecutionSpace, Matrix, XView, YView>();
  static_assert(std::is_same_v<ExecutionSpace, HandleSpace>,
                "kobalt::spmv: the handle was built for another execution space type");
  detail::check_handle(handle, a);
  detail::check_extents(a, x, y, m);
  detail::check_no_alias(x, y);
  const auto& op = handle.op_handle(exec, m);
  spmv(exec, op, alpha, op.matrix(), x, beta, y);
}

/// spmv with a mode and without a handle: builds op(A) as a Csr on every
/// call for modes other than N (a conversion per call: for repeated
/// products build a handle once instead).
template <class ExecutionSpace, class Matrix, class XView, class YView,
          class = std::enable_if_t<Kokkos::is_execution_space<ExecutionSpace>::value>>
void spmv(const ExecutionSpace& exec, const char mode[], typename YView::const_value_type alpha,
          const Matrix& a, const XView& x, typename YView::const_value_type beta,
          const YView& y) {
  const Mode m = detail::effective_mode<typename Matrix::value_type>(mode);
  if (m == Mode::none) {
    spmv(exec, alpha, a, x, beta, y);
    return;
  }
  detail::check_types<ExecutionSpace, Matrix, XView, YView>();
  detail::check_extents(a, x, y, m);
  detail::check_no_alias(x, y);
  spmv(exec, alpha, to_csr(exec, a, m), x, beta, y);
}

/// spmv with a mode on the default instance of the matrix's execution space
/// (KokkosSparse::spmv(mode, alpha, A, x, beta, y)).
template <class Matrix, class XView, class YView>
void spmv(const char mode[], typename YView::const_value_type alpha, const Matrix& a,
          const XView& x, typename YView::const_value_type beta, const YView& y) {
  spmv(typename Matrix::execution_space(), mode, alpha, a, x, beta, y);
}

}  // namespace kobalt
