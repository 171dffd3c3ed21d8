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
    cudaDeviceProp p{};
    const bool ok = cudaGetDeviceProperties(&p, exec.cuda_device()) == cudaSuccess;
    return detail::gpu_device_info(ok ? &p : nullptr);
  }
};

namespace detail {
inline MemoryInfo cuda_memory() {
  std::size_t free_bytes = 0, total_bytes = 0;
  const bool ok = cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess;
  return gpu_memory_info(ok, free_bytes, total_bytes);
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
