// SPDX-License-Identifier: BSD-3-Clause
// Csr -> CsrK -> Csr gives the original back, entry for entry and bit for
// bit, with and without RCM, on every edge matrix and every shared matrix.
#include "fixtures/csrk_cases.hpp"
#include "fixtures/profiles.hpp"
#include "fixtures/shared_matrices.hpp"
#include "fixtures/spmv_check.hpp"
#include "fixtures/types.hpp"

namespace kobalt::test {
namespace {

template <class T>
class CsrkRoundTrip : public ::testing::Test {};
TYPED_TEST_SUITE(CsrkRoundTrip, ValueIndexTypes, TypeNames);

TYPED_TEST(CsrkRoundTrip, EveryEdgeMatrixEveryParameterSet) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  for (const auto& m : edge_matrices<V, I>()) {
    Triplets<V, I> assembled = m.matrix;
    assembled.assemble();
    const auto csr = make_csr(m.matrix);
    for (const auto& p : csrk_parameter_grid(m.matrix.rows == m.matrix.cols)) {
      const std::string what = m.name + " " + describe(p);
      const auto a = to_csrk(csr, p);
      const auto back = to_csr(a);
      expect_same_triplets(assembled, to_triplets(back), what);
      EXPECT_EQ(back.max_row_nnz(), csr.max_row_nnz()) << what;
      // The kernel choice survives the round trip (the matrix no longer
      // carries a strategy; the choice is made from its statistics): the
      // default CSR kernel's policy, on this device and on a GPU, whose
      // lanes follow the longest row, is the same for both.
      const auto stats_back = tuning::analyze(back), stats_csr = tuning::analyze(csr);
      for (const auto& profile : {host_profile(), fake_gpu_profile()}) {
        const auto got = tuning::select(stats_back, profile, csr::strategy{});
        const auto want = tuning::select(stats_csr, profile, csr::strategy{});
        EXPECT_EQ(got.str(), want.str()) << what;
        EXPECT_EQ(got.rule, want.rule) << what;
      }
    }
  }
}

TYPED_TEST(CsrkRoundTrip, ToCsrRespectsMaxBytes) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  const auto csr = make_csr(fig1_matrix<V, I>());
  csrk::parameters p;
  p.k = 3;
  p.order = csrk::reordering::rcm;
  const auto a = to_csrk(csr, p);
  convert_options small;
  small.max_bytes = 8;
  EXPECT_THROW(to_csr(a, small), format_too_large);
  p.order = csrk::reordering::none;
  EXPECT_THROW(to_csr(to_csrk(csr, p), small), format_too_large);
}

// Shared matrices (double/int32 is enough): square ones with RCM (k = 3)
// and without (k = 2, defaults), rectangular ones without.
using CsrkRoundTripShared = NeedsSharedMatrices<>;

TEST_F(CsrkRoundTripShared, EverySharedMatrix) {
  using V = double;
  using I = std::int32_t;
  const auto names = shared_matrix_names();
  ASSERT_FALSE(names.empty());
  for (const std::string& name : names) {
    const Triplets<V, I>& t = shared_matrix<V, I>(name);
    const auto csr = make_csr(t);
    std::vector<csrk::parameters> grid;
    csrk::parameters natural;
    natural.k = 2;
    grid.push_back(natural);
    if (t.rows == t.cols) {
      csrk::parameters rcm;
      rcm.k = 3;
      rcm.super_row_size = 7;
      rcm.super_super_row_size = 3;
      rcm.order = csrk::reordering::rcm;
      grid.push_back(rcm);
    }
    for (const auto& p : grid) {
      const auto a = to_csrk(csr, p);
      expect_fixed_structure(a, name + " " + describe(p));
      expect_same_triplets(t, to_triplets(to_csr(a)), name + " " + describe(p));
    }
  }
}

}  // namespace
}  // namespace kobalt::test
