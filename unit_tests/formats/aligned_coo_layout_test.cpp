// SPDX-License-Identifier: BSD-3-Clause
// AlignedCoo layout: 004's worked example with its exact stored arrays, a
// hand-checked hybrid split, the seg_size override, and every layout
// invariant on every edge matrix with every split.
#include "fixtures/aligned_coo_layout.hpp"
#include "fixtures/edge_matrices.hpp"
#include "fixtures/row_lengths.hpp"
#include "fixtures/types.hpp"

#include <limits>
#include <vector>

namespace kobalt::test {
namespace {

using aligned_coo::split;

/// 004 Fig. 2(a), values 1..10 as printed:
///
///        c0  c1  c2  c3  c4
///   r0 [  .   2   .   4   5 ]   length 3
///   r1 [  1   .   .   .   . ]   length 1
///   r2 [  .   3   6   .   . ]   length 2
///   r3 [  .   7   .   8   . ]   length 2
///   r4 [  .   .   .   9   . ]   length 1
///   r5 [ 10   .   .   .   . ]   length 1
template <class V, class I>
Triplets<V, I> paper_example() {
  Triplets<V, I> t;
  t.rows = 6;
  t.cols = 5;
  const int e[10][3] = {{0, 1, 2}, {0, 3, 4}, {0, 4, 5}, {1, 0, 1}, {2, 1, 3},
                        {2, 2, 6}, {3, 1, 7}, {3, 3, 8}, {4, 3, 9}, {5, 0, 10}};
  for (const auto& x : e) t.push_back(I(x[0]), I(x[1]), V(x[2]));
  return t;
}

template <class T>
class AlignedCooLayout : public ::testing::Test {};
TYPED_TEST_SUITE(AlignedCooLayout, ValueIndexTypes, TypeNames);

// Alg. 1 gives Seg_size = 4, Num_of_seg = 3 (004 §IV-A); next-fit packing in
// row order into lanes of 3 slots reproduces Fig. 2(b):
//
//              lane 0   lane 1   lane 2   lane 3
//   segment 0  r0 c1 2  r1 c0 1  r3 c1 7  r5 c0 10
//   segment 1  r0 c3 4  r2 c1 3  r3 c3 8  pad
//   segment 2  r0 c4 5  r2 c2 6  r4 c3 9  pad
//
// Fig. 2(b)'s 'p' slots are Kobalt's lane-local padding: col -1, value 0,
// row 5 (the row of lane 3). Segment-major storage (slot = s*4 + lane):
TYPED_TEST(AlignedCooLayout, PaperExampleHasThePrintedArrays) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  const auto t = paper_example<V, I>();
  auto csr = make_csr(t);
  for (split s : {split::all_seg, split::automatic}) {
    aligned_coo::params p;
    p.choice = s;
    const auto a = to_aligned_coo(csr, p);
    EXPECT_EQ(a.split(), split::all_seg) << aligned_coo::name(s);
    EXPECT_EQ(a.seg_size(), 4);
    EXPECT_EQ(a.num_segments(), 3);
    EXPECT_EQ(a.nnz(), 10);
    EXPECT_EQ(a.seg_nnz(), 10);
    EXPECT_EQ(a.stored(), 12);
    EXPECT_EQ(a.bytes(), 12u * (2 * sizeof(I) + sizeof(V)));
    EXPECT_EQ(a.flat().nnz(), 0);
    const auto h = to_host(a);
    EXPECT_EQ(h.row, (std::vector<I>{0, 1, 3, 5, 0, 2, 3, 5, 0, 2, 4, 5}));
    EXPECT_EQ(h.col, (std::vector<I>{1, 0, 1, 0, 3, 1, 3, -1, 4, 2, 3, -1}));
    EXPECT_EQ(h.val, (std::vector<V>{2, 1, 7, 10, 4, 3, 8, 0, 5, 6, 9, 0}));
  }
}

// Hybrid with flat_unit = 2 on the same matrix: trail = rl mod 2 stays in
// the seg part (a row's LAST entries), the first rl - trail go flat.
// Seg lengths {1,1,0,0,1,1}: Alg. 1 gives Avg_length_rows = 4 = Seg_size,
// then the loop adds 2 (Row_len[4]+Row_len[5] = 2 >= 1, Row_len[5]+0 >= 1):
// 6 lanes, 1 segment; packing fills lanes 0-3, lanes 4-5 stay empty (row -1).
//
//   segment 0:  lane 0   lane 1   lane 2   lane 3   lane 4  lane 5
//               r0 c4 5  r1 c0 1  r4 c3 9  r5 c0 10 pad(-1) pad(-1)
//   flat (row, col, val): (0,1,2) (0,3,4) (2,1,3) (2,2,6) (3,1,7) (3,3,8)
TYPED_TEST(AlignedCooLayout, HybridSplitKeepsTheTrailInTheSegPart) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  aligned_coo::params p;
  p.choice = split::hybrid;
  p.flat_unit = 2;
  const auto a = to_aligned_coo(make_csr(paper_example<V, I>()), p);
  EXPECT_EQ(a.split(), split::hybrid);
  EXPECT_EQ(a.flat_unit(), 2);
  EXPECT_EQ(a.seg_size(), 6);
  EXPECT_EQ(a.num_segments(), 1);
  EXPECT_EQ(a.seg_nnz(), 4);
  EXPECT_EQ(a.nnz(), 10);
  EXPECT_EQ(a.stored(), 12);
  const auto h = to_host(a);
  EXPECT_EQ(h.row, (std::vector<I>{0, 1, 4, 5, -1, -1}));
  EXPECT_EQ(h.col, (std::vector<I>{4, 0, 3, 0, -1, -1}));
  EXPECT_EQ(h.val, (std::vector<V>{5, 1, 9, 10, 0, 0}));
  EXPECT_EQ(h.flat_row, (std::vector<I>{0, 0, 2, 2, 3, 3}));
  EXPECT_EQ(h.flat_col, (std::vector<I>{1, 3, 1, 2, 1, 3}));
  EXPECT_EQ(h.flat_val, (std::vector<V>{2, 4, 3, 6, 7, 8}));
}

