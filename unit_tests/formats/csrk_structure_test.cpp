// SPDX-License-Identifier: BSD-3-Clause
// CsrK structure: seed 002's Fig. 1 by hand, fixed-size super-rows on every
// edge matrix, the defaults, and every error path.
#include "fixtures/csrk_cases.hpp"
#include "fixtures/spmv_check.hpp"
#include "fixtures/types.hpp"

namespace kobalt::test {
namespace {

template <class T>
class CsrkStructure : public ::testing::Test {};
TYPED_TEST_SUITE(CsrkStructure, ValueIndexTypes, TypeNames);

TYPED_TEST(CsrkStructure, Figure1ByHand) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  const auto csr = make_csr(fig1_matrix<V, I>());
  // The Csr part is Fig. 1's row_ptr / col_idx / vals.
  const auto row_ptr = host_vector(csr.row_ptr());
  const auto col = host_vector(csr.col_indices());
  const auto val = host_vector(csr.values());
  ASSERT_EQ(row_ptr.size(), fig1_row_ptr.size());
  for (std::size_t i = 0; i < row_ptr.size(); ++i) EXPECT_EQ(row_ptr[i], fig1_row_ptr[i]);
  ASSERT_EQ(col.size(), fig1_col.size());
  for (std::size_t k = 0; k < col.size(); ++k) {
    EXPECT_EQ(col[k], fig1_col[k]);
    EXPECT_EQ(val[k], static_cast<V>(fig1_val[k]));
  }

  CsrK<V, I> a(csr, 3, device_view<I>({0, 2, 5, 7, 9}, "sr_ptr"),
               device_view<I>({0, 2, 4}, "ssr_ptr"));
  EXPECT_EQ(a.k(), 3);
  EXPECT_EQ(a.rows(), 9);
  EXPECT_EQ(a.cols(), 9);
  EXPECT_EQ(a.nnz(), 24);
  EXPECT_EQ(a.num_super_rows(), 4);
  EXPECT_EQ(a.num_super_super_rows(), 2);
  EXPECT_FALSE(a.is_permuted());
  EXPECT_EQ(a.bytes(), csr.bytes() + (5 + 3) * sizeof(I));

  // y = A * ones: the row sums, exact in every value type.
  Kokkos::View<V*> x("x", 9), y("y", 9);
  Kokkos::deep_copy(x, V(1));
  kobalt::spmv(V(1), a, x, V(0), y);
  const auto yh = host_vector(y);
  for (int i = 0; i < 9; ++i) EXPECT_EQ(yh[i], static_cast<V>(fig1_row_sums[i])) << i;

  // The same super-rows as CSR-2.
  CsrK<V, I> b(csr, 2, device_view<I>({0, 2, 5, 7, 9}, "sr_ptr"), Kokkos::View<I*>());
  EXPECT_EQ(b.num_super_super_rows(), 0);
  Kokkos::deep_copy(y, V(-1));
  kobalt::spmv(V(2), b, x, V(0), y);
  const auto y2 = host_vector(y);
  for (int i = 0; i < 9; ++i) EXPECT_EQ(y2[i], static_cast<V>(2 * fig1_row_sums[i])) << i;

  expect_same_triplets(to_triplets(csr), to_triplets(to_csr(a)), "fig1 round trip");
}

// to_csrk on Fig. 1's matrix with fixed sizes (9 rows):
//   SRS 2, SSRS 2: sr_ptr = {0,2,4,6,8,9}, ssr_ptr = {0,2,4,5}
//   SRS 4 (k = 2): sr_ptr = {0,4,8,9}
//   SRS 96, SSRS 3: sr_ptr = {0,9}, ssr_ptr = {0,1}
TYPED_TEST(CsrkStructure, FixedSizesOfFigure1ByHand) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  const auto csr = make_csr(fig1_matrix<V, I>());
  auto check = [&](const csrk::parameters& p, std::vector<I> sr, std::vector<I> ssr) {
    const auto a = to_csrk(csr, p);
    EXPECT_EQ(host_vector(a.sr_ptr()), sr) << describe(p);
    EXPECT_EQ(host_vector(a.ssr_ptr()), ssr) << describe(p);
    EXPECT_EQ(a.k(), p.k) << describe(p);
  };
  check({3, 2, 2}, {0, 2, 4, 6, 8, 9}, {0, 2, 4, 5});
  check({2, 4, 0}, {0, 4, 8, 9}, {});
  check({3, 96, 3}, {0, 9}, {0, 1});
  check({3, 1, 96}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, {0, 9});
}

