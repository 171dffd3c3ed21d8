// SPDX-License-Identifier: BSD-3-Clause
// Team scratch at a level chosen at run time, without local memory.
//
// Kokkos' scratch space picks its allocation pointer by reference from the
// level (`auto& m_iter = (level == 0) ? m_iter_L0 : m_iter_L1;`,
// Kokkos_ScratchSpace.hpp, 4.6). With a level known only at run time,
// nvcc keeps the team's scratch state in local memory: CSR merge_path's
// tile kernel had a 16-byte stack frame and 90 registers, stored 3 and
// loaded 1 64-bit word of stack per thread, 165 MB of L2 writes per apply
// on zipf:5000000,10 (ncu on the H200, 2026-11-27; cuSPARSE's csrmv_v3 had
// none). Asking for each level by a constant, as here: no stack, 80
// registers, and the tile kernel 649 -> 587 us there (ncu), merge_path
// 8-10% faster on zipf:5000000,10 and circuit:16000000
// (perf_tests/results/h200/README.md, session 28).
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
