// SPDX-License-Identifier: BSD-3-Clause
// Host oracles of the kobalt-bench generators: the same matrices built the
// straightforward way (sequential loops, std::sort, std::map), sharing only
// the hash primitives (counter_hash.hpp), the R-MAT level maps and the zipf
// length plan with the device code. A device generator must match its
// oracle exactly, entry by entry and bit by bit.
#pragma once

#include <generators/generators.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace kobalt::test::oracle {

using Row = std::vector<std::pair<std::int64_t, double>>;  // (column, value), any order

struct Matrix {
  std::int64_t rows = 0, cols = 0;
  std::vector<Row> row;
  std::int64_t nnz() const {
    std::int64_t n = 0;
    for (const auto& r : row) n += static_cast<std::int64_t>(r.size());
    return n;
  }
};

inline Matrix empty(std::int64_t rows, std::int64_t cols) {
  Matrix m;
  m.rows = rows;
  m.cols = cols;
  m.row.resize(static_cast<std::size_t>(rows));
  return m;
}

/// Stencil: every in-grid offset, centre = the full stencil's neighbour count.
/// `layers`: the slowest axis' extent (y in 2-D, z in 3-D); 0 for n.
inline Matrix stencil(std::int64_t n, int dims, bool box, std::int64_t layers = 0) {
  if (layers == 0) layers = n;
  const std::int64_t nz = dims == 3 ? layers : 1, ny = dims == 3 ? n : layers;
  Matrix m = empty(n * ny * nz, n * ny * nz);
  for (std::int64_t z = 0; z < nz; ++z)
    for (std::int64_t y = 0; y < ny; ++y)
      for (std::int64_t x = 0; x < n; ++x) {
        const std::int64_t r = (z * ny + y) * n + x;
        for (int dz = -1; dz <= 1; ++dz)
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
              const int far = std::abs(dx) + std::abs(dy) + std::abs(dz);
              if ((dims == 2 && dz != 0) || (!box && far > 1)) continue;
              if (x + dx < 0 || x + dx >= n || y + dy < 0 || y + dy >= ny || z + dz < 0 ||
                  z + dz >= nz)
                continue;
              const double centre = box ? 26.0 : 2.0 * dims;
              m.row[r].push_back({((z + dz) * ny + (y + dy)) * n + (x + dx), far == 0 ? centre : -1.0});
            }
      }
  return m;
}

inline Matrix fem(std::int64_t blocks, std::int64_t b, std::int64_t w) {
  Matrix m = empty(blocks * b, blocks * b);
  for (std::int64_t bi = 0; bi < blocks; ++bi)
    for (std::int64_t bj = 0; bj < blocks; ++bj) {
      if (std::abs(bi - bj) > w) continue;
      for (std::int64_t i = bi * b; i < (bi + 1) * b; ++i)
        for (std::int64_t j = bj * b; j < (bj + 1) * b; ++j)
          m.row[i].push_back({j, bench::gen::symmetric_hashed_value(bench::spec::default_seed, i, j)});
    }
  return m;
}

inline Matrix arrow(std::int64_t n) {
  Matrix m = empty(n, n);
  auto add = [&](std::int64_t i, std::int64_t j) {
    m.row[i].push_back({j, bench::gen::symmetric_hashed_value(bench::spec::default_seed, i, j)});
  };
  for (std::int64_t j = 0; j < n; ++j) add(0, j);  // row 0, including (0, 0)
  for (std::int64_t i = 1; i < n; ++i) {
    add(i, 0);
    add(i, i);
  }
  return m;
}

/// Dither of sample j of `row` in a gap stream.
inline double dither(std::uint64_t seed, std::uint64_t stream, std::int64_t row, std::int64_t j) {
  return bench::gen::unit_interval(bench::gen::hash(seed, stream + bench::gen::stream_dither, row, j));
}

