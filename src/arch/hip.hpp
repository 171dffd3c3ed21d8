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

/// HIP lane primitives on the W lanes of a team thread (W consecutive lanes
/// of a wavefront of 64 on CDNA/GCN or 32 on RDNA; W a power of two no
/// larger than the wavefront). HIP's shuffles need no mask; its votes cover
/// the whole wavefront, so any() is this group's bits of the ballot.
/// HIP: a nontemporal load (clang's builtin; not measured on AMD hardware).
template <>
struct loads<Kokkos::HIP> {
  template <class T>
  KOKKOS_INLINE_FUNCTION static T streaming(const T* p) {
#if defined(__HIP_DEVICE_COMPILE__)
    if constexpr (is_complex_v<T>) {
      // The builtin takes scalars and vectors, not structs: the two parts.
      const real_type_t<T>* parts = reinterpret_cast<const real_type_t<T>*>(p);
      return T(__builtin_nontemporal_load(parts), __builtin_nontemporal_load(parts + 1));
    } else {
      return __builtin_nontemporal_load(p);
    }
#else
    return *p;
#endif
  }
  /// HIP: a plain load (no L1-only hint measured on AMD hardware).
  template <class T>
  KOKKOS_INLINE_FUNCTION static T cached_in_l2(const T* p) {
    return *p;
  }
};

template <>
struct lanes<Kokkos::HIP> {
  // The widest wavefront (CDNA/GCN); RDNA's 32 is the other width that
  // with_lane_width instantiates. One value for host and device passes.
  static constexpr int max_width = 64;

  template <int W, class T>
  KOKKOS_INLINE_FUNCTION static T shfl_up(T v, int delta) {
#if defined(__HIP_DEVICE_COMPILE__)
    return detail::by_parts(v, [&](auto part) { return __shfl_up(part, delta, W); });
#else
    (void)delta;
    return v;
#endif
  }
  template <int W, class T>
  KOKKOS_INLINE_FUNCTION static T shfl_down(T v, int delta) {
#if defined(__HIP_DEVICE_COMPILE__)
    return detail::by_parts(v, [&](auto part) { return __shfl_down(part, delta, W); });
#else
    (void)delta;
    return v;
#endif
  }
  template <int W, class T>
  KOKKOS_INLINE_FUNCTION static T shfl(T v, int source_lane) {
#if defined(__HIP_DEVICE_COMPILE__)
    return detail::by_parts(v, [&](auto part) { return __shfl(part, source_lane, W); });
#else
    (void)source_lane;
    return v;
#endif
  }
  /// Bit l set where lane l of the W lanes has p.
  template <int W>
  KOKKOS_INLINE_FUNCTION static std::uint64_t ballot(bool p) {
#if defined(__HIP_DEVICE_COMPILE__)
    static_assert(W >= 1 && W <= 64 && (W & (W - 1)) == 0, "W must be a power of two <= 64");
    const std::uint64_t all = static_cast<std::uint64_t>(__ballot(p));
    const unsigned first = __lane_id() & ~unsigned(W - 1);
    const std::uint64_t group = W == 64 ? ~std::uint64_t(0) : ((std::uint64_t(1) << W) - 1);
    return (all >> first) & group;
#else
    return p ? 1u : 0u;
#endif
  }
  template <int W>
  KOKKOS_INLINE_FUNCTION static bool any(bool p) {
    return ballot<W>(p) != 0;
  }
  /// The lowest lane whose bit is set in a non-zero ballot (see cuda.hpp).
  KOKKOS_INLINE_FUNCTION static int first_lane(std::uint64_t bits) {
#if defined(__HIP_DEVICE_COMPILE__)
    return __ffsll(static_cast<unsigned long long>(bits)) - 1;
#else
    (void)bits;
    return 0;  // the host pass's ballot is one lane's bit (see ballot)
#endif
  }
  /// A wavefront runs its lanes in lockstep and its LDS accesses in order:
  /// the barrier only keeps the compiler from moving accesses across it.
  template <int W>
  KOKKOS_INLINE_FUNCTION static void sync() {
#if defined(__HIP_DEVICE_COMPILE__)
    __builtin_amdgcn_wave_barrier();
#endif
  }
};

/// HIP arrivals: an acquire atomic at agent (device) scope, as on CUDA
/// (see cuda.hpp; not measured on AMD hardware).
template <>
struct arrivals<Kokkos::HIP> {
  KOKKOS_INLINE_FUNCTION static int count(int* counter) {
#if defined(__HIP_DEVICE_COMPILE__)
    return __hip_atomic_fetch_add(counter, 1, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_AGENT);
#else
    return detail::count_then_fence(counter);
#endif
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
  static constexpr device_runtime runtime = device_runtime::hip;
  static MemoryInfo info() { return detail::hip_memory(); }
};
template <>
struct memory<Kokkos::HIPManagedSpace> {
  static constexpr device_runtime runtime = device_runtime::hip;
  static MemoryInfo info() { return detail::hip_memory(); }
};

}  // namespace kobalt::arch
