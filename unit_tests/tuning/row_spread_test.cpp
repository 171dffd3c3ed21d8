// SPDX-License-Identifier: BSD-3-Clause
// tuning::row_spread: the mean share of the columns a row spans, against a
// sequential reference over the assembled triplets, on the edge matrices,
// and on matrices of known spread (banded, full rows, empty).
#include "fixtures/edge_matrices.hpp"
#include "fixtures/types.hpp"

#include <kobalt/kobalt.hpp>
#include <kobalt/tuning/row_spread.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <utility>

namespace kobalt::test {
namespace {

template <class T>
class RowSpread : public ::testing::Test {};
TYPED_TEST_SUITE(RowSpread, ValueIndexTypes, TypeNames);

/// The spread from the triplets: first and last column of each row, one
/// entry at a time on the host.
template <class V, class I>
double reference_spread(const Triplets<V, I>& t) {
  if (t.rows == 0 || t.cols == 0 || t.row.empty()) return 0.0;
  std::map<I, std::pair<I, I>> ends;  // row -> (first, last) column
  for (std::size_t k = 0; k < t.row.size(); ++k) {
    auto [it, fresh] = ends.emplace(t.row[k], std::pair<I, I>{t.col[k], t.col[k]});
    if (!fresh) {
      it->second.first = std::min(it->second.first, t.col[k]);
      it->second.second = std::max(it->second.second, t.col[k]);
    }
  }
  double sum = 0;
  for (const auto& [r, e] : ends) sum += static_cast<double>(e.second - e.first) + 1.0;
  return sum / (static_cast<double>(t.rows) * static_cast<double>(t.cols));
}

TYPED_TEST(RowSpread, MatchesTheSequentialReference) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  for (const auto& m : edge_matrices<V, I>()) {
    Triplets<V, I> t = m.matrix;
    t.assemble();
    const auto a = make_csr(t);
    // Integer spans summed in doubles below 2^53: exact in any order.
    EXPECT_EQ(tuning::row_spread(Kokkos::DefaultExecutionSpace(), a), reference_spread(t))
        << m.name;
  }
}

TYPED_TEST(RowSpread, KnownSpreads) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  const Kokkos::DefaultExecutionSpace exec;
  // Tridiagonal, n = 100: rows span 2, 3, ..., 3, 2 of 100 columns.
  Triplets<V, I> band;
  band.rows = band.cols = 100;
  for (I i = 0; i < 100; ++i)
    for (I j = std::max<I>(i - 1, 0); j <= std::min<I>(i + 1, 99); ++j) band.push_back(i, j, V(1));
  EXPECT_EQ(tuning::row_spread(exec, make_csr(band)), (2.0 + 98 * 3.0 + 2.0) / 1e4);
  // Rows from the first to the last column span them all; an empty row none.
  Triplets<V, I> ends;
  ends.rows = 4;
  ends.cols = 1000;
  for (I i = 0; i < 3; ++i) {
    ends.push_back(i, 0, V(1));
    ends.push_back(i, 999, V(1));
  }
  EXPECT_EQ(tuning::row_spread(exec, make_csr(ends)), 0.75);
  // No entries: 0.
  Triplets<V, I> none;
  none.rows = 5;
  none.cols = 7;
  EXPECT_EQ(tuning::row_spread(exec, make_csr(none)), 0.0);
}

}  // namespace
}  // namespace kobalt::test
