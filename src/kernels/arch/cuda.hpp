// SPDX-License-Identifier: BSD-3-Clause
// CUDA specialisations of the arch facade (included from arch.hpp only).
#pragma once

namespace kobalt::arch {
template <>
struct traits<Kokkos::Cuda> {
  static constexpr int warp_size = 32;  // every NVIDIA GPU
};
}  // namespace kobalt::arch
