// SPDX-License-Identifier: BSD-3-Clause
// The clock kobalt-bench times with: the device's own events when the default
// execution space is a GPU, recorded on the stream of Kokkos' default
// instance, where the formats and the peers run (CUDA events on the legacy
// stream added its wait for the other streams to every call); a host timer
// otherwise. Both are bracketed by fences.
#pragma once

#include <Kokkos_Core.hpp>

#include <string>
#include <type_traits>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime_api.h>
#endif
#if defined(KOKKOS_ENABLE_HIP)
#include <hip/hip_runtime_api.h>
#endif

namespace kobalt::bench {

namespace detail {
#if defined(KOKKOS_ENABLE_CUDA)
inline constexpr bool cuda_default = std::is_same_v<Kokkos::DefaultExecutionSpace, Kokkos::Cuda>;
/// CUDA's events behind one interface.
struct GpuEvents {
  using event = cudaEvent_t;
  using stream = cudaStream_t;
  static stream default_stream() { return Kokkos::Cuda().cuda_stream(); }
  static void create(event* e) { cudaEventCreate(e); }
  static void destroy(event e) { cudaEventDestroy(e); }
  static void record(event e, stream s) { cudaEventRecord(e, s); }
  static float elapsed_ms(event start, event stop) {
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    return ms;
  }
  static constexpr const char* name = "cuda_event";
};
#elif defined(KOKKOS_ENABLE_HIP)
inline constexpr bool hip_default = std::is_same_v<Kokkos::DefaultExecutionSpace, Kokkos::HIP>;
/// HIP's events behind the same interface, recorded on the stream Kokkos'
/// default HIP instance launches on.
struct GpuEvents {
  using event = hipEvent_t;
  using stream = hipStream_t;
  static stream default_stream() { return Kokkos::HIP().hip_stream(); }
  static void create(event* e) { (void)hipEventCreate(e); }
  static void destroy(event e) { (void)hipEventDestroy(e); }
  static void record(event e, stream s) { (void)hipEventRecord(e, s); }
  static float elapsed_ms(event start, event stop) {
    (void)hipEventSynchronize(stop);
    float ms = 0;
    (void)hipEventElapsedTime(&ms, start, stop);
    return ms;
  }
  static constexpr const char* name = "hip_event";
};
#endif

/// True when kobalt-bench times with the GPU's events.
inline constexpr bool device_events =
#if defined(KOKKOS_ENABLE_CUDA)
    cuda_default;
#elif defined(KOKKOS_ENABLE_HIP)
    hip_default;
#else
    false;
#endif
}  // namespace detail

class DeviceClock {
 public:
  DeviceClock() {
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
    if constexpr (detail::device_events) {
      // The stream is looked up once: a handle built between run() and the
      // stop event would be timed with the call.
      stream_ = detail::GpuEvents::default_stream();
      detail::GpuEvents::create(&start_);
      detail::GpuEvents::create(&stop_);
    }
#endif
  }
  ~DeviceClock() {
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
    if (start_) detail::GpuEvents::destroy(start_);
    if (stop_) detail::GpuEvents::destroy(stop_);
#endif
  }
  DeviceClock(const DeviceClock&) = delete;
  DeviceClock& operator=(const DeviceClock&) = delete;

  static std::string name() {
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
    if constexpr (detail::device_events) return detail::GpuEvents::name;
#endif
    return "host_timer";
  }

  /// Seconds one call of `run` takes, fenced before and after.
  template <class Run>
  double time(Run&& run) {
    Kokkos::fence();
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
    if (start_) {
      detail::GpuEvents::record(start_, stream_);
      run();
      detail::GpuEvents::record(stop_, stream_);
      Kokkos::fence();
      return detail::GpuEvents::elapsed_ms(start_, stop_) * 1e-3;
    }
#endif
    Kokkos::Timer timer;
    run();
    Kokkos::fence();
    return timer.seconds();
  }

 private:
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
  detail::GpuEvents::event start_ = nullptr, stop_ = nullptr;
  detail::GpuEvents::stream stream_ = nullptr;
#endif
};

}  // namespace kobalt::bench
