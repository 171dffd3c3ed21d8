// SPDX-License-Identifier: BSD-3-Clause
// The handles' value contract (plan/handle.hpp, plan/auto_handle.hpp): what
// a handle copies at setup is a snapshot (the old product until
// update_values, tested, not assumed), update_values refreshes every copy
// (converted formats, op(A) of the modes T and H) in place or from values in
// other storage, a matrix of another structure is refused, handles move
// but do not copy, and an empty handle is a clear error.
#include "fixtures/csrk_cases.hpp"
#include "fixtures/edge_matrices.hpp"
#include "fixtures/every_format.hpp"
#include "fixtures/new_values.hpp"
#include "fixtures/profiles.hpp"
#include "fixtures/spmv_check.hpp"
#include "fixtures/types.hpp"

#include <kobalt/kobalt.hpp>

#include <string>
#include <type_traits>

namespace kobalt::test {
namespace {

using exec_type = Kokkos::DefaultExecutionSpace;

static_assert(!std::is_copy_constructible_v<SpmvHandle<Csr<double, int>, exec_type>>);
static_assert(!std::is_copy_assignable_v<SpmvHandle<Csr<double, int>, exec_type>>);
static_assert(std::is_nothrow_move_constructible_v<SpmvHandle<Csr<double, int>, exec_type>>);
static_assert(!std::is_copy_constructible_v<AutoHandle<Csr<double, int>, exec_type>>);
static_assert(std::is_move_constructible_v<AutoHandle<Csr<double, int>, exec_type>>);

/// Every case of the reference for `t` through apply(alpha, x, beta, y).
template <class V, class I, class Apply>
void expect_product_of(const Triplets<V, I>& t, const std::string& what, Apply&& apply) {
  for (const auto& c : cases_for<V>())
    expect_apply_case<V, typename Csr<V, I>::device_type>(t, c, what, apply);
}

template <class T>
class UpdateValues : public ::testing::Test {};
TYPED_TEST_SUITE(UpdateValues, sliced<ValueIndexTypes>, TypeNames);

// The automatic handle in every format it can choose: a converted copy keeps
// the setup values until update_values; the Csr kept as it is sees new
// values at once. Mode T's copy follows the same contract.
TYPED_TEST(UpdateValues, AutomaticHandleInEveryChoice) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  const exec_type exec;
  for (const auto& m : edge_matrices<V, I>()) {
    Triplets<V, I> t = m.matrix;
    t.assemble();
    for (const auto& [profile, applies] :
         {std::pair{converting_profile(), std::int64_t{1}},
          std::pair{converting_profile(), std::int64_t{1000000000}},
          std::pair{sellp_profile(), std::int64_t{1000000000}},
          std::pair{aligned_coo_profile(), std::int64_t{1000000000}},
          std::pair{coo_profile(), std::int64_t{1000000000}}}) {
      const auto w = writable_csr(t);
      AutoHandle<Csr<V, I>, exec_type> h(exec, w.matrix, automatic{applies}, profile);
      const std::string what = m.name + " " + h.summary();
      const auto n = [&](V alpha, const auto& x, V beta, const auto& y) {
        spmv(exec, h, alpha, w.matrix, x, beta, y);
      };
      const auto tr = [&](V alpha, const auto& x, V beta, const auto& y) {
        spmv(exec, h, "T", alpha, w.matrix, x, beta, y);
      };
      expect_product_of(t, what, n);
      expect_product_of(transposed(t), what + " T", tr);
      const bool converted = h.converted_bytes() > 0;
      EXPECT_EQ(h.holds_value_copy(), true) << what;  // mode T's copy at least
      EXPECT_NE(h.describe().find(converted ? "holds a copy of the Csr's values"
                                            : "the Csr is applied as it is"),
                std::string::npos)
          << h.describe();
      const auto t2 = change_values(w);
      if (t.val.empty()) continue;
      // Snapshots until update_values: the old product, not a mixture.
      expect_product_of(converted ? t : t2, what + " before update_values", n);
      expect_product_of(transposed(t), what + " T before update_values", tr);
      h.update_values(exec);
      expect_product_of(t2, what + " after update_values", n);
      expect_product_of(transposed(t2), what + " T after update_values", tr);
    }
  }
}

// Values in other storage: update_values(exec, a) switches the handle to
// them; the old matrix is then refused (its values are not the handle's).
TYPED_TEST(UpdateValues, AutomaticHandleTakesValuesInOtherStorage) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  const exec_type exec;
  for (const auto& m : edge_matrices<V, I>()) {
    Triplets<V, I> t = m.matrix;
    t.assemble();
    if (t.val.empty()) continue;
    for (const auto& profile : {converting_profile(), tuning::profile_of(exec)}) {
      const auto w = writable_csr(t);
      AutoHandle<Csr<V, I>, exec_type> h(exec, w.matrix, automatic{1000000000}, profile);
      const auto w2 = writable_csr(t);
      const auto t2 = change_values(w2);
      const Csr<V, I> other(exec, w.matrix.rows(), w.matrix.cols(), w.matrix.row_ptr(),
                            w.matrix.col_indices(), w2.values);
      const std::string what = m.name + " " + h.summary();
      Kokkos::View<V*> x("x", static_cast<std::size_t>(t.cols)), y("y", static_cast<std::size_t>(t.rows));
      EXPECT_THROW(spmv(exec, h, V(1), other, x, V(0), y), invalid_parameter) << what;
      h.update_values(exec, other);
      expect_product_of(t2, what, [&](V alpha, const auto& xs, V beta, const auto& ys) {
        spmv(exec, h, alpha, other, xs, beta, ys);
      });
      EXPECT_THROW(spmv(exec, h, V(1), w.matrix, x, V(0), y), invalid_parameter) << what;
      // Another structure is another matrix, for the apply and for the refresh.
      EXPECT_THROW(h.update_values(exec, w2.matrix), invalid_parameter) << what;
    }
  }
}

