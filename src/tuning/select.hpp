// SPDX-License-Identifier: BSD-3-Clause
// select_*_policy: the only place launch heuristics live. Each constant
// names its source.
#pragma once

#include "policy.hpp"
#include "../kernels/arch/arch.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>

namespace kobalt::tuning {

// Threads per team on GPUs: 128-thread teams were used by the best plain-Kokkos
// row kernels on the H200 (shared/KOKKOS_ON_H200.md, 2026-11-22).
inline constexpr int gpu_team_threads = 128;
// Rows per team on host backends: a first-cut chunk so an OpenMP team amortises
// its scheduling; not yet measured (the tuning issue replaces it).
inline constexpr int host_rows_per_team = 256;
// Nonzeros per thread for the portable COO kernel on host backends; same status.
inline constexpr int host_entries_per_thread = 4096;
// Nonzeros per GPU thread in the portable COO kernel: one 128-byte line of
// fp64 values per thread; not yet measured (000's warp kernel replaces it).
inline constexpr int gpu_entries_per_thread = 16;

/// Largest power of two <= n, capped at cap (seed 003 §3.2: subwarp size).
inline int floor_pow2_capped(std::int64_t n, int cap) {
  int p = 1;
  while (2 * static_cast<std::int64_t>(p) <= n && 2 * p <= cap) p *= 2;
  return p;
}

/// Row kernels (CSR basic/classical, ELL, SELL-P rows): `lanes_per_row` vector
/// lanes share a row, the rest of the team takes other rows.
template <class ExecutionSpace>
SpmvPolicy select_row_policy(int lanes_per_row) {
  constexpr int warp = arch::warp_size<ExecutionSpace>;
  SpmvPolicy p;
  p.vector_length = std::min(std::max(lanes_per_row, 1), warp);
  if (warp > 1) {
    p.team_size = std::max(1, gpu_team_threads / p.vector_length);
    p.rows_per_team = p.team_size;
  } else {
    p.team_size = 1;
    p.rows_per_team = host_rows_per_team;
  }
  return p;
}

/// CSR basic: one thread per row (003 "basic").
template <class ExecutionSpace>
SpmvPolicy select_csr_basic_policy() {
  return select_row_policy<ExecutionSpace>(1);
}

/// CSR classical: subwarp = largest power of two <= longest row, at most the
/// warp (003 §3.2, Alg. 2).
template <class ExecutionSpace>
SpmvPolicy select_csr_classical_policy(std::int64_t max_row_nnz) {
  return select_row_policy<ExecutionSpace>(
      floor_pow2_capped(max_row_nnz, arch::warp_size<ExecutionSpace>));
}

/// Entry-chunk kernels (portable COO): each thread walks a contiguous chunk.
template <class ExecutionSpace>
SpmvPolicy select_chunk_policy() {
  constexpr int warp = arch::warp_size<ExecutionSpace>;
  SpmvPolicy p;
  if (warp > 1) {
    p.team_size = gpu_team_threads;
    p.entries_per_thread = gpu_entries_per_thread;
  } else {
    p.team_size = 1;
    p.entries_per_thread = host_entries_per_thread;
  }
  return p;
}

/// Smallest power of two >= n, capped at cap (000 Alg. 4 line 6: 2^ceil(log2 n)).
inline int ceil_pow2_capped(std::int64_t n, int cap) {
  int p = 1;
  while (static_cast<std::int64_t>(p) < n && 2 * p <= cap) p *= 2;
  return p;
}

// Width/rows ratio above which an ELL row gets several lanes: 000 Alg. 4
// line 5 (and 003 Alg. 5), "ell_ncols / nrows > 1e-2".
inline constexpr double ell_lanes_ratio = 1e-2;

/// ELL rows: one lane per row unless width / rows > 1e-2, then
/// min(warp, 2^ceil(log2 width)) lanes (000 Alg. 4). Alg. 4's several warps
/// per row (with atomics) belong to the tuned GPU kernel, not this one.
template <class ExecutionSpace>
SpmvPolicy select_ell_policy(std::int64_t rows, std::int64_t width) {
  int lanes = 1;
  if (rows > 0 && static_cast<double>(width) / static_cast<double>(rows) > ell_lanes_ratio)
    lanes = ceil_pow2_capped(width, arch::warp_size<ExecutionSpace>);
  return select_row_policy<ExecutionSpace>(lanes);
}

/// SELL-P slices: one league entry per slice, one thread per row and no
/// vector lanes (000 §3.5, Alg. 5: 001's t threads per row are deliberately
/// not used). GPU teams cover the slice's rows, at most gpu_team_threads.
template <class ExecutionSpace>
SpmvPolicy select_sellp_policy(std::int64_t slice_size) {
  constexpr int warp = arch::warp_size<ExecutionSpace>;
  SpmvPolicy p;
  p.vector_length = 1;
  p.team_size = warp > 1 ? static_cast<int>(std::min<std::int64_t>(slice_size, gpu_team_threads))
                         : 1;
  p.rows_per_team = static_cast<int>(
      std::min<std::int64_t>(slice_size, std::numeric_limits<int>::max()));
  return p;
}

}  // namespace kobalt::tuning
