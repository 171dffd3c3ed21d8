// SPDX-License-Identifier: BSD-3-Clause
// What every X -> Csr conversion shares: the three arrays, checked against
// the index type and the storage limit before anything is allocated, and the
// scan that turns per-row counts into the row pointer.
#pragma once

#include "../range.hpp"
#include "csr.hpp"
#include "storage_limit.hpp"
#include "../compat.hpp"

#include <cstdint>
#include <string>
#include <type_traits>

namespace kobalt::detail {

/// Row counts summed into the row pointer, in place.
template <class IndexView>
struct RowPtrScanFunctor {
  using Index = typename IndexView::non_const_value_type;
  using value_type = Index;
  IndexView row_ptr;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, Index& partial,
                                         const bool final) const {
    partial += row_ptr(i);
    if (final) row_ptr(i) = partial;
  }
};

/// row_ptr(0) = 0 and row_ptr(i + 1) += row_ptr(i): a conversion counts row
/// i's entries into row_ptr(i + 1), then calls this.
template <class ExecutionSpace, class IndexView>
void scan_row_ptr(const ExecutionSpace& exec, const IndexView& row_ptr, std::int64_t rows, const char* label) {
  Kokkos::parallel_scan(
      label, range_policy<ExecutionSpace>(exec, 0, rows + 1),
      RowPtrScanFunctor<IndexView>{row_ptr});
}

/// to(i) = from(i), converted to To's element type.
template <class From, class To>
struct CopyOffsetFunctor {
  using Target = typename To::non_const_value_type;
  To to;
  From from;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    to(i) = static_cast<Target>(from(i));
  }
};

/// to(i) = from(i) for every offset, converted (from: a Csr's row pointer of
/// any offset type; the caller checked that the values fit To's).
template <class ExecutionSpace, class From, class To>
void copy_offsets(const ExecutionSpace& exec, const From& from, const To& to, const char* label) {
  Kokkos::parallel_for(
      label,
      range_policy<ExecutionSpace>(exec, 0, static_cast<std::int64_t>(from.extent(0))),
      CopyOffsetFunctor<From, To>{to, from});
}

/// a's row pointer with Index offsets, for code that counts entries in
/// Index: a's own View when Offset is Index, else a converted copy of its
/// rows + 1 offsets (index_overflow, naming `what`, when nnz does not fit).
template <class ExecutionSpace, class Value, class Index, class Device, class Offset>
typename Csr<Value, Index, Device>::row_ptr_view index_row_ptr(
    const ExecutionSpace& exec, const Csr<Value, Index, Device, Offset>& a, const char* what) {
  if constexpr (std::is_same_v<Offset, Index>) {
    (void)exec, (void)what;
    return a.row_ptr();
  } else {
    checked_index<Index>(static_cast<std::uint64_t>(a.nnz()), what);
    typename Csr<Value, Index, Device>::index_view out(
        compat::uninitialized(exec, "kobalt::csr::index_row_ptr"), a.row_ptr().extent(0));
    copy_offsets(exec, a.row_ptr(), out, "kobalt::csr::index_row_ptr");
    return out;
  }
}

/// The bytes of a Csr's arrays, saturating (storage_limit.hpp): with int64
/// indices nnz * 16 wraps from 2^60 on, and a wrapped, small count passed
/// the storage check and left Kokkos to allocate a wrapped size too (found by
/// fuzz/specs_fuzz's inputs).
template <class Value, class Index>
std::uint64_t csr_bytes(std::int64_t rows, std::int64_t nnz) {
  return saturating_add(
      saturating_mul(static_cast<std::uint64_t>(nnz), sizeof(Index) + sizeof(Value)),
      saturating_mul(static_cast<std::uint64_t>(rows) + 1, sizeof(Index)));
}

/// The arrays of a Csr under construction: nnz must fit Index and the bytes
/// must fit `max_bytes` (0 = the device's memory), else index_overflow or
/// format_too_large is thrown before allocating. row_ptr starts zeroed.
template <class Value, class Index, class Device>
struct CsrArrays {
  using csr_type = Csr<Value, Index, Device>;
  typename csr_type::index_view row_ptr, col;
  typename csr_type::value_view val;

  template <class ExecutionSpace>
  static CsrArrays allocate(const ExecutionSpace& exec, std::int64_t rows, std::int64_t nnz,
                            std::uint64_t max_bytes) {
    checked_index<Index>(static_cast<std::uint64_t>(rows), "kobalt::to_csr: rows");
    checked_index<Index>(static_cast<std::uint64_t>(nnz), "kobalt::to_csr: nnz");
    check_storage<typename Device::memory_space>(
        "kobalt::to_csr", csr_bytes<Value, Index>(rows, nnz), max_bytes);
    return CsrArrays(exec, rows, nnz);
  }

  template <class ExecutionSpace>
  csr_type finish(const ExecutionSpace& exec, Index rows, Index cols) const {
    return csr_type(assume_valid, exec, rows, cols, row_ptr, col, val);
  }

 private:
  template <class ExecutionSpace>
  CsrArrays(const ExecutionSpace& exec, std::int64_t rows, std::int64_t nnz)
      : row_ptr(Kokkos::view_alloc(exec, std::string("kobalt::csr::row_ptr")), rows + 1),
        col(compat::uninitialized("kobalt::csr::col"), nnz),
        val(compat::uninitialized("kobalt::csr::val"), nnz) {}
};

}  // namespace kobalt::detail