// A Csr handle in mode T (the reproduction): op(A) is a snapshot
// taken at the first such apply, mode N reads the new values at once, and
// update_values(exec) refreshes the copy in place.
TYPED_TEST(UpdateValues, CsrHandleTransposedCopyInPlace) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  const exec_type exec;
  for (const auto& m : edge_matrices<V, I>()) {
    Triplets<V, I> t = m.matrix;
    t.assemble();
    if (t.val.empty()) continue;
    const auto w = writable_csr(t);
    for (const csr::strategy s : {csr::strategy(csr::classical{}), csr::strategy(csr::merge_path{})}) {
      auto h = make_handle(exec, w.matrix, s);
      const std::string what = m.name + " " + h.summary();
      const auto n = [&](V al, const auto& x, V be, const auto& y) { spmv(exec, h, al, w.matrix, x, be, y); };
      const auto tr = [&](V al, const auto& x, V be, const auto& y) {
        spmv(exec, h, "T", al, w.matrix, x, be, y);
      };
      const auto before = to_triplets(w.matrix);
      expect_product_of(transposed(before), what + " T", tr);
      const auto after = change_values(w);
      expect_product_of(after, what + " N sees new values", n);
      expect_product_of(transposed(before), what + " T is a snapshot", tr);
      EXPECT_NE(h.describe().find("values as of its setup or the last update_values"),
                std::string::npos)
          << h.describe();
      h.update_values(exec);
      expect_product_of(transposed(after), what + " T after update_values", tr);
    }
  }
}

