// SPDX-License-Identifier: BSD-3-Clause
// Sellp layout by hand, Csr -> Sellp -> Csr round trips on every edge matrix
// for b in {1, 3, 32, 64} and t in {1, 2, 8} with the slice metadata checked
// against a host oracle, SELL-C-sigma's row order against a host sort, and
// every error path.
#include "fixtures/padded_example.hpp"
#include "fixtures/row_lengths.hpp"
#include "fixtures/spmv_check.hpp"
#include "fixtures/types.hpp"

#include <algorithm>

namespace kobalt::test {
namespace {

template <class T>
class SellpFormat : public ::testing::Test {};
TYPED_TEST_SUITE(SellpFormat, ValueIndexTypes, TypeNames);

TYPED_TEST(SellpFormat, HandCheckedLayout) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  const auto a = make_csr(padded_example<V, I>());
  {
    // b = 2, t = 2. Slice 0 = rows 0-1, longest 2 -> width 2; slice 1 = rows
    // 2-3, longest 3 -> width 4 (next multiple of t). slice_sets in elements:
    // 0, 2*2 = 4, 4 + 2*4 = 12. Slot k of local row r at sets[s] + 2k + r:
    //   slice 0: k=0 (0,1) pad | k=1 (2,2) pad
    //   slice 1: k=0 (0,3) (2,0) | k=1 (1,4) (4,6) | k=2 (3,5) pad | k=3 pad pad
    const auto s = to_sellp(a, {2, 2, 0});
    EXPECT_EQ(s.slices(), 2);
    EXPECT_EQ(s.stored(), 12);
    EXPECT_EQ(s.nnz(), 7);
    EXPECT_EQ(host_vector(s.slice_lengths()), (std::vector<I>{2, 4}));
    EXPECT_EQ(host_vector(s.slice_sets()), (std::vector<I>{0, 4, 12}));
    EXPECT_EQ(host_vector(s.col_indices()),
              (std::vector<I>{0, -1, 2, -1, 0, 2, 1, 4, 3, -1, -1, -1}));
    EXPECT_EQ(host_vector(s.values()), (std::vector<V>{1, 0, 2, 0, 3, 0, 4, 6, 5, 0, 0, 0}));
    EXPECT_EQ(s.bytes(), 12 * (sizeof(I) + sizeof(V)) + 5 * sizeof(I));
  }
  {
    // b = 3, t = 1: slice 1 holds row 3 and two padding rows past the matrix.
    //   slice 0 (width 3): k=0 (0,1) pad (0,3) | k=1 (2,2) pad (1,4) | k=2 pad pad (3,5)
    //   slice 1 (width 2): k=0 (2,0) pad pad  | k=1 (4,6) pad pad
    const auto s = to_sellp(a, {3, 1, 0});
    EXPECT_EQ(host_vector(s.slice_lengths()), (std::vector<I>{3, 2}));
    EXPECT_EQ(host_vector(s.slice_sets()), (std::vector<I>{0, 9, 15}));
    EXPECT_EQ(host_vector(s.col_indices()),
              (std::vector<I>{0, -1, 0, 2, -1, 1, -1, -1, 3, 2, -1, -1, 4, -1, -1}));
    EXPECT_EQ(host_vector(s.values()),
              (std::vector<V>{1, 0, 3, 2, 0, 4, 0, 0, 5, 0, 0, 0, 6, 0, 0}));
  }
  {
    // Defaults b = 64, t = 1 (000 §3.5): one slice of width 3.
    const auto s = to_sellp(a);
    EXPECT_EQ(s.slice_size(), 64);
    EXPECT_EQ(s.stride_factor(), 1);
    EXPECT_EQ(host_vector(s.slice_sets()), (std::vector<I>{0, 192}));
    EXPECT_EQ(s.stored(), 192);
  }
}

TYPED_TEST(SellpFormat, RoundTripAndSliceMetadataOnEdgeMatrices) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  for (const auto& m : edge_matrices<V, I>()) {
    Triplets<V, I> assembled = m.matrix;
    assembled.assemble();
    const auto len = row_lengths(assembled);
    const auto a = make_csr(m.matrix);
    for (std::int64_t b : {1, 3, 32, 64}) {
      for (std::int64_t t : {1, 2, 8}) {
        const std::string what = m.name + " b=" + std::to_string(b) + " t=" + std::to_string(t);
        const auto s = to_sellp(a, {b, t, 0});
        // Host oracle of the slice widths and element offsets.
        const std::int64_t slices = (assembled.rows + b - 1) / b;
        std::vector<I> widths, sets{0};
        for (std::int64_t q = 0; q < slices; ++q) {
          std::int64_t w = 0;
          for (std::int64_t i = q * b; i < std::min<std::int64_t>((q + 1) * b, assembled.rows); ++i)
            w = std::max(w, len[static_cast<std::size_t>(i)]);
          w = (w + t - 1) / t * t;
          widths.push_back(static_cast<I>(w));
          sets.push_back(static_cast<I>(sets.back() + b * w));
        }
        EXPECT_EQ(s.slices(), slices) << what;
        EXPECT_EQ(host_vector(s.slice_lengths()), widths) << what;
        EXPECT_EQ(host_vector(s.slice_sets()), sets) << what;
        EXPECT_EQ(s.stored(), static_cast<std::int64_t>(sets.back())) << what;
        EXPECT_EQ(s.nnz(), assembled.nnz()) << what;
        expect_same_triplets(assembled, to_triplets(to_csr(s)), what);
      }
    }
  }
}

