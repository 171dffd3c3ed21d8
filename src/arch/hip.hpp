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
    DeviceInfo d;
    d.gpu = true;
    hipDeviceProp_t p{};
    if (hipGetDeviceProperties(&p, exec.hip_device()) == hipSuccess) {
      d.name = p.name;
      d.compute_units = p.multiProcessorCount;
      d.l2_bytes = static_cast<std::uint64_t>(p.l2CacheSize);
      d.memory_bytes = static_cast<std::uint64_t>(p.totalGlobalMem);
    }
    return d;
  }
};

namespace detail {
inline MemoryInfo hip_memory() {
  std::size_t free_bytes = 0, total_bytes = 0;
  MemoryInfo m;
  if (hipMemGetInfo(&free_bytes, &total_bytes) == hipSuccess) {
    m.free_bytes = free_bytes;
    m.total_bytes = total_bytes;
  }
  return m;
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
