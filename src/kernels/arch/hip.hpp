// SPDX-License-Identifier: BSD-3-Clause
// HIP specialisations of the arch facade (included from arch.hpp only).
#pragma once

namespace kobalt::arch {
template <>
struct traits<Kokkos::HIP> {
  // Wavefront of CDNA (MI100-MI300) and GCN, the HPC parts Kokkos targets;
  // RDNA's wave32 would need its own entry (seed 003 §3.2 uses 64).
  static constexpr int warp_size = 64;
};
}  // namespace kobalt::arch
