// SPDX-License-Identifier: BSD-3-Clause
// Byte counts of padded formats. A padded format's size is a product
// (stride * width * bytes per slot) that can exceed 64 bits for absurd
// parameters; it saturates at UINT64_MAX, so check_storage reports
// format_too_large instead of a wrapped, small number.
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

}  // namespace kobalt::detail
