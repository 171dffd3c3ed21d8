// SPDX-License-Identifier: BSD-3-Clause
// kobalt::reproducible (tuning/reproducible.hpp, plan/handle.hpp): handles
// whose applies give the same bits on every run. For every format on every
// edge matrix: the reproducible handle matches the reference, says it is
// reproducible, and five applies give the bits of the first (on GPUs and
// OpenMP, where atomics would reorder the sums). Plus the choices it makes
// (the fixed-order strategy of each format, one part per ELL row on a GPU
// profile) and the refusal of a strategy that adds with atomics.
#include "fixtures/profiles.hpp"
#include "fixtures/spmv_check.hpp"
#include "fixtures/types.hpp"

#include <kobalt/kobalt.hpp>

#include <cstring>
#include <string>
#include <type_traits>

namespace kobalt::test {
namespace {

using exec_type = Kokkos::DefaultExecutionSpace;

template <class T>
class Reproducible : public ::testing::Test {};
TYPED_TEST_SUITE(Reproducible, ValueIndexTypes, TypeNames);

/// Five applies of y = A*x (x random) through `h` give the bits of the first.
template <class Matrix, class Value, class Index>
void expect_same_bits_every_apply(const SpmvHandle<Matrix, exec_type>& h, const Matrix& a,
                                  const Triplets<Value, Index>& t, const std::string& what) {
  const exec_type exec;
  Kokkos::View<Value*> x("x", t.cols), y0("y0", t.rows), y1("y1", t.rows);
  auto xh = Kokkos::create_mirror_view(x);
  Lcg rng(3);
  for (Index j = 0; j < t.cols; ++j) xh(j) = static_cast<Value>(rng.uniform() - 0.5);
  Kokkos::deep_copy(x, xh);
  spmv(exec, h, Value(1), a, x, Value(0), y0);
  const auto first = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y0);
  for (int repeat = 0; repeat < 5; ++repeat) {
    spmv(exec, h, Value(1), a, x, Value(0), y1);
    const auto again = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y1);
    ASSERT_EQ(std::memcmp(first.data(), again.data(), t.rows * sizeof(Value)), 0)
        << what << ": apply " << repeat + 2 << " changed the bits of y";
  }
}

/// A reproducible handle of `a`: reproducible(), right, and the same bits.
template <class Matrix, class Value, class Index>
void expect_reproducible(const Matrix& a, const Triplets<Value, Index>& t,
                         const std::string& what) {
  const exec_type exec;
  const auto h = make_handle(exec, a, kobalt::reproducible);
  EXPECT_TRUE(h.reproducible()) << what << ": " << h.describe();
  EXPECT_NE(h.describe().find("summation: fixed order"), std::string::npos) << what;
  expect_handle_matches_reference(exec, h, a, t, what + " (reproducible)");
  expect_same_bits_every_apply(h, a, t, what);
}

TYPED_TEST(Reproducible, EveryFormatOnEveryEdgeMatrix) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  for (const auto& m : edge_matrices<V, I>()) {
    Triplets<V, I> t = m.matrix;
    t.assemble();
    const auto csr = make_csr(t);
    expect_reproducible(csr, t, m.name + " csr");
    expect_reproducible(to_coo(csr), t, m.name + " coo");
    expect_reproducible(to_ell(csr), t, m.name + " ell");
    expect_reproducible(to_sellp(csr), t, m.name + " sellp");
    expect_reproducible(to_csrk(csr), t, m.name + " csrk");
    for (const hybrid::partition& p :
         {hybrid::partition{hybrid::automatic{}}, hybrid::partition{hybrid::column_limit{0}},
          hybrid::partition{hybrid::column_limit{1}}})
      expect_reproducible(to_hybrid(csr, p), t, m.name + " hybrid " + hybrid::describe(p));
    for (const auto s : {aligned_coo::split::automatic, aligned_coo::split::all_seg,
                         aligned_coo::split::all_flat}) {
      aligned_coo::params p;
      p.choice = s;
      expect_reproducible(to_aligned_coo(csr, p), t,
                          m.name + " aligned_coo " + aligned_coo::name(s));
    }
  }
}

/// A matrix with rows of every length up to 300 and some empty ones.
Triplets<double, int> mixed_rows() {
  Triplets<double, int> t;
  t.rows = 400;
  t.cols = 400;
  Lcg rng(9);
  for (int i = 0; i < t.rows; ++i)
    for (int j = 0; j < (i % 7 == 0 ? i % 300 : i % 5); ++j)
      t.push_back(i, (i + 3 * j) % t.cols, rng.uniform() - 0.5);
  t.assemble();
  return t;
}

