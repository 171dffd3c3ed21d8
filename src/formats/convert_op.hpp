// SPDX-License-Identifier: BSD-3-Clause
// op(A) as a Csr, on the device, for any format: A^T and A^H by a counting
// sort of the entries by column, conj(A) by a copy. What spmv's modes "T",
// "C" and "H" apply (plan/handle.hpp caches it).
#pragma once

#include "../range.hpp"
#include "convert_aligned_coo.hpp"
#include "convert_coo.hpp"
#include "convert_csrk.hpp"
#include "convert_hybrid.hpp"
#include "convert_sellp.hpp"
#include "count_rows.hpp"
#include "csr_arrays.hpp"
#include "mode.hpp"
#include "permute_csr.hpp"
#include "../compat.hpp"
#include "../scalar.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <type_traits>

namespace kobalt {

namespace detail {
/// Places entry e of a Csr in its column's new row of A^T, at the column's
/// atomic cursor (conjugating the value when conjugate_values).
template <class RowPtr, class CsrCol, class CsrVal, class IndexView, class ValueView>
struct TransposePlaceFunctor {
  using Index = typename IndexView::non_const_value_type;
  RowPtr row_ptr;
  CsrCol col;
  CsrVal val;
  std::int64_t rows;
  bool conjugate_values;
  IndexView cursor, t_col;
  ValueView t_val;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t e) const {
    const Index r = static_cast<Index>(row_of_entry(row_ptr, rows, e));
    const Index dst = Kokkos::atomic_fetch_add(&cursor(col(e)), Index(1));
    t_col(dst) = r;
    t_val(dst) = conjugate_values ? conjugate(val(e)) : val(e);
  }
};

/// Sorts row j of A^T by its column.
template <class IndexView, class ValueView>
struct TransposeSortRowFunctor {
  IndexView t_ptr, t_col;
  ValueView t_val;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t j) const {
    sort_row_by_column(t_col, t_val, static_cast<std::int64_t>(t_ptr(j)),
                       static_cast<std::int64_t>(t_ptr(j + 1)));
  }
};

/// A^T (conjugated when `conjugate`) of a Csr of any offset type: counts the
/// entries of each column into the new row pointer, places every entry with
/// an atomic cursor per column (one thread per entry, so a dense row is not
/// walked by one thread), then sorts each new row by its column (the old
/// row). The sort makes the result deterministic: columns within a Csr row
/// are distinct, so each new row has one order however the atomics raced.
template <class ExecutionSpace, class Value, class Index, class Device, class Offset>
Csr<Value, Index, Device> transpose_csr(const ExecutionSpace& space,
                                        const Csr<Value, Index, Device, Offset>& a,
                                        bool conjugate_values, const convert_options& options) {
  using exec = ExecutionSpace;
  using result_t = Csr<Value, Index, Device>;
  using csr_t = Csr<Value, Index, Device, Offset>;
  const std::int64_t rows = a.rows(), cols = a.cols(), nnz = a.nnz();
  const auto out = CsrArrays<Value, Index, Device>::allocate(space, cols, nnz, options.max_bytes);
  compat::ScopedRegion region("kobalt::convert<transpose>");
  const auto &t_ptr = out.row_ptr, &t_col = out.col;
  const auto& t_val = out.val;
  const auto row_ptr = a.row_ptr();
  const auto col = a.col_indices();
  const auto val = a.values();
  count_entries_per_row(space, col, t_ptr, 1, "kobalt::convert<transpose>::count");
  scan_row_ptr(space, t_ptr, cols, "kobalt::convert<transpose>::scan");
  typename result_t::index_view cursor(compat::uninitialized("kobalt::transpose::cursor"), cols);
  Kokkos::deep_copy(space, cursor, Kokkos::subview(t_ptr, Kokkos::make_pair(std::int64_t(0), cols)));
  Kokkos::parallel_for(
      "kobalt::convert<transpose>::place", range_policy<exec>(space, 0, nnz),
      TransposePlaceFunctor<typename csr_t::row_ptr_view, typename csr_t::col_view,
                            typename csr_t::val_view, typename result_t::index_view,
                            typename result_t::value_view>{
          row_ptr, col, val, rows, conjugate_values, cursor, t_col, t_val});
  Kokkos::parallel_for(
      "kobalt::convert<transpose>::sort", range_policy<exec>(space, 0, cols),
      TransposeSortRowFunctor<typename result_t::index_view, typename result_t::value_view>{
          t_ptr, t_col, t_val});
  space.fence();
  return out.finish(space, a.cols(), a.rows());
}

