// SPDX-License-Identifier: BSD-3-Clause
// Hybrid: the layout by hand, the resolved split t of every strategy on a
// known row-length distribution (checked by hand from 000 eq. 6-7), the
// storage optimum of minimal_storage (000 eq. 1), round trips on every edge
// matrix for every strategy, and every error path.
#include "fixtures/padded_example.hpp"
#include "fixtures/profiles.hpp"
#include "fixtures/row_lengths.hpp"
#include "fixtures/spmv_check.hpp"
#include "fixtures/types.hpp"

#include <algorithm>
#include <limits>

namespace kobalt::test {
namespace {

template <class T>
class HybridFormat : public ::testing::Test {};
TYPED_TEST_SUITE(HybridFormat, ValueIndexTypes, TypeNames);

/// The ELL width t that partition s gives for a (what hybrid::ell_width(a, s)
/// returned before the plan layer): tuning::select on the matrix statistics.
template <class V, class I, class D>
std::int64_t ell_width(const Csr<V, I, D>& a, const hybrid::partition& s) {
  return tuning::select<V, I>(tuning::analyze(a), host_profile(), s).ell_width;
}

/// The Hybrid stores only the resolved t, so the partition is fully
/// described by its layout: to_hybrid with hybrid::layout{t} must build the
/// same split as to_hybrid with the partition.
template <class V, class I, class D>
void expect_same_split_as_layout(const Csr<V, I, D>& a, const Hybrid<V, I, D>& h,
                                 const std::string& what) {
  const auto concrete = to_hybrid(a, hybrid::layout{h.ell_width(), 0});
  EXPECT_EQ(concrete.ell_width(), h.ell_width()) << what;
  EXPECT_EQ(concrete.ell().nnz(), h.ell().nnz()) << what;
  EXPECT_EQ(concrete.coo().nnz(), h.coo().nnz()) << what;
  EXPECT_EQ(host_vector(concrete.coo().col_indices()), host_vector(h.coo().col_indices()))
      << what;
}

std::vector<hybrid::partition> every_strategy() {
  return {hybrid::automatic{},
          hybrid::minimal_storage{},
          hybrid::column_limit{0},
          hybrid::column_limit{2},
          hybrid::column_limit{200},
          hybrid::imbalance_limit{-0.5},
          hybrid::imbalance_limit{0.0},
          hybrid::imbalance_limit{0.25},
          hybrid::imbalance_limit{0.9},
          hybrid::imbalance_limit{1.0},
          hybrid::imbalance_bounded_limit{1.0 / 3.0, 0.01},
          hybrid::imbalance_bounded_limit{0.75, 1.0}};
}

TYPED_TEST(HybridFormat, HandCheckedLayout) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  // column_limit{1}: each row's first entry to ELL (width 1, stride 4), the
  // rest to COO in (row, col) order:
  //   ELL  k=0: (0,1) pad (0,3) (2,0)
  //   COO  (0,2,2) (2,1,4) (2,3,5) (3,4,6)
  const auto h = to_hybrid(make_csr(padded_example<V, I>()), hybrid::column_limit{1});
  EXPECT_EQ(h.ell_width(), 1);
  EXPECT_EQ(h.ell().stride(), 4);
  EXPECT_EQ(host_vector(h.ell().col_indices()), (std::vector<I>{0, -1, 0, 2}));
  EXPECT_EQ(host_vector(h.ell().values()), (std::vector<V>{1, 0, 3, 0}));
  EXPECT_EQ(host_vector(h.coo().row_indices()), (std::vector<I>{0, 2, 2, 3}));
  EXPECT_EQ(host_vector(h.coo().col_indices()), (std::vector<I>{2, 1, 3, 4}));
  EXPECT_EQ(host_vector(h.coo().values()), (std::vector<V>{2, 4, 5, 6}));
  EXPECT_EQ(h.ell().nnz(), 3);
  EXPECT_EQ(h.nnz(), 7);
  EXPECT_EQ(h.stored(), 8);
  EXPECT_EQ(h.bytes(), 4 * (sizeof(I) + sizeof(V)) + 4 * (2 * sizeof(I) + sizeof(V)));
  // The Hybrid no longer records its partition: the column_limit it was
  // built with resolves to the width it holds.
  EXPECT_EQ(ell_width(make_csr(padded_example<V, I>()), hybrid::column_limit{1}), h.ell_width());
}

TYPED_TEST(HybridFormat, ResolvedWidthByHandOnRowsOfLengthOneToTen) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  // R = {1, ..., 10}: F_R(t) = t/10, so Q_R(x) = floor(10 x) + 1 for
  // 0 <= x < 0.9, 10 from x = 1 - 1/|R| = 0.9 on, 0 for x < 0.
  const std::vector<std::int64_t> lengths{3, 1, 4, 10, 5, 9, 2, 6, 8, 7};  // any order
  const auto a = make_csr(matrix_with_row_lengths<V, I>(lengths));
  const std::vector<std::pair<hybrid::partition, std::int64_t>> expected = {
      {hybrid::imbalance_limit{0.5}, 6},   // 0.5 < 6/10 first
      {hybrid::imbalance_limit{0.0}, 1},   // no padding: the shortest row
      {hybrid::imbalance_limit{-0.1}, 0},  // all COO
      {hybrid::imbalance_limit{0.25}, 3},
      {hybrid::imbalance_limit{0.89}, 9},
      {hybrid::imbalance_limit{0.9}, 10},  // 1 - 1/|R|: all ELL
      {hybrid::imbalance_limit{7.0}, 10},
      {hybrid::imbalance_bounded_limit{0.5, 0.25}, 2},  // min(6, floor(2.5))
      {hybrid::imbalance_bounded_limit{0.5, 0.5}, 5},   // min(6, 5)
      {hybrid::imbalance_bounded_limit{0.5, 1.0}, 6},   // min(6, 10)
      {hybrid::column_limit{4}, 4},
      {hybrid::column_limit{0}, 0},
      {hybrid::column_limit{25}, 25},  // wider than every row: all padded
      {hybrid::automatic{}, 0},        // cap floor(10 * 1e-3) = 0: all COO
  };
  for (const auto& [s, t] : expected) {
    EXPECT_EQ(ell_width(a, s), t) << hybrid::describe(s);
    const auto h = to_hybrid(a, s);
    EXPECT_EQ(h.ell_width(), t) << hybrid::describe(s);
    std::int64_t in_ell = 0, in_coo = 0;
    for (auto len : lengths) {
      in_ell += std::min(len, t);
      in_coo += std::max<std::int64_t>(len - t, 0);
    }
    EXPECT_EQ(h.ell().nnz(), in_ell) << hybrid::describe(s);
    EXPECT_EQ(h.coo().nnz(), in_coo) << hybrid::describe(s);
    expect_same_split_as_layout(a, h, hybrid::describe(s));
  }
  // minimal_storage: x = p/(v+2p): 1/4 -> 3; 1/3 -> 4; 2/5 -> 5.
  const std::int64_t minimal = sizeof(I) == 4 ? (sizeof(V) == 8 ? 3 : 4) : (sizeof(V) == 8 ? 4 : 5);
  EXPECT_EQ(ell_width(a, hybrid::minimal_storage{}), minimal);
}

