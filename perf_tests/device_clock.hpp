// SPDX-License-Identifier: BSD-3-Clause
// The clock kobalt-bench times with: CUDA events on the legacy default stream
// when the default execution space is CUDA (the device's own clock; the
// legacy stream orders itself after work on Kokkos' blocking streams), a
// host timer otherwise. Both are bracketed by fences.
#pragma once

#include <Kokkos_Core.hpp>

#include <string>
#include <type_traits>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace kobalt::bench {

class DeviceClock {
 public:
  DeviceClock() {
#if defined(KOKKOS_ENABLE_CUDA)
    if constexpr (std::is_same_v<Kokkos::DefaultExecutionSpace, Kokkos::Cuda>) {
      cudaEventCreate(&start_);
      cudaEventCreate(&stop_);
    }
#endif
  }
  ~DeviceClock() {
#if defined(KOKKOS_ENABLE_CUDA)
    if (start_) cudaEventDestroy(start_);
    if (stop_) cudaEventDestroy(stop_);
#endif
  }
  DeviceClock(const DeviceClock&) = delete;
  DeviceClock& operator=(const DeviceClock&) = delete;

  static std::string name() {
#if defined(KOKKOS_ENABLE_CUDA)
    if constexpr (std::is_same_v<Kokkos::DefaultExecutionSpace, Kokkos::Cuda>) return "cuda_event";
#endif
    return "host_timer";
  }

  /// Seconds one call of `run` takes, fenced before and after.
  template <class Run>
  double time(Run&& run) {
    Kokkos::fence();
#if defined(KOKKOS_ENABLE_CUDA)
    if (start_) {
      cudaEventRecord(start_, 0);
      run();
      cudaEventRecord(stop_, 0);
      Kokkos::fence();
      cudaEventSynchronize(stop_);
      float ms = 0;
      cudaEventElapsedTime(&ms, start_, stop_);
      return ms * 1e-3;
    }
#endif
    Kokkos::Timer timer;
    run();
    Kokkos::fence();
    return timer.seconds();
  }

 private:
#if defined(KOKKOS_ENABLE_CUDA)
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
#endif
};

}  // namespace kobalt::bench