TEST(ReproducibleChoice, FixedOrderStrategyOfEachFormat) {
  const exec_type exec;
  const auto t = mixed_rows();
  const auto csr = make_csr(t);
  EXPECT_TRUE(std::holds_alternative<coo::load_balance>(
      make_handle(exec, to_coo(csr), kobalt::reproducible).strategy()));
  EXPECT_TRUE(std::holds_alternative<hybrid::ell_then_load_balance>(
      make_handle(exec, to_hybrid(csr), kobalt::reproducible).strategy()));
  EXPECT_TRUE(std::holds_alternative<aligned_coo::flat_then_seg>(
      make_handle(exec, to_aligned_coo(csr), kobalt::reproducible).strategy()));
  // The defaults these replace add with atomics, and their handles say so.
  for (const bool r : {make_handle(exec, to_coo(csr)).reproducible(),
                       make_handle(exec, to_hybrid(csr)).reproducible(),
                       make_handle(exec, to_aligned_coo(csr)).reproducible()})
    EXPECT_FALSE(r);
  // CSR keeps automatic's pick: every CSR kernel adds in a fixed order.
  const auto plain = make_handle(exec, csr);
  const auto fixed = make_handle(exec, csr, kobalt::reproducible);
  EXPECT_EQ(strategy_name(plain.strategy()), strategy_name(fixed.strategy()));
  EXPECT_TRUE(plain.reproducible());
  // A fixed-order strategy asked for by name is kept.
  const auto lb = make_handle(exec, to_coo(csr), coo::strategy{coo::load_balance{}},
                              kobalt::reproducible);
  EXPECT_TRUE(std::holds_alternative<coo::load_balance>(lb.strategy()));
}

TEST(ReproducibleChoice, AtomicStrategiesAreRefusedWithTheAlternative) {
  const exec_type exec;
  const auto csr = make_csr(mixed_rows());
  const auto refused = [&](const auto& a, const auto& strategy, const std::string& alternative) {
    try {
      (void)make_handle(exec, a, strategy, kobalt::reproducible);
      ADD_FAILURE() << strategy_name(strategy) << " accepted";
    } catch (const invalid_parameter& e) {
      EXPECT_NE(std::string(e.what()).find(alternative), std::string::npos) << e.what();
    }
  };
  refused(to_coo(csr), coo::strategy{coo::segmented{}}, "coo::load_balance");
  refused(to_hybrid(csr), hybrid::strategy{hybrid::ell_then_coo{}},
          "hybrid::ell_then_load_balance");
  refused(to_aligned_coo(csr), aligned_coo::strategy{aligned_coo::seg_then_flat{}},
          "aligned_coo::flat_then_seg");
}

// 000 Alg. 4 on a GPU: rows few and wide (width / rows > 1e-2, a full warp
// per row) get several warps per row, which add with atomics; reproducible
// keeps one. Checked on the fake GPU profile (no apply: the launch shapes
// are a GPU's).
TEST(ReproducibleChoice, OnePartPerEllRowOnGpus) {
  Triplets<double, int> t;
  t.rows = 8;
  t.cols = 4096;
  for (int i = 0; i < t.rows; ++i)
    for (int j = 0; j < 4096; ++j) t.push_back(i, j, 1.0);
  t.assemble();
  const exec_type exec;
  const auto ell = to_ell(make_csr(t));
  const auto gpu = fake_gpu_profile();
  const ell::strategy rows{ell::rows{}};
  const SpmvHandle<std::decay_t<decltype(ell)>, exec_type> plain(exec, ell, rows, gpu);
  ASSERT_GT(plain.policy().launches.at(0).row_parts, 1) << plain.describe();
  EXPECT_FALSE(plain.reproducible());
  const SpmvHandle<std::decay_t<decltype(ell)>, exec_type> fixed(exec, ell, rows, gpu, kobalt::reproducible);
  EXPECT_EQ(fixed.policy().launches.at(0).row_parts, 1);
  EXPECT_TRUE(fixed.reproducible());
  EXPECT_NE(fixed.policy().rule.find("one part per row"), std::string::npos) << fixed.describe();
  // Hybrid's ELL part too.
  const auto hyb = to_hybrid(make_csr(t), hybrid::column_limit{4096});
  const SpmvHandle<std::decay_t<decltype(hyb)>, exec_type> hybrid_fixed(
      exec, hyb, tuning::reproducible_strategy<hybrid::strategy>(), gpu, kobalt::reproducible);
  EXPECT_EQ(hybrid_fixed.policy().launches.at(0).row_parts, 1);
}

}  // namespace
}  // namespace kobalt::test