TYPED_TEST(CsrkStructure, FixedSizesOnEveryEdgeMatrix) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  for (const auto& m : edge_matrices<V, I>()) {
    const auto csr = make_csr(m.matrix);
    for (const auto& p : csrk_parameter_grid(m.matrix.rows == m.matrix.cols)) {
      const std::string what = m.name + " " + describe(p);
      const auto a = to_csrk(csr, p);
      EXPECT_EQ(a.k(), p.k) << what;
      EXPECT_EQ(a.rows(), csr.rows()) << what;
      EXPECT_EQ(a.cols(), csr.cols()) << what;
      EXPECT_EQ(a.nnz(), csr.nnz()) << what;
      EXPECT_EQ(a.stored(), csr.nnz()) << what;
      EXPECT_EQ(a.reordering(), p.order) << what;
      if (p.super_row_size != 0) {
        EXPECT_EQ(a.super_row_size(), p.super_row_size) << what;
      }
      if (p.k == 3 && p.super_super_row_size != 0) {
        EXPECT_EQ(a.super_super_row_size(), p.super_super_row_size) << what;
      }
      expect_fixed_structure(a, what);
      if (p.order == csrk::reordering::none) {
        // Natural order: the stored Csr is the input, array for array.
        EXPECT_FALSE(a.is_permuted()) << what;
        expect_same_triplets(to_triplets(csr), to_triplets(a.matrix()), what);
      } else {
        EXPECT_EQ(a.is_permuted(), csr.rows() > 0) << what;
      }
    }
  }
}

TYPED_TEST(CsrkStructure, DefaultsOnTheHostBackend) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  const auto profile = tuning::cached_profile_of(Kokkos::DefaultExecutionSpace());
  if (!profile.gpu) {
    ASSERT_EQ(profile.warp_width, 1);
    const auto csr = make_csr(edge_matrix<V, I>("odd_1029x1031"));
    const auto k_default = to_csrk(csr);
    // The host profile's SRS: 002 §4.2's 96, or a measured host's row.
    const std::int64_t srs = profile.csrk_super_row_size;
    EXPECT_EQ(k_default.k(), 2);                  // 002 §6.2: CSR-2 on CPUs
    EXPECT_EQ(k_default.super_row_size(), srs);
    EXPECT_EQ(k_default.num_super_rows(), 11);    // ceil(1029 / SRS), SRS in [94, 102]
    EXPECT_EQ(k_default.reordering(), csrk::reordering::none);
    csrk::parameters p;
    p.k = 3;
    const auto k3 = to_csrk(csr, p);
    EXPECT_EQ(k3.super_row_size(), srs);
    EXPECT_EQ(profile.csrk_super_super_row_size, 8);  // the host profile's SSRS
    EXPECT_EQ(k3.super_super_row_size(), profile.csrk_super_super_row_size);
    EXPECT_EQ(k3.num_super_super_rows(), 2);  // ceil(11 / 8)
  } else {
    GTEST_SKIP() << "host defaults: this build's default execution space is a GPU";
  }
}

TYPED_TEST(CsrkStructure, BadParametersThrow) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  const auto square = make_csr(fig1_matrix<V, I>());
  auto with = [](int k, std::int64_t srs, std::int64_t ssrs) {
    csrk::parameters p;
    p.k = k;
    p.super_row_size = srs;
    p.super_super_row_size = ssrs;
    return p;
  };
  for (int k : {-1, 1, 4, 5})
    EXPECT_THROW(to_csrk(square, with(k, 0, 0)), invalid_parameter) << "k=" << k;
  EXPECT_THROW(to_csrk(square, with(2, -1, 0)), invalid_parameter);
  EXPECT_THROW(to_csrk(square, with(3, -5, 2)), invalid_parameter);
  EXPECT_THROW(to_csrk(square, with(3, 2, -1)), invalid_parameter);
  EXPECT_THROW(to_csrk(square, with(2, 2, 2)), invalid_parameter);  // SSRS is k = 3 only
  EXPECT_NO_THROW(to_csrk(square, with(3, 2, 2)));
  // RCM on every non-square edge matrix.
  for (const auto& m : edge_matrices<V, I>()) {
    if (m.matrix.rows == m.matrix.cols) continue;
    const auto csr = make_csr(m.matrix);
    for (int k : {2, 3}) {
      csrk::parameters p = with(k, 0, 0);
      p.order = csrk::reordering::rcm;
      EXPECT_THROW(to_csrk(csr, p), invalid_parameter) << m.name;
      p.order = csrk::reordering::none;
      EXPECT_NO_THROW(to_csrk(csr, p)) << m.name;
    }
  }
  csrk::parameters tiny = with(3, 2, 2);
  tiny.max_bytes = 16;
  EXPECT_THROW(to_csrk(square, tiny), format_too_large);
  tiny.max_bytes = square.bytes() + 64 * sizeof(I);
  EXPECT_NO_THROW(to_csrk(square, tiny));
}

