// SPDX-License-Identifier: BSD-3-Clause
// One entry of a rank-1 View, copied to the host (sizes and counts a
// conversion needs before it can allocate).
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kobalt::detail {

/// v(i) on the host. Waits for v's writes on v's default execution space
/// instance; callers that wrote v on another instance fence it first.
template <class View>
typename View::non_const_value_type entry_on_host(const View& v, std::int64_t i) {
  const auto one = Kokkos::create_mirror_view_and_copy(
      Kokkos::HostSpace(), Kokkos::subview(v, Kokkos::make_pair(i, i + 1)));
  return one(0);
}

}  // namespace kobalt::detail