// A fixed lane count deepens the lanes instead: 3 lanes need 4 segments
// (next-fit at capacity 3 needs 4 lanes, at capacity 4 three):
//   lane 0: r0 r0 r0 r1 | lane 1: r2 r2 r3 r3 | lane 2: r4 r5 pad pad
TYPED_TEST(AlignedCooLayout, SegSizeOverrideFixesTheLanes) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  const auto t = paper_example<V, I>();
  aligned_coo::params p;
  p.choice = split::all_seg;
  p.seg_size = 3;
  auto a = to_aligned_coo(make_csr(t), p);
  EXPECT_EQ(a.seg_size(), 3);
  EXPECT_EQ(a.num_segments(), 4);
  auto h = to_host(a);
  EXPECT_EQ(h.row, (std::vector<I>{0, 2, 4, 0, 2, 5, 0, 3, 5, 1, 3, 5}));
  expect_aligned_coo_layout(h, t, split::all_seg, 32, "seg_size=3");
  // More lanes than needed: the depth stays the longest row, lanes stay empty.
  p.seg_size = 10;
  a = to_aligned_coo(make_csr(t), p);
  EXPECT_EQ(a.seg_size(), 10);
  EXPECT_EQ(a.num_segments(), 3);
  h = to_host(a);
  expect_aligned_coo_layout(h, t, split::all_seg, 32, "seg_size=10");
  // One lane holds the whole matrix, row after row.
  p.seg_size = 1;
  a = to_aligned_coo(make_csr(t), p);
  EXPECT_EQ(a.seg_size(), 1);
  EXPECT_EQ(a.num_segments(), 10);
  expect_aligned_coo_layout(to_host(a), t, split::all_seg, 32, "seg_size=1");
}

// Alg. 1 can leave too few lanes. Lengths {5,1,5,1}: Num_of_seg = 5,
// Approx = 12/5 = 2, Avg_length_rows = #{len >= 3} = 2, Seg_size = 2; the
// loop adds one (Row_len[2]+Row_len[3] = 6 >= 5) and stops (1 + 0 < 5): 3.
// Next-fit into lanes of 5 needs 4 ({r0}, {r1}, {r2}, {r3}: every neighbour
// pair overflows), so Seg_size is raised to 4.
TYPED_TEST(AlignedCooLayout, SegSizeIsRaisedWhenTheRowsDoNotFit) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  Triplets<V, I> t;
  t.rows = 4;
  t.cols = 5;
  const int len[4] = {5, 1, 5, 1};
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < len[r]; ++c) t.push_back(I(r), I(c), V(1 + r * 5 + c));
  aligned_coo::params p;
  p.choice = split::all_seg;
  const auto a = to_aligned_coo(make_csr(t), p);
  EXPECT_EQ(tuning::alg1_segment_size(Kokkos::DefaultExecutionSpace(), row_pointer({5, 1, 5, 1})).seg_size,
            3);
  EXPECT_EQ(a.seg_size(), 4);
  EXPECT_EQ(a.num_segments(), 5);
  expect_aligned_coo_layout(to_host(a), t, split::all_seg, 32, "5,1,5,1");
}

