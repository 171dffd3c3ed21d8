// SPDX-License-Identifier: BSD-3-Clause
// CUDA specialisations of the arch facade (included from arch.hpp only).
#pragma once

#include <cuda_runtime_api.h>

#include <memory>
#include <stdexcept>
#include <string>

namespace kobalt::arch {

namespace detail {
/// Throws std::runtime_error naming the CUDA call `what` where it failed.
inline void cuda_check(cudaError_t result, const char* what) {
  if (result != cudaSuccess)
    throw std::runtime_error(std::string("kobalt::arch: ") + what + " failed: " +
                             cudaGetErrorString(result));
}

/// Makes `device` the calling thread's current CUDA device while it lives,
/// then the one before, also when an exception unwinds past it.
class ScopedCudaDevice {
 public:
  explicit ScopedCudaDevice(int device) {
    cuda_check(cudaGetDevice(&previous_), "cudaGetDevice");
    cuda_check(cudaSetDevice(device), "cudaSetDevice");
  }
  // A destructor cannot throw: a failed restore is left to the next CUDA call.
  ~ScopedCudaDevice() { static_cast<void>(cudaSetDevice(previous_)); }
  ScopedCudaDevice(const ScopedCudaDevice&) = delete;
  ScopedCudaDevice& operator=(const ScopedCudaDevice&) = delete;

 private:
  int previous_ = 0;
};
}  // namespace detail

/// A CUDA event that orders one instance's later work after another's work
/// so far, with no wait on the host (stream_order<Kokkos::Cuda>).
class CudaStreamOrder {
 public:
  CudaStreamOrder() {
    cudaEvent_t e = nullptr;
    detail::cuda_check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreateWithFlags");
    event_ = std::shared_ptr<CUevent_st>(e, [](cudaEvent_t made) { cudaEventDestroy(made); });
  }
  /// Work enqueued on `after` from now on starts once `before`'s work
  /// enqueued so far has finished.
  void order(const Kokkos::Cuda& before, const Kokkos::Cuda& after) const {
    detail::cuda_check(cudaEventRecord(event_.get(), before.cuda_stream()), "cudaEventRecord");
    detail::cuda_check(cudaStreamWaitEvent(after.cuda_stream(), event_.get(), 0), "cudaStreamWaitEvent");
  }

 private:
  std::shared_ptr<CUevent_st> event_;
};

template <>
struct backend<Kokkos::Cuda> {
  using stream_order = CudaStreamOrder;
  static int warp_width(const Kokkos::Cuda&) {
    return Kokkos::TeamPolicy<Kokkos::Cuda>::vector_length_max();  // 32
  }
  static int device_id(const Kokkos::Cuda& exec) { return exec.cuda_device(); }
  static cudaStream_t stream(const Kokkos::Cuda& exec) { return exec.cuda_stream(); }
#if KOKKOS_VERSION >= 40200  // Kokkos owns a stream it is handed from 4.2 on
  /// A new instance on exec's device, on a stream of the greatest priority:
  /// its blocks are dispatched before those of ordinary streams' kernels
  /// already running, rather than after their last wave.
  static Kokkos::Cuda urgent_instance(const Kokkos::Cuda& exec) {
    cudaStream_t made = nullptr;
    {
      const detail::ScopedCudaDevice on(exec.cuda_device());
      int least = 0, greatest = 0;
      detail::cuda_check(cudaDeviceGetStreamPriorityRange(&least, &greatest),
                         "cudaDeviceGetStreamPriorityRange");
      detail::cuda_check(cudaStreamCreateWithPriority(&made, cudaStreamDefault, greatest),
                         "cudaStreamCreateWithPriority");
    }
    return Kokkos::Cuda(made, Kokkos::Impl::ManageStream::yes);
  }
#endif
  static DeviceInfo device_info(const Kokkos::Cuda& exec) {
    cudaDeviceProp p{};
    const bool ok = cudaGetDeviceProperties(&p, exec.cuda_device()) == cudaSuccess;
    return detail::gpu_device_info(ok ? &p : nullptr);
  }
};

/// CUDA lane primitives: the intrinsics on the W lanes of a team thread
/// (Kokkos puts a team thread's vector lanes in threadIdx.x, so they are W
/// consecutive lanes of one warp; W is a power of two <= 32). Host passes of
/// these __host__ __device__ functions take the host fallback.
/// CUDA: ld.global.cs (evict-first) through __ldcs.
template <>
struct loads<Kokkos::Cuda> {
  template <class T>
  KOKKOS_INLINE_FUNCTION static T streaming(const T* p) {
#if defined(__CUDA_ARCH__)
    if constexpr (is_complex_v<T>) {
      // One 8- or 16-byte load (float2 / double2) where complex is aligned
      // to its size (Kokkos' default, KOKKOS_ENABLE_COMPLEX_ALIGN), else
      // the two parts.
      using R = real_type_t<T>;
      if constexpr (alignof(T) == sizeof(T) && std::is_same_v<R, double>) {
        const double2 d = __ldcs(reinterpret_cast<const double2*>(p));
        return T(d.x, d.y);
      } else if constexpr (alignof(T) == sizeof(T)) {
        const float2 f = __ldcs(reinterpret_cast<const float2*>(p));
        return T(f.x, f.y);
      } else {
        const R* parts = reinterpret_cast<const R*>(p);
        return T(__ldcs(parts), __ldcs(parts + 1));
      }
    } else {
      return __ldcs(p);
    }
#else
    return *p;
#endif
  }
  /// A load of data read once per call that the next call reads again:
  /// ld.global.L1::no_allocate, no L1 line for it, the L2 caches it as usual.
  template <class T>
  KOKKOS_INLINE_FUNCTION static T cached_in_l2(const T* p) {
#if defined(__CUDA_ARCH__)
    T t;
    if constexpr (!std::is_trivially_copyable_v<T>) {
      t = *p;
    } else if constexpr (sizeof(T) == 4) {
      unsigned v;
      asm("ld.global.L1::no_allocate.b32 %0, [%1];" : "=r"(v) : "l"(p));
      __builtin_memcpy(&t, &v, sizeof(T));
    } else if constexpr (sizeof(T) == 8) {
      unsigned long long v;
      asm("ld.global.L1::no_allocate.b64 %0, [%1];" : "=l"(v) : "l"(p));
      __builtin_memcpy(&t, &v, sizeof(T));
    } else if constexpr (sizeof(T) == 16 && alignof(T) == 16) {
      unsigned long long v[2];
      asm("ld.global.L1::no_allocate.v2.b64 {%0, %1}, [%2];" : "=l"(v[0]), "=l"(v[1]) : "l"(p));
      __builtin_memcpy(&t, v, sizeof(T));
    } else {
      t = *p;
    }
    return t;
#else
    return *p;
#endif
  }
};

template <>
struct lanes<Kokkos::Cuda> {
  static constexpr int max_width = 32;

