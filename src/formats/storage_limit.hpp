// SPDX-License-Identifier: BSD-3-Clause
// The storage guard of every conversion: padded formats can explode (ELL of a
// matrix with one dense row), so a conversion computes its size first and
// throws format_too_large before it allocates.
#pragma once

#include "../errors.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime_api.h>
#endif
#if defined(KOKKOS_ENABLE_HIP)
#include <hip/hip_runtime_api.h>
#endif
#include <unistd.h>

namespace kobalt {

/// Bytes a memory space can hold: the device's total memory for CUDA/HIP,
/// the host's physical memory otherwise.
template <class MemorySpace>
std::uint64_t device_capacity_bytes() {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<MemorySpace, Kokkos::CudaSpace> ||
                std::is_same_v<MemorySpace, Kokkos::CudaUVMSpace>) {
    std::size_t free_bytes = 0, total_bytes = 0;
    if (cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess) return total_bytes;
  }
#endif
#if defined(KOKKOS_ENABLE_HIP)
  if constexpr (std::is_same_v<MemorySpace, Kokkos::HIPSpace>) {
    std::size_t free_bytes = 0, total_bytes = 0;
    if (hipMemGetInfo(&free_bytes, &total_bytes) == hipSuccess) return total_bytes;
  }
#endif
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page_size > 0)
    return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size);
  return UINT64_MAX;
}

/// Throws format_too_large if `needed` bytes exceed `limit` (0 = the
/// capacity of MemorySpace). `what` names the conversion for the message.
template <class MemorySpace>
void check_storage(const std::string& what, std::uint64_t needed, std::uint64_t limit) {
  const std::uint64_t effective = limit != 0 ? limit : device_capacity_bytes<MemorySpace>();
  if (needed > effective) throw format_too_large(what, needed, effective);
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
