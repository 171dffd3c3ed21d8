// SPDX-License-Identifier: BSD-3-Clause
// Csr's constructor from user Views checks what is cheap (issue 17 item 9):
// extents, row_ptr(0) = 0, a non-decreasing row_ptr, row_ptr(rows) within
// the capacity and columns in range, each an invalid_matrix; arrays with
// spare capacity give nnz = row_ptr(rows), and every format and kernel then
// sees only that prefix (to_coo once left row indices uninitialised there).
#include "fixtures/host_device.hpp"
#include "fixtures/spmv_check.hpp"
#include "fixtures/types.hpp"

#include <string>
#include <vector>

namespace kobalt::test {
namespace {

template <class T>
class CsrChecks : public ::testing::Test {};
TYPED_TEST_SUITE(CsrChecks, ValueIndexTypes, TypeNames);

/// Builds a 3 x 4 Csr from host arrays, expecting invalid_matrix whose
/// message holds `message` (or success for an empty message).
template <class V, class I>
void expect_csr(const std::vector<I>& row_ptr, const std::vector<I>& col,
                const std::vector<V>& val, const std::string& message) {
  const auto build = [&] {
    return Csr<V, I>(3, 4, device_view(row_ptr), device_view(col), device_view(val));
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
