// SPDX-License-Identifier: BSD-3-Clause
// tuning::analyze_moments_and_sellp_fill: the moments of analyze_moments and
// the SELL-P fill to_sellp stores, from one reduction over slices of every
// size (one row, a few, the whole matrix and more), on the edge matrices;
// and tuning::sellp_fill's own reduction (slices over teams and lanes)
// equal to it.
#include "fixtures/edge_matrices.hpp"
#include "fixtures/row_lengths.hpp"
#include "fixtures/spmv_check.hpp"
#include "fixtures/types.hpp"

#include <kobalt/formats/convert_sellp.hpp>
#include <kobalt/tuning/sellp_fill.hpp>

#include <string>

namespace kobalt::test {
namespace {

template <class T>
class SellpFill : public ::testing::Test {};
TYPED_TEST_SUITE(SellpFill, ValueIndexTypes, TypeNames);

TYPED_TEST(SellpFill, MomentsAndFillMatchTheirOwnPasses) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  using exec = Kokkos::DefaultExecutionSpace;
  for (const auto& m : edge_matrices<V, I>()) {
    Triplets<V, I> t = m.matrix;
    t.assemble();
    const auto a = make_csr(t);
    const auto moments = tuning::analyze_moments(exec(), a);
    for (const std::int64_t b : {std::int64_t(1), std::int64_t(3), std::int64_t(8),
                                 std::int64_t(32), static_cast<std::int64_t>(a.rows()) + 5}) {
      const std::string what = m.name + " b=" + std::to_string(b);
      const auto r = tuning::analyze_moments_and_sellp_fill(exec(), a, b);
      // Sums of the same squares in another order: equal up to rounding.
      expect_same_moments(r.stats, moments, what, 1e-12);
      if (a.nnz() == 0) {
        EXPECT_EQ(r.sellp_fill, 0.0) << what;
        continue;
      }
      sellp_params p;
      p.slice_size = b;
      const double stored = static_cast<double>(to_sellp(a, p).stored());
      EXPECT_DOUBLE_EQ(r.sellp_fill, stored / static_cast<double>(a.nnz())) << what;
      EXPECT_EQ(tuning::sellp_fill(exec(), a, b), r.sellp_fill) << what;
    }
  }
}

TYPED_TEST(SellpFill, RowLengthsOfKnownPadding) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  // Slices of 2 rows: {1, 3} pads to 6 slots, {2, 2} to 4, {5} (padded to
  // 2 rows) to 10: 20 slots for 13 nonzeros.
  const auto a = make_csr(matrix_with_row_lengths<V, I>({1, 3, 2, 2, 5}));
  EXPECT_DOUBLE_EQ(tuning::sellp_fill(Kokkos::DefaultExecutionSpace(), a, 2), 20.0 / 13.0);
}

TYPED_TEST(SellpFill, SliceOfNoRowsIsAnError) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  const auto a = make_csr(matrix_with_row_lengths<V, I>({1, 2}));
  EXPECT_THROW(tuning::sellp_fill(Kokkos::DefaultExecutionSpace(), a, 0), invalid_parameter);
}

}  // namespace
}  // namespace kobalt::test
