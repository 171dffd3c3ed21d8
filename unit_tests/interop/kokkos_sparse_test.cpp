// SPDX-License-Identifier: BSD-3-Clause
// Zero-copy KokkosSparse interop (issue 18 item 1, src/interop/kokkos_sparse.hpp):
// from_kokkos_crs and to_kokkos_crs share the arrays (pointer equality, and
// a write through one side shows in the other's product), and a wrapped
// KokkosSparse matrix, converted to every Kobalt format and run with every
// strategy, plain and through a handle, gives KokkosSparse::spmv's result
// within twice the derived tolerance (both are within it of the exact
// product: fixtures/spmv_check.hpp). Typed over float/double and the offset
// types applications use: int32 and int64 offsets with int32 columns
// (> 2^31 nonzeros without 64-bit columns), size_t (KokkosSparse's default)
// with int32 and int64 columns.
#include "fixtures/every_format.hpp"
#include "fixtures/host_device.hpp"
#include "fixtures/padded_example.hpp"
#include "fixtures/shared_matrices.hpp"
#include "fixtures/spmv_check.hpp"
#include "fixtures/types.hpp"

#include <kobalt/interop/kokkos_sparse.hpp>

#include <KokkosSparse_CrsMatrix.hpp>
#include <KokkosSparse_spmv.hpp>

#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace kobalt::test {
namespace {

template <class V, class I, class O>
struct InteropTypes {
  using value_type = V;
  using index_type = I;
  using offset_type = O;
};

using InteropTypeList = ::testing::Types<
    InteropTypes<float, std::int32_t, std::int32_t>,
    InteropTypes<float, std::int32_t, std::int64_t>,
    InteropTypes<float, std::int32_t, std::size_t>, InteropTypes<float, std::int64_t, std::size_t>,
    InteropTypes<double, std::int32_t, std::int32_t>,
    InteropTypes<double, std::int32_t, std::int64_t>,
    InteropTypes<double, std::int32_t, std::size_t>,
    InteropTypes<double, std::int64_t, std::size_t>>;

struct InteropNames {
  template <class T>
  static std::string GetName(int) {
    using O = typename T::offset_type;
    const std::string v = std::is_same_v<typename T::value_type, float> ? "float" : "double";
    const std::string i = sizeof(typename T::index_type) == 4 ? "int32" : "int64";
    const std::string o = std::is_same_v<O, std::size_t> ? "size_t"
                          : sizeof(O) == 4                ? "int32"
                                                          : "int64";
    return v + "_" + i + "_offsets_" + o;
  }
};

/// values(k) *= factor on the device (a free function: CUDA forbids extended
/// lambdas in a test body, a private member of its test class).
template <class ValueView, class Value>
void scale_on_device(const ValueView& values, Value factor) {
  Kokkos::parallel_for(
      "scale", Kokkos::RangePolicy<Kokkos::DefaultExecutionSpace>(0, values.extent(0)),
      KOKKOS_LAMBDA(const std::size_t k) { values(k) *= factor; });
}

template <class T>
class KokkosSparseInterop : public ::testing::Test {};
TYPED_TEST_SUITE(KokkosSparseInterop, sliced<InteropTypeList>, InteropNames);

using device = default_device;
template <class V, class I, class O>
using kokkos_crs = KokkosSparse::CrsMatrix<V, I, device, void, O>;

/// A KokkosSparse matrix of the triplets, built from its own arrays as an
/// application would (row map counted on the host).
template <class O, class V, class I>
kokkos_crs<V, I, O> make_kokkos_crs(const Triplets<V, I>& input) {
  using matrix = kokkos_crs<V, I, O>;
  Triplets<V, I> t = input;
  t.assemble();  // sorted by row, then column
  const auto nnz = static_cast<std::size_t>(t.nnz());
  Kokkos::View<O*, device> row_map("kk::row_map", static_cast<std::size_t>(t.rows) + 1);
  Kokkos::View<I*, device> entries("kk::entries", nnz);
  Kokkos::View<V*, device> values("kk::values", nnz);
  auto rh = Kokkos::create_mirror_view(row_map);
  auto ch = Kokkos::create_mirror_view(entries);
  auto vh = Kokkos::create_mirror_view(values);
  for (std::size_t k = 0; k < nnz; ++k) {
    ++rh(static_cast<std::size_t>(t.row[k]) + 1);
    ch(k) = t.col[k];
    vh(k) = t.val[k];
  }
  for (std::size_t i = 0; i < static_cast<std::size_t>(t.rows); ++i) rh(i + 1) += rh(i);
  Kokkos::deep_copy(row_map, rh);
  Kokkos::deep_copy(entries, ch);
  Kokkos::deep_copy(values, vh);
  return matrix("kk", t.rows, t.cols, static_cast<O>(nnz), values, row_map, entries);
}

/// One case: apply(alpha, x, beta, y) against KokkosSparse::spmv on A with
/// the same x and y. KokkosSparse itself must be within the reference's
/// tolerance tol_i, the apply within 2 tol_i of KokkosSparse.
template <class Scalar, class KokkosCrs, class Value, class Index, class Apply>
void expect_case_matches_kokkos_sparse(const KokkosCrs& A, const Triplets<Value, Index>& t,
                                       const SpmvCase& c, const std::string& what,
                                       Apply&& apply) {
  const auto v = case_vectors<Scalar, device>(t, c);
  using view2 = typename decltype(v)::y_view;
  const view2 y_kk("y_kk", v.y.extent(0), v.y.extent(1)), y("y", v.y.extent(0), v.y.extent(1));
  Kokkos::deep_copy(y_kk, v.y);
  Kokkos::deep_copy(y, v.y);
  apply_case<Scalar>(c, v.x, y_kk, [&](Scalar alpha, const auto& x, Scalar beta, const auto& yv) {
    KokkosSparse::spmv("N", alpha, A, x, beta, yv);
  });
  apply_case<Scalar>(c, v.x, y, apply);
  const auto kk = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y_kk);
  const auto got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  int failures = 0;
  for (std::size_t j = 0; j < v.ys.size(); ++j) {
    const auto ref = reference_spmv(t, c.alpha, v.xs[j], c.beta, v.ys[j]);
    for (std::size_t i = 0; i < v.ys[j].size() && failures < 5; ++i) {
      const double tol = ref.template tolerance<Scalar>(i);
      const double k = static_cast<double>(kk(i, j)), g = static_cast<double>(got(i, j));
      if (!(std::abs(k - ref.y[i]) <= tol) || !(std::abs(g - k) <= 2 * tol)) {
        ADD_FAILURE() << what << " alpha=" << c.alpha << " beta=" << c.beta << " rhs=" << c.rhs
                      << ": y(" << i << "," << j << ") = " << g << ", KokkosSparse " << k
                      << ", reference " << ref.y[i] << ", tolerance " << tol;
        ++failures;
      }
    }
  }
}

