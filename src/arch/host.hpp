// SPDX-License-Identifier: BSD-3-Clause
// Host backends (Serial, OpenMP, Threads, HPX) and the primary templates the
// GPU backend files specialise (included from arch.hpp only).
#pragma once

#include "host_memory.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>

#include <unistd.h>

namespace kobalt::arch {

namespace detail {
/// "model name" of /proc/cpuinfo, or "unknown CPU".
inline std::string host_cpu_name() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) break;
    const auto start = line.find_first_not_of(' ', colon + 1);
    return start == std::string::npos ? std::string() : line.substr(start);
  }
  return "unknown CPU";
}

/// The largest cache of CPU 0 in sysfs (the highest index*: L3 on most
/// servers, shared by the cores as a GPU's L2 is), or 0. Whether a matrix
/// stays cached between calls depends on this level (merge_path's host tiles).
inline std::uint64_t host_last_level_cache_bytes() {
  std::uint64_t largest = 0;
  for (int index = 0; index < 8; ++index) {
    std::ifstream in("/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/size");
    std::uint64_t size = 0;
    char unit = 0;
    if (!(in >> size)) continue;
    in >> unit;
    if (unit == 'K') size <<= 10;
    if (unit == 'M') size <<= 20;
    largest = std::max(largest, size);
  }
  return largest;
}

/// Bytes this process can allocate on the host now: the node's
/// MemAvailable (else the free pages), capped by the process's ulimits and
/// its cgroups' memory limits (host_memory.hpp).
inline std::uint64_t host_available_bytes();

inline std::uint64_t host_pages(int name) {
  const long pages = sysconf(name);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page_size > 0
             ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size)
             : 0;
}
/// The device description from a GPU runtime's properties (CUDA's
/// cudaDeviceProp and HIP's hipDeviceProp_t share these fields); p is null
/// when the query failed.
template <class Properties>
DeviceInfo gpu_device_info(const Properties* p) {
  DeviceInfo d;
  d.gpu = true;
  if (p != nullptr) {
    d.name = p->name;
    d.compute_units = p->multiProcessorCount;
    d.l2_bytes = static_cast<std::uint64_t>(p->l2CacheSize);
    d.memory_bytes = static_cast<std::uint64_t>(p->totalGlobalMem);
  }
  return d;
}

/// Free and total bytes from a GPU runtime's memory query (0 when it failed).
inline MemoryInfo gpu_memory_info(bool ok, std::size_t free_bytes, std::size_t total_bytes) {
  MemoryInfo m;
  if (ok) {
    m.free_bytes = free_bytes;
    m.total_bytes = total_bytes;
  }
  return m;
}
}  // namespace detail

/// A backend's answers; this primary template is the host's. Host threads do
/// not run in lockstep, so a vector range is one thread's loop: width 1.
template <class ExecutionSpace>
struct backend {
  static int warp_width(const ExecutionSpace&) { return 1; }
  static int device_id(const ExecutionSpace&) { return 0; }
  static DeviceInfo device_info(const ExecutionSpace& exec) {
    DeviceInfo d;
    d.name = detail::host_cpu_name();
    d.gpu = false;
    d.compute_units = static_cast<int>(exec.concurrency());
    d.l2_bytes = detail::host_last_level_cache_bytes();
    d.memory_bytes = detail::host_pages(_SC_PHYS_PAGES);
    return d;
  }
};

/// The lane primitives of a logical warp: the W vector lanes of one team
/// thread, which run in lockstep on GPUs. This primary template is the host
/// fallback, always built: host vector lanes are one thread's loop, so the
/// logical warp has one lane (max_width 1), a shuffle from another lane
/// returns the caller's own value (as CUDA's does when the source lane is
/// outside the warp), and a vote is the lane's own predicate.
template <class ExecutionSpace>
struct lanes {
  static constexpr int max_width = 1;
  template <int W, class T>
  KOKKOS_INLINE_FUNCTION static T shfl_up(T v, int) { return v; }
  template <int W, class T>
  KOKKOS_INLINE_FUNCTION static T shfl_down(T v, int) { return v; }
  template <int W, class T>
  KOKKOS_INLINE_FUNCTION static T shfl(T v, int) { return v; }
  template <int W>
  KOKKOS_INLINE_FUNCTION static bool any(bool p) { return p; }
  template <int W>
  KOKKOS_INLINE_FUNCTION static std::uint64_t ballot(bool p) { return p ? 1u : 0u; }
  /// The lowest lane whose bit is set in a non-zero ballot: lane 0 here.
  KOKKOS_INLINE_FUNCTION static int first_lane(std::uint64_t) { return 0; }
  /// The W lanes meet: their writes before it (team scratch, global) are
  /// visible to each other after it. One lane here: nothing to wait for.
  template <int W>
  KOKKOS_INLINE_FUNCTION static void sync() {}
};