  /// The W lanes of this team thread within the warp.
  template <int W>
  KOKKOS_INLINE_FUNCTION static unsigned mask() {
#if defined(__CUDA_ARCH__)
    static_assert(W >= 1 && W <= 32 && (W & (W - 1)) == 0, "W must be a power of two <= 32");
    if constexpr (W == 32) {
      return 0xffffffffu;
    } else {
      const unsigned linear = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
      return ((1u << W) - 1u) << ((linear & 31u) & ~unsigned(W - 1));
    }
#else
    return 1u;
#endif
  }
  template <int W, class T>
  KOKKOS_INLINE_FUNCTION static T shfl_up(T v, int delta) {
#if defined(__CUDA_ARCH__)
    const unsigned m = mask<W>();
    return detail::by_parts(v, [&](auto part) { return __shfl_up_sync(m, part, delta, W); });
#else
    (void)delta;
    return v;
#endif
  }
  template <int W, class T>
  KOKKOS_INLINE_FUNCTION static T shfl_down(T v, int delta) {
#if defined(__CUDA_ARCH__)
    const unsigned m = mask<W>();
    return detail::by_parts(v, [&](auto part) { return __shfl_down_sync(m, part, delta, W); });
#else
    (void)delta;
    return v;
#endif
  }
  template <int W, class T>
  KOKKOS_INLINE_FUNCTION static T shfl(T v, int source_lane) {
#if defined(__CUDA_ARCH__)
    const unsigned m = mask<W>();
    return detail::by_parts(v, [&](auto part) { return __shfl_sync(m, part, source_lane, W); });
#else
    (void)source_lane;
    return v;
#endif
  }
  template <int W>
  KOKKOS_INLINE_FUNCTION static bool any(bool p) {
#if defined(__CUDA_ARCH__)
    return __any_sync(mask<W>(), p) != 0;
#else
    return p;
#endif
  }
  /// Bit l set where lane l of the W lanes has p.
  template <int W>
  KOKKOS_INLINE_FUNCTION static std::uint64_t ballot(bool p) {
#if defined(__CUDA_ARCH__)
    const unsigned m = mask<W>();
    return static_cast<std::uint64_t>((__ballot_sync(m, p) & m) >> (__ffs(m) - 1));
#else
    return p ? 1u : 0u;
#endif
  }
  /// The lowest lane whose bit is set in a non-zero ballot, in one
  /// instruction. A loop over the bits (finish_split_rows.hpp's finishing warp)
  /// takes one dependent step per lane, a large share of the merge-path tile
  /// kernel's instructions (docs/sources.md: "first_lane").
  KOKKOS_INLINE_FUNCTION static int first_lane(std::uint64_t bits) {
#if defined(__CUDA_ARCH__)
    return __ffsll(static_cast<long long>(bits)) - 1;
#else
    (void)bits;
    return 0;  // the host pass's ballot is one lane's bit (see ballot)
#endif
  }
  template <int W>
  KOKKOS_INLINE_FUNCTION static void sync() {
#if defined(__CUDA_ARCH__)
    __syncwarp(mask<W>());  // orders memory among the lanes (CUDA guide, __syncwarp)
#endif
  }
};

/// CUDA arrivals (sm_70+): one atom.acquire.gpu.add (SASS: the atomic, then
/// CCTL.IVALL). The finishing warp then needs no fence of its own: a
/// fence.sc.gpu there (Kokkos' memory_fence) and one before each count
/// stalled merge_path's warps, and a relaxed count with fence.acq_rel.gpu in
/// the finishing warp was no faster (docs/sources.md: "arch::arrivals::count").
template <>
struct arrivals<Kokkos::Cuda> {
  KOKKOS_INLINE_FUNCTION static int count(int* counter) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
    int before;
    asm volatile("atom.acquire.gpu.add.s32 %0, [%1], 1;" : "=r"(before) : "l"(counter) : "memory");
    return before;
#else
    return detail::count_then_fence(counter);
#endif
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
  static constexpr device_runtime runtime = device_runtime::cuda;
  static MemoryInfo info() { return detail::cuda_memory(); }
};
template <>
struct memory<Kokkos::CudaUVMSpace> {
  static constexpr device_runtime runtime = device_runtime::cuda;
  static MemoryInfo info() { return detail::cuda_memory(); }
};

}  // namespace kobalt::arch
