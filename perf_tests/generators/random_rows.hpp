// SPDX-License-Identifier: BSD-3-Clause
// Generators whose rows hold distinct random columns: uniform / tall / wide
// (K per row), zipf (power-law row lengths) and circuit (a tridiagonal band
// plus a few long rows). Every row's columns are the sorted samples of
// row_engine.hpp: exactly the requested number, distinct and sorted by
// construction, each row independent of the others. Values come from the
// hash of (seed, row, column).
#pragma once

#include "counter_hash.hpp"
#include "row_engine.hpp"
#include "spec.hpp"
#include "zipf_lengths.hpp"

#include <cstdint>

namespace kobalt::bench::gen {

/// rows x cols, per_row distinct random columns in every row.
template <class Device>
struct RandomRows {
  std::int64_t cols = 1, per_row = 1;
  std::uint64_t seed = spec::default_seed;
  SortedSamples<Device> sampler;

  KOKKOS_INLINE_FUNCTION std::int64_t length(std::int64_t) const { return per_row; }
  KOKKOS_INLINE_FUNCTION std::int64_t samples(std::int64_t) const { return per_row; }
  KOKKOS_INLINE_FUNCTION std::int64_t work(std::int64_t, std::int64_t len) const { return len; }
  template <class Writer>
  KOKKOS_INLINE_FUNCTION void fill(std::int64_t i, std::int64_t k, std::int64_t,
                                   const Writer& out) const {
    const std::int64_t c = sampler.distinct(i, k, per_row, cols);
    out(i, k, c, hashed_value(seed, i, c));
  }
};

inline Shape shape_of(const spec::uniform& s) { return {s.n, s.n, s.n * s.per_row}; }
inline Shape shape_of(const spec::tall& s) { return {s.rows, s.cols, s.rows * s.per_row}; }
inline Shape shape_of(const spec::wide& s) { return {s.rows, s.cols, s.rows * s.per_row}; }

/// zipf: row i has rank permutation(i) + 1 and that rank's length from the
/// plan (zipf_lengths.hpp); its columns are distinct random samples.
template <class Device>
struct ZipfRows {
  std::int64_t n = 1;
  std::uint64_t seed = spec::default_seed;
  Permutation rank_of;
  ZipfLengths<Device> lengths;
  SortedSamples<Device> sampler;

  KOKKOS_INLINE_FUNCTION std::int64_t length(std::int64_t i) const {
    return lengths(static_cast<std::int64_t>(rank_of(static_cast<std::uint64_t>(i))) + 1);
  }
  KOKKOS_INLINE_FUNCTION std::int64_t samples(std::int64_t i) const { return length(i); }
  KOKKOS_INLINE_FUNCTION std::int64_t work(std::int64_t, std::int64_t len) const { return len; }
  template <class Writer>
  KOKKOS_INLINE_FUNCTION void fill(std::int64_t i, std::int64_t k, std::int64_t len,
                                   const Writer& out) const {
    const std::int64_t c = sampler.distinct(i, k, len, n);
    out(i, k, c, hashed_value(seed, i, c));
  }
};

/// Row of the t-th dense row of circuit:n,r,L: floor((2t + 1) n / 2r).
KOKKOS_INLINE_FUNCTION std::int64_t circuit_dense_row(std::int64_t t, std::int64_t n, std::int64_t r) {
  return ((2 * t + 1) * n) / (2 * r);
}

/// circuit: row i holds the band {i - 1, i, i + 1} inside [0, n); the R
/// dense rows i_t = floor((2t + 1) n / (2R)), t < R (evenly spaced, distinct
/// because n >= R) hold their band plus L - |band| distinct random columns
/// outside it, L entries in all.
template <class Device>
struct CircuitRows {
  std::int64_t n = 3, dense_rows = 0, dense_length = 3;
  std::uint64_t seed = spec::default_seed;
  SortedSamples<Device> sampler;

  KOKKOS_INLINE_FUNCTION std::int64_t dense_row(std::int64_t t) const {
    return circuit_dense_row(t, n, dense_rows);
  }
  /// i = floor((2t + 1) n / 2R) needs t >= (2 R i - n) / 2n: test the
  /// smallest such t.
  KOKKOS_INLINE_FUNCTION bool is_dense(std::int64_t i) const {
    if (dense_rows == 0) return false;
    const std::int64_t num = 2 * dense_rows * i - n;
    const std::int64_t t = num <= 0 ? 0 : (num + 2 * n - 1) / (2 * n);
    return t < dense_rows && dense_row(t) == i;
  }
  KOKKOS_INLINE_FUNCTION std::int64_t band_first(std::int64_t i) const { return i > 0 ? i - 1 : 0; }
  KOKKOS_INLINE_FUNCTION std::int64_t band_size(std::int64_t i) const {
    return (i < n - 1 ? i + 1 : n - 1) - band_first(i) + 1;
  }
  KOKKOS_INLINE_FUNCTION std::int64_t length(std::int64_t i) const {
    return is_dense(i) ? dense_length : band_size(i);
  }
  KOKKOS_INLINE_FUNCTION std::int64_t samples(std::int64_t i) const {
    return is_dense(i) ? dense_length - band_size(i) : 0;
  }
  /// Band rows: one item writes the band. Dense rows: item j < m writes
  /// sample j; the item at the band's place (the first sample above it, or
  /// item m when there is none) also writes the band.
  KOKKOS_INLINE_FUNCTION std::int64_t work(std::int64_t i, std::int64_t len) const {
    return is_dense(i) ? len - band_size(i) + 1 : 1;
  }
  template <class Writer>
  KOKKOS_INLINE_FUNCTION void fill(std::int64_t i, std::int64_t k, std::int64_t len,
                                   const Writer& out) const {
    const std::int64_t lo = band_first(i), t = band_size(i);
    std::int64_t band_at = 0;
    if (is_dense(i)) {
      // Samples v in [0, n - t) skip the band: v < lo stays, v >= lo -> v + t.
      const std::int64_t m = len - t, avail = n - t;
      if (k < m) {
        const std::int64_t v = sampler.distinct(i, k, m, avail);
        const std::int64_t c = v < lo ? v : v + t;
        out(i, v < lo ? k : k + t, c, hashed_value(seed, i, c));
        if (v < lo) return;  // the band comes after this sample
      }
      if (k > 0 && sampler.distinct(i, k - 1, m, avail) >= lo) return;  // band already placed
      band_at = k;
    }
    for (std::int64_t b = 0; b < t; ++b) out(i, band_at + b, lo + b, hashed_value(seed, i, lo + b));
  }
};

/// 3n - 2 band entries; each dense row replaces its band count by L (its
/// band has 3 entries, 2 in the first and last row).
inline Shape shape_of(const spec::circuit& s) {
  std::int64_t nnz = 3 * s.n - 2;
  if (s.dense_rows > 0) {
    nnz += s.dense_rows * (s.dense_length - 3);
    if (circuit_dense_row(0, s.n, s.dense_rows) == 0) ++nnz;
    if (circuit_dense_row(s.dense_rows - 1, s.n, s.dense_rows) == s.n - 1) ++nnz;
  }
  return {s.n, s.n, nnz};
}

}  // namespace kobalt::bench::gen
