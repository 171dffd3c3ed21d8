// SPDX-License-Identifier: BSD-3-Clause
// Ell layout by hand, Csr -> Ell -> Csr round trips on every edge matrix for
// several widths and strides, and every error path (width, stride, storage
// limit, malformed user arrays).
#include "fixtures/padded_example.hpp"
#include "fixtures/spmv_check.hpp"
#include "fixtures/types.hpp"

#include <algorithm>

namespace kobalt::test {
namespace {

template <class T>
class EllFormat : public ::testing::Test {};
TYPED_TEST_SUITE(EllFormat, ValueIndexTypes, TypeNames);

template <class V, class I>
std::int64_t longest_row(const Triplets<V, I>& assembled) {
  std::vector<std::int64_t> len(static_cast<std::size_t>(assembled.rows), 0);
  std::int64_t longest = 0;
  for (auto r : assembled.row) longest = std::max(longest, ++len[static_cast<std::size_t>(r)]);
  return longest;
}

TYPED_TEST(EllFormat, HandCheckedLayout) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  const auto a = make_csr(padded_example<V, I>());
  {
    // Width 3 (the longest row), stride 4 (the rows): slot k of row i at 4k + i.
    //   k = 0: rows 0..3 -> (0,1) pad (2,3) (3,0)
    //   k = 1:             (0,2) pad (2,4) (3,6)
    //   k = 2:             pad   pad (2,5) pad
    const auto e = to_ell(a);
    EXPECT_EQ(e.stored_per_row(), 3);
    EXPECT_EQ(e.stride(), 4);
    EXPECT_EQ(e.nnz(), 7);
    EXPECT_EQ(e.stored(), 12);
    EXPECT_EQ(e.bytes(), 12u * (sizeof(I) + sizeof(V)));
    EXPECT_EQ(host_vector(e.col_indices()), (std::vector<I>{0, -1, 0, 2, 2, -1, 1, 4, -1, -1, 3, -1}));
    EXPECT_EQ(host_vector(e.values()), (std::vector<V>{1, 0, 3, 0, 2, 0, 4, 6, 0, 0, 5, 0}));
  }
  {
    // Width 4, stride 6: two padding rows under every slot column, one extra
    // padding slot column.
    const auto e = to_ell(a, {4, 6, 0});
    EXPECT_EQ(e.stored(), 24);
    EXPECT_EQ(host_vector(e.col_indices()),
              (std::vector<I>{0, -1, 0, 2, -1, -1, 2, -1, 1, 4, -1, -1,
                              -1, -1, 3, -1, -1, -1, -1, -1, -1, -1, -1, -1}));
    EXPECT_EQ(host_vector(e.values()),
              (std::vector<V>{1, 0, 3, 0, 0, 0, 2, 0, 4, 6, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
  }
}

TYPED_TEST(EllFormat, RoundTripOnEdgeMatrices) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  for (const auto& m : edge_matrices<V, I>()) {
    Triplets<V, I> assembled = m.matrix;
    assembled.assemble();
    const auto a = make_csr(m.matrix);
    const std::int64_t longest = longest_row(assembled);
    for (const ell_params p : {ell_params{}, ell_params{0, a.rows() + 5, 0},
                               ell_params{longest + 3, 0, 0}, ell_params{longest + 1, a.rows() + 1, 0}}) {
      const auto e = to_ell(a, p);
      const std::string what = m.name + " width=" + std::to_string(p.stored_per_row) +
                               " stride=" + std::to_string(p.stride);
      EXPECT_EQ(e.nnz(), assembled.nnz()) << what;
      EXPECT_EQ(e.stored_per_row(), p.stored_per_row == 0 ? longest : p.stored_per_row) << what;
      EXPECT_EQ(e.stride(), p.stride == 0 ? a.rows() : p.stride) << what;
      EXPECT_EQ(e.stored(), e.stride() * e.stored_per_row()) << what;
      expect_same_triplets(assembled, to_triplets(to_csr(e)), what);
    }
  }
}

TYPED_TEST(EllFormat, WidthBelowLongestRowNamesTheRow) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  for (const auto& m : edge_matrices<V, I>()) {
    if (m.name != "one_dense_row_101") continue;
    const auto a = make_csr(m.matrix);
    try {
      to_ell(a, {5, 0, 0});
      ADD_FAILURE() << "width 5 below the dense row must throw";
    } catch (const invalid_parameter& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find("row 50"), std::string::npos) << msg;
      EXPECT_NE(msg.find("101 entries"), std::string::npos) << msg;
    }
    EXPECT_THROW(to_ell(a, {100, 0, 0}), invalid_parameter);
    EXPECT_NO_THROW(to_ell(a, {101, 0, 0}));
  }
}

TYPED_TEST(EllFormat, BadParametersThrow) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  const auto a = make_csr(padded_example<V, I>());
  EXPECT_THROW(to_ell(a, {0, 3, 0}), invalid_parameter);   // stride < rows
  EXPECT_THROW(to_ell(a, {-1, 0, 0}), invalid_parameter);  // negative width
  EXPECT_THROW(to_ell(a, {0, -4, 0}), invalid_parameter);  // negative stride
  EXPECT_THROW(to_ell(a, {2, 0, 0}), invalid_parameter);   // row 2 has 3 entries
  EXPECT_NO_THROW(to_ell(a, {0, 4, 0}));
}

