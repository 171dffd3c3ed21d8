// SPDX-License-Identifier: BSD-3-Clause
// The arch facade, the bottom layer: what the layers above may ask about the
// hardware an execution space runs on. Backend files are named by backend
// and included from the one #if ladder below; no file outside src/arch/
// (and the device profile built from it) names a backend.
//
//   warp_width(exec)        lanes that run in lockstep and share a vector range
//   device_id(exec)         which device of the backend exec runs on
//   native_stream(exec)     the stream a GPU instance enqueues on (CUDA), for NCCL
//   stream_order<Exec>      an event that orders one instance after another (CUDA)
//   urgent_instance(exec)   a second instance whose kernels overtake exec's (CUDA)
//   device_info(exec)       backend, device name, compute units, L2, memory
//   team_limits(exec)       the largest team, vector and team scratch a launch may ask for
//   memory_info<Space>()    free and total bytes of a memory space
//   memory<Space>::runtime  the GPU runtime whose pointers address a space (none on hosts)
//   atomic_add(dst, v)      y += v where several threads may hit the same y
//   loads<Exec>::streaming  a load of data read once, coalesced (evict-first on GPUs)
//   loads<Exec>::cached_in_l2  a load the next call repeats: past L1, kept in L2 (CUDA)
//   lanes<Exec>             shuffles, votes and sync on the W vector lanes of a team
//                           thread (a complex value is shuffled as its two parts)
//   arrivals<Exec>::count   an atomic count with acquire order (split rows' counters)
//   segmented_scan<Exec,W>  inclusive scan over those lanes, restarted where the key changes
//   segment_end<Exec,W>     whether a lane holds the last of its key's run
//   with_lane_width(exec,f) f(integral_constant<int, W>) for the warp width at run time
#pragma once

#include "../compat.hpp"
#include "../scalar.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

namespace kobalt::arch {

/// What a team launch may ask of the backend, in Kokkos' own answers
/// (team_limits()). Zeros mean unknown: nothing is checked against them.
struct TeamLimits {
  /// Powers of two up to this many lanes have an entry in team_size_max.
  static constexpr int lane_steps = 11;
  /// Most team threads with 2^i vector lanes each (Kokkos' team_size_max of
  /// an empty kernel: the backend's own limit; a kernel's registers and
  /// scratch can lower it on GPUs). 0 = unknown.
  int team_size_max[lane_steps] = {};
  int vector_length_max = 0;  ///< Kokkos' vector_length_max(); 0 = unknown
  /// GPUs: Kokkos rounds any other vector length down to a power of two, so
  /// a kernel that counts on its lanes must ask for a power of two.
  bool vector_length_power_of_two = false;
  std::uint64_t scratch_max[2] = {0, 0};  ///< team scratch bytes at levels 0 and 1; 0 = unknown

  /// True when the backend's answers were read.
  bool known() const { return vector_length_max > 0; }
  /// True when a team thread may have `lanes` vector lanes.
  bool vector_length_ok(int lanes) const {
    if (!known()) return lanes >= 1;
    if (lanes < 1 || lanes > vector_length_max) return false;
    return !vector_length_power_of_two || (lanes & (lanes - 1)) == 0;
  }
  /// Most team threads with `lanes` lanes each (lanes rounded down to a
  /// power of two); 0 when unknown.
  int team_size_for(int lanes) const {
    int step = 0;
    while (step + 1 < lane_steps && (2 << step) <= lanes) ++step;
    return team_size_max[step];
  }
};

/// The backends a tuning decision may tell apart: decisions compare this,
/// never a name (the layering test refuses backend names outside arch/).
enum class Backend { host, cuda, hip, other_gpu };

/// The Backend of an execution space type: Cuda and HIP by name here, any
/// other space by whether its vector lanes run in lockstep.
template <class ExecutionSpace>
Backend backend_of(bool lockstep) {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<ExecutionSpace, Kokkos::Cuda>) return Backend::cuda;
#endif
#if defined(KOKKOS_ENABLE_HIP)
  if constexpr (std::is_same_v<ExecutionSpace, Kokkos::HIP>) return Backend::hip;
#endif
  return lockstep ? Backend::other_gpu : Backend::host;
}

