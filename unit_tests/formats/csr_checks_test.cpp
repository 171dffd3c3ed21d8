// SPDX-License-Identifier: BSD-3-Clause
// Csr's constructor from user Views checks what is cheap (issue 17 item 9):
// extents, row_ptr(0) = 0, a non-decreasing row_ptr, row_ptr(rows) within
// the capacity and columns in range, each an invalid_matrix; arrays with
// spare capacity give nnz = row_ptr(rows), and every format and kernel then
// sees only that prefix (to_coo once left row indices uninitialised there).
// The same over const Views and offsets of another type than the columns
// (issue 18: unsigned size_t as KokkosSparse's, 64-bit offsets with 32-bit
// columns), where every format and strategy must give the reference.
#include "fixtures/every_format.hpp"
#include "fixtures/host_device.hpp"
#include "fixtures/spmv_check.hpp"
#include "fixtures/types.hpp"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace kobalt::test {
namespace {

template <class T>
class CsrChecks : public ::testing::Test {};
TYPED_TEST_SUITE(CsrChecks, ValueIndexTypes, TypeNames);

/// Builds a 3 x 4 Csr with offsets of type O from host arrays (as const
/// Views), expecting invalid_matrix whose message holds `message` (or
/// success for an empty message).
template <class V, class I, class O = I>
void expect_csr(const std::vector<O>& row_ptr, const std::vector<I>& col,
                const std::vector<V>& val, const std::string& message) {
  const auto build = [&] {
    const Kokkos::View<const O*> p = device_view(row_ptr);
    const Kokkos::View<const I*> c = device_view(col);
    const Kokkos::View<const V*> v = device_view(val);
    return Csr<V, I, default_device, O>(3, 4, p, c, v);
  };
  if (message.empty()) {
    EXPECT_NO_THROW(build());
    return;
  }
  try {
    build();
    ADD_FAILURE() << "expected invalid_matrix: " << message;
  } catch (const invalid_matrix& e) {
    EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
  }
}

TYPED_TEST(CsrChecks, EachFaultIsAnInvalidMatrix) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  const std::vector<V> val3{1, 2, 3};
  expect_csr<V, I>({0, 1, 2, 3}, {0, 1, 3}, val3, "");
  expect_csr<V, I>({0, 1, 2}, {0, 1, 3}, val3, "row_ptr has 3 offsets, expected rows + 1 = 4");
  expect_csr<V, I>({1, 1, 2, 3}, {0, 1, 3}, val3, "row_ptr(0) = 1");
  expect_csr<V, I>({0, 2, 1, 3}, {0, 1, 3}, val3, "row_ptr decreases in 1 rows");
  expect_csr<V, I>({0, 1, 2, 4}, {0, 1, 3}, val3, "row_ptr(rows) = 4 entries, but col and val hold 3");
  expect_csr<V, I>({0, 1, 2, 3}, {0, 4, 3}, val3, "1 column indices outside [0, 4)");
  expect_csr<V, I>({0, 1, 2, 3}, {0, -1, 3}, val3, "outside [0, 4)");
  expect_csr<V, I>({0, 1, 2, 3}, {0, 1, 3}, {1, 2}, "col has 3 entries but val has 2");
}

/// The faults of EachFaultIsAnInvalidMatrix with offsets of type O.
template <class V, class I, class O>
void expect_faults_with_offsets() {
  const std::vector<V> val3{1, 2, 3};
  expect_csr<V, I, O>({0, 1, 2, 3}, {0, 1, 3}, val3, "");
  expect_csr<V, I, O>({0, 1, 2}, {0, 1, 3}, val3, "row_ptr has 3 offsets, expected rows + 1 = 4");
  expect_csr<V, I, O>({1, 1, 2, 3}, {0, 1, 3}, val3, "row_ptr(0) = 1");
  expect_csr<V, I, O>({0, 2, 1, 3}, {0, 1, 3}, val3, "row_ptr decreases in 1 rows");
  expect_csr<V, I, O>({0, 1, 2, 4}, {0, 1, 3}, val3,
                      "row_ptr(rows) = 4 entries, but col and val hold 3");
  expect_csr<V, I, O>({0, 1, 2, 3}, {0, 4, 3}, val3, "1 column indices outside [0, 4)");
  expect_csr<V, I, O>({0, 1, 2, 3}, {0, -1, 3}, val3, "outside [0, 4)");
  // The largest offset: beyond int64 when unsigned, never a negative count.
  const O top = std::numeric_limits<O>::max();
  expect_csr<V, I, O>({0, 1, 2, top}, {0, 1, 3}, val3,
                      "row_ptr(rows) = " + std::to_string(top) +
                          " entries, but col and val hold 3");
}

