// SPDX-License-Identifier: BSD-3-Clause
// Hybrid kernel (ELL part writes y, COO part accumulates; 000 §4) against the
// reference on every edge matrix for every hybrid partition, including the
// extremes all-COO (t = 0) and all-ELL.
#include "fixtures/spmv_check.hpp"
#include "fixtures/types.hpp"

namespace kobalt::test {
namespace {

template <class T>
class HybridSpmv : public ::testing::Test {};
TYPED_TEST_SUITE(HybridSpmv, ValueIndexTypes, TypeNames);

/// Every partition, each at a few parameters (t = 0, interior, all ELL).
inline std::vector<hybrid::partition> every_strategy() {
  return {hybrid::automatic{},
          hybrid::minimal_storage{},
          hybrid::column_limit{0},
          hybrid::column_limit{1},
          hybrid::column_limit{4},
          hybrid::imbalance_limit{-1.0},
          hybrid::imbalance_limit{0.0},
          hybrid::imbalance_limit{0.25},
          hybrid::imbalance_limit{0.5},
          hybrid::imbalance_limit{1.0},
          hybrid::imbalance_bounded_limit{1.0 / 3.0, 0.05},
          hybrid::imbalance_bounded_limit{0.8, 1.0}};
}

TYPED_TEST(HybridSpmv, EveryStrategyMatchesReferenceOnEdgeMatrices) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  for (const auto& m : edge_matrices<V, I>()) {
    const auto a = make_csr(m.matrix);
    Triplets<V, I> assembled = m.matrix;
    assembled.assemble();
    for (const auto& s : every_strategy()) {
      const auto h = to_hybrid(a, s);
      expect_spmv_matches_reference(h, assembled,
                                    m.name + " " + hybrid::describe(s) +
                                        " t=" + std::to_string(h.ell_width()));
    }
  }
}

TEST(HybridSpmvMixed, FloatMatrixDoubleVectors) {
  for (const auto& m : edge_matrices<float, std::int32_t>()) {
    const auto h = to_hybrid(make_csr(m.matrix), hybrid::imbalance_limit{0.5});
    Triplets<float, std::int32_t> assembled = m.matrix;
    assembled.assemble();
    for (const auto& c : spmv_cases()) expect_spmv_case<double>(h, assembled, c, m.name);
  }
}

}  // namespace
}  // namespace kobalt::test