TEST(HybridStrategies, MinimalStorageQuantiles) {
  // 000 eq. 5 / Table 1: x = p / (v + 2p).
  EXPECT_EQ((hybrid::minimal_storage_quantile<double, std::int32_t>()), 0.25);
  EXPECT_EQ((hybrid::minimal_storage_quantile<float, std::int32_t>()), 1.0 / 3.0);
  EXPECT_EQ((hybrid::minimal_storage_quantile<double, std::int64_t>()), 1.0 / 3.0);
  EXPECT_EQ((hybrid::minimal_storage_quantile<float, std::int64_t>()), 0.4);
}

TEST(HybridStrategies, NamesAndDescriptions) {
  EXPECT_EQ(hybrid::name(hybrid::partition{hybrid::automatic{}}), "automatic");
  EXPECT_EQ(hybrid::name(hybrid::partition{hybrid::minimal_storage{}}), "minimal_storage");
  EXPECT_EQ(hybrid::name(hybrid::partition{hybrid::column_limit{3}}), "column_limit");
  EXPECT_EQ(hybrid::describe(hybrid::column_limit{3}), "column_limit(columns=3)");
  EXPECT_EQ(hybrid::describe(hybrid::imbalance_limit{0.25}), "imbalance_limit(quantile=0.25)");
  EXPECT_EQ(hybrid::describe(hybrid::imbalance_bounded_limit{0.5, 0.125}),
            "imbalance_bounded_limit(quantile=0.5, row_ratio=0.125)");
  const auto a = hybrid::as_bounded(hybrid::automatic{});
  EXPECT_EQ(a.quantile, 1.0 / 3.0);
  EXPECT_EQ(a.row_ratio, hybrid::automatic_row_ratio);
}

TYPED_TEST(HybridFormat, MinimalStorageMinimisesEquationOne) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  // S(t) = n t (v + p) + (v + 2p) sum_i max(n_i - t, 0)   (000 eq. 1-2)
  const double v = sizeof(V), p = sizeof(I);
  Lcg rng(77);
  for (int trial = 0; trial < 12; ++trial) {
    std::vector<std::int64_t> lengths(static_cast<std::size_t>(1 + rng.below(300)));
    for (auto& l : lengths) l = trial % 2 ? rng.below(12) : (rng.below(5) == 0 ? rng.below(90) : rng.below(4));
    const auto a = make_csr(matrix_with_row_lengths<V, I>(lengths));
    const auto S = [&](std::int64_t t) {
      double coo = 0;
      for (auto l : lengths) coo += static_cast<double>(std::max<std::int64_t>(l - t, 0));
      return static_cast<double>(lengths.size()) * static_cast<double>(t) * (v + p) + (v + 2 * p) * coo;
    };
    const std::int64_t longest = *std::max_element(lengths.begin(), lengths.end());
    double best = S(0);
    for (std::int64_t t = 1; t <= longest; ++t) best = std::min(best, S(t));
    const std::int64_t t = ell_width(a, hybrid::minimal_storage{});
    EXPECT_EQ(S(t), best) << "trial " << trial << " t=" << t;
  }
}

