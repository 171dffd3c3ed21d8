// SPDX-License-Identifier: BSD-3-Clause
// A format's arrays, its values apart from its structure: value_arrays(a)
// lists the arrays that hold values (padding included), structure_arrays(a)
// the others by address and length, with_values<W>(exec, a, v) makes the
// same structure over other value arrays, of another value type too. Value
// maps (value_map.hpp) number slots in value_arrays' order.
#pragma once

#include "aligned_coo.hpp"
#include "coo.hpp"
#include "csr.hpp"
#include "csrk.hpp"
#include "ell.hpp"
#include "hybrid.hpp"
#include "sellp.hpp"

#include <Kokkos_Core.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <utility>

namespace kobalt::detail {

template <class W, class D>
using values_of = Kokkos::View<W*, D>;

/// An array by address and length: two matrices whose arrays compare equal
/// share their storage (a copy of a format shares its Views).
struct array_id {
  const void* data = nullptr;
  std::size_t extent = 0;
  bool operator==(const array_id& o) const { return data == o.data && extent == o.extent; }
  bool operator!=(const array_id& o) const { return !(*this == o); }
};
template <class View>
array_id id_of(const View& v) {
  return {v.data(), v.extent(0)};
}

template <class V, class I, class D, class O>
std::array<array_id, 2> structure_arrays(const Csr<V, I, D, O>& a) {
  return {id_of(a.row_ptr()), id_of(a.col_indices())};
}
template <class V, class I, class D>
std::array<array_id, 2> structure_arrays(const Coo<V, I, D>& a) {
  return {id_of(a.row_indices()), id_of(a.col_indices())};
}
template <class V, class I, class D>
std::array<array_id, 1> structure_arrays(const Ell<V, I, D>& a) {
  return {id_of(a.col_indices())};
}
template <class V, class I, class D>
std::array<array_id, 4> structure_arrays(const Sellp<V, I, D>& a) {
  return {id_of(a.slice_sets()), id_of(a.slice_lengths()), id_of(a.col_indices()),
          id_of(a.row_order())};
}
template <class V, class I, class D>
std::array<array_id, 3> structure_arrays(const Hybrid<V, I, D>& a) {
  return {id_of(a.ell().col_indices()), id_of(a.coo().row_indices()),
          id_of(a.coo().col_indices())};
}
template <class V, class I, class D>
std::array<array_id, 6> structure_arrays(const CsrK<V, I, D>& a) {
  return {id_of(a.matrix().row_ptr()), id_of(a.matrix().col_indices()), id_of(a.sr_ptr()),
          id_of(a.ssr_ptr()),          id_of(a.permutation()),          id_of(a.inverse_permutation())};
}
template <class V, class I, class D>
std::array<array_id, 4> structure_arrays(const AlignedCoo<V, I, D>& a) {
  return {id_of(a.seg_row_indices()), id_of(a.seg_col_indices()), id_of(a.flat().row_indices()),
          id_of(a.flat().col_indices())};
}

template <class V, class I, class D, class O>
std::array<Kokkos::View<const V*, D>, 1> value_arrays(const Csr<V, I, D, O>& a) {
  return {a.values()};
}
template <class V, class I, class D>
std::array<Kokkos::View<const V*, D>, 1> value_arrays(const Coo<V, I, D>& a) {
  return {a.values()};
}
template <class V, class I, class D>
std::array<Kokkos::View<const V*, D>, 1> value_arrays(const Ell<V, I, D>& a) {
  return {a.values()};
}
template <class V, class I, class D>
std::array<Kokkos::View<const V*, D>, 1> value_arrays(const Sellp<V, I, D>& a) {
  return {a.values()};
}
template <class V, class I, class D>
std::array<Kokkos::View<const V*, D>, 2> value_arrays(const Hybrid<V, I, D>& a) {
  return {a.ell().values(), a.coo().values()};
}
template <class V, class I, class D>
std::array<Kokkos::View<const V*, D>, 1> value_arrays(const CsrK<V, I, D>& a) {
  return {a.matrix().values()};
}
template <class V, class I, class D>
std::array<Kokkos::View<const V*, D>, 2> value_arrays(const AlignedCoo<V, I, D>& a) {
  return {a.seg_values(), a.flat().values()};
}

/// How many value arrays a format holds (1, or 2 for the formats of two parts).
template <class Matrix>
inline constexpr std::size_t value_array_count =
    std::tuple_size_v<decltype(value_arrays(std::declval<const Matrix&>()))>;

/// For each of value_arrays(a): its rows when it is stored column-major
/// (slot k of row i at k * rows + i: ELL and Hybrid's ELL part), 0 when
/// its slots run row by row.
template <class Matrix>
std::array<std::int64_t, value_array_count<Matrix>> column_major_rows(const Matrix&) {
  return {};
}
template <class V, class I, class D>
std::array<std::int64_t, 1> column_major_rows(const Ell<V, I, D>& a) {
  return {{a.stride()}};
}
template <class V, class I, class D>
std::array<std::int64_t, 2> column_major_rows(const Hybrid<V, I, D>& a) {
  return {{a.ell().stride(), 0}};
}

template <class W, class Exec, class V, class I, class D, class O>
Csr<W, I, D, O> with_values(const Exec& exec, const Csr<V, I, D, O>& a,
                            const std::array<values_of<W, D>, 1>& v) {
  return Csr<W, I, D, O>(assume_valid, exec, a.rows(), a.cols(), a.row_ptr(), a.col_indices(),
                         v[0]);
}
template <class W, class Exec, class V, class I, class D>
Coo<W, I, D> with_values(const Exec&, const Coo<V, I, D>& a,
                         const std::array<values_of<W, D>, 1>& v) {
  return Coo<W, I, D>(a.rows(), a.cols(), a.row_indices(), a.col_indices(), v[0]);
}
template <class W, class Exec, class V, class I, class D>
Ell<W, I, D> with_values(const Exec&, const Ell<V, I, D>& a,
                         const std::array<values_of<W, D>, 1>& v) {
  return Ell<W, I, D>(trusted_layout, a.rows(), a.cols(), a.stored_per_row(), a.stride(),
                      a.col_indices(), v[0], a.nnz());
}
template <class W, class Exec, class V, class I, class D>
Sellp<W, I, D> with_values(const Exec&, const Sellp<V, I, D>& a,
                           const std::array<values_of<W, D>, 1>& v) {
  return Sellp<W, I, D>(trusted_layout, a.rows(), a.cols(), a.slice_size(), a.stride_factor(),
                        a.slice_sets(), a.slice_lengths(), a.col_indices(), v[0], a.stored(),
                        a.nnz(), a.row_order());
}
template <class W, class Exec, class V, class I, class D>
Hybrid<W, I, D> with_values(const Exec& exec, const Hybrid<V, I, D>& a,
                            const std::array<values_of<W, D>, 2>& v) {
  return Hybrid<W, I, D>(with_values<W>(exec, a.ell(), std::array<values_of<W, D>, 1>{v[0]}),
                         with_values<W>(exec, a.coo(), std::array<values_of<W, D>, 1>{v[1]}));
}
template <class W, class Exec, class V, class I, class D>
CsrK<W, I, D> with_values(const Exec& exec, const CsrK<V, I, D>& a,
                          const std::array<values_of<W, D>, 1>& v) {
  return CsrK<W, I, D>(exec, with_values<W>(exec, a.matrix(), v), a.k(), a.sr_ptr(), a.ssr_ptr(),
                       a.permutation(), a.inverse_permutation(), a.reordering(),
                       a.super_row_size(), a.super_super_row_size());
}
template <class W, class Exec, class V, class I, class D>
AlignedCoo<W, I, D> with_values(const Exec& exec, const AlignedCoo<V, I, D>& a,
                                const std::array<values_of<W, D>, 2>& v) {
  return AlignedCoo<W, I, D>(
      exec, a.rows(), a.cols(), a.seg_size(), a.num_segments(), a.seg_row_indices(),
      a.seg_col_indices(), v[0],
      with_values<W>(exec, a.flat(), std::array<values_of<W, D>, 1>{v[1]}), a.split(),
      a.flat_unit());
}

}  // namespace kobalt::detail
