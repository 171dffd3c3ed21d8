// SPDX-License-Identifier: BSD-3-Clause
// The 7-point Laplacian on an n x n x n grid (Dirichlet boundary), whole or
// a range of its rows, built directly in device Views: the row pointer by a
// parallel scan of the row lengths, the columns and values by a parallel
// fill. Nothing is staged on the host, which is how an application that
// assembles on the device hands its matrix to Kobalt.
#pragma once

#include <kobalt/kobalt.hpp>

#include <cstdint>

namespace example {

/// Neighbours of grid point i = x + n*(y + n*z), in increasing column order
/// (-n^2, -n, -1, 0, +1, +n, +n^2), so each row's columns come out sorted as
/// kobalt::Csr requires. Calls f(column, value) for each entry of row i.
template <class Index, class F>
KOKKOS_INLINE_FUNCTION void for_each_entry(Index n, Index i, F&& f) {
  const Index x = i % n, y = (i / n) % n, z = i / (n * n);
  if (z > 0) f(i - n * n, -1.0);
  if (y > 0) f(i - n, -1.0);
  if (x > 0) f(i - 1, -1.0);
  f(i, 6.0);
  if (x + 1 < n) f(i + 1, -1.0);
  if (y + 1 < n) f(i + n, -1.0);
  if (z + 1 < n) f(i + n * n, -1.0);
}

/// Rows first .. first + count - 1 of the Laplacian as a kobalt::Csr with
/// n^3 columns and global column indices (what one rank of a row-partitioned
/// matrix holds), over Views filled on `exec`; the validating constructor
/// checks them on the same instance.
template <class Value, class Index, class ExecutionSpace>
kobalt::Csr<Value, Index> poisson3d_rows(const ExecutionSpace& exec, Index n, Index first,
                                         Index count) {
  using Matrix = kobalt::Csr<Value, Index>;
  typename Matrix::index_view row_ptr("row_ptr", count + 1);
  Kokkos::parallel_scan(
      "example::poisson3d::row_ptr", Kokkos::RangePolicy<ExecutionSpace>(exec, 0, count),
      KOKKOS_LAMBDA(const Index i, Index& offset, const bool final) {
        Index length = 0;
        for_each_entry(n, first + i, [&](Index, double) { ++length; });
        offset += length;
        if (final) row_ptr(i + 1) = offset;
      });
  exec.fence();
  Index nnz = 0;
  Kokkos::deep_copy(nnz, Kokkos::subview(row_ptr, count));
  typename Matrix::index_view col("col", nnz);
  typename Matrix::value_view val("val", nnz);
  Kokkos::parallel_for(
      "example::poisson3d::entries", Kokkos::RangePolicy<ExecutionSpace>(exec, 0, count),
      KOKKOS_LAMBDA(const Index i) {
        Index k = row_ptr(i);
        for_each_entry(n, first + i, [&](Index c, double v) {
          col(k) = c;
          val(k) = static_cast<Value>(v);
          ++k;
        });
      });
  return Matrix(exec, count, n * n * n, row_ptr, col, val);
}

/// The whole Laplacian, n^3 x n^3.
template <class Value, class Index, class ExecutionSpace>
kobalt::Csr<Value, Index> poisson3d(const ExecutionSpace& exec, Index n) {
  return poisson3d_rows<Value>(exec, n, Index(0), n * n * n);
}

/// max_i |a(i) - b(i)| on the device.
template <class ExecutionSpace, class View>
double max_difference(const ExecutionSpace& exec, const View& a, const View& b) {
  double result = 0;
  Kokkos::parallel_reduce(
      "example::max_difference",
      Kokkos::RangePolicy<ExecutionSpace>(exec, 0, static_cast<std::int64_t>(a.extent(0))),
      KOKKOS_LAMBDA(const std::int64_t i, double& m) {
        const double d = a(i) > b(i) ? a(i) - b(i) : b(i) - a(i);
        if (d > m) m = d;
      },
      Kokkos::Max<double>(result));
  return result;
}

}  // namespace example
