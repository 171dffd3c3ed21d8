// SPDX-License-Identifier: BSD-3-Clause
// Structured generators (no randomness in the pattern): grid stencils
// (lap2d, lap3d, stencil27), the banded block matrix (fem) and the arrow.
// Each is a row model for build_csr: a row's columns come out sorted from
// the enumeration order, so nothing is sorted afterwards.
#pragma once

#include "counter_hash.hpp"
#include "row_engine.hpp"
#include "spec.hpp"

#include <cstdint>

namespace kobalt::bench::gen {

/// Grid stencils on an n^dims grid, rows in lexicographic order (x fastest);
/// `layers` is the slowest axis' extent (y in 2-D, z in 3-D), n for a cube,
/// more where a distributed run grows the grid by whole planes. star: the 2*dims + 1 point Laplacian (centre 2*dims, neighbours -1);
/// box: all 3^dims points (centre 3^dims - 1, neighbours -1). Offsets are
/// enumerated dz, dy, dx from -1 to 1, which is increasing column order.
struct GridStencil {
  std::int64_t n = 1;
  int dims = 2;
  bool box = false;
  std::int64_t layers = 1;

  struct Count {
    KOKKOS_INLINE_FUNCTION void operator()(std::int64_t, std::int64_t, double) const {}
  };
  template <class Writer>
  struct Write {
    const Writer& out;
    std::int64_t row;
    KOKKOS_INLINE_FUNCTION void operator()(std::int64_t pos, std::int64_t c, double v) const {
      out(row, pos, c, v);
    }
  };

  /// Calls emit(position, column, value) for row r's entries in order;
  /// returns their number.
  template <class Emit>
  KOKKOS_INLINE_FUNCTION std::int64_t visit(std::int64_t r, const Emit& emit) const {
    const std::int64_t x = r % n, y = dims == 3 ? (r / n) % n : r / n,
                       z = dims == 3 ? r / (n * n) : 0;
    const std::int64_t ny = dims == 3 ? n : layers, nz = dims == 3 ? layers : 1;
    const int zr = dims == 3 ? 1 : 0;
    const double centre = box ? (dims == 3 ? 26.0 : 8.0) : 2.0 * dims;
    std::int64_t count = 0;
    for (int dz = -zr; dz <= zr; ++dz) {
      if (z + dz < 0 || z + dz >= nz) continue;
      for (int dy = -1; dy <= 1; ++dy) {
        if (y + dy < 0 || y + dy >= ny) continue;
        for (int dx = -1; dx <= 1; ++dx) {
          if (x + dx < 0 || x + dx >= n) continue;
          const int distance = (dx != 0) + (dy != 0) + (dz != 0);
          if (!box && distance > 1) continue;
          emit(count++, r + (dz * n + dy) * n + dx, distance == 0 ? centre : -1.0);
        }
      }
    }
    return count;
  }

  KOKKOS_INLINE_FUNCTION std::int64_t length(std::int64_t r) const { return visit(r, Count{}); }
  KOKKOS_INLINE_FUNCTION std::int64_t work(std::int64_t, std::int64_t) const { return 1; }
  template <class Writer>
  KOKKOS_INLINE_FUNCTION void fill(std::int64_t r, std::int64_t, std::int64_t,
                                   const Writer& out) const {
    visit(r, Write<Writer>{out, r});
  }
};

/// 5-point: 5 n^2 - 4 n entries (each of the 4 n boundary rows misses one).
inline Shape shape_of(const spec::lap2d& s) { return {s.n * s.n, s.n * s.n, 5 * s.n * s.n - 4 * s.n}; }
/// 7-point: 7 n^3 - 6 n^2 (each of the 6 faces misses n^2 neighbours).
inline Shape shape_of(const spec::lap3d& s) {
  const std::int64_t rows = s.n * s.n * s.n;
  return {rows, rows, 7 * rows - 6 * s.n * s.n};
}
/// 27-point: (3 n - 2)^3 (per axis, 3 n - 2 valid (coordinate, offset) pairs).
inline Shape shape_of(const spec::stencil27& s) {
  const std::int64_t rows = s.n * s.n * s.n, per_axis = 3 * s.n - 2;
  return {rows, rows, per_axis * per_axis * per_axis};
}

/// fem: N block rows of B x B dense blocks; block row I holds the block
/// columns J in [I - W, I + W] inside [0, N), so row i's columns are one
/// contiguous range. Values are symmetric (a(i, j) = a(j, i)), from the hash.
struct BlockBand {
  std::int64_t blocks = 1, block_size = 1, bandwidth = 0;
  std::uint64_t seed = spec::default_seed;

  KOKKOS_INLINE_FUNCTION std::int64_t first_col(std::int64_t i) const {
    const std::int64_t block = i / block_size;
    return (block > bandwidth ? block - bandwidth : 0) * block_size;
  }
  KOKKOS_INLINE_FUNCTION std::int64_t length(std::int64_t i) const {
    const std::int64_t block = i / block_size;
    const std::int64_t lo = block > bandwidth ? block - bandwidth : 0;
    const std::int64_t hi = bandwidth < blocks - 1 - block ? block + bandwidth : blocks - 1;
    return (hi - lo + 1) * block_size;
  }
  KOKKOS_INLINE_FUNCTION std::int64_t work(std::int64_t, std::int64_t len) const { return len; }
  template <class Writer>
  KOKKOS_INLINE_FUNCTION void fill(std::int64_t i, std::int64_t k, std::int64_t,
                                   const Writer& out) const {
    const std::int64_t c = first_col(i) + k;
    out(i, k, c, symmetric_hashed_value(seed, i, c));
  }
};

/// B^2 (N (2w + 1) - w (w + 1)) with w = min(W, N - 1): block row I couples
/// to 2w + 1 block columns, minus the ones cut off at both ends. Written
/// N + w (2N - w - 1) so no intermediate exceeds the total; with w = 0 the
/// total is N, and 2N need not fit (fem:2^62,1,0 overflowed there: UBSan,
/// fuzz/specs_fuzz's inputs of session 26).
inline Shape shape_of(const spec::fem& s) {
  const std::int64_t w = s.bandwidth < s.blocks - 1 ? s.bandwidth : s.blocks - 1;
  const std::int64_t rows = s.blocks * s.block_size;
  const std::int64_t off_diagonal = w == 0 ? 0 : w * (2 * s.blocks - w - 1);
  return {rows, rows, s.block_size * s.block_size * (s.blocks + off_diagonal)};
}

/// arrow: row 0 is full, every other row i holds (i, 0) and (i, i).
/// Values are symmetric, from the hash.
struct Arrow {
  std::int64_t n = 1;
  std::uint64_t seed = spec::default_seed;

  KOKKOS_INLINE_FUNCTION std::int64_t length(std::int64_t i) const { return i == 0 ? n : 2; }
  KOKKOS_INLINE_FUNCTION std::int64_t work(std::int64_t, std::int64_t len) const { return len; }
  template <class Writer>
  KOKKOS_INLINE_FUNCTION void fill(std::int64_t i, std::int64_t k, std::int64_t,
                                   const Writer& out) const {
    const std::int64_t c = i == 0 ? k : (k == 0 ? 0 : i);
    out(i, k, c, symmetric_hashed_value(seed, i, c));
  }
};

/// 3 n - 2: n in row 0, 2 in each of the n - 1 others.
inline Shape shape_of(const spec::arrow& s) { return {s.n, s.n, 3 * s.n - 2}; }

}  // namespace kobalt::bench::gen
