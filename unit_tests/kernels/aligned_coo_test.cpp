// SPDX-License-Identifier: BSD-3-Clause
// AlignedCoo spmv (seg kernel + flat part) against the reference on every
// edge matrix with every split, 004's worked example by hand, and padding
// that must never be read or written.
#include "fixtures/aligned_coo_layout.hpp"
#include "fixtures/spmv_check.hpp"
#include "fixtures/types.hpp"

#include <cmath>
#include <limits>
#include <vector>

namespace kobalt::test {
namespace {

using aligned_coo::split;

template <class T>
class AlignedCooSpmv : public ::testing::Test {};
TYPED_TEST_SUITE(AlignedCooSpmv, ValueIndexTypes, TypeNames);

// Every case of spmv_cases(): beta = 0 on a NaN-poisoned y, general
// alpha/beta, alpha = 0, and rank-2 x/y with 2 and 3 right-hand sides.
TYPED_TEST(AlignedCooSpmv, EverySplitMatchesReferenceOnEdgeMatrices) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  for (const auto& m : edge_matrices<V, I>()) {
    Triplets<V, I> t = m.matrix;
    t.assemble();
    const auto csr = make_csr(m.matrix);
    for (int unit : {32, 4}) {
      for (split s : {split::automatic, split::hybrid, split::all_seg, split::all_flat}) {
        aligned_coo::params p;
        p.choice = s;
        p.flat_unit = unit;
        expect_spmv_matches_reference(to_aligned_coo(csr, p), t,
                                      m.name + " aligned_coo:" + aligned_coo::name(s) +
                                          " unit " + std::to_string(unit));
      }
    }
    // Few lanes, deep segments: long runs of rows inside one lane.
    aligned_coo::params p;
    p.choice = split::all_seg;
    p.seg_size = 3;
    expect_spmv_matches_reference(to_aligned_coo(csr, p), t, m.name + " aligned_coo seg_size 3");
  }
}

// 004 Fig. 2: x = {1, 2, 3, 4, 5}; y = A x by hand (exact in float):
//   r0 = 2*2 + 4*4 + 5*5 = 45   r1 = 1*1 = 1     r2 = 3*2 + 6*3 = 24
//   r3 = 7*2 + 8*4 = 46         r4 = 9*4 = 36    r5 = 10*1 = 10
TYPED_TEST(AlignedCooSpmv, PaperExampleByHand) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  Triplets<V, I> t;
  t.rows = 6;
  t.cols = 5;
  const int e[10][3] = {{0, 1, 2}, {0, 3, 4}, {0, 4, 5}, {1, 0, 1}, {2, 1, 3},
                        {2, 2, 6}, {3, 1, 7}, {3, 3, 8}, {4, 3, 9}, {5, 0, 10}};
  for (const auto& x : e) t.push_back(I(x[0]), I(x[1]), V(x[2]));
  const auto csr = make_csr(t);
  for (split s : {split::all_seg, split::hybrid, split::all_flat}) {
    aligned_coo::params p;
    p.choice = s;
    p.flat_unit = 2;
    const auto a = to_aligned_coo(csr, p);
    Kokkos::View<V*> x("x", 5), y("y", 6);
    auto xh = Kokkos::create_mirror_view(x);
    for (int j = 0; j < 5; ++j) xh(j) = V(j + 1);
    Kokkos::deep_copy(x, xh);
    Kokkos::deep_copy(y, std::numeric_limits<V>::quiet_NaN());
    spmv(V(1), a, x, V(0), y);
    EXPECT_EQ(to_vector(y), (std::vector<V>{45, 1, 24, 46, 36, 10})) << aligned_coo::name(s);
  }
}

// Padding slots hold NaN here: a kernel that read one (value times x) would
// put NaN into y. Rows absent from the matrix must still get beta*y.
TYPED_TEST(AlignedCooSpmv, PaddingNeverContributes) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  int poisoned_total = 0;
  for (const auto& m : edge_matrices<V, I>()) {
    Triplets<V, I> t = m.matrix;
    t.assemble();
    for (std::int64_t lanes : {0, 5}) {
      aligned_coo::params p;
      p.choice = split::all_seg;
      p.seg_size = lanes;
      const auto a = to_aligned_coo(make_csr(m.matrix), p);
      auto val = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a.seg_values());
      auto col = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a.seg_col_indices());
      int poisoned = 0;
      for (std::size_t k = 0; k < val.extent(0); ++k)
        if (col(k) == padding_index<I>) {
          val(k) = std::numeric_limits<V>::quiet_NaN();
          ++poisoned;
        }
      Kokkos::deep_copy(a.seg_values(), val);  // the View shares a's storage
      poisoned_total += poisoned;
      expect_spmv_matches_reference(a, t, m.name + " NaN padding, lanes " + std::to_string(lanes));
    }
  }
  EXPECT_GT(poisoned_total, 0) << "no padding slot was exercised";
}

}  // namespace
}  // namespace kobalt::test
