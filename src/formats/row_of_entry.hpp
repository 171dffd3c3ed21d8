// SPDX-License-Identifier: BSD-3-Clause
// The row that holds a given entry of a CSR matrix. Conversions that move
// entries one thread per ENTRY use it, so a row of millions of entries is
// not walked by one thread (docs/sources.md: "Conversion kernels").
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kobalt::detail {

/// The row r with row_ptr(r) <= e < row_ptr(r + 1), for 0 <= e < nnz:
/// bisection over the row pointer (the last r with row_ptr(r) <= e, which
/// skips empty rows). Neighbouring threads take the same path, so the
/// top of the search stays in cache.
template <class RowPtr>
KOKKOS_INLINE_FUNCTION std::int64_t row_of_entry(const RowPtr& row_ptr, std::int64_t rows,
                                                 std::int64_t e) {
  std::int64_t lo = 0, hi = rows;  // row_ptr(lo) <= e < row_ptr(hi)
  while (hi - lo > 1) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (static_cast<std::int64_t>(row_ptr(mid)) <= e)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

}  // namespace kobalt::detail