TYPED_TEST(EllFormat, StorageLimitThrowsExactlyWhenExceeded) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  for (const auto& m : edge_matrices<V, I>()) {
    Triplets<V, I> assembled = m.matrix;
    assembled.assemble();
    const auto a = make_csr(m.matrix);
    const std::uint64_t needed = static_cast<std::uint64_t>(assembled.rows) *
                                 static_cast<std::uint64_t>(longest_row(assembled)) *
                                 (sizeof(I) + sizeof(V));
    // max_bytes = 0 means "the device's memory": test explicit limits >= 1.
    for (std::uint64_t limit : {needed > 1 ? needed - 1 : 1, needed, needed + 1}) {
      if (limit == 0) continue;
      if (needed > limit) {
        EXPECT_THROW(to_ell(a, {0, 0, limit}), format_too_large) << m.name << " limit " << limit;
      } else {
        EXPECT_NO_THROW(to_ell(a, {0, 0, limit})) << m.name << " limit " << limit;
      }
    }
  }
}

TYPED_TEST(EllFormat, OneDenseRowExceedsASmallLimitButNotTheDefault) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  for (const auto& m : edge_matrices<V, I>()) {
    if (m.name != "one_dense_row_101") continue;
    const auto a = make_csr(m.matrix);
    // 101 rows x 101 slots; CSR holds 201 entries.
    const std::uint64_t ell_bytes = 101u * 101u * (sizeof(I) + sizeof(V));
    try {
      to_ell(a, {0, 0, 64 * 1024});
      if (ell_bytes > 64 * 1024) ADD_FAILURE() << "expected format_too_large";
    } catch (const format_too_large& e) {
      EXPECT_EQ(e.needed_bytes(), ell_bytes);
      EXPECT_EQ(e.limit_bytes(), 64u * 1024u);
    }
    EXPECT_THROW(to_ell(a, {0, 0, ell_bytes / 2}), format_too_large);
    EXPECT_NO_THROW(to_ell(a));  // default limit: the device's memory
  }
  // Absurd parameters saturate instead of wrapping around to a small size.
  const auto b = make_csr(padded_example<V, I>());
  EXPECT_THROW(to_ell(b, {std::int64_t{1} << 40, std::int64_t{1} << 40, 0}), format_too_large);
}

TYPED_TEST(EllFormat, PublicConstructorChecksTheLayout) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  using ell_t = Ell<V, I>;
  const auto e = to_ell(make_csr(padded_example<V, I>()));
  // Rebuilt from its own arrays: same entry count, same matrix.
  const ell_t copy(4, 5, 3, 4, e.col_indices(), e.values());
  EXPECT_EQ(copy.nnz(), 7);
  expect_same_triplets(padded_example<V, I>(), to_triplets(to_csr(copy)), "rebuilt");

  auto broken_copy = [&](std::size_t slot, I column) {
    typename ell_t::index_view col("col", 12);
    Kokkos::deep_copy(col, e.col_indices());
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), col);
    h(slot) = column;
    Kokkos::deep_copy(col, h);
    return col;
  };
  // Row 1 is all padding; an entry in its slot 1 follows padding.
  EXPECT_THROW(ell_t(4, 5, 3, 4, broken_copy(1 * 4 + 1, 3), e.values()), invalid_matrix);
  // Column 5 lies outside a 4 x 5 matrix.
  EXPECT_THROW(ell_t(4, 5, 3, 4, broken_copy(0, 5), e.values()), invalid_matrix);
  EXPECT_THROW(ell_t(4, 5, 3, 3, e.col_indices(), e.values()), invalid_parameter);  // stride < rows
  EXPECT_THROW(ell_t(4, 5, 2, 4, e.col_indices(), e.values()), invalid_parameter);  // extents
  EXPECT_THROW(ell_t(4, 5, -3, 4, e.col_indices(), e.values()), invalid_parameter);
}

}  // namespace
}  // namespace kobalt::test
