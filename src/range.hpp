// SPDX-License-Identifier: BSD-3-Clause
// A RangePolicy that counts in 64 bits on every backend, and the checked
// league size of a TeamPolicy, whose league Kokkos counts in an int.
//
// Kokkos' default index type is the execution space's size_type, which is
// 32-bit unsigned on CUDA: a bound past 2^32 wraps (Kokkos warns "RangePolicy
// bound ... unsafe implicit conversion"). An ALIGNED_COO of 5.2e9 slots
// (complex R-MAT scale 20) was left half unmarked that way and gave wrong
// results. Every loop over entries, slots or rows
// in Kobalt uses this policy.
#pragma once

#include "errors.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <limits>
#include <string>

namespace kobalt {

/// Kokkos::RangePolicy<ExecutionSpace> with a 64-bit signed index.
template <class ExecutionSpace>
using range_policy = Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>>;

namespace detail {

/// `teams` teams of `per_team` `units` as TeamPolicy's int league size; a
/// league that does not fit is refused (a cast would drop teams, and the
/// rows or entries they hold would never be computed).
inline int league_size(std::int64_t teams, std::int64_t per_team, const char* units,
                       const std::string& label) {
  if (teams > std::numeric_limits<int>::max())
    throw invalid_parameter("kobalt: " + label + ": " + std::to_string(teams) + " teams of " +
                            std::to_string(per_team) + " " + units + "; at most 2^31 - 1");
  return static_cast<int>(teams);
}

}  // namespace detail

}  // namespace kobalt
