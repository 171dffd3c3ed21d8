// SPDX-License-Identifier: BSD-3-Clause
// A readable name of the device the default execution space runs on, from
// the library's own device query (kobalt::arch::device_info: CUDA's and
// HIP's device properties, the CPU model on host backends).
#pragma once

#include <kobalt/arch/arch.hpp>

#include <Kokkos_Core.hpp>

#include <string>

namespace kobalt::bench {

inline std::string device_name() {
  const arch::DeviceInfo d = arch::device_info(Kokkos::DefaultExecutionSpace());
  if (!d.gpu) return d.name + ", " + std::to_string(d.compute_units) + " threads";
  // NVIDIA counts streaming multiprocessors, AMD compute units.
  const char* units = d.backend == "HIP" ? " CUs, " : " SMs, ";
  return d.name + ", " + std::to_string(d.compute_units) + units +
         std::to_string(d.l2_bytes >> 20) + " MiB L2";
}

}  // namespace kobalt::bench
