// SPDX-License-Identifier: BSD-3-Clause
// The only place that tells Kokkos 3.4 (Debian 12) from Kokkos 4.x.
#pragma once

#include <Kokkos_Core.hpp>

#include <array>
#include <cstddef>
#include <string>

#if !defined(KOKKOS_VERSION) || KOKKOS_VERSION < 30400
#error "Kobalt needs Kokkos 3.4 or newer"
#endif

namespace kobalt::compat {

/// View rank as an int: Kokkos 4.1 made View::rank an integral_constant.
template <class ViewType>
inline constexpr int rank_v = static_cast<int>(ViewType::rank);

/// Scoped profiling region: Kokkos::Profiling::ScopedRegion exists from 4.0.
class ScopedRegion {
 public:
  /// Opens the region `name`; the destructor closes it.
  explicit ScopedRegion(const std::string& name) { Kokkos::Profiling::pushRegion(name); }
  ~ScopedRegion() { Kokkos::Profiling::popRegion(); }
  ScopedRegion(const ScopedRegion&) = delete;
  ScopedRegion& operator=(const ScopedRegion&) = delete;
};

/// Kokkos::PerTeam(bytes) for TeamPolicy::set_scratch_size: Kokkos 3.x takes
/// the size as an int, 4.x as a size_t; the conversion is explicit here so
/// that it does not warn under -Wconversion.
inline auto per_team(std::size_t bytes) {
  using count = decltype(Kokkos::PerTeam(0).value);
  return Kokkos::PerTeam(static_cast<count>(bytes));
}

/// Allocation property for views whose contents are written before they are
/// read. Kokkos 4 rejects a C-string label here, so the label is a std::string.
inline auto uninitialized(const std::string& label) {
  return Kokkos::view_alloc(Kokkos::WithoutInitializing, label);
}
/// The same, allocated on (and ordered with) the execution space instance `exec`.
template <class ExecutionSpace>
auto uninitialized(const ExecutionSpace& exec, const std::string& label) {
  return Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, label);
}

/// Host memory that copies from and to the device reach fastest (pinned on
/// GPUs), for staging: Kokkos::SharedHostPinnedSpace where Kokkos has it
/// (4.x), HostSpace before.
#ifdef KOKKOS_HAS_SHARED_HOST_PINNED_SPACE
using host_pinned_space = Kokkos::SharedHostPinnedSpace;
#else
using host_pinned_space = Kokkos::HostSpace;
#endif

/// Two instances of `exec`'s space that can run concurrently (two streams on
/// GPUs): Kokkos::Experimental::partition_space where Kokkos has it (checked
/// from 3.7 on); Kokkos 3.4 has none, so both are `exec` and run in order.
template <class ExecutionSpace>
std::array<ExecutionSpace, 2> partition_in_two(const ExecutionSpace& exec) {
#if KOKKOS_VERSION >= 30700
  // An array before Kokkos 4.6, a vector from then on.
  const auto parts = Kokkos::Experimental::partition_space(exec, 1, 1);
  return {parts[0], parts[1]};
#else
  return {exec, exec};
#endif
}

}  // namespace kobalt::compat