/// A wrapped as a Csr, converted to every format with every strategy, each
/// applied by kobalt::spmv and by a handle, against KokkosSparse::spmv.
template <class O, class V, class I>
void expect_every_format_matches_kokkos_sparse(const Triplets<V, I>& t, const std::string& name) {
  const auto A = make_kokkos_crs<O>(t);
  const auto a = from_kokkos_crs(A);
  static_assert(std::is_same_v<std::decay_t<decltype(a)>, Csr<V, I, device, O>>);
  const Kokkos::DefaultExecutionSpace exec;
  for_every_format_and_strategy(a, [&](const auto& m, auto strategy, const std::string& variant) {
    const std::string what = name + " " + variant;
    const auto h = make_handle(exec, m, strategy);
    for (const auto& c : spmv_cases()) {
      expect_case_matches_kokkos_sparse<V>(
          A, t, c, what + " (spmv)", [&](V alpha, const auto& x, V beta, const auto& y) {
            kobalt::spmv(alpha, m, x, beta, y, strategy);
          });
      expect_case_matches_kokkos_sparse<V>(
          A, t, c, what + " (handle)", [&](V alpha, const auto& x, V beta, const auto& y) {
            kobalt::spmv(exec, h, alpha, m, x, beta, y);
          });
    }
  });
}

