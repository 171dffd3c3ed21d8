// SPDX-License-Identifier: BSD-3-Clause
// Imaginary parts for generated matrices (kobalt-bench --value complex_*):
// the generators build real matrices; a complex run gives entry (i, j) the
// imaginary part hashed_value(seed, i, j, stream_imaginary), a multiple of
// 2^-20 in [-1, -1/8] u [1/8, 1] (exact in float), so the complex matrix is
// bit-identical on every backend, thread count and index type, and its
// imaginary parts are as irregular as random values (a stencil's constant
// real parts included).
#pragma once

#include "counter_hash.hpp"

#include <kobalt/kobalt.hpp>

#include <cstdint>

namespace kobalt::bench::gen {

namespace detail {

/// Row i's complex values: val(k) = re(k) + i b with b hashed from
/// (seed, i, col(k)).
template <class Real, class RowPtr, class ColView, class RealView, class ComplexView>
struct ImaginaryPartsFunctor {
  RowPtr row_ptr;
  ColView col;
  RealView re;
  ComplexView val;
  std::uint64_t seed;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    for (auto k = row_ptr(i); k < row_ptr(i + 1); ++k)
      val(k) = Kokkos::complex<Real>(
          re(k), static_cast<Real>(hashed_value(seed, i, col(k), stream_imaginary)));
  }
};

}  // namespace detail

/// a + i b with b(i, j) from the hash of (seed, i, j), on a's device; a's
/// row pointer and columns are shared, not copied.
template <class Real, class Index, class Device>
Csr<Kokkos::complex<Real>, Index, Device> with_imaginary_parts(const Csr<Real, Index, Device>& a,
                                                               std::uint64_t seed) {
  using complex_csr = Csr<Kokkos::complex<Real>, Index, Device>;
  using exec = typename Device::execution_space;
  const auto row_ptr = a.row_ptr();
  const auto col = a.col_indices();
  const auto re = a.values();
  typename complex_csr::val_view::non_const_type val(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kobalt::bench::complex_values"), a.nnz());
  Kokkos::parallel_for(
      "kobalt::bench::imaginary_parts", Kokkos::RangePolicy<exec>(0, a.rows()),
      detail::ImaginaryPartsFunctor<Real, typename Csr<Real, Index, Device>::row_ptr_view,
                                    typename Csr<Real, Index, Device>::col_view,
                                    typename Csr<Real, Index, Device>::val_view, decltype(val)>{
          row_ptr, col, re, val, seed});
  return complex_csr(assume_valid, exec(), a.rows(), a.cols(), row_ptr, col, val);
}

}  // namespace kobalt::bench::gen