// Every format's handle in mode T: op(A) is a snapshot; update_values(exec,
// a2) with a2 the same structure over new values in other storage
// refreshes it, and mode N then applies a2.
TYPED_TEST(UpdateValues, EveryFormatsTransposedCopyFromOtherStorage) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  using D = typename Csr<V, I>::device_type;
  const exec_type exec;
  // f(0) = 0: padding stays padding, explicit zeros stay zeros.
  const auto f = [](V v) { return v * (v - V(2)); };
  for (const auto& m : edge_matrices<V, I>()) {
    Triplets<V, I> t = m.matrix;
    t.assemble();
    if (t.val.empty()) continue;
    Triplets<V, I> t2 = t;
    for (auto& v : t2.val) v = f(v);
    for_every_format(make_csr(t), [&](const auto& a, const std::string& format) {
      using M = std::decay_t<decltype(a)>;
      auto h = make_handle(exec, a);
      const std::string what = m.name + " " + format;
      EXPECT_FALSE(h.holds_value_copy()) << what;
      h.update_values(exec);  // nothing to refresh: a no-op
      const auto tr = [&](const M& b) {
        return [&h, &b, &exec](V al, const auto& x, V be, const auto& y) {
          spmv(exec, h, "T", al, b, x, be, y);
        };
      };
      expect_product_of(transposed(t), what + " T", tr(a));
      EXPECT_TRUE(h.holds_value_copy()) << what;
      const auto arrays = detail::value_arrays(a);
      std::array<detail::values_of<V, D>, detail::value_array_count<M>> fresh;
      for (std::size_t i = 0; i < fresh.size(); ++i) {
        auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), arrays[i]);
        Kokkos::View<V*, Kokkos::HostSpace> next("next", host.extent(0));
        for (std::size_t k = 0; k < host.extent(0); ++k) next(k) = f(host(k));
        fresh[i] = detail::values_of<V, D>("fresh", arrays[i].extent(0));
        Kokkos::deep_copy(fresh[i], next);
      }
      const M a2 = detail::with_values<V>(exec, a, fresh);
      Kokkos::View<V*> x("x", static_cast<std::size_t>(t.rows)), y("y", static_cast<std::size_t>(t.cols));
      EXPECT_THROW(spmv(exec, h, "T", V(1), a2, x, V(0), y), invalid_parameter) << what;
      h.update_values(exec, a2);
      expect_product_of(transposed(t2), what + " T after update_values", tr(a2));
      expect_product_of(t2, what + " N after update_values",
                        [&](V al, const auto& xs, V be, const auto& ys) { spmv(exec, h, al, a2, xs, be, ys); });
      EXPECT_THROW(spmv(exec, h, "T", V(1), a, x, V(0), y), invalid_parameter) << what;
    });
  }
}

#if KOBALT_TEST_FIRST_SLICE
// A Csr over another row pointer and columns but the handle's values
// storage is another matrix: refused, by the apply and by the refresh.
TEST(HandleMatrix, OtherStructureOverTheSameValuesIsRefused) {
  using V = double;
  using I = std::int32_t;
  const exec_type exec;
  const auto a1 = make_csr(edge_matrix<V, I>("diagonal_65"));
  // The same nonzero count in another pattern: every entry one column right.
  Triplets<V, I> shifted = edge_matrix<V, I>("diagonal_65");
  for (auto& c : shifted.col) c = (c + 1) % shifted.cols;
  shifted.assemble();
  const auto b = make_csr(shifted);
  const Csr<V, I> other(exec, a1.rows(), a1.cols(), b.row_ptr(), b.col_indices(), a1.values());
  Kokkos::View<V*> x("x", 65), y("y", 65);
  auto h = make_handle(exec, a1);
  EXPECT_THROW(spmv(exec, h, V(1), other, x, V(0), y), invalid_parameter);
  EXPECT_THROW(spmv(exec, h, "T", V(1), other, x, V(0), y), invalid_parameter);
  EXPECT_THROW(h.update_values(exec, other), invalid_parameter);
  auto ah = make_handle(exec, a1, automatic{});
  EXPECT_THROW(spmv(exec, ah, V(1), other, x, V(0), y), invalid_parameter);
  EXPECT_THROW(ah.update_values(exec, other), invalid_parameter);
}