TYPED_TEST(KokkosSparseInterop, BothDirectionsShareTheArrays) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  using O = typename TypeParam::offset_type;
  const auto A = make_kokkos_crs<O>(padded_example<V, I>());  // 4 x 5, 7 entries
  const auto a = from_kokkos_crs(A);
  EXPECT_EQ(a.rows(), 4);
  EXPECT_EQ(a.cols(), 5);
  EXPECT_EQ(a.nnz(), 7);
  EXPECT_EQ(a.row_ptr().data(), A.graph.row_map.data());
  EXPECT_EQ(a.col_indices().data(), A.graph.entries.data());
  EXPECT_EQ(a.values().data(), A.values.data());

  const auto back = to_kokkos_crs(a);
  static_assert(std::is_same_v<typename decltype(back)::size_type, const O>);
  EXPECT_EQ(back.numRows(), 4);
  EXPECT_EQ(back.numCols(), 5);
  EXPECT_EQ(back.nnz(), static_cast<O>(7));
  EXPECT_EQ(back.graph.row_map.data(), A.graph.row_map.data());
  EXPECT_EQ(back.graph.entries.data(), A.graph.entries.data());
  EXPECT_EQ(back.values.data(), A.values.data());

  // A write through A's values shows in Kobalt's product: after scaling
  // them by 5, y = A * ones is 5 times the row sums 1 + 2, 0, 3 + 4 + 5, 0 + 6.
  scale_on_device(A.values, V(5));
  Kokkos::View<V*, device> x("x", 5), y("y", 4);
  Kokkos::deep_copy(x, V(1));
  kobalt::spmv(V(1), a, x, V(0), y);
  EXPECT_EQ(host_vector(y), (std::vector<V>{15, 0, 60, 30}));
  // ... and KokkosSparse runs on the matrix made from the Csr.
  Kokkos::deep_copy(y, V(-1));
  KokkosSparse::spmv("N", V(1), back, x, V(0), y);
  EXPECT_EQ(host_vector(y), (std::vector<V>{15, 0, 60, 30}));
}

TYPED_TEST(KokkosSparseInterop, WrappedMatrixInvalidForKobaltIsRefused) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  using O = typename TypeParam::offset_type;
  Triplets<V, I> t;
  t.rows = 2;
  t.cols = 2;
  t.push_back(0, 1, V(1));
  t.push_back(1, 0, V(2));
  const auto A = make_kokkos_crs<O>(t);
  Kokkos::deep_copy(Kokkos::subview(A.graph.entries, 1), I(7));  // column 7 of 2
  try {
    from_kokkos_crs(A);
    ADD_FAILURE() << "expected invalid_matrix";
  } catch (const invalid_matrix& e) {
    EXPECT_NE(std::string(e.what()).find("1 column indices outside [0, 2)"), std::string::npos)
        << e.what();
  }
  // A default-constructed KokkosSparse matrix (no row map at all) is 0 x 0.
  const auto empty = from_kokkos_crs(kokkos_crs<V, I, O>());
  EXPECT_EQ(empty.rows(), 0);
  EXPECT_EQ(empty.nnz(), 0);
}

TYPED_TEST(KokkosSparseInterop, EveryFormatMatchesKokkosSparseOnEdgeMatrices) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  using O = typename TypeParam::offset_type;
  for (const auto& m : edge_matrices<V, I>()) {
    Triplets<V, I> t = m.matrix;
    t.assemble();
    expect_every_format_matches_kokkos_sparse<O>(t, m.name);
  }
}

// Three shared matrices: rectangular (lp_e226, 223 x 472), one long row
// among short ones (hangGlider_2: 1463 of 1647 columns), a regular stencil
// (nos7).
TYPED_TEST(KokkosSparseInterop, EveryFormatMatchesKokkosSparseOnSharedMatrices) {
  if (const std::string why = shared_matrices_unavailable(); !why.empty()) GTEST_SKIP() << why;
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  using O = typename TypeParam::offset_type;
  for (const char* name : {"lp_e226", "hangGlider_2", "nos7"})
    expect_every_format_matches_kokkos_sparse<O>(shared_matrix<V, I>(name), name);
}

}  // namespace
}  // namespace kobalt::test