TYPED_TEST(CsrChecks, FaultsAreFoundWithUnsignedAndWideOffsets) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  expect_faults_with_offsets<V, I, std::size_t>();
  expect_faults_with_offsets<V, I, std::uint32_t>();
  expect_faults_with_offsets<V, I, std::int64_t>();
}

/// a's arrays with the offsets copied to type O (as an application holding
/// size_t offsets would pass them), as const Views.
template <class O, class V, class I, class D>
Csr<V, I, D, O> with_offsets(const Csr<V, I, D>& a) {
  std::vector<O> offsets;
  for (const I p : host_vector(a.row_ptr())) offsets.push_back(static_cast<O>(p));
  const Kokkos::View<const O*, D> row_ptr = device_view<O, D>(offsets);
  return Csr<V, I, D, O>(a.rows(), a.cols(), row_ptr, a.col_indices(), a.values());
}

template <class O, class V, class I>
void expect_every_format_with_offsets(const Triplets<V, I>& t, const std::string& name) {
  const auto a = with_offsets<O>(make_csr(t));
  static_assert(std::is_same_v<typename decltype(a)::offset_type, O>);
  EXPECT_EQ(a.bytes(), static_cast<std::uint64_t>(a.nnz()) * (sizeof(I) + sizeof(V)) +
                           (static_cast<std::uint64_t>(t.rows) + 1) * sizeof(O));
  expect_same_triplets(t, to_triplets(a), name + ": to_triplets");
  expect_same_triplets(t, to_triplets(to_csr(a)), name + ": to_csr");
  for_every_format_and_strategy(a, [&](const auto& m, auto strategy, const std::string& what) {
    expect_spmv_matches_reference(m, t, name + " " + what, strategy);
  });
}

TYPED_TEST(CsrChecks, EveryFormatAndStrategyWithUnsignedAndWideOffsets) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  for (const auto& m : edge_matrices<V, I>()) {
    Triplets<V, I> t = m.matrix;
    t.assemble();
    expect_every_format_with_offsets<std::size_t>(t, m.name + " (size_t offsets)");
    expect_every_format_with_offsets<std::uint32_t>(t, m.name + " (uint32 offsets)");
    expect_every_format_with_offsets<std::int64_t>(t, m.name + " (int64 offsets)");
  }
}

// Spare capacity past row_ptr(rows) (garbage columns there are not read):
// nnz() = row_ptr(rows), the arrays are cut to it, and conversions and
// products match the reference.
TYPED_TEST(CsrChecks, SpareCapacityIsNotPartOfTheMatrix) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  const Csr<V, I> a(3, 4, device_view<I>({0, 2, 2, 3}), device_view<I>({0, 3, 1, -7, 99}),
                    device_view<V>({1, 2, 3, 0, 0}));
  EXPECT_EQ(a.nnz(), 3);
  EXPECT_EQ(a.col_indices().extent(0), 3u);
  EXPECT_EQ(a.values().extent(0), 3u);
  Triplets<V, I> t;
  t.rows = 3;
  t.cols = 4;
  t.push_back(0, 0, V(1));
  t.push_back(0, 3, V(2));
  t.push_back(2, 1, V(3));
  t.assemble();
  expect_spmv_matches_reference(a, t, "csr with spare capacity");
  expect_spmv_matches_reference(to_coo(a), t, "coo of a csr with spare capacity");
  expect_spmv_matches_reference(to_ell(a), t, "ell of a csr with spare capacity");
}

// Allocations sized by the input are checked against what the device can
// allocate now, before allocating: 2^40 rows ask for 8.8 TB of row pointers.
TEST(CsrChecksMemory, RowPointerLargerThanMemoryIsRefusedBeforeAllocating) {
  Triplets<double, std::int64_t> t;
  t.rows = std::int64_t{1} << 40;
  t.cols = 3;
  t.push_back(0, 0, 1.0);
  try {
    make_csr(t);
    ADD_FAILURE() << "expected format_too_large";
  } catch (const format_too_large& e) {
    EXPECT_GT(e.needed_bytes(), (std::uint64_t{1} << 40) * sizeof(std::int64_t));
    EXPECT_LT(e.limit_bytes(), e.needed_bytes());
  }
}

}  // namespace
}  // namespace kobalt::test