/// Sequential order statistics of one row: m + 1 gaps, running sums,
/// u_j = (S_j + dither_j) / S_m, v_j = min(floor(u_j (n - m + 1)), n - m) + j.
inline std::vector<std::int64_t> distinct_sample(std::uint64_t seed, std::uint64_t stream,
                                                 std::int64_t row, std::int64_t m, std::int64_t n) {
  std::vector<std::int64_t> sums;
  std::int64_t s = 0;
  for (std::int64_t k = 0; k <= m; ++k) {
    s += bench::gen::exponential_gap(bench::gen::hash(seed, stream, row, k));
    sums.push_back(s);
  }
  std::vector<std::int64_t> out;
  for (std::int64_t j = 0; j < m; ++j) {
    const double u = (static_cast<double>(sums[j]) + dither(seed, stream, row, j)) / static_cast<double>(s);
    out.push_back(std::min(static_cast<std::int64_t>(u * static_cast<double>(n - m + 1)), n - m) + j);
  }
  return out;
}

inline Matrix random_rows(std::int64_t rows, std::int64_t cols, std::int64_t k, std::uint64_t seed) {
  Matrix m = empty(rows, cols);
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t c : distinct_sample(seed, bench::gen::stream_gap, i, k, cols))
      m.row[i].push_back({c, bench::gen::hashed_value(seed, i, c)});
  return m;
}

/// Row length of rank r from the plan's tables, by a linear count.
inline std::int64_t zipf_length(const bench::gen::ZipfPlan& p, std::int64_t rank) {
  if (rank <= static_cast<std::int64_t>(p.head.size())) return p.head[rank - 1];
  std::int64_t len = 0;
  for (std::int64_t r : p.tail) len += r >= rank ? 1 : 0;
  return len;
}

inline Matrix zipf(const bench::spec::zipf& z) {
  const auto plan = bench::gen::zipf_plan(z, "oracle");
  const bench::gen::Permutation perm(static_cast<std::uint64_t>(z.n), z.seed, 0);
  Matrix m = empty(z.n, z.n);
  for (std::int64_t i = 0; i < z.n; ++i) {
    const std::int64_t len = zipf_length(plan, static_cast<std::int64_t>(perm(i)) + 1);
    for (std::int64_t c : distinct_sample(z.seed, bench::gen::stream_gap, i, len, z.n))
      m.row[i].push_back({c, bench::gen::hashed_value(z.seed, i, c)});
  }
  return m;
}

inline Matrix circuit(const bench::spec::circuit& s) {
  Matrix m = empty(s.n, s.n);
  std::vector<bool> dense(static_cast<std::size_t>(s.n), false);
  for (std::int64_t t = 0; t < s.dense_rows; ++t) dense[(2 * t + 1) * s.n / (2 * s.dense_rows)] = true;
  for (std::int64_t i = 0; i < s.n; ++i) {
    std::vector<std::int64_t> band;
    for (std::int64_t j = i - 1; j <= i + 1; ++j)
      if (j >= 0 && j < s.n) band.push_back(j);
    std::vector<std::int64_t> cols = band;
    if (dense[i]) {
      const std::int64_t t = static_cast<std::int64_t>(band.size());
      for (std::int64_t v : distinct_sample(s.seed, bench::gen::stream_gap, i, s.dense_length - t, s.n - t))
        cols.push_back(v < band.front() ? v : v + t);
    }
    for (std::int64_t c : cols) m.row[i].push_back({c, bench::gen::hashed_value(s.seed, i, c)});
  }
  return m;
}

