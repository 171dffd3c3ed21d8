// SPDX-License-Identifier: BSD-3-Clause
// A RangePolicy that counts in 64 bits on every backend.
//
// Kokkos' default index type is the execution space's size_type, which is
// 32-bit unsigned on CUDA: a bound past 2^32 wraps (Kokkos warns "RangePolicy
// bound ... unsafe implicit conversion"). On the H200 an ALIGNED_COO of
// 5.2e9 slots (complex R-MAT scale 20, 2026-11-23) was left half unmarked
// that way and gave wrong results. Every loop over entries, slots or rows
// in Kobalt uses this policy.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kobalt {

/// Kokkos::RangePolicy<ExecutionSpace> with a 64-bit signed index.
template <class ExecutionSpace>
using range_policy = Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>>;

}  // namespace kobalt
