// SPDX-License-Identifier: BSD-3-Clause
// What kobalt-bench says about the device: a readable name from the
// library's own device query (kobalt::arch::device_info: CUDA's and HIP's
// device properties, the CPU model on host backends), its last-level cache
// and the size of the triad probe derived from both.
#pragma once

#include <kobalt/arch/arch.hpp>
#include <kobalt/formats/storage_limit.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <string>

namespace kobalt::bench {

inline std::string device_name() {
  const arch::DeviceInfo d = arch::device_info(Kokkos::DefaultExecutionSpace());
  if (!d.gpu) return d.name + ", " + std::to_string(d.compute_units) + " threads";
  // NVIDIA counts streaming multiprocessors, AMD compute units.
  const char* units = d.kind == arch::Backend::hip ? " CUs, " : " SMs, ";
  return d.name + ", " + std::to_string(d.compute_units) + units +
         std::to_string(d.l2_bytes >> 20) + " MiB L2";
}

/// The device's last-level cache (L2 on GPUs), 0 when unknown.
inline std::uint64_t last_level_cache_bytes() {
  return arch::device_info(Kokkos::DefaultExecutionSpace()).l2_bytes;
}

/// Bytes of each triad array when --triad-mib is not given: 8 times the
/// last-level cache, so the probe streams from memory (at least 64 MiB when
/// the cache is unknown), and at most 1/16 of the device's memory and 1/8
/// of what is free now (a job's limit included) so that 3 arrays fit
/// beside everything else. H200: 60 MiB L2 -> 480 MiB.
inline std::int64_t default_triad_bytes() {
  constexpr std::uint64_t mib = 1 << 20;
  const arch::DeviceInfo d = arch::device_info(Kokkos::DefaultExecutionSpace());
  std::uint64_t bytes = std::max<std::uint64_t>(8 * last_level_cache_bytes(), 64 * mib);
  if (d.memory_bytes > 0) bytes = std::min(bytes, d.memory_bytes / 16);
  bytes = std::min(bytes, available_bytes<Kokkos::DefaultExecutionSpace::memory_space>() / 8);
  return static_cast<std::int64_t>(std::max<std::uint64_t>(bytes / mib, 1) * mib);
}

}  // namespace kobalt::bench