TYPED_TEST(SellpFormat, SortedWindowsHandCheckedLayout) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  // Row lengths 1, 3, 1, 3 (row i holds columns 0 .. length - 1). b = 2:
  // in order, both slices are 3 wide (12 slots); sorted in one window of 4,
  // slice 0 = rows 1, 3 (width 3) and slice 1 = rows 0, 2 (width 1): 8 slots.
  const auto a = make_csr(matrix_with_row_lengths<V, I>({1, 3, 1, 3}));
  EXPECT_EQ(to_sellp(a, {2, 1, 0}).stored(), 12);
  const auto s = to_sellp(a, {2, 1, 0, 4});
  EXPECT_EQ(host_vector(s.row_order()), (std::vector<I>{1, 3, 0, 2}));
  EXPECT_EQ(host_vector(s.slice_lengths()), (std::vector<I>{3, 1}));
  EXPECT_EQ(host_vector(s.slice_sets()), (std::vector<I>{0, 6, 8}));
  EXPECT_EQ(s.stored(), 8);
  EXPECT_EQ(s.bytes(), 8 * (sizeof(I) + sizeof(V)) + (3 + 2 + 4) * sizeof(I));
  // Windows of 2 sort {1, 3} -> rows 1, 0 and {1, 3} -> rows 3, 2; equal
  // lengths keep their order.
  EXPECT_EQ(host_vector(to_sellp(a, {2, 1, 0, 2}).row_order()), (std::vector<I>{1, 0, 3, 2}));
  const auto same = make_csr(matrix_with_row_lengths<V, I>({2, 2, 2, 2, 2}));
  EXPECT_EQ(host_vector(to_sellp(same, {1, 1, 0, 4}).row_order()),
            (std::vector<I>{0, 1, 2, 3, 4}));
  // sort_window = 1 stores no order.
  EXPECT_EQ(to_sellp(a, {2, 1, 0, 1}).row_order().extent(0), 0u);
  // The matrix comes back in its own row order.
  expect_same_triplets(to_triplets(a), to_triplets(to_csr(s)), "sorted 4x4");
  EXPECT_EQ(host_vector(row_lengths(default_device::execution_space(), s)), (std::vector<std::int64_t>{1, 3, 1, 3}));
}