/// What arch knows about the device behind an execution-space instance.
struct DeviceInfo {
  Backend kind = Backend::host;  ///< what decisions compare (backend_of)
  std::string backend;          ///< Kokkos' name of the execution space, for reports ("Cuda", "OpenMP", ...)
  std::string name;             ///< device name as the backend reports it, or CPU model
  bool gpu = false;             ///< lanes of a vector range run in lockstep (warp, wavefront)
  int compute_units = 1;        ///< SMs / CUs, or host threads
  int warp_width = 1;           ///< see warp_width()
  std::uint64_t l2_bytes = 0;   ///< last-level cache shared by the compute units (GPUs: L2; hosts: the largest, usually L3); 0 = unknown
  std::uint64_t memory_bytes = 0;  ///< total memory of the device; 0 = unknown
  TeamLimits team;              ///< see team_limits(); unknown unless device_info() read it
};

/// Free and total bytes of a memory space.
struct MemoryInfo {
  std::uint64_t free_bytes = 0;
  std::uint64_t total_bytes = 0;
};

/// y += v where several threads may hit the same y; Kokkos picks the native
/// instruction (fp64 atomics exist since Pascal and on CDNA, seed 000 §3.2.1).
template <class T>
KOKKOS_INLINE_FUNCTION void atomic_add(T* dst, T value) {
  Kokkos::atomic_add(dst, value);
}

/// Complex y += v as two native atomic adds, one on the real and one on the
/// imaginary part: complex addition is componentwise, so the parts need not
/// change together (Kokkos' own atomic on a 16-byte complex<double> takes a
/// lock or a 128-bit compare-and-swap loop instead). Another thread may see
/// the new real part with the old imaginary part; the kernels read y only
/// after the launch.
template <class R>
KOKKOS_INLINE_FUNCTION void atomic_add(Kokkos::complex<R>* dst, Kokkos::complex<R> value) {
  Kokkos::atomic_add(&dst->real(), value.real());
  Kokkos::atomic_add(&dst->imag(), value.imag());
}

namespace detail {
/// f(v) for a real v, complex(f(v.real()), f(v.imag())) for a complex v: the
/// lane intrinsics move 4- and 8-byte words, so a complex value moves as its
/// two parts (two shuffles of the same lanes give the same pairing).
template <class T, class F>
KOKKOS_INLINE_FUNCTION T by_parts(const T& v, const F& f) {
  if constexpr (is_complex_v<T>) {
    return T(f(v.real()), f(v.imag()));
  } else {
    return f(v);
  }
}
}  // namespace detail

}  // namespace kobalt::arch

// Host backends first: they define the primary templates the GPU files specialise.
#include "host.hpp"
#if defined(KOKKOS_ENABLE_CUDA)
#include "cuda.hpp"
#endif
#if defined(KOKKOS_ENABLE_HIP)
#include "hip.hpp"
#endif

