// SPDX-License-Identifier: BSD-3-Clause
// spmv with a mode ("N", "T", "C", "H"; formats/mode.hpp, plan/spmv.hpp):
// real values below, complex ones (where C and H conjugate) at the end.
// op(A) as a Csr (formats/convert_op.hpp) equals the transposed triplets
// entry for entry, and every format with every strategy applies A^T and
// A^H through a handle (op_handle, cached) and without one, against the
// reference on the transposed matrix. Real values: C is A and H is A^T.
#include "fixtures/every_format.hpp"
#include "fixtures/new_values.hpp"
#include "fixtures/scalars.hpp"
#include "fixtures/shared_matrices.hpp"
#include "fixtures/spmv_check.hpp"
#include "fixtures/types.hpp"

#include <kobalt/kobalt.hpp>

#include <string>

namespace kobalt::test {
namespace {

using exec_type = Kokkos::DefaultExecutionSpace;

template <class T>
class Modes : public ::testing::Test {};
TYPED_TEST_SUITE(Modes, sliced<ValueIndexTypes>, TypeNames);

TYPED_TEST(Modes, ParseModeTakesKokkosSparseSpellingsAndRefusesOthers) {
  EXPECT_EQ(parse_mode("N"), Mode::none);
  EXPECT_EQ(parse_mode("t"), Mode::transpose);
  EXPECT_EQ(parse_mode("C"), Mode::conjugate);
  EXPECT_EQ(parse_mode("H"), Mode::conjugate_transpose);
  for (const char* bad : {"", "X", "TT", "transpose"})
    EXPECT_THROW(parse_mode(bad), invalid_parameter) << bad;
  EXPECT_THROW(parse_mode(nullptr), invalid_parameter);
}

// to_csr(a, mode) from every format: A^T is the transposed matrix exactly
// (values bit for bit, explicit zeros kept, rows sorted), so building it
// twice gives the same arrays whatever order the atomics placed entries in.
TYPED_TEST(Modes, OpOfEveryFormatIsTheTransposedMatrixExactly) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  for (const auto& m : edge_matrices<V, I>()) {
    Triplets<V, I> t = m.matrix;
    t.assemble();
    const auto tt = transposed(t);
    const auto csr = make_csr(t);
    const auto check = [&](const auto& a, const std::string& what) {
      expect_same_triplets(tt, to_triplets(to_csr(a, Mode::transpose)), m.name + " " + what + " T");
      expect_same_triplets(tt, to_triplets(to_csr(a, Mode::conjugate_transpose)),
                           m.name + " " + what + " H");
      expect_same_triplets(t, to_triplets(to_csr(a, Mode::conjugate)), m.name + " " + what + " C");
      expect_same_triplets(t, to_triplets(to_csr(a, Mode::none)), m.name + " " + what + " N");
    };
    for_every_format(csr, check);
  }
}

// Every format and strategy, through a handle: T and H apply A^T, N and C
// apply A; the op(A) handle is built once and kept.
TYPED_TEST(Modes, EveryFormatAndStrategyAppliesEachModeThroughItsHandle) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  const exec_type exec;
  for (const auto& m : edge_matrices<V, I>()) {
    Triplets<V, I> t = m.matrix;
    t.assemble();
    const auto tt = transposed(t);
    for_every_format_and_strategy(make_csr(t), [&](const auto& a, const auto& strategy,
                                                   const std::string& what) {
      const auto h = make_handle(exec, a, strategy);
      for (const char* mode : {"T", "H", "N", "C"}) {
        const auto& expected = transposes(parse_mode(mode)) ? tt : t;
        for (const auto& c : spmv_cases())
          expect_apply_case<V, typename exec_type::device_type>(
              expected, c, m.name + " " + what + " mode " + mode,
              [&](V alpha, const auto& x, V beta, const auto& y) {
                kobalt::spmv(exec, h, mode, alpha, a, x, beta, y);
              });
      }
      const auto* first = &h.op_handle(exec, Mode::transpose);
      EXPECT_EQ(first, &h.op_handle(exec, Mode::transpose)) << what << ": rebuilt";
      // Real values: H is T, so it reuses T's copy.
      EXPECT_EQ(first, &h.op_handle(exec, Mode::conjugate_transpose)) << what;
      // The copy, its workspace and the map that refreshes its values (one
      // index per value slot of the copy: update_values).
      EXPECT_EQ(h.op_bytes(), first->matrix().bytes() + first->workspace_bytes() +
                                  static_cast<std::uint64_t>(first->matrix().nnz()) * sizeof(I))
          << what;
      EXPECT_NE(h.describe().find("mode T: Csr copy of"), std::string::npos) << h.describe();
      EXPECT_THROW(h.op_handle(exec, Mode::none), invalid_parameter) << what;
    });
  }
}