/// Counting arrivals at a shared counter (kernels/finish_split_rows.hpp): count(c)
/// adds one to *c at device scope with acquire order. Each thread fences
/// (Kokkos::memory_fence) after writing its data and before counting, so
/// the thread that reads the final count sees every counted thread's data.
/// This primary template is the host's: Kokkos' atomic, then its full fence.
namespace detail {
/// The portable count: Kokkos' atomic, then its full fence (hosts, and the
/// host passes and older GPUs of the backend files).
KOKKOS_INLINE_FUNCTION int count_then_fence(int* counter) {
  const int before = Kokkos::atomic_fetch_add(counter, 1);
  Kokkos::memory_fence();
  return before;
}
}  // namespace detail

template <class ExecutionSpace>
struct arrivals {
  KOKKOS_INLINE_FUNCTION static int count(int* counter) {
    return detail::count_then_fence(counter);
  }
};

/// Bytes ahead of a host thread's streams (values, indices) that the host
/// walks prefetch: the hardware prefetchers alone do not keep one core's
/// stream busy, and the gain levels off at a few KiB ahead (docs/sources.md:
/// "host_prefetch_bytes").
inline constexpr int host_prefetch_bytes = 4096;

/// Asks the host cache for the line holding p + host_prefetch_bytes (read,
/// keep in all levels); nothing in device code.
KOKKOS_INLINE_FUNCTION void prefetch_ahead(const void* p) {
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__) && \
    (defined(__GNUC__) || defined(__clang__))
  __builtin_prefetch(static_cast<const char*>(p) + host_prefetch_bytes);
#else
  (void)p;
#endif
}

/// Loads of data read exactly once by fully coalesced accesses (the slot
/// columns of ELL/SELL-P under a thread per row): GPUs mark them
/// evict-first so they do not push x out of the cache (docs/sources.md:
/// "Evict-first loads", "ell_sellp_thread_per_row"). This primary template is the host's plain load.
template <class ExecutionSpace>
struct loads {
  template <class T>
  KOKKOS_INLINE_FUNCTION static T streaming(const T* p) { return *p; }
  /// Data read once per call that the next call reads again: GPUs keep it
  /// out of L1 and in L2; hosts load it plainly.
  template <class T>
  KOKKOS_INLINE_FUNCTION static T cached_in_l2(const T* p) { return *p; }
};

/// The GPU runtime whose pointers address a memory space: none for host
/// memory (what an MPI library must support to read it, distributed/).
enum class device_runtime { none, cuda, hip };

/// Memory of a space; this primary template is host memory (free = what
/// can be allocated now, detail::host_available_bytes).
template <class MemorySpace>
struct memory {
  static constexpr device_runtime runtime = device_runtime::none;
  static MemoryInfo info() {
    MemoryInfo m;
    m.total_bytes = detail::host_pages(_SC_PHYS_PAGES);
    m.free_bytes = detail::host_available_bytes();
    return m;
  }
};

namespace detail {
inline std::uint64_t host_available_bytes() {
  const std::uint64_t node = meminfo_available("/proc/meminfo", host_pages(_SC_AVPHYS_PAGES));
  // At least 1: a free count of 0 reads as "unknown" (available_bytes).
  return std::max<std::uint64_t>(
      std::min({node, process_rlimit_headroom(), cgroup_headroom()}), 1);
}
}  // namespace detail

}  // namespace kobalt::arch