/// out_val(k) = conj(val(k)).
template <class OutView, class InView>
struct ConjugateValueFunctor {
  OutView out_val;
  InView val;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t k) const {
    out_val(k) = conjugate(val(k));
  }
};

/// conj(A) of a Csr of any offset type, in new arrays.
template <class ExecutionSpace, class Value, class Index, class Device, class Offset>
Csr<Value, Index, Device> conjugate_csr(const ExecutionSpace& space,
                                        const Csr<Value, Index, Device, Offset>& a,
                                        const convert_options& options) {
  const std::int64_t nnz = a.nnz();
  const auto out = CsrArrays<Value, Index, Device>::allocate(space, a.rows(), nnz, options.max_bytes);
  if constexpr (std::is_same_v<Offset, Index>)
    Kokkos::deep_copy(space, out.row_ptr, a.row_ptr());
  else
    copy_offsets(space, a.row_ptr(), out.row_ptr, "kobalt::convert<conjugate>::offsets");
  Kokkos::deep_copy(space, out.col, a.col_indices());
  const auto val = a.values();
  const auto& out_val = out.val;
  Kokkos::parallel_for(
      "kobalt::convert<conjugate>", range_policy<ExecutionSpace>(space, 0, nnz),
      ConjugateValueFunctor<typename Csr<Value, Index, Device>::value_view,
                            typename Csr<Value, Index, Device, Offset>::val_view>{out_val, val});
  space.fence();
  return out.finish(space, a.rows(), a.cols());
}

template <class Matrix>
struct is_csr : std::false_type {};
template <class V, class I, class D, class O>
struct is_csr<Csr<V, I, D, O>> : std::true_type {};
}  // namespace detail

/// op(A) as a new Csr (Index offsets, its own storage), for A in any format
/// and op = mode: A (a copy), A^T, conj(A) or A^H. For real values C is A
/// and H is A^T. Runs on `space`; throws format_too_large (before
/// allocating) beyond options.max_bytes and index_overflow when nnz does not
/// fit Index. A^T and A^H of a non-Csr format go through to_csr(A) first.
template <class ExecutionSpace, class Matrix,
          class = std::enable_if_t<Kokkos::is_execution_space<ExecutionSpace>::value>>
auto to_csr(const ExecutionSpace& space, const Matrix& a, Mode mode,
            const convert_options& options = {}) {
  using value_type = typename Matrix::value_type;
  const bool conj = conjugates(mode) && is_complex_v<value_type>;
  if constexpr (detail::is_csr<Matrix>::value) {
    if (transposes(mode)) return detail::transpose_csr(space, a, conj, options);
    return conj ? detail::conjugate_csr(space, a, options) : to_csr(space, a, options);
  } else {
    auto csr = to_csr(space, a, options);
    if (!transposes(mode) && !conj) return csr;
    // op(A) from the Csr copy, which is freed on return.
    return to_csr(space, csr, mode, options);
  }
}

/// to_csr(exec, a, mode, ...) on the default instance of the matrix's execution space.
template <class Matrix, class = std::enable_if_t<!Kokkos::is_execution_space<Matrix>::value>>
auto to_csr(const Matrix& a, Mode mode, const convert_options& options = {}) {
  return to_csr(typename Matrix::execution_space(), a, mode, options);
}

}  // namespace kobalt