// Without a handle (op(A) built per call), on the default instance too.
TYPED_TEST(Modes, EveryFormatAppliesTheTransposeWithoutAHandle) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  for (const auto& m : edge_matrices<V, I>()) {
    Triplets<V, I> t = m.matrix;
    t.assemble();
    const auto tt = transposed(t);
    const auto csr = make_csr(t);
    const auto check = [&](const auto& a, const std::string& what) {
      for (const auto& c : spmv_cases()) {
        expect_apply_case<V, typename exec_type::device_type>(
            tt, c, m.name + " " + what + " T (exec)",
            [&](V alpha, const auto& x, V beta, const auto& y) {
              kobalt::spmv(exec_type(), "T", alpha, a, x, beta, y);
            });
        expect_apply_case<V, typename exec_type::device_type>(
            tt, c, m.name + " " + what + " H (default instance)",
            [&](V alpha, const auto& x, V beta, const auto& y) {
              kobalt::spmv("H", alpha, a, x, beta, y);
            });
      }
    };
    for_every_format(csr, check);
  }
}

// A reproducible handle keeps its promise in every mode.
TYPED_TEST(Modes, ReproducibleHandleAppliesTheTransposeInAFixedOrder) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  const exec_type exec;
  for (const auto& m : edge_matrices<V, I>()) {
    Triplets<V, I> t = m.matrix;
    t.assemble();
    const auto h = make_handle(exec, to_hybrid(make_csr(t)), kobalt::reproducible);
    EXPECT_TRUE(h.op_handle(exec, Mode::transpose).reproducible()) << m.name;
  }
}

// op(A)'s Csr runs the strategy a Csr handle was asked for, csr::automatic
// resolved again on op(A)'s own statistics, and automatic for the other
// formats (their strategies do not apply to a Csr).
TYPED_TEST(Modes, OpHandleRunsTheStrategyAskedFor) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  const exec_type exec;
  // One dense row: A has a long row, A^T has none (a different automatic pick
  // on GPUs, the same statistics nowhere).
  Triplets<V, I> t;
  t.rows = 40;
  t.cols = 2000;
  for (I j = 0; j < 2000; ++j) t.push_back(3, j, V(1));
  for (I i = 0; i < 40; ++i) t.push_back(i, i, V(2));
  t.assemble();
  const auto csr = make_csr(t);
  const auto profile = tuning::profile_of(exec);
  for (const csr::strategy& s : {csr::strategy{csr::basic{}}, csr::strategy{csr::classical{}},
                                 csr::strategy{csr::load_balance{}},
                                 csr::strategy{csr::merge_path{}}}) {
    const auto h = make_handle(exec, csr, s);
    EXPECT_EQ(strategy_name(h.op_handle(exec, Mode::transpose).strategy()), strategy_name(s));
  }
  const auto automatic = make_handle(exec, csr, csr::automatic{});
  const auto& op = automatic.op_handle(exec, Mode::transpose);
  EXPECT_EQ(op.stats().max_row_nnz, 2);
  // automatic's pick for A^T, from A^T's statistics (not A's).
  const std::string pick =
      strategy_name(tuning::resolve(op.stats(), profile, csr::strategy{csr::automatic{}}));
  EXPECT_EQ(strategy_name(op.strategy()), pick);
  const auto ell = make_handle(exec, to_ell(csr));
  EXPECT_EQ(strategy_name(ell.op_handle(exec, Mode::transpose).strategy()), pick);
}

