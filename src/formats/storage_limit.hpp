// SPDX-License-Identifier: BSD-3-Clause
// The storage guard of every conversion: padded formats can explode (ELL of a
// matrix with one dense row), so a conversion computes its size first and
// throws format_too_large before it allocates. Sizes saturate at UINT64_MAX
// (a product of absurd parameters would wrap to a small number), so the
// guard reports format_too_large instead.
#pragma once

#include "../arch/arch.hpp"
#include "../errors.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

namespace kobalt {

namespace detail {
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
}  // namespace detail


/// Bytes a memory space can allocate now (arch::memory_info): what is free
/// on the GPU; on the host Linux's MemAvailable, capped by the process's
/// ulimits and its cgroup's memory limit (a batch job's, arch/host_memory.hpp);
/// the total when free is unknown, UINT64_MAX when both are. Total memory
/// let a 67-byte file ask for 22 GiB of row pointers on a 24 GiB machine.
template <class MemorySpace>
std::uint64_t available_bytes() {
  const arch::MemoryInfo m = arch::memory_info<MemorySpace>();
  return m.free_bytes != 0 ? m.free_bytes : m.total_bytes != 0 ? m.total_bytes : UINT64_MAX;
}

/// Throws format_too_large if `needed` bytes exceed `limit` (0 = what
/// MemorySpace can allocate now). `what` names the allocation for the
/// message. UINT64_MAX, a saturated count (saturating_mul: more bytes
/// than 64 bits hold), is always too large, also where the memory is
/// unknown (available_bytes UINT64_MAX).
template <class MemorySpace>
void check_storage(const std::string& what, std::uint64_t needed, std::uint64_t limit) {
  const std::uint64_t effective = limit != 0 ? limit : available_bytes<MemorySpace>();
  if (needed > effective || needed == UINT64_MAX) throw format_too_large(what, needed, effective);
}

/// Checked narrowing of a count to the index type.
template <class Index>
Index checked_index(std::uint64_t value, const char* what) {
  if (value > static_cast<std::uint64_t>(std::numeric_limits<Index>::max()))
    throw index_overflow(std::string(what) + " = " + std::to_string(value) +
                         " does not fit the index type (max " +
                         std::to_string(std::numeric_limits<Index>::max()) + ")");
  return static_cast<Index>(value);
}

}  // namespace kobalt