TYPED_TEST(SellpFormat, SortedWindowsOnEdgeMatrices) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  for (const auto& m : edge_matrices<V, I>()) {
    Triplets<V, I> assembled = m.matrix;
    assembled.assemble();
    const auto len = row_lengths(assembled);
    const auto a = make_csr(m.matrix);
    for (std::int64_t b : {1, 3, 32}) {
      for (std::int64_t windows : {1, 4, 100}) {
        const std::int64_t sigma = b * windows;
        const std::string what = m.name + " b=" + std::to_string(b) + " sigma=" +
                                 std::to_string(sigma);
        const auto s = to_sellp(a, {b, 2, 0, sigma});
        // Host oracle: a stable sort of each window by decreasing length.
        std::vector<I> order(static_cast<std::size_t>(assembled.rows));
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<I>(i);
        for (std::int64_t w = 0; w < assembled.rows; w += sigma) {
          const auto end = std::min<std::int64_t>(w + sigma, assembled.rows);
          std::stable_sort(order.begin() + w, order.begin() + end, [&](I x, I y) {
            return len[static_cast<std::size_t>(x)] > len[static_cast<std::size_t>(y)];
          });
        }
        if (sigma > 1 && assembled.rows > 0) {
          EXPECT_EQ(host_vector(s.row_order()), order) << what;
        } else {
          EXPECT_EQ(s.row_order().extent(0), 0u) << what;  // sigma = 1: no order kept
        }
        // Sorting whole slices within a window never pads more.
        EXPECT_LE(s.stored(), to_sellp(a, {b, 2, 0}).stored()) << what;
        EXPECT_EQ(s.nnz(), assembled.nnz()) << what;
        EXPECT_EQ(host_vector(row_lengths(default_device::execution_space(), s)), len) << what;
        expect_same_triplets(assembled, to_triplets(to_csr(s)), what);
      }
    }
  }
}

TYPED_TEST(SellpFormat, BadParametersThrow) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  const auto a = make_csr(padded_example<V, I>());
  EXPECT_THROW(to_sellp(a, {0, 1, 0}), invalid_parameter);
  EXPECT_THROW(to_sellp(a, {-2, 1, 0}), invalid_parameter);
  EXPECT_THROW(to_sellp(a, {8, 0, 0}), invalid_parameter);
  EXPECT_THROW(to_sellp(a, {8, -1, 0}), invalid_parameter);
  EXPECT_NO_THROW(to_sellp(a, {1, 1, 0}));
  // sort_window: 1, or a multiple of b up to 32768.
  EXPECT_THROW(to_sellp(a, {8, 1, 0, 0}), invalid_parameter);
  EXPECT_THROW(to_sellp(a, {8, 1, 0, 12}), invalid_parameter);
  EXPECT_THROW(to_sellp(a, {8, 1, 0, 65536}), invalid_parameter);
  EXPECT_NO_THROW(to_sellp(a, {8, 1, 0, 32768}));
  EXPECT_NO_THROW(to_sellp(a, {3, 1, 0, 9}));
  // b larger than the matrix: one slice, as wide as ELL.
  const auto s = to_sellp(a, {1000, 1, 0});
  EXPECT_EQ(s.slices(), 1);
  EXPECT_EQ(s.stored(), 3000);
}

TYPED_TEST(SellpFormat, StorageLimitThrowsExactlyWhenExceeded) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  for (const auto& m : edge_matrices<V, I>()) {
    const auto a = make_csr(m.matrix);
    for (std::int64_t b : {1, 32}) {
      const auto s = to_sellp(a, {b, 2, 0});
      const std::uint64_t needed = s.bytes();  // checked against the oracle above
      for (std::uint64_t limit : {needed - 1, needed}) {
        if (limit == 0) continue;
        if (needed > limit) {
          EXPECT_THROW(to_sellp(a, {b, 2, limit}), format_too_large) << m.name << " b=" << b;
        } else {
          EXPECT_NO_THROW(to_sellp(a, {b, 2, limit})) << m.name << " b=" << b;
        }
      }
    }
  }
  // SELL-C-sigma's row order counts too.
  const auto a = make_csr(padded_example<V, I>());
  const std::uint64_t sorted = to_sellp(a, {2, 1, 0, 4}).bytes();
  EXPECT_THROW(to_sellp(a, {2, 1, sorted - 1, 4}), format_too_large);
  EXPECT_NO_THROW(to_sellp(a, {2, 1, sorted, 4}));
  // A stride factor far above every row overflows nothing: it is too large.
  const auto b = make_csr(padded_example<V, I>());
  EXPECT_THROW(to_sellp(b, {64, std::int64_t{1} << 30, 1 << 20}), format_too_large);
}