// x and y must fit op(A): for a 3 x 5 matrix, mode T takes x of 3 rows and
// y of 5; the message names op(A) and the mode.
TYPED_TEST(Modes, ExtentsAreCheckedAgainstOpA) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  Triplets<V, I> t;
  t.rows = 3;
  t.cols = 5;
  t.push_back(0, 4, V(2));
  t.push_back(2, 1, V(-1));
  const auto a = make_csr(t);
  const exec_type exec;
  const auto h = make_handle(exec, a);
  Kokkos::View<V*> x3("x3", 3), x5("x5", 5), y3("y3", 3), y5("y5", 5);
  Kokkos::deep_copy(x3, V(1));
  EXPECT_NO_THROW(spmv(exec, h, "T", V(1), a, x3, V(0), y5));
  const auto y5h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y5);
  EXPECT_EQ(y5h(4), V(2));
  EXPECT_EQ(y5h(1), V(-1));
  try {
    spmv(exec, h, "T", V(1), a, x5, V(0), y3);
    ADD_FAILURE() << "x of A's column count accepted for mode T";
  } catch (const dimension_mismatch& e) {
    EXPECT_NE(std::string(e.what()).find("op(A) (mode T) is 5 x 3"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(spmv(exec, h, "Q", V(1), a, x3, V(0), y5), invalid_parameter);
  EXPECT_THROW(spmv("Q", V(1), a, x3, V(0), y5), invalid_parameter);
}

// Shared matrices through CSR and Hybrid, chosen for their columns: a dense
// column becomes a dense row of A^T (arrow: 46500 entries; rajat01,
// wiki-Vote: skewed, unsymmetric), rectangular (lp_e226 223 x 472,
// lp_ship04l), unsymmetric with long rows (mbeacxc). The larger set is left
// to the N-mode tests: the transpose adds no kernel of its own.
TYPED_TEST(Modes, TransposeMatchesTheReferenceOnSharedMatrices) {
  if (const std::string why = shared_matrices_unavailable(); !why.empty()) GTEST_SKIP() << why;
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  const exec_type exec;
  for (const std::string name :
       {"arrow", "rajat01", "wiki-Vote", "lp_e226", "lp_ship04l", "mbeacxc"}) {
    const auto& t = shared_matrix<V, I>(name);
    const auto tt = transposed(t);
    const auto csr = make_csr(t);
    const auto hybrid = to_hybrid(csr);
    const auto hc = make_handle(exec, csr);
    const auto hh = make_handle(exec, hybrid);
    const SpmvCase c{-0.75, 1.5, 0};
    expect_apply_case<V, typename exec_type::device_type>(
        tt, c, name + " csr T", [&](V alpha, const auto& x, V beta, const auto& y) {
          kobalt::spmv(exec, hc, "T", alpha, csr, x, beta, y);
        });
    expect_apply_case<V, typename exec_type::device_type>(
        tt, c, name + " hybrid T", [&](V alpha, const auto& x, V beta, const auto& y) {
          kobalt::spmv(exec, hh, "T", alpha, hybrid, x, beta, y);
        });
  }
}


/// op(A)'s triplets: transposed for T and H, conjugated for C and H.
template <class V, class I>
Triplets<V, I> op_triplets(const Triplets<V, I>& t, Mode mode) {
  Triplets<V, I> out = transposes(mode) ? transposed(t) : t;
  if (conjugates(mode))
    for (auto& v : out.val) v = conjugate(v);
  return out;
}

/// Complex values: every format and strategy through a handle in every mode
/// (C and H conjugate, T does not), and op(A) of every format exactly.
template <class V, class I>
void expect_complex_modes() {
  const exec_type exec;
  for (const auto& m : edge_matrices<real_type_t<V>, I>()) {
    Triplets<V, I> t = complex_copy(m.matrix);
    t.assemble();
    const auto csr = make_csr(t);
    for_every_format(csr, [&](const auto& a, const std::string& what) {
      for (const Mode mode : {Mode::transpose, Mode::conjugate, Mode::conjugate_transpose})
        expect_same_triplets(op_triplets(t, mode), to_triplets(to_csr(a, mode)),
                             m.name + " " + what + " " + mode_name(mode));
    });
    for_every_format_and_strategy(csr, [&](const auto& a, const auto& strategy,
                                           const std::string& what) {
      const auto h = make_handle(exec, a, strategy);
      for (const char* mode : {"T", "H", "C", "N"}) {
        const auto expected = op_triplets(t, parse_mode(mode));
        for (const auto& c : cases_for<V>())
          expect_apply_case<V, typename exec_type::device_type>(
              expected, c, m.name + " " + what + " mode " + mode,
              [&](V alpha, const auto& x, V beta, const auto& y) {
                kobalt::spmv(exec, h, mode, alpha, a, x, beta, y);
              });
      }
      // T and H are different matrices for complex values: two copies.
      EXPECT_NE(&h.op_handle(exec, Mode::transpose),
                &h.op_handle(exec, Mode::conjugate_transpose)) << what;
    });
  }
}

#if KOBALT_TEST_FIRST_SLICE
TEST(ModesComplex, EveryFormatConjugatesInModesCAndH) {
  expect_complex_modes<Kokkos::complex<double>, std::int32_t>();
  expect_complex_modes<Kokkos::complex<float>, std::int64_t>();
}
#endif

}  // namespace
}  // namespace kobalt::test
