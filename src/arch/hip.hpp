// SPDX-License-Identifier: BSD-3-Clause
// HIP specialisations of the arch facade (included from arch.hpp only).
#pragma once

#include <hip/hip_runtime_api.h>

namespace kobalt::arch {

template <>
struct backend<Kokkos::HIP> {
  // Kokkos knows the wavefront it was built for: 64 on CDNA/GCN, 32 on RDNA.
  static int warp_width(const Kokkos::HIP&) {
    return Kokkos::TeamPolicy<Kokkos::HIP>::vector_length_max();
  }
  static int device_id(const Kokkos::HIP& exec) { return exec.hip_device(); }
  static DeviceInfo device_info(const Kokkos::HIP& exec) {
    hipDeviceProp_t p{};
    const bool ok = hipGetDeviceProperties(&p, exec.hip_device()) == hipSuccess;
    return detail::gpu_device_info(ok ? &p : nullptr);
  }
};

namespace detail {
inline MemoryInfo hip_memory() {
  std::size_t free_bytes = 0, total_bytes = 0;
  const bool ok = hipMemGetInfo(&free_bytes, &total_bytes) == hipSuccess;
  return gpu_memory_info(ok, free_bytes, total_bytes);
}
}  // namespace detail

template <>
struct memory<Kokkos::HIPSpace> {
  static MemoryInfo info() { return detail::hip_memory(); }
};
template <>
struct memory<Kokkos::HIPManagedSpace> {
  static MemoryInfo info() { return detail::hip_memory(); }
};

}  // namespace kobalt::arch
