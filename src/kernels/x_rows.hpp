// SPDX-License-Identifier: BSD-3-Clause
// The row-major copy of a rank-2 LayoutLeft x that GPU applies gather from
// where tuning::stage_x_rows says so: the K values of one row of x in one
// run, so a scattered entry of A costs K * sizeof(value) / 32 sectors of x
// instead of K. The kernels take it like x itself (kernels/common.hpp
// XBlock indexes x(c, j) in any layout).
#pragma once

#include "../range.hpp"
#include "../compat.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace kobalt::detail {

/// The copy is compiled for device execution spaces only: hosts (Serial,
/// OpenMP) read a LayoutLeft x's rows from cache lines, and a second layout
/// would double their rank-2 instantiations.
template <class ExecutionSpace>
inline constexpr bool may_stage_x_rows =
    !std::is_same_v<typename ExecutionSpace::memory_space, Kokkos::HostSpace>;

/// The View type of the copy of x on `ExecutionSpace`: row-major, over
/// memory the caller owns.
template <class ExecutionSpace, class XView>
using x_rows_view =
    Kokkos::View<typename XView::const_value_type**, Kokkos::LayoutRight,
                 typename ExecutionSpace::memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

/// Bytes the copy of x needs.
template <class XView>
std::size_t x_rows_bytes(const XView& x) {
  return x.extent(0) * x.extent(1) * sizeof(typename XView::non_const_value_type);
}

/// rows(e / k, e % k) = x(e / k, e % k): flat entry e of the row-major copy.
template <class RowsView, class XView>
struct CopyXRowsFunctor {
  RowsView rows;
  XView x;
  std::int64_t k;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t e) const {
    rows(e / k, e % k) = x(e / k, e % k);
  }
};

/// Copies x into `storage` (at least x_rows_bytes(x) bytes in the memory
/// space of `exec`) row by row on `exec` and returns the copy. Flat index e -> (e /
/// K, e % K): a warp reads whole sectors of K columns and writes one
/// contiguous run.
template <class ExecutionSpace, class XView>
x_rows_view<ExecutionSpace, XView> copy_x_rows(const ExecutionSpace& exec, const XView& x, void* storage) {
  using value = typename XView::non_const_value_type;
  const std::int64_t m = static_cast<std::int64_t>(x.extent(0));
  const std::int64_t k = static_cast<std::int64_t>(x.extent(1));
  Kokkos::View<value**, Kokkos::LayoutRight, typename ExecutionSpace::memory_space,
               Kokkos::MemoryTraits<Kokkos::Unmanaged>>
      rows(static_cast<value*>(storage), m, k);
  Kokkos::parallel_for(
      "kobalt::x_rows", range_policy<ExecutionSpace>(exec, 0, m * k),
      CopyXRowsFunctor<decltype(rows), XView>{rows, x, k});
  return rows;
}

}  // namespace kobalt::detail
