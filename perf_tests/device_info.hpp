// SPDX-License-Identifier: BSD-3-Clause
// A readable name of the device the default execution space runs on.
#pragma once

#include <Kokkos_Core.hpp>

#include <fstream>
#include <string>
#include <thread>
#include <type_traits>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace kobalt::bench {

inline std::string device_name() {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<Kokkos::DefaultExecutionSpace, Kokkos::Cuda>) {
    int id = 0;
    cudaDeviceProp p;
    if (cudaGetDevice(&id) == cudaSuccess && cudaGetDeviceProperties(&p, id) == cudaSuccess)
      return std::string(p.name) + ", " + std::to_string(p.multiProcessorCount) + " SMs, " +
             std::to_string(p.l2CacheSize >> 20) + " MiB L2";
  }
#endif
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line, model = "unknown CPU";
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) == 0) {
      model = line.substr(line.find(':') + 2);
      break;
    }
  }
  return model + ", " + std::to_string(Kokkos::DefaultExecutionSpace().concurrency()) +
         " threads";
}

}  // namespace kobalt::bench