TYPED_TEST(SellpFormat, PublicConstructorChecksTheLayout) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  using sellp_t = Sellp<V, I>;
  const auto s = to_sellp(make_csr(padded_example<V, I>()), {3, 1, 0});
  const sellp_t copy(4, 5, 3, 1, s.slice_sets(), s.slice_lengths(), s.col_indices(), s.values());
  EXPECT_EQ(copy.nnz(), 7);
  EXPECT_EQ(copy.stored(), 15);
  expect_same_triplets(padded_example<V, I>(), to_triplets(to_csr(copy)), "rebuilt");

  auto broken = [&](const typename sellp_t::index_view& source, std::size_t at, I value) {
    typename sellp_t::index_view v("copy", source.extent(0));
    Kokkos::deep_copy(v, source);
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
    h(at) = value;
    Kokkos::deep_copy(v, h);
    return v;
  };
  // Row 1 (slice 0, local row 1) is all padding: an entry at k = 1 follows padding.
  EXPECT_THROW(sellp_t(4, 5, 3, 1, s.slice_sets(), s.slice_lengths(),
                       broken(s.col_indices(), 1 * 3 + 1, 0), s.values()),
               invalid_matrix);
  // Slot k = 0 of local row 1 of slice 1 is row 4, past the matrix.
  EXPECT_THROW(sellp_t(4, 5, 3, 1, s.slice_sets(), s.slice_lengths(),
                       broken(s.col_indices(), 9 + 1, 0), s.values()),
               invalid_matrix);
  // Width 3 of slice 0 is no multiple of t = 2.
  EXPECT_THROW(sellp_t(4, 5, 3, 2, s.slice_sets(), s.slice_lengths(), s.col_indices(), s.values()),
               invalid_matrix);
  // Offsets that disagree with the widths.
  EXPECT_THROW(sellp_t(4, 5, 3, 1, broken(s.slice_sets(), 1, 6), s.slice_lengths(),
                       s.col_indices(), s.values()),
               invalid_matrix);
  // A row order must be a permutation of the rows.
  const auto sorted = to_sellp(make_csr(padded_example<V, I>()), {3, 1, 0, 3});
  const sellp_t rebuilt(4, 5, 3, 1, sorted.slice_sets(), sorted.slice_lengths(),
                        sorted.col_indices(), sorted.values(), sorted.row_order());
  expect_same_triplets(padded_example<V, I>(), to_triplets(to_csr(rebuilt)), "rebuilt sorted");
  const auto with_order = [&](std::vector<I> order) {
    return sellp_t(4, 5, 3, 1, sorted.slice_sets(), sorted.slice_lengths(), sorted.col_indices(),
                   sorted.values(), device_view(order));
  };
  EXPECT_THROW(with_order({0, 0, 1, 2}), invalid_matrix);  // row 0 twice
  EXPECT_THROW(with_order({0, 1, 2, 4}), invalid_matrix);  // past the matrix
  EXPECT_THROW(with_order({0, 1, -1, 3}), invalid_matrix);
  EXPECT_THROW(with_order({0, 1, 2}), invalid_matrix);  // too short
  // Wrong number of slices for b (b = 1 needs 4), and bad b / t.
  EXPECT_THROW(sellp_t(4, 5, 1, 1, s.slice_sets(), s.slice_lengths(), s.col_indices(), s.values()),
               invalid_parameter);
  EXPECT_THROW(sellp_t(4, 5, 0, 1, s.slice_sets(), s.slice_lengths(), s.col_indices(), s.values()),
               invalid_parameter);
  EXPECT_THROW(sellp_t(4, 5, 3, 0, s.slice_sets(), s.slice_lengths(), s.col_indices(), s.values()),
               invalid_parameter);
}

}  // namespace
}  // namespace kobalt::test
