// SPDX-License-Identifier: BSD-3-Clause
// CSR kernels (automatic, basic, classical, load_balance) against the
// reference on the edge matrices.
#include "fixtures/spmv_check.hpp"
#include "fixtures/types.hpp"

namespace kobalt::test {
namespace {

template <class T>
class CsrSpmv : public ::testing::Test {};
TYPED_TEST_SUITE(CsrSpmv, ValueIndexTypes, TypeNames);

TYPED_TEST(CsrSpmv, EveryStrategyMatchesReferenceOnEdgeMatrices) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  for (const auto& m : edge_matrices<V, I>()) {
    auto a = make_csr(m.matrix);
    Triplets<V, I> assembled = m.matrix;
    assembled.assemble();
    for (csr::strategy s : {csr::strategy{csr::automatic{}}, csr::strategy{csr::basic{}},
                          csr::strategy{csr::classical{}}, csr::strategy{csr::load_balance{}}}) {
      expect_spmv_matches_reference(a, assembled, m.name + " csr:" + strategy_name(s), s);
    }
  }
}

TYPED_TEST(CsrSpmv, MaxRowNnzIsTheLongestRow) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  for (const auto& m : edge_matrices<V, I>()) {
    auto a = make_csr(m.matrix);
    Triplets<V, I> t = m.matrix;
    t.assemble();
    std::vector<I> len(t.rows, 0);
    I longest = 0;
    for (auto r : t.row) longest = std::max(longest, ++len[r]);
    EXPECT_EQ(a.max_row_nnz(), longest) << m.name;
  }
}

}  // namespace
}  // namespace kobalt::test