/// R-MAT edge by edge: E sorted row uniforms, then per row its sorted
/// column uniforms, duplicates counted in a map.
inline Matrix rmat(const bench::spec::rmat& g) {
  const std::int64_t rows = std::int64_t(1) << g.scale, edges = g.edge_factor * rows;
  const bench::gen::RmatLevels levels(g);
  std::vector<std::int64_t> sums;
  std::int64_t s = 0;
  for (std::int64_t k = 0; k <= edges; ++k) {
    s += bench::gen::exponential_gap(bench::gen::hash(g.seed, bench::gen::stream_rmat_rows, 0, k));
    sums.push_back(s);
  }
  std::vector<std::int64_t> degree(static_cast<std::size_t>(rows), 0);
  for (std::int64_t e = 0; e < edges; ++e)
    ++degree[levels.row((static_cast<double>(sums[e]) + dither(g.seed, bench::gen::stream_rmat_rows, 0, e)) *
                        (1.0 / static_cast<double>(s)))];
  Matrix m = empty(rows, rows);
  for (std::int64_t r = 0; r < rows; ++r) {
    if (degree[r] == 0) continue;
    std::vector<std::int64_t> cs;
    std::int64_t t = 0;
    for (std::int64_t k = 0; k <= degree[r]; ++k) {
      t += bench::gen::exponential_gap(bench::gen::hash(g.seed, bench::gen::stream_rmat_cols, r, k));
      cs.push_back(t);
    }
    std::map<std::int64_t, std::int64_t> count;
    for (std::int64_t k = 0; k < degree[r]; ++k)
      ++count[levels.col((static_cast<double>(cs[k]) + dither(g.seed, bench::gen::stream_rmat_cols, r, k)) /
                             static_cast<double>(t), r)];
    for (const auto& [c, n] : count)
      m.row[r].push_back({c, static_cast<double>(n) * bench::gen::hashed_value(g.seed, r, c)});
  }
  return m;
}

/// The generated Csr equals the oracle: same shape, same columns in every
/// row (the Csr's sorted, the oracle's sorted here), bit-identical values.
template <class Value, class Index, class Device>
void expect_matches(const Matrix& expected, const Csr<Value, Index, Device>& a,
                    const std::string& what) {
  ASSERT_EQ(a.rows(), expected.rows) << what;
  ASSERT_EQ(a.cols(), expected.cols) << what;
  ASSERT_EQ(a.nnz(), expected.nnz()) << what;
  auto row_ptr = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a.row_ptr());
  auto col = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a.col_indices());
  auto val = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a.values());
  for (std::int64_t i = 0; i < expected.rows; ++i) {
    Row want = expected.row[i];
    std::sort(want.begin(), want.end());
    ASSERT_EQ(row_ptr(i + 1) - row_ptr(i), static_cast<Index>(want.size())) << what << " row " << i;
    for (std::size_t k = 0; k < want.size(); ++k) {
      const auto at = row_ptr(i) + static_cast<Index>(k);
      ASSERT_EQ(col(at), static_cast<Index>(want[k].first)) << what << " row " << i << " entry " << k;
      ASSERT_EQ(val(at), static_cast<Value>(want[k].second)) << what << " row " << i << " entry " << k;
    }
  }
}

/// Csr invariants: row_ptr non-decreasing from 0 to nnz, columns in range
/// and strictly increasing in every row, no zero values.
template <class Value, class Index, class Device>
void expect_valid_csr(const Csr<Value, Index, Device>& a, const std::string& what) {
  auto row_ptr = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a.row_ptr());
  auto col = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a.col_indices());
  auto val = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a.values());
  ASSERT_EQ(row_ptr(0), 0) << what;
  ASSERT_EQ(static_cast<std::int64_t>(row_ptr(a.rows())), a.nnz()) << what;
  for (Index i = 0; i < a.rows(); ++i) {
    ASSERT_LE(row_ptr(i), row_ptr(i + 1)) << what << " row " << i;
    for (Index k = row_ptr(i); k < row_ptr(i + 1); ++k) {
      ASSERT_GE(col(k), 0) << what << " row " << i;
      ASSERT_LT(col(k), a.cols()) << what << " row " << i;
      if (k > row_ptr(i)) {
        ASSERT_LT(col(k - 1), col(k)) << what << " row " << i << " unsorted or duplicate";
      }
      ASSERT_NE(val(k), Value(0)) << what << " row " << i;
    }
  }
}

}  // namespace kobalt::test::oracle