TYPED_TEST(AlignedCooLayout, EveryEdgeMatrixWithEverySplitKeepsTheInvariants) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  for (const auto& m : edge_matrices<V, I>()) {
    Triplets<V, I> t = m.matrix;
    t.assemble();
    const auto csr = make_csr(m.matrix);
    for (int unit : {32, 4, 1}) {
      for (split s : {split::automatic, split::hybrid, split::all_seg, split::all_flat}) {
        aligned_coo::params p;
        p.choice = s;
        p.flat_unit = unit;
        const auto a = to_aligned_coo(csr, p);
        const std::string what = m.name + " " + aligned_coo::name(s) + " unit " +
                                 std::to_string(unit);
        if (s != split::automatic) {
          EXPECT_EQ(a.split(), s) << what;
        }
        EXPECT_EQ(a.nnz(), t.nnz()) << what;
        EXPECT_EQ(a.stored(), static_cast<std::int64_t>(a.seg_size()) * a.num_segments() +
                                  a.flat().nnz())
            << what;
        expect_aligned_coo_layout(to_host(a), t, a.split(), unit, what);
      }
    }
  }
}

TYPED_TEST(AlignedCooLayout, BadParametersThrowBeforeAllocating) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  const auto csr = make_csr(paper_example<V, I>());
  auto with = [](auto change) {
    aligned_coo::params p;
    change(p);
    return p;
  };
  EXPECT_THROW(to_aligned_coo(csr, with([](auto& p) { p.flat_unit = 0; })), invalid_parameter);
  EXPECT_THROW(to_aligned_coo(csr, with([](auto& p) { p.flat_unit = -32; })), invalid_parameter);
  EXPECT_THROW(to_aligned_coo(csr, with([](auto& p) { p.seg_size = -1; })), invalid_parameter);
  EXPECT_THROW(to_aligned_coo(csr, with([](auto& p) { p.choice = static_cast<split>(42); })),
               invalid_parameter);
  EXPECT_THROW(to_aligned_coo(csr, with([](auto& p) { p.cost.max_threads = 0; })),
               invalid_parameter);
  EXPECT_THROW(to_aligned_coo(csr, with([](auto& p) { p.cost.block_size = 0; })),
               invalid_parameter);
}

TYPED_TEST(AlignedCooLayout, StorageLimitIsCheckedFirst) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  const auto csr = make_csr(paper_example<V, I>());
  const std::uint64_t needed = 12u * (2 * sizeof(I) + sizeof(V));  // 12 slots, no flat part
  aligned_coo::params p;
  p.choice = split::all_seg;
  p.max_bytes = needed - 1;
  try {
    to_aligned_coo(csr, p);
    ADD_FAILURE() << "no format_too_large";
  } catch (const format_too_large& e) {
    EXPECT_EQ(e.needed_bytes(), needed);
    EXPECT_EQ(e.limit_bytes(), needed - 1);
  }
  p.max_bytes = needed;
  EXPECT_EQ(to_aligned_coo(csr, p).bytes(), needed);
  // 2^40 lanes: too many for int32 indices; for int64 far more than memory.
  // 2^63 - 1 lanes, the most a layout can ask for: the same refusals, with
  // no signed overflow on the way (ceil(nnz / lanes) overflowed; found by
  // fuzz/specs_fuzz, session 24).
  p.max_bytes = 0;
  for (const std::int64_t lanes :
       {std::int64_t(1) << 40, std::numeric_limits<std::int64_t>::max()}) {
    p.seg_size = lanes;
    if (sizeof(I) == 4) {
      EXPECT_THROW(to_aligned_coo(csr, p), index_overflow) << lanes;
    } else {
      EXPECT_THROW(to_aligned_coo(csr, p), format_too_large) << lanes;
    }
  }
  // The way back checks its own storage.
  const auto a = to_aligned_coo(csr);
  EXPECT_THROW(to_csr(a, convert_options{16}), format_too_large);
}

TYPED_TEST(AlignedCooLayout, ConstructorRejectsMismatchedExtents) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  using A = AlignedCoo<V, I, default_device>;
  typename A::index_view row("row", 5), col("col", 6);
  typename A::value_view val("val", 6);
  typename A::flat_type flat(2, 2, typename A::index_view("r", 0), typename A::index_view("c", 0),
                             typename A::value_view("v", 0));
  EXPECT_THROW(A(2, 2, 3, 2, row, col, val, flat, split::all_seg, 32), invalid_matrix);
  typename A::flat_type wrong(3, 2, typename A::index_view("r", 0), typename A::index_view("c", 0),
                              typename A::value_view("v", 0));
  typename A::index_view row6("row", 6);
  EXPECT_THROW(A(2, 2, 3, 2, row6, col, val, wrong, split::all_seg, 32), invalid_matrix);
}

}  // namespace
}  // namespace kobalt::test