TYPED_TEST(CsrkStructure, ConstructorRejectsBrokenArrays) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  using view = Kokkos::View<I*>;
  using K = CsrK<V, I>;
  const auto csr = make_csr(fig1_matrix<V, I>());
  const view sr = device_view<I>({0, 2, 5, 7, 9}, "sr");
  const view ssr = device_view<I>({0, 2, 4}, "ssr");
  EXPECT_THROW(K(csr, 4, sr, ssr), invalid_parameter);
  EXPECT_THROW(K(csr, 3, device_view<I>({0, 2, 5, 7, 8}, "sr"), ssr), invalid_matrix);
  EXPECT_THROW(K(csr, 3, device_view<I>({1, 2, 5, 7, 9}, "sr"), ssr), invalid_matrix);
  EXPECT_THROW(K(csr, 3, device_view<I>({0, 5, 2, 7, 9}, "sr"), ssr), invalid_matrix);
  EXPECT_THROW(K(csr, 3, view(), ssr), invalid_matrix);
  EXPECT_THROW(K(csr, 3, sr, device_view<I>({0, 2, 3}, "ssr")), invalid_matrix);
  EXPECT_THROW(K(csr, 3, sr, view()), invalid_matrix);
  EXPECT_THROW(K(csr, 2, sr, ssr), invalid_matrix);
  std::vector<I> identity(9), reversed(9), broken(9);
  for (I i = 0; i < 9; ++i) {
    identity[i] = i;
    reversed[i] = 8 - i;
    broken[i] = i == 8 ? 0 : i;
  }
  EXPECT_NO_THROW(K(csr, 3, sr, ssr, device_view<I>(reversed, "p"),
                             device_view<I>(reversed, "q")));
  EXPECT_THROW(K(csr, 3, sr, ssr, device_view<I>(reversed, "p"),
                          device_view<I>(identity, "q")),
               invalid_matrix);
  EXPECT_THROW(K(csr, 3, sr, ssr, device_view<I>(broken, "p"),
                          device_view<I>(identity, "q")),
               invalid_matrix);
  EXPECT_THROW(K(csr, 3, sr, ssr, device_view<I>(identity, "p"), view()),
               invalid_matrix);
  // Forced launch shapes (what CsrK::set_policy used to take), through a
  // handle with an explicit policy: team_size 3 is not a multiple of
  // row_threads 2 (the kernel's check rejects it, at spmv), team_size 0 is
  // not positive (the handle rejects it), 4 threads x 2 lanes with 2 row
  // threads is accepted (not run: host teams hold one thread), and a forced
  // one-thread shape and the selected policy run and give the row sums.
  K a(csr, 3, sr, ssr);
  Kokkos::View<V*> x("x", 9), y("y", 9);
  Kokkos::deep_copy(x, V(1));
  const Kokkos::DefaultExecutionSpace exec;
  EXPECT_THROW(detail::check_csrk_shape(forced_csrk_policy(3, 3, 1, 2).launches[0]),
               invalid_parameter);
  EXPECT_THROW(kobalt::spmv(exec, csrk_handle(exec, a, forced_csrk_policy(3, 3, 1, 2)), V(1), a,
                            x, V(0), y),
               invalid_parameter);
  EXPECT_THROW(csrk_handle(exec, a, forced_csrk_policy(3, 0, 1, 1)), invalid_parameter);
  EXPECT_THROW(detail::check_csrk_shape(forced_csrk_policy(3, 0, 1, 1).launches[0]),
               invalid_parameter);
  // A valid shape; a handle runs it where the backend runs teams of 4 x 2
  // (GPUs, OpenMP) and refuses it, naming the limit, where it does not.
  if (arch::cached_team_limits(exec).team_size_for(2) >= 4)
    EXPECT_NO_THROW(csrk_handle(exec, a, forced_csrk_policy(3, 4, 2, 2)));
  else
    EXPECT_THROW(csrk_handle(exec, a, forced_csrk_policy(3, 4, 2, 2)), invalid_parameter);
  EXPECT_NO_THROW(detail::check_csrk_shape(forced_csrk_policy(3, 4, 2, 2).launches[0]));
  EXPECT_NO_THROW(kobalt::spmv(exec, csrk_handle(exec, a, forced_csrk_policy(3, 1, 1, 1)), V(1),
                               a, x, V(0), y));
  auto yh = host_vector(y);
  for (int i = 0; i < 9; ++i) EXPECT_EQ(yh[i], static_cast<V>(fig1_row_sums[i])) << i;
  Kokkos::deep_copy(y, V(-1));
  EXPECT_NO_THROW(kobalt::spmv(exec, make_handle(exec, a), V(1), a, x, V(0), y));
  yh = host_vector(y);
  for (int i = 0; i < 9; ++i) EXPECT_EQ(yh[i], static_cast<V>(fig1_row_sums[i])) << i;
}

}  // namespace
}  // namespace kobalt::test
