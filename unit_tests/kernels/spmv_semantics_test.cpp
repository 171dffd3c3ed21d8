// SPDX-License-Identifier: BSD-3-Clause
// The contract of kobalt::spmv that no single format owns: extents, beta == 0,
// alpha == 0, rank-2 Views, mixed precision, the COO kernel.
#include "fixtures/spmv_check.hpp"
#include "fixtures/types.hpp"

#include <limits>

namespace kobalt::test {
namespace {

template <class T>
class SpmvSemantics : public ::testing::Test {};
TYPED_TEST_SUITE(SpmvSemantics, ValueIndexTypes, TypeNames);

template <class V, class I>
Triplets<V, I> rectangle_5x3() {
  Triplets<V, I> t;
  t.rows = 5;
  t.cols = 3;
  for (I i = 0; i < 5; ++i) t.push_back(i, i % 3, V(i + 1));
  return t;
}

TYPED_TEST(SpmvSemantics, MismatchedExtentsThrow) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  auto a = make_csr(rectangle_5x3<V, I>());
  Kokkos::View<V*> x3("x", 3), x5("x", 5), y5("y", 5), y3("y", 3);
  EXPECT_NO_THROW(spmv(V(1), a, x3, V(0), y5));
  EXPECT_THROW(spmv(V(1), a, x5, V(0), y5), dimension_mismatch);
  EXPECT_THROW(spmv(V(1), a, x3, V(0), y3), dimension_mismatch);
  Kokkos::View<V**, Kokkos::LayoutLeft> x2("x", 3, 2), y4("y", 5, 3);
  EXPECT_THROW(spmv(V(1), a, x2, V(0), y4), dimension_mismatch);
  try {
    spmv(V(1), a, x5, V(0), y5);
  } catch (const dimension_mismatch& e) {
    EXPECT_NE(std::string(e.what()).find("5 x 3"), std::string::npos) << e.what();
  }
}

// spmv(A, x, x) would read x after overwriting it: refused, with or without
// a handle; disjoint parts of one allocation are fine.
TYPED_TEST(SpmvSemantics, OutputOverlappingInputThrows) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  Triplets<V, I> t;
  t.rows = t.cols = 4;
  for (I i = 0; i < 4; ++i) t.push_back(i, (i + 1) % 4, V(1));
  const auto a = make_csr(t);
  Kokkos::View<V*> buffer("buffer", 9);
  const auto x = Kokkos::subview(buffer, std::make_pair(0, 4));
  const auto y = Kokkos::subview(buffer, std::make_pair(4, 8));
  const auto y_shifted = Kokkos::subview(buffer, std::make_pair(3, 7));  // shares entry 3
  EXPECT_THROW(spmv(V(1), a, x, V(0), x), invalid_parameter);
  EXPECT_THROW(spmv(V(1), a, x, V(0), y_shifted), invalid_parameter);
  EXPECT_NO_THROW(spmv(V(1), a, x, V(0), y));
  const auto h = make_handle(Kokkos::DefaultExecutionSpace(), a);
  EXPECT_THROW(spmv(Kokkos::DefaultExecutionSpace(), h, V(1), a, x, V(0), x), invalid_parameter);
  Kokkos::View<V**, Kokkos::LayoutLeft> block("block", 4, 3);
  const auto x2 = Kokkos::subview(block, Kokkos::ALL, std::make_pair(0, 2));
  const auto y2 = Kokkos::subview(block, Kokkos::ALL, std::make_pair(1, 3));  // column 1 shared
  const auto y2_apart = Kokkos::subview(block, Kokkos::ALL, std::make_pair(2, 3));
  EXPECT_THROW(spmv(V(1), a, x2, V(0), y2), invalid_parameter);
  const auto x2_first = Kokkos::subview(block, Kokkos::ALL, std::make_pair(0, 1));
  EXPECT_NO_THROW(spmv(V(1), a, x2_first, V(0), y2_apart));  // columns 0 and 2
}

TYPED_TEST(SpmvSemantics, BetaZeroOverwritesNaNEvenWithAlphaZeroOrNoEntries) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  Triplets<V, I> empty;
  empty.rows = 4;
  empty.cols = 4;
  for (const auto& t : {rectangle_5x3<V, I>(), empty}) {
    auto a = make_csr(t);
    Kokkos::View<V*> x("x", t.cols), y("y", t.rows);
    Kokkos::deep_copy(x, V(1));
    for (V alpha : {V(0), V(2)}) {
      Kokkos::deep_copy(y, std::numeric_limits<V>::quiet_NaN());
      spmv(alpha, a, x, V(0), y);
      auto yh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
      for (I i = 0; i < t.rows; ++i) EXPECT_FALSE(std::isnan(yh(i))) << "row " << i;
    }
  }
}

TYPED_TEST(SpmvSemantics, CooMatchesReferenceOnEdgeMatrices) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  for (const auto& m : edge_matrices<V, I>()) {
    Triplets<V, I> t = m.matrix;
    t.assemble();
    expect_spmv_matches_reference(make_coo(m.matrix), t, m.name + " coo");
  }
}

TYPED_TEST(SpmvSemantics, CooCsrRoundTrip) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  for (const auto& m : edge_matrices<V, I>()) {
    Triplets<V, I> t = m.matrix;
    t.assemble();
    auto csr = make_csr(m.matrix);
    expect_same_triplets(t, to_triplets(csr), m.name + " make_csr");
    expect_same_triplets(t, to_triplets(to_csr(to_coo(csr))), m.name + " csr->coo->csr");
  }
}

TEST(SpmvSemantics, FloatMatrixDoubleVectorsAccumulateInDouble) {
  // Row 0 holds 1e8, 1, -1e8: float accumulation gives 0, double gives 1.
  Triplets<float, int> t;
  t.rows = 1;
  t.cols = 3;
  t.push_back(0, 0, 1e8f);
  t.push_back(0, 1, 1.0f);
  t.push_back(0, 2, -1e8f);
  auto a = make_csr(t);
  Kokkos::View<double*> x("x", 3), y("y", 1);
  Kokkos::deep_copy(x, 1.0);
  for (csr::strategy s : {csr::strategy{csr::automatic{}}, csr::strategy{csr::basic{}},
                          csr::strategy{csr::classical{}}, csr::strategy{csr::load_balance{}}}) {
    spmv(1.0, a, x, 0.0, y, s);
    auto yh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
    EXPECT_EQ(yh(0), 1.0) << strategy_name(s);
    for (const auto& c : spmv_cases())
      expect_spmv_case<double>(a, t, c, "float matrix, double y, " + strategy_name(s), s);
  }
}

TEST(SpmvSemantics, ConversionStorageLimitThrowsBeforeAllocating) {
  Triplets<double, int> t = rectangle_5x3<double, int>();
  auto a = make_csr(t);
  EXPECT_THROW(to_coo(a, convert_options{16}), format_too_large);
  EXPECT_NO_THROW(to_coo(a, convert_options{1 << 20}));
}

}  // namespace
}  // namespace kobalt::test
