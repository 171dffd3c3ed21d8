// SPDX-License-Identifier: BSD-3-Clause
// Rank-2 x and y in LayoutRight (row-major: the K values of a row side by
// side), alone and mixed with LayoutLeft: every format and strategy through
// a handle, modes T and H, the automatic handle and the handle-free entry
// match the sequential reference with 1, 3, 9 and 17 right-hand sides. On
// GPUs a skewed matrix that stages a LayoutLeft x row-major reads a
// LayoutRight x as it is, with no copy (plan/spmv.hpp).
#include "fixtures/every_format.hpp"
#include "fixtures/new_values.hpp"
#include "fixtures/profiles.hpp"
#include "fixtures/row_lengths.hpp"
#include "fixtures/spmv_check.hpp"
#include "fixtures/types.hpp"

#include <kobalt/kobalt.hpp>

#include <string>
#include <type_traits>
#include <vector>

namespace kobalt::test {
namespace {

using exec_type = Kokkos::DefaultExecutionSpace;
using Left = Kokkos::LayoutLeft;
using Right = Kokkos::LayoutRight;

template <class T>
class Layouts : public ::testing::Test {};
TYPED_TEST_SUITE(Layouts, sliced<ValueIndexTypes>, TypeNames);

/// beta == 0 (y poisoned with NaN) and a general beta, over one, two and
/// three column blocks of rhs_block = 8.
std::vector<SpmvCase> rank2_cases() {
  return {{1.25, 0.0, 1}, {0.5, -1.0, 3}, {2.0, 1.0, 9}, {-1.5, 0.0, 17}};
}

/// The edge matrices that reach every kernel's corner (empty rows, long
/// rows, rectangular shapes) without the whole set: rank-2 applies
/// instantiate every kernel once more per layout.
template <class V, class I>
std::vector<NamedMatrix<V, I>> layout_matrices() {
  std::vector<NamedMatrix<V, I>> out;
  for (auto& m : edge_matrices<V, I>())
    if (m.name.find("unsorted") == std::string::npos) out.push_back(std::move(m));
  return out;
}

TYPED_TEST(Layouts, EveryFormatAndStrategyThroughAHandle) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  const exec_type exec;
  for (const auto& m : layout_matrices<V, I>()) {
    for_every_format_and_strategy(
        make_csr(m.matrix), [&](const auto& a, auto strategy, const std::string& variant) {
          using M = std::decay_t<decltype(a)>;
          const auto h = make_handle(exec, a, strategy_of<M>{strategy});
          for (const auto& c : rank2_cases())
            expect_handle_case<V, Right, Right>(exec, h, a, m.matrix, c,
                                                m.name + " " + variant + " right/right");
        });
  }
}

TYPED_TEST(Layouts, MixedLayoutsAndTheEntryWithoutHandle) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  const exec_type exec;
  for (const auto& m : layout_matrices<V, I>()) {
    const auto a = make_csr(m.matrix);
    const auto h = make_handle(exec, a);
    for (const auto& c : rank2_cases()) {
      expect_handle_case<V, Right, Left>(exec, h, a, m.matrix, c, m.name + " right/left");
      expect_handle_case<V, Left, Right>(exec, h, a, m.matrix, c, m.name + " left/right");
      expect_apply_case<V, typename Csr<V, I>::device_type, Right, Right>(
          m.matrix, c, m.name + " no handle",
          [&](V alpha, const auto& x, V beta, const auto& y) { spmv(exec, alpha, a, x, beta, y); });
    }
  }
}

/// Modes T and H through the handle's copy of op(A) and the automatic
/// handle in the converted formats it picks under converting_profile.
TYPED_TEST(Layouts, ModesAndTheAutomaticHandle) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  const exec_type exec;
  for (const auto& m : layout_matrices<V, I>()) {
    const auto a = make_csr(m.matrix);
    const auto h = make_handle(exec, a);
    const Triplets<V, I> at = transposed(m.matrix);
    AutoHandle<Csr<V, I>, exec_type> ah(exec, a, automatic{1}, converting_profile());
    for (const auto& c : rank2_cases()) {
      for (const char* mode : {"T", "H"})
        expect_apply_case<V, typename Csr<V, I>::device_type, Right, Right>(
            at, c, m.name + " mode " + mode, [&](V alpha, const auto& x, V beta, const auto& y) {
              spmv(exec, h, mode, alpha, a, x, beta, y);
            });
      expect_apply_case<V, typename Csr<V, I>::device_type, Right, Right>(
          m.matrix, c, m.name + " " + ah.summary(),
          [&](V alpha, const auto& x, V beta, const auto& y) {
            spmv(exec, ah, alpha, a, x, beta, y);
          });
    }
  }
}

/// A skewed matrix that stages a LayoutLeft x row-major on GPUs when the L2
/// size is unknown (handle_test's RowMajorCopyOfXOnGpus): a LayoutRight x
/// is not copied.
TYPED_TEST(Layouts, RowMajorXIsNotCopiedAgain) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  const exec_type exec;
  const auto t = skewed_short_and_wide<V, I>(300);
  auto profile = tuning::profile_of(exec);
  profile.l2_bytes = 0;
  const auto a = make_csr(t);
  const SpmvHandle<Csr<V, I>, exec_type> h(exec, a, csr::automatic{}, profile);
  const bool gpu = detail::may_stage_x_rows<exec_type> && profile.gpu;
  EXPECT_EQ(h.stages_x_rows(17, sizeof(V)), gpu);
  expect_handle_case<V, Right, Right>(exec, h, a, t, SpmvCase{-0.5, 0.0, 17}, "right/right");
  EXPECT_EQ(h.x_rows_bytes(), 0u);
  expect_handle_case<V, Left, Right>(exec, h, a, t, SpmvCase{-0.5, 0.0, 17}, "left/right");
  EXPECT_EQ(h.x_rows_bytes(), gpu ? 20 * 17 * sizeof(V) : 0u);
}

}  // namespace
}  // namespace kobalt::test
