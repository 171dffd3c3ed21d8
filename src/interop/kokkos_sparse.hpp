// SPDX-License-Identifier: BSD-3-Clause
// Zero-copy interop with Kokkos Kernels: a KokkosSparse::CrsMatrix viewed as
// a kobalt::Csr and back, both sharing the other's arrays (Views are
// reference counted: either side may outlive the other). Users include this
// header themselves; kobalt.hpp never does, so Kobalt needs Kokkos Kernels
// only where this header is used.
//
// The matrix types: KokkosSparse::CrsMatrix<Scalar, Ordinal, Device,
// MemoryTraits, Offset> <-> kobalt::Csr<Scalar, Ordinal, Device', Offset>
// (Device' = Kokkos::Device<execution space, memory space>; const element
// types dropped, as Csr holds const Views anyway). The Kobalt side is
// read-only; the KokkosSparse matrix made from a Csr has const element
// types, the form KokkosSparse::spmv converts every matrix to (Kokkos
// Kernels 3.4 and 4.x; 4.x's SPMVHandle drops the const itself).
#pragma once

/// \file
/// Zero-copy conversions between KokkosSparse::CrsMatrix and kobalt::Csr
/// (from_kokkos_crs, to_kokkos_crs); not part of kobalt.hpp, and the only
/// header that needs Kokkos Kernels.

#include "../formats/csr.hpp"

#include <KokkosSparse_CrsMatrix.hpp>

#include <string>
#include <type_traits>

namespace kobalt {

/// The Csr type that views a KokkosSparse::CrsMatrix type.
template <class KokkosCrs>
using csr_of_kokkos_crs =
    Csr<std::remove_const_t<typename KokkosCrs::value_type>,
        std::remove_const_t<typename KokkosCrs::ordinal_type>,
        Kokkos::Device<typename KokkosCrs::execution_space, typename KokkosCrs::memory_space>,
        std::remove_const_t<typename KokkosCrs::size_type>>;

/// The KokkosSparse::CrsMatrix type that views a Csr type.
template <class Value, class Index, class Device, class Offset>
using kokkos_crs_of_csr =
    KokkosSparse::CrsMatrix<const Value, const Index,
                            Kokkos::Device<typename Device::execution_space,
                                           typename Device::memory_space>,
                            void, const Offset>;

/// A's arrays as a Csr, shared, not copied, and checked on `exec` as Csr's
/// validating constructor checks user Views (invalid_matrix on a fault;
/// Kokkos Kernels does not check them). KokkosSparse's ordinal must be
/// signed (Kobalt marks padding with -1); any integer offset works.
template <class ExecutionSpace, class KokkosCrs,
          class = std::enable_if_t<Kokkos::is_execution_space<ExecutionSpace>::value>>
csr_of_kokkos_crs<KokkosCrs> from_kokkos_crs(const ExecutionSpace& exec, const KokkosCrs& a) {
  using result_t = csr_of_kokkos_crs<KokkosCrs>;
  typename result_t::row_ptr_view row_ptr = a.graph.row_map;
  // A default-constructed KokkosSparse matrix has no row map at all: the
  // empty matrix's single zero offset is made here (there is nothing to share).
  if (row_ptr.extent(0) == 0)
    row_ptr = typename result_t::offset_view(
        Kokkos::view_alloc(exec, std::string("kobalt::csr::row_ptr")), 1);
  return result_t(exec, a.numRows(), a.numCols(), row_ptr, a.graph.entries, a.values);
}
/// The same on the default instance of A's execution space.
template <class KokkosCrs>
csr_of_kokkos_crs<KokkosCrs> from_kokkos_crs(const KokkosCrs& a) {
  return from_kokkos_crs(typename KokkosCrs::execution_space(), a);
}

/// a's arrays as a KokkosSparse::CrsMatrix with const element types, shared,
/// not copied.
template <class Value, class Index, class Device, class Offset>
kokkos_crs_of_csr<Value, Index, Device, Offset> to_kokkos_crs(
    const Csr<Value, Index, Device, Offset>& a) {
  using result_t = kokkos_crs_of_csr<Value, Index, Device, Offset>;
  return result_t("kobalt::to_kokkos_crs", a.rows(), a.cols(),
                  static_cast<typename result_t::size_type>(a.nnz()), a.values(), a.row_ptr(),
                  a.col_indices());
}

}  // namespace kobalt
