// SPDX-License-Identifier: BSD-3-Clause
// RCM reordering of CsrK: the permutation is a valid one, the stored matrix
// is exactly P A P^T with the values unchanged, and the ordering reduces the
// bandwidth (a shuffled 2-D Laplacian, a shuffled path).
#include "fixtures/csrk_cases.hpp"
#include "fixtures/spmv_check.hpp"
#include "fixtures/types.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <utility>

namespace kobalt::test {
namespace {

template <class V, class I>
std::int64_t bandwidth(const Triplets<V, I>& t) {
  std::int64_t b = 0;
  for (std::size_t k = 0; k < t.row.size(); ++k)
    b = std::max<std::int64_t>(b, t.row[k] > t.col[k] ? t.row[k] - t.col[k] : t.col[k] - t.row[k]);
  return b;
}

/// B with B(p[i], p[j]) = A(i, j): relabels node i as p[i].
template <class V, class I>
Triplets<V, I> relabel(const Triplets<V, I>& a, const std::vector<I>& p) {
  Triplets<V, I> b;
  b.rows = a.rows;
  b.cols = a.cols;
  for (std::size_t k = 0; k < a.row.size(); ++k) b.push_back(p[a.row[k]], p[a.col[k]], a.val[k]);
  b.assemble();
  return b;
}

template <class I>
std::vector<I> shuffled_identity(I n, std::uint64_t seed) {
  std::vector<I> p(static_cast<std::size_t>(n));
  std::iota(p.begin(), p.end(), I(0));
  Lcg rng(seed);
  for (I i = n - 1; i > 0; --i) std::swap(p[i], p[static_cast<I>(rng.below(i + 1))]);
  return p;
}

/// perm and inverse_perm are inverse bijections of [0, n), and the stored
/// matrix is P A P^T: entry (i, j, v) of it is (perm[i], perm[j], v) of A,
/// the values bit for bit, none lost or added.
template <class V, class I, class Matrix>
void expect_valid_rcm(const Triplets<V, I>& original, const Matrix& a, const std::string& what) {
  ASSERT_TRUE(a.is_permuted() || original.rows == 0) << what;
  const auto perm = host_vector(a.permutation());
  const auto inverse = host_vector(a.inverse_permutation());
  ASSERT_EQ(static_cast<I>(perm.size()), original.rows) << what;
  ASSERT_EQ(inverse.size(), perm.size()) << what;
  std::vector<char> seen(perm.size(), 0);
  for (std::size_t i = 0; i < perm.size(); ++i) {
    ASSERT_GE(perm[i], 0) << what;
    ASSERT_LT(perm[i], original.rows) << what;
    ASSERT_FALSE(seen[perm[i]]) << what << ": " << perm[i] << " appears twice";
    seen[perm[i]] = 1;
    ASSERT_EQ(inverse[perm[i]], static_cast<I>(i)) << what;
  }
  std::map<std::pair<I, I>, V> entries;
  for (std::size_t k = 0; k < original.row.size(); ++k)
    entries[{original.row[k], original.col[k]}] = original.val[k];
  const auto stored = to_triplets(a.matrix());
  ASSERT_EQ(stored.val.size(), original.val.size()) << what;
  for (std::size_t k = 0; k < stored.row.size(); ++k) {
    const auto it = entries.find({perm[stored.row[k]], perm[stored.col[k]]});
    ASSERT_TRUE(it != entries.end()) << what << ": stored entry " << k << " is not in A";
    ASSERT_EQ(it->second, stored.val[k]) << what << ": value changed";
  }
  EXPECT_TRUE(stored.is_assembled()) << what << ": rows not sorted by column";
}

template <class T>
class CsrkRcm : public ::testing::Test {};
TYPED_TEST_SUITE(CsrkRcm, ValueIndexTypes, TypeNames);

TYPED_TEST(CsrkRcm, PermutationIsValidOnEverySquareEdgeMatrix) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  for (const auto& m : edge_matrices<V, I>()) {
    if (m.matrix.rows != m.matrix.cols) continue;
    Triplets<V, I> assembled = m.matrix;
    assembled.assemble();
    for (int k : {2, 3}) {
      csrk::parameters p;
      p.k = k;
      p.order = csrk::reordering::rcm;
      expect_valid_rcm(assembled, to_csrk(make_csr(m.matrix), p), m.name);
    }
  }
}

// 30 x 30 five-point Laplacian, nodes randomly relabelled: the bandwidth
// jumps to the order of n = 900; RCM must bring it back to about one grid
// line. Cuthill-McKee numbers the grid by anti-diagonal levels (at most 30
// nodes each), and an edge joins consecutive levels, so the bandwidth is at
// most the width of two levels: 2 * 30 (+2 of slack for tie-breaking).
TYPED_TEST(CsrkRcm, ReducesTheBandwidthOfAShuffledLaplacian) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  const I side = 30, n = side * side;
  Triplets<V, I> grid;
  grid.rows = grid.cols = n;
  for (I r = 0; r < side; ++r) {
    for (I c = 0; c < side; ++c) {
      const I i = r * side + c;
      if (r > 0) grid.push_back(i, i - side, V(-1));
      if (c > 0) grid.push_back(i, i - 1, V(-1));
      grid.push_back(i, i, V(4));
      if (c + 1 < side) grid.push_back(i, i + 1, V(-1));
      if (r + 1 < side) grid.push_back(i, i + side, V(-1));
    }
  }
  ASSERT_EQ(bandwidth(grid), side);
  const auto shuffled = relabel(grid, shuffled_identity<I>(n, 2024));
  const std::int64_t before = bandwidth(shuffled);
  EXPECT_GT(before, 10 * side);
  csrk::parameters p;
  p.k = 3;
  p.order = csrk::reordering::rcm;
  const auto a = to_csrk(make_csr(shuffled), p);
  expect_valid_rcm(shuffled, a, "laplacian");
  const std::int64_t after = bandwidth(to_triplets(a.matrix()));
  EXPECT_LE(after, 2 * side + 2) << "bandwidth " << before << " -> " << after;
  expect_same_triplets(shuffled, to_triplets(to_csr(a)), "laplacian round trip");
  expect_spmv_matches_reference(a, shuffled, "laplacian rcm");
}

// A path 0 - 1 - ... - 19 stored only as its upper half (A(i, i+1)), then
// shuffled: RCM works on A + A^T, finds an end of the path as the
// pseudo-peripheral start, and gives back a bidiagonal matrix (bandwidth 1).
// Two extra isolated nodes make two more components.
TYPED_TEST(CsrkRcm, RestoresAShuffledDirectedPath) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  const I n = 22;
  Triplets<V, I> path;
  path.rows = path.cols = n;
  for (I i = 0; i + 1 < 20; ++i) path.push_back(i, i + 1, static_cast<V>(i + 1));
  path.push_back(20, 20, V(5));  // node 21 has no entry at all
  const auto shuffled = relabel(path, shuffled_identity<I>(n, 7));
  EXPECT_GT(bandwidth(shuffled), 1);
  csrk::parameters p;
  p.k = 2;
  p.super_row_size = 3;
  p.order = csrk::reordering::rcm;
  const auto a = to_csrk(make_csr(shuffled), p);
  expect_valid_rcm(shuffled, a, "path");
  EXPECT_EQ(bandwidth(to_triplets(a.matrix())), 1);
  expect_spmv_matches_reference(a, shuffled, "path rcm");
}

}  // namespace
}  // namespace kobalt::test
