// SPDX-License-Identifier: BSD-3-Clause
// CUDA specialisations of the arch facade (included from arch.hpp only).
#pragma once

#include <cuda_runtime_api.h>

namespace kobalt::arch {

template <>
struct backend<Kokkos::Cuda> {
  static int warp_width(const Kokkos::Cuda&) {
    return Kokkos::TeamPolicy<Kokkos::Cuda>::vector_length_max();  // 32
  }
  static int device_id(const Kokkos::Cuda& exec) { return exec.cuda_device(); }
  static DeviceInfo device_info(const Kokkos::Cuda& exec) {
    DeviceInfo d;
    d.gpu = true;
    cudaDeviceProp p{};
    if (cudaGetDeviceProperties(&p, exec.cuda_device()) == cudaSuccess) {
      d.name = p.name;
      d.compute_units = p.multiProcessorCount;
      d.l2_bytes = static_cast<std::uint64_t>(p.l2CacheSize);
      d.memory_bytes = static_cast<std::uint64_t>(p.totalGlobalMem);
    }
    return d;
  }
};

namespace detail {
inline MemoryInfo cuda_memory() {
  std::size_t free_bytes = 0, total_bytes = 0;
  MemoryInfo m;
  if (cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess) {
    m.free_bytes = free_bytes;
    m.total_bytes = total_bytes;
  }
  return m;
}
}  // namespace detail

template <>
struct memory<Kokkos::CudaSpace> {
  static MemoryInfo info() { return detail::cuda_memory(); }
};
template <>
struct memory<Kokkos::CudaUVMSpace> {
  static MemoryInfo info() { return detail::cuda_memory(); }
};

}  // namespace kobalt::arch
