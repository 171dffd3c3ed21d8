// SPDX-License-Identifier: BSD-3-Clause
// CSR-k spmv (GPUSpMV-3 / 3.5 mapping, permutation hidden) against the
// reference: every edge matrix x k = 2, 3 x several sizes x with and
// without RCM, the selected launch shape and forced ones (team threads
// over super-rows and rows, vector lanes), NaN-poisoned y for beta = 0 and
// rank-2 x/y (spmv_cases()).
#include "fixtures/csrk_cases.hpp"
#include "fixtures/shared_matrices.hpp"
#include "fixtures/spmv_check.hpp"
#include "fixtures/types.hpp"

#include <algorithm>
#include <limits>

namespace kobalt::test {
namespace {

template <class T>
class CsrkSpmv : public ::testing::Test {};
TYPED_TEST_SUITE(CsrkSpmv, ValueIndexTypes, TypeNames);

TYPED_TEST(CsrkSpmv, MatchesReferenceOnEveryEdgeMatrix) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  for (const auto& m : edge_matrices<V, I>()) {
    Triplets<V, I> assembled = m.matrix;
    assembled.assemble();
    const auto csr = make_csr(m.matrix);
    for (const auto& p : csrk_parameter_grid(m.matrix.rows == m.matrix.cols)) {
      const auto a = to_csrk(csr, p);
      expect_spmv_matches_reference(a, assembled, m.name + " csrk " + describe(p));
    }
  }
}

/// Launch shapes the backend can run: team sizes up to its concurrency
/// (1 on Serial; the OpenMP build runs teams of 2 and more), vector lanes
/// 1, 2, 4 (Kokkos runs host lanes serially; on GPUs they are real).
struct ForcedShape {
  int team, lanes, row_threads;
};
std::vector<ForcedShape> forced_policies() {
  const int max_team =
      std::min(8, static_cast<int>(Kokkos::DefaultExecutionSpace().concurrency()));
  std::vector<ForcedShape> out;
  for (int team : {1, 2, 3, 4, 6, 8}) {
    if (team > max_team) continue;
    for (int lanes : {1, 2, 4}) {
      for (int row_threads : {1, 2, 3, team}) {
        if (row_threads > team || team % row_threads != 0) continue;
        out.push_back(ForcedShape{team, lanes, row_threads});
      }
    }
  }
  return out;
}

TYPED_TEST(CsrkSpmv, ForcedLaunchShapesMatchReference) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  const auto policies = forced_policies();
  for (const std::string name : {"one_dense_row_101", "odd_rows_33x47_long", "empty_rows_37x29",
                                 "explicit_zeros_23", "odd_1029x1031"}) {
    Triplets<V, I> t = edge_matrix<V, I>(name);
    const auto csr = make_csr(t);
    const bool square = t.rows == t.cols;
    for (int k : {2, 3}) {
      csrk::parameters p;
      p.k = k;
      p.super_row_size = 5;
      p.super_super_row_size = k == 3 ? 3 : 0;
      p.order = square ? csrk::reordering::rcm : csrk::reordering::none;
      const auto a = to_csrk(csr, p);
      const Kokkos::DefaultExecutionSpace exec;
      for (const ForcedShape& f : policies) {
        const auto policy = forced_csrk_policy(k, f.team, f.lanes, f.row_threads);
        const auto h = csrk_handle(exec, a, policy);
        ASSERT_EQ(h.policy().str(), policy.str());
        expect_handle_matches_reference(exec, h, a, t, name + " " + describe(p) + " " + policy.str());
      }
    }
  }
}

// Fig. 1 by hand through the permutation path: y = A x for x = e_j gives
// column j of A in the original numbering, whatever RCM did inside.
TYPED_TEST(CsrkSpmv, PermutationIsHiddenFromTheUser) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  const auto t = fig1_matrix<V, I>();
  csrk::parameters p;
  p.k = 3;
  p.super_row_size = 2;
  p.super_super_row_size = 2;
  p.order = csrk::reordering::rcm;
  const auto a = to_csrk(make_csr(t), p);
  ASSERT_TRUE(a.is_permuted());
  Kokkos::View<V*> x("x", 9), y("y", 9);
  for (I j = 0; j < 9; ++j) {
    Kokkos::deep_copy(x, V(0));
    Kokkos::deep_copy(Kokkos::subview(x, j), V(1));
    Kokkos::deep_copy(y, std::numeric_limits<V>::quiet_NaN());
    kobalt::spmv(V(1), a, x, V(0), y);
    const auto yh = host_vector(y);
    std::vector<V> column(9, V(0));
    for (std::size_t k = 0; k < t.val.size(); ++k)
      if (t.col[k] == j) column[t.row[k]] = t.val[k];
    for (int i = 0; i < 9; ++i) EXPECT_EQ(yh[i], column[i]) << "A(" << i << "," << j << ")";
  }
}

// Mixed precision: a float matrix with double vectors; the permuted x
// gathers into a double work vector.
TEST(CsrkSpmvMixed, FloatMatrixDoubleVectors) {
  using I = std::int32_t;
  const auto t = edge_matrix<float, I>("odd_1029x1031");
  const auto square = edge_matrix<float, I>("one_dense_column_97");
  for (const auto* m : {&t, &square}) {
    csrk::parameters p;
    p.k = 3;
    p.order = m->rows == m->cols ? csrk::reordering::rcm : csrk::reordering::none;
    const auto a = to_csrk(make_csr(*m), p);
    for (const auto& c : spmv_cases()) expect_spmv_case<double>(a, *m, c, "mixed csrk");
  }
}

// Real matrices (double/int32), RCM where square, the backend's defaults.
using CsrkSpmvShared = NeedsSharedMatrices<>;

TEST_F(CsrkSpmvShared, EverySharedMatrix) {
  for (const std::string& name : shared_matrix_names()) {
    const auto& t = shared_matrix<double, std::int32_t>(name);
    csrk::parameters p;
    p.order = t.rows == t.cols ? csrk::reordering::rcm : csrk::reordering::none;
    const auto a = to_csrk(make_csr(t), p);
    expect_spmv_case<double>(a, t, SpmvCase{1.0, 0.0, 0}, name + " csrk");
    expect_spmv_case<double>(a, t, SpmvCase{0.5, -1.0, 2}, name + " csrk");
  }
}

}  // namespace
}  // namespace kobalt::test