TYPED_TEST(HybridFormat, AutomaticIsBoundedLimitOneThird) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  std::vector<Triplets<V, I>> matrices;
  for (const auto& m : edge_matrices<V, I>()) matrices.push_back(m.matrix);
  // 5000 rows: the cap floor(5000 * 1e-3) = 5 binds when Q_R(1/3) is larger.
  matrices.push_back(matrix_with_row_lengths<V, I>(std::vector<std::int64_t>(5000, 9)));
  matrices.push_back(matrix_with_row_lengths<V, I>(std::vector<std::int64_t>(5000, 3)));
  for (const auto& t : matrices) {
    const auto a = make_csr(t);
    EXPECT_EQ(ell_width(a, hybrid::automatic{}),
              ell_width(a, hybrid::imbalance_bounded_limit{1.0 / 3.0,
                                                                   hybrid::automatic_row_ratio}));
  }
  EXPECT_EQ(ell_width(make_csr(matrices[matrices.size() - 2]), hybrid::automatic{}), 5);
  EXPECT_EQ(ell_width(make_csr(matrices.back()), hybrid::automatic{}), 3);
}

TYPED_TEST(HybridFormat, RoundTripOnEdgeMatricesForEveryStrategy) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  for (const auto& m : edge_matrices<V, I>()) {
    Triplets<V, I> assembled = m.matrix;
    assembled.assemble();
    const auto a = make_csr(m.matrix);
    for (const auto& s : every_strategy()) {
      const auto h = to_hybrid(a, s);
      const std::string what = m.name + " " + hybrid::describe(s);
      EXPECT_EQ(h.nnz(), assembled.nnz()) << what;
      EXPECT_EQ(h.ell_width(), ell_width(a, s)) << what;
      expect_same_triplets(assembled, to_triplets(to_csr(h)), what);
    }
  }
}

TYPED_TEST(HybridFormat, BadStrategiesThrow) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  const auto a = make_csr(padded_example<V, I>());
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (const hybrid::partition& s :
       std::vector<hybrid::partition>{hybrid::column_limit{-1}, hybrid::imbalance_limit{nan},
                                     hybrid::imbalance_limit{inf}, hybrid::imbalance_limit{-inf},
                                     hybrid::imbalance_bounded_limit{nan, 0.5},
                                     hybrid::imbalance_bounded_limit{0.3, 0.0},
                                     hybrid::imbalance_bounded_limit{0.3, -0.1},
                                     hybrid::imbalance_bounded_limit{0.3, 1.5},
                                     hybrid::imbalance_bounded_limit{0.3, nan}}) {
    EXPECT_THROW(to_hybrid(a, s), invalid_parameter) << hybrid::describe(s);
    EXPECT_THROW(hybrid::validate(s), invalid_parameter) << hybrid::describe(s);
  }
  EXPECT_NO_THROW(to_hybrid(a, hybrid::imbalance_bounded_limit{0.3, 1.0}));
  // Parts of different shapes.
  const auto h = to_hybrid(a, hybrid::column_limit{1});
  const auto other = to_hybrid(make_csr(matrix_with_row_lengths<V, I>({1, 2})));
  EXPECT_THROW((Hybrid<V, I>(h.ell(), other.coo())), dimension_mismatch);
  EXPECT_NO_THROW((Hybrid<V, I>(h.ell(), h.coo())));
}

TYPED_TEST(HybridFormat, StorageLimitThrowsExactlyWhenExceeded) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  for (const auto& m : edge_matrices<V, I>()) {
    Triplets<V, I> assembled = m.matrix;
    assembled.assemble();
    const auto len = row_lengths(assembled);
    const auto a = make_csr(m.matrix);
    for (const hybrid::partition& s : {hybrid::partition{hybrid::column_limit{3}},
                                      hybrid::partition{hybrid::imbalance_limit{1.0}}}) {
      const std::int64_t t = ell_width(a, s);
      std::uint64_t coo = 0;
      for (auto l : len) coo += static_cast<std::uint64_t>(std::max<std::int64_t>(l - t, 0));
      const std::uint64_t needed = static_cast<std::uint64_t>(assembled.rows) * t * (sizeof(I) + sizeof(V)) +
                                   coo * (2 * sizeof(I) + sizeof(V));
      for (std::uint64_t limit : {needed - 1, needed}) {
        if (limit == 0) continue;
        if (needed > limit) {
          EXPECT_THROW(to_hybrid(a, s, {limit}), format_too_large) << m.name;
        } else {
          EXPECT_NO_THROW(to_hybrid(a, s, {limit})) << m.name;
        }
      }
    }
  }
}

}  // namespace
}  // namespace kobalt::test