// Solver classes hold a handle before they see the matrix: an empty handle
// exists, says so, and applying or refreshing it is an invalid_parameter;
// a moved-from handle is empty, the moved-to one works.
TEST(HandleMatrix, EmptyAndMovedFromHandles) {
  using V = double;
  using I = std::int32_t;
  const exec_type exec;
  const auto t = edge_matrix<V, I>("diagonal_65");
  const auto a = make_csr(t);
  Kokkos::View<V*> x("x", 65), y("y", 65);
  SpmvHandle<Csr<V, I>, exec_type> empty;
  EXPECT_TRUE(empty.empty());
  EXPECT_NE(empty.describe().find("empty"), std::string::npos);
  EXPECT_THROW(spmv(exec, empty, V(1), a, x, V(0), y), invalid_parameter);
  EXPECT_THROW(spmv(exec, empty, "T", V(1), a, x, V(0), y), invalid_parameter);
  EXPECT_THROW(empty.update_values(exec), invalid_parameter);
  AutoHandle<Csr<V, I>, exec_type> empty_auto;
  EXPECT_TRUE(empty_auto.empty());
  EXPECT_THROW(spmv(exec, empty_auto, V(1), a, x, V(0), y), invalid_parameter);
  EXPECT_THROW(empty_auto.update_values(exec), invalid_parameter);

  auto h = make_handle(exec, a, csr::merge_path{});
  empty = std::move(h);
  EXPECT_TRUE(h.empty());  // NOLINT(bugprone-use-after-move): the contract under test
  EXPECT_FALSE(empty.empty());
  EXPECT_THROW(spmv(exec, h, V(1), a, x, V(0), y), invalid_parameter);
  expect_product_of(t, "moved-to handle", [&](V al, const auto& xs, V be, const auto& ys) {
    spmv(exec, empty, al, a, xs, be, ys);
  });
  auto ah = make_handle(exec, a, automatic{});
  empty_auto = std::move(ah);
  EXPECT_TRUE(ah.empty());  // NOLINT(bugprone-use-after-move)
  expect_product_of(t, "moved-to automatic handle", [&](V al, const auto& xs, V be, const auto& ys) {
    spmv(exec, empty_auto, al, a, xs, be, ys);
  });
}

// Two handles of one matrix, each with its own workspace (merge_path's
// tiles, load_balance's chunks), applied at once on two instances: what a
// copy of one handle shared before handles became move-only.
TEST(HandleMatrix, TwoHandlesWithWorkspaceOnTwoInstances) {
  using V = double;
  using I = std::int32_t;
  const auto instances = compat::partition_in_two(exec_type());
  for (const std::string name : {"one_dense_row_101", "odd_rows_33x47_long", "diagonal_65"}) {
    const auto t = edge_matrix<V, I>(name);
    const auto a = make_csr(t);
    for (const csr::strategy s : {csr::strategy(csr::merge_path{}), csr::strategy(csr::load_balance{})}) {
      const auto h0 = make_handle(instances[0], a, s);
      const auto h1 = make_handle(instances[1], a, s);
      ASSERT_GT(h0.workspace_bytes(), 0u) << name;
      const auto c = SpmvCase{1.0, 0.0, 0};
      const auto v0 = case_vectors<V, Csr<V, I>::device_type>(t, c);
      const auto v1 = case_vectors<V, Csr<V, I>::device_type>(t, c);
      for (int round = 0; round < 4; ++round) {
        spmv(instances[0], h0, V(1), a, Kokkos::subview(v0.x, Kokkos::ALL, 0), V(0),
             Kokkos::subview(v0.y, Kokkos::ALL, 0));
        spmv(instances[1], h1, V(1), a, Kokkos::subview(v1.x, Kokkos::ALL, 0), V(0),
             Kokkos::subview(v1.y, Kokkos::ALL, 0));
      }
      instances[0].fence();
      instances[1].fence();
      const auto ref = reference_spmv(t, 1.0, v0.xs[0], 0.0, v0.ys[0]);
      for (const auto* v : {&v0, &v1}) {
        const auto yh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v->y);
        for (std::size_t i = 0; i < ref.y.size(); ++i)
          ASSERT_NEAR(yh(i, 0), ref.y[i], ref.template tolerance<V>(i)) << name << " row " << i;
      }
    }
  }
}
#endif  // KOBALT_TEST_FIRST_SLICE

}  // namespace
}  // namespace kobalt::test