namespace kobalt::arch {

/// Lanes that run in lockstep and share one vector range on `exec`: what
/// Kokkos reports as the largest vector length of a TeamPolicy on GPUs (32 on
/// NVIDIA and RDNA, 64 on CDNA and GCN, read at run time), 1 on host
/// backends, where a vector range is a loop the compiler may vectorise.
template <class ExecutionSpace>
int warp_width(const ExecutionSpace& exec) {
  return backend<ExecutionSpace>::warp_width(exec);
}

/// Which device of its backend `exec` runs on (0 on host backends).
template <class ExecutionSpace>
int device_id(const ExecutionSpace& exec) {
  return backend<ExecutionSpace>::device_id(exec);
}

/// Whether the backend of ExecutionSpace hands out its native stream
/// (native_stream): CUDA's does.
template <class ExecutionSpace, class = void>
struct has_native_stream : std::false_type {};
template <class ExecutionSpace>
struct has_native_stream<ExecutionSpace,
                         std::void_t<decltype(backend<ExecutionSpace>::stream(
                             std::declval<const ExecutionSpace&>()))>> : std::true_type {};

/// The native stream `exec` enqueues its work on (cudaStream_t), for
/// libraries that enqueue on it (NCCL); backends with has_native_stream only.
template <class ExecutionSpace>
auto native_stream(const ExecutionSpace& exec) {
  return backend<ExecutionSpace>::stream(exec);
}

/// An event that orders instances of ExecutionSpace without the host:
/// order(before, after) makes `after`'s later work wait for `before`'s work
/// so far; backends with has_native_stream only.
template <class ExecutionSpace>
using stream_order = typename backend<ExecutionSpace>::stream_order;

/// Whether the backend of ExecutionSpace has stream priorities
/// (urgent_instance): CUDA's does.
template <class ExecutionSpace, class = void>
struct has_urgent_instance : std::false_type {};
template <class ExecutionSpace>
struct has_urgent_instance<ExecutionSpace,
                           std::void_t<decltype(backend<ExecutionSpace>::urgent_instance(
                               std::declval<const ExecutionSpace&>()))>> : std::true_type {};

/// A second instance on exec's device for short work that should not queue
/// behind exec's: on a stream of the greatest priority where the backend has
/// priorities, Kokkos' partition of exec elsewhere.
template <class ExecutionSpace>
ExecutionSpace urgent_instance(const ExecutionSpace& exec) {
  if constexpr (has_urgent_instance<ExecutionSpace>::value)
    return backend<ExecutionSpace>::urgent_instance(exec);
  else
    return compat::partition_in_two(exec)[1];
}

namespace detail {
/// A team kernel that does nothing: what team_limits() asks Kokkos about,
/// so the answer is the backend's limit and not one kernel's.
template <class ExecutionSpace>
struct EmptyTeamKernel {
  KOKKOS_INLINE_FUNCTION void operator()(
      const typename Kokkos::TeamPolicy<ExecutionSpace>::member_type&) const {}
};
}  // namespace detail

/// The largest team, vector and team scratch the backend of `exec` runs,
/// from Kokkos' queries (TeamPolicy::team_size_max with an empty kernel at
/// each power-of-two vector length, vector_length_max, scratch_size_max).
/// Kokkos aborts on a larger team (host backends) or throws, and shortens a
/// vector it cannot run without saying so (GPUs).
template <class ExecutionSpace>
TeamLimits team_limits(const ExecutionSpace& exec) {
  using policy = Kokkos::TeamPolicy<ExecutionSpace>;
  TeamLimits t;
  t.vector_length_max = policy::vector_length_max();
  t.vector_length_power_of_two = warp_width(exec) > 1;  // lanes in lockstep: a GPU backend
  for (int step = 0; step < TeamLimits::lane_steps; ++step) {
    const int lanes = 1 << step;
    if (lanes > t.vector_length_max) break;
    t.team_size_max[step] = policy(exec, 1, 1, lanes)
                                .team_size_max(detail::EmptyTeamKernel<ExecutionSpace>(),
                                               Kokkos::ParallelForTag());
  }
  for (int level = 0; level < 2; ++level)
    t.scratch_max[level] = static_cast<std::uint64_t>(policy::scratch_size_max(level));
  return t;
}

/// make(), computed once per device of `exec`'s backend for each Tag in this
/// process (a device query can cost more than a small SpMV); the reference
/// stays valid for the whole run (entries are never removed).
template <class Tag, class ExecutionSpace, class Make>
const std::invoke_result_t<Make>& once_per_device(const ExecutionSpace& exec, Make&& make) {
  static std::mutex lock;
  static std::map<int, std::invoke_result_t<Make>> known;
  const std::lock_guard<std::mutex> guard(lock);
  const int id = device_id(exec);
  auto it = known.find(id);
  if (it == known.end()) it = known.emplace(id, make()).first;
  return it->second;
}

/// team_limits(exec), read once per execution-space type and device in this
/// process: what the kernels check each launch against.
template <class ExecutionSpace>
const TeamLimits& cached_team_limits(const ExecutionSpace& exec) {
  struct tag {};
  return once_per_device<tag>(exec, [&] { return team_limits(exec); });
}

/// Backend, name, compute units, cache, memory and team limits of the
/// device behind `exec`.
template <class ExecutionSpace>
DeviceInfo device_info(const ExecutionSpace& exec) {
  DeviceInfo d = backend<ExecutionSpace>::device_info(exec);
  d.backend = ExecutionSpace::name();
  d.warp_width = warp_width(exec);
  d.kind = backend_of<ExecutionSpace>(d.gpu);
  d.team = cached_team_limits(exec);
  return d;
}

/// Free and total bytes of MemorySpace now (host memory for host spaces).
template <class MemorySpace>
MemoryInfo memory_info() {
  return memory<MemorySpace>::info();
}

// ---- warp-level primitives (000 §3.2.1) -------------------------------------

/// Inclusive scan of v[0..N) over the W lanes of a team thread, restarted
/// wherever `key` changes: afterwards lane l holds the sum over the lanes of
/// its run up to l, so the last lane of each run holds the run's total. Keys
/// must come in contiguous runs (row-sorted entries; a run of "no row" keys
/// after them is fine). log2(W) fixed stages, 5 on 32 lanes (000 Alg. 1
/// line 7): stage d adds the value d lanes up when that lane has the same key
/// (with contiguous runs, equal keys d apart mean one run). All W lanes must
/// call it together.
template <class ExecutionSpace, int W, class Key, class T, int N>
KOKKOS_INLINE_FUNCTION void segmented_scan(int lane, Key key, T (&v)[N]) {
  using L = lanes<ExecutionSpace>;
  for (int d = 1; d < W; d *= 2) {
    const Key up_key = L::template shfl_up<W>(key, d);
    const bool same = lane >= d && up_key == key;
    for (int j = 0; j < N; ++j) {
      const T up = L::template shfl_up<W>(v[j], d);
      if (same) v[j] += up;
    }
  }
}

/// Whether `lane` holds the last of its key's run among the W lanes (the
/// lane that holds the run's total after segmented_scan). All W lanes must
/// call it together.
template <class ExecutionSpace, int W, class Key>
KOKKOS_INLINE_FUNCTION bool segment_end(int lane, Key key) {
  const Key next = lanes<ExecutionSpace>::template shfl_down<W>(key, 1);
  return lane == W - 1 || next != key;
}

/// Calls f(std::integral_constant<int, W>{}) with W = warp_width(exec), from
/// the widths the backend can have (1 on hosts, 32 on CUDA, 64 or 32 on
/// HIP): the lane count of the warp kernels is a compile-time constant
/// picked at run time from this short list (no other width is compiled).
template <class ExecutionSpace, class F>
void with_lane_width(const ExecutionSpace& exec, F&& f) {
  constexpr int widest = lanes<ExecutionSpace>::max_width;
  const int w = warp_width(exec);
  if (w == widest) {
    f(std::integral_constant<int, widest>{});
  } else if constexpr (widest == 64) {
    if (w == 32) f(std::integral_constant<int, 32>{});
    else throw std::runtime_error("kobalt::arch: unsupported warp width " + std::to_string(w));
  } else {
    throw std::runtime_error("kobalt::arch: unsupported warp width " + std::to_string(w));
  }
}

}  // namespace kobalt::arch
