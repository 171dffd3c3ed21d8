// SPDX-License-Identifier: BSD-3-Clause
// Team scratch at a level chosen at run time, without local memory.
//
// Kokkos' scratch space picks its allocation pointer by reference from the
// level (`auto& m_iter = (level == 0) ? m_iter_L0 : m_iter_L1;`,
// Kokkos_ScratchSpace.hpp, 4.6). With a level known only at run time,
// nvcc keeps the team's scratch state in local memory (a stack frame, more
// registers, L2 writes on every apply). Asking for each level by a constant,
// as here, keeps it in registers (docs/sources.md: "team_scratch_aligned").
#pragma once

#include <Kokkos_Core.hpp>

#include <cstddef>

namespace kobalt {

/// `bytes` of team scratch at `level` (0 or 1), aligned to `alignment`:
/// team.team_scratch(level).get_shmem_aligned(bytes, alignment), with the
/// level a constant in each branch.
template <class Member>
KOKKOS_INLINE_FUNCTION void* team_scratch_aligned(const Member& team, int level, std::size_t bytes,
                                                  std::size_t alignment) {
  const auto a = static_cast<std::ptrdiff_t>(alignment);
  return level == 0 ? team.team_scratch(0).get_shmem_aligned(bytes, a)
                    : team.team_scratch(1).get_shmem_aligned(bytes, a);
}

}  // namespace kobalt
