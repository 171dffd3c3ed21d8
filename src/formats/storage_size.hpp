// SPDX-License-Identifier: BSD-3-Clause
// Byte counts of padded formats. A padded format's size is a product
// (stride * width * bytes per slot) that can exceed 64 bits for absurd
// parameters; it saturates at UINT64_MAX, so check_storage reports
// format_too_large instead of a wrapped, small number. Also the ceiling
// division these sizes need, which must not overflow either.
#pragma once

#include <cstdint>
#include <limits>

namespace kobalt::detail {

/// a * b, or UINT64_MAX when the product does not fit.
inline std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) {
  if (a != 0 && b > std::numeric_limits<std::uint64_t>::max() / a)
    return std::numeric_limits<std::uint64_t>::max();
  return a * b;
}

/// a + b, or UINT64_MAX when the sum does not fit.
inline std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
  return b > std::numeric_limits<std::uint64_t>::max() - a
             ? std::numeric_limits<std::uint64_t>::max()
             : a + b;
}

/// ceil(a / b) for a >= 0, b >= 1, without a + b - 1, which overflows for
/// b up to 2^63 - 1 (an ALIGNED_COO layout of aligned_coo:seg_size=2^63-1
/// lanes; found by fuzz/specs_fuzz).
inline std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return a / b + (a % b != 0 ? 1 : 0);
}

}  // namespace kobalt::detail
