// SPDX-License-Identifier: BSD-3-Clause
// The arch facade: what a kernel may ask about the hardware it runs on.
// Backend files are named by backend and included from this one ladder;
// nothing outside src/kernels/arch/ hard-codes a warp size.
#pragma once

#include <Kokkos_Core.hpp>

namespace kobalt::arch {
/// Lanes that run in lockstep and share a vector range: 1 on host backends.
template <class ExecutionSpace>
struct traits {
  static constexpr int warp_size = 1;
};
}  // namespace kobalt::arch

#if defined(KOKKOS_ENABLE_CUDA)
#include "cuda.hpp"
#endif
#if defined(KOKKOS_ENABLE_HIP)
#include "hip.hpp"
#endif

namespace kobalt::arch {
template <class ExecutionSpace>
inline constexpr int warp_size = traits<ExecutionSpace>::warp_size;

/// y += v where several threads may hit the same y; Kokkos picks the native
/// instruction (fp64 atomics exist since Pascal, seed 000 §3.2.1).
template <class T>
KOKKOS_INLINE_FUNCTION void atomic_add(T* dst, T value) {
  Kokkos::atomic_add(dst, value);
}
}  // namespace kobalt::arch
