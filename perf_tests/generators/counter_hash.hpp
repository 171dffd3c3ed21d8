// SPDX-License-Identifier: BSD-3-Clause
// The generators' randomness: a counter-based hash of (seed, stream, a, b)
// and what is derived from it with integer operations only (or single,
// correctly rounded IEEE operations), so every backend, thread count and
// compiler produces bit-identical matrices.
//
// Why integer-only: nvcc contracts a*b+c into an FMA by default and device
// log/pow may differ from glibc's in the last bit, so anything that decides a
// column or a row length on the device avoids transcendental functions and
// multiply-add chains.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kobalt::bench::gen {

/// Independent random streams of one seed (one per purpose).
enum stream : std::uint64_t {
  stream_value = 1,      // entry values, keyed by (row, column)
  stream_gap = 2,        // order-statistic gaps, keyed by (row, k)
  stream_permute = 3,    // row permutations (zipf ranks)
  stream_rmat_rows = 4,  // R-MAT row order statistics, keyed by (0, edge)
  stream_rmat_cols = 5,  // R-MAT column order statistics, keyed by (row, k)
  stream_imaginary = 6,  // imaginary parts of a complex run, keyed by (row, column)
  stream_dither = 16,    // added to a gap stream: the sub-unit dither of its samples
};

/// SplitMix64's finaliser (Steele, Lea and Flood, OOPSLA 2014): a bijection
/// of 64-bit words with full avalanche.
KOKKOS_INLINE_FUNCTION std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

/// Counter-based hash of (seed, stream, a, b): SplitMix64 steps chained over
/// the four words (odd multipliers keep (0, 0, 0, 0) away from the fixed
/// point 0 of mix64).
KOKKOS_INLINE_FUNCTION std::uint64_t hash(std::uint64_t seed, std::uint64_t stream,
                                          std::uint64_t a, std::uint64_t b) {
  std::uint64_t h = mix64(seed * 0x9e3779b97f4a7c15ULL + stream);
  h = mix64(h + (a + 1) * 0xd1b54a32d192ed03ULL);
  return mix64(h + (b + 1) * 0x8cb92ba72f3d8dd7ULL);
}

/// Entry value from the hash of (seed, row, column): a multiple of 2^-20 in
/// [-1, -1/8] u [1/8, 1] with a random sign. At most 21 significant bits, so
/// it is exact in float and double alike. `stream` stream_imaginary gives
/// the imaginary parts of a complex run.
KOKKOS_INLINE_FUNCTION double hashed_value(std::uint64_t seed, std::int64_t row,
                                           std::int64_t col,
                                           std::uint64_t stream = stream_value) {
  const std::uint64_t h = hash(seed, stream, static_cast<std::uint64_t>(row),
                               static_cast<std::uint64_t>(col));
  constexpr std::uint64_t lo = std::uint64_t(1) << 17, hi = std::uint64_t(1) << 20;
  const double magnitude = static_cast<double>(lo + h % (hi - lo + 1)) * (1.0 / double(hi));
  return (h >> 63) != 0 ? -magnitude : magnitude;
}

/// Symmetric variant: the value of (i, j) equals that of (j, i).
KOKKOS_INLINE_FUNCTION double symmetric_hashed_value(std::uint64_t seed, std::int64_t i,
                                                     std::int64_t j) {
  return i <= j ? hashed_value(seed, i, j) : hashed_value(seed, j, i);
}

/// floor(log2(x)) for x >= 1, by binary search on the bits.
KOKKOS_INLINE_FUNCTION int floor_log2(std::uint64_t x) {
  int e = 0;
  for (int s = 32; s > 0; s /= 2) {
    if ((x >> s) != 0) {
      x >>= s;
      e += s;
    }
  }
  return e;
}

/// Fraction bits of the fixed-point logarithm in exponential_gap: gaps are
/// exponential to a relative resolution of 2^-16; the sub-unit dither of
/// SortedSamples restores full double resolution to the sample positions.
inline constexpr int gap_fraction_bits = 16;

/// An exponentially distributed gap from a hash word, in fixed point:
/// 1 + floor(-log2(u) 2^16) for u = m / 2^53, m = (h >> 11) + 1 in
/// [1, 2^53], so the result lies in [1, 53 2^16 + 1] (never 0: consecutive
/// prefix sums differ by at least one unit, which the dither relies on).
/// The fraction of log2(m) comes from exact integer squarings of the
/// mantissa (the classic bit-by-bit logarithm, branch-free), so the value is
/// the same on every backend. The scale (log2, not ln) does not matter:
/// gaps are only used as ratios of their sums.
KOKKOS_INLINE_FUNCTION std::int64_t exponential_gap(std::uint64_t h) {
  const std::uint64_t m = (h >> 11) + 1;
  const int e = floor_log2(m);
  // Mantissa in Q31: y / 2^31 in [1, 2).
  std::uint64_t y = e >= 31 ? m >> (e - 31) : m << (31 - e);
  std::uint64_t fraction = 0;
  for (int bit = 0; bit < gap_fraction_bits; ++bit) {
    y = (y * y) >> 31;                // y < 2^32, so y * y < 2^64; y^2 in Q31, in [1, 4)
    const std::uint64_t two = y >> 32;  // 1 when y^2 >= 2
    y >>= two;
    fraction = (fraction << 1) | two;
  }
  const std::int64_t log2_m =
      (static_cast<std::int64_t>(e) << gap_fraction_bits) | static_cast<std::int64_t>(fraction);
  return (std::int64_t(53) << gap_fraction_bits) - log2_m + 1;
}

/// A uniform double in [0, 1) with 53 random bits (exact: an integer times 2^-53).
KOKKOS_INLINE_FUNCTION double unit_interval(std::uint64_t h) {
  return static_cast<double>(h >> 11) * 0x1p-53;
}

/// A keyed pseudo-random permutation of [0, n): a bijective mix of
/// ceil(log2 n)-bit words (xor with a key, multiplication by odd keys modulo
/// 2^bits, xor-shifts), restricted to [0, n) by cycle walking. Fewer than two
/// steps are needed on average because 2^bits < 2n.
struct Permutation {
  std::uint64_t n = 1, mask = 0, k0 = 0, k1 = 1, k2 = 1, k3 = 1;
  int shift = 1;

  Permutation() = default;
  Permutation(std::uint64_t size, std::uint64_t seed, std::uint64_t key) : n(size) {
    const int bits = size > 1 ? floor_log2(size - 1) + 1 : 0;
    mask = bits == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << bits) - 1;
    shift = bits / 2 > 0 ? bits / 2 : 1;
    k0 = hash(seed, stream_permute, key, 0) & mask;
    k1 = hash(seed, stream_permute, key, 1) | 1;
    k2 = hash(seed, stream_permute, key, 2) | 1;
    k3 = hash(seed, stream_permute, key, 3) | 1;
  }

  KOKKOS_INLINE_FUNCTION std::uint64_t step(std::uint64_t x) const {
    x ^= k0;
    x = (x * k1) & mask;
    x ^= x >> shift;
    x = (x * k2) & mask;
    x ^= x >> shift;
    x = (x * k3) & mask;
    x ^= x >> shift;
    return x;
  }

  /// The image of x in [0, n).
  KOKKOS_INLINE_FUNCTION std::uint64_t operator()(std::uint64_t x) const {
    do {
      x = step(x);
    } while (x >= n);
    return x;
  }
};

}  // namespace kobalt::bench::gen
