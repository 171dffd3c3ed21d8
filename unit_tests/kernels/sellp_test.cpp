// SPDX-License-Identifier: BSD-3-Clause
// SELL-P kernel (000 Alg. 5: one thread per row, a team per slice) against
// the reference on every edge matrix for slice sizes b in {1, 3, 32, 64} and
// stride factors t in {1, 2, 8}, plus forced vector lanes per row.
#include "fixtures/direct_kernel_check.hpp"
#include "fixtures/profiles.hpp"
#include "fixtures/spmv_check.hpp"
#include "fixtures/types.hpp"

namespace kobalt::test {
namespace {

template <class T>
class SellpSpmv : public ::testing::Test {};
TYPED_TEST_SUITE(SellpSpmv, ValueIndexTypes, TypeNames);

inline std::string describe(const sellp_params& p) {
  return "sellp(b=" + std::to_string(p.slice_size) + ", t=" + std::to_string(p.stride_factor) +
         ")";
}

TYPED_TEST(SellpSpmv, MatchesReferenceOnEdgeMatrices) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  for (const auto& m : edge_matrices<V, I>()) {
    const auto a = make_csr(m.matrix);
    Triplets<V, I> assembled = m.matrix;
    assembled.assemble();
    for (std::int64_t b : {1, 3, 32, 64}) {
      for (std::int64_t t : {1, 2, 8}) {
        const sellp_params p{b, t, 0};
        expect_spmv_matches_reference(to_sellp(a, p), assembled, m.name + " " + describe(p));
      }
    }
  }
}

TYPED_TEST(SellpSpmv, ForcedVectorLanesMatchReference) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  using device = default_device;
  using exec = device::execution_space;
  for (const auto& m : edge_matrices<V, I>()) {
    const auto a = make_csr(m.matrix);
    Triplets<V, I> assembled = m.matrix;
    assembled.assemble();
    const auto s = to_sellp(a, {3, 2, 0});
    for (int lanes : {2, 4, 32}) {
      tuning::LaunchShape p;
      p.part = "slices";
      p.team_size = 1;
      p.vector_length = lanes;
      expect_direct_kernel_matches<V, device>(
          assembled,
          [&](const auto& x, const auto& y, V alpha, V beta) {
            detail::sellp_slices(exec(), p, "test::sellp_lanes", alpha, s, x, beta, y);
          },
          m.name + " lanes=" + std::to_string(lanes));
    }
  }
}

TEST(SellpSpmvMixed, FloatMatrixDoubleVectors) {
  for (const auto& m : edge_matrices<float, std::int32_t>()) {
    const auto s = to_sellp(make_csr(m.matrix));
    Triplets<float, std::int32_t> assembled = m.matrix;
    assembled.assemble();
    for (const auto& c : spmv_cases()) expect_spmv_case<double>(s, assembled, c, m.name);
  }
}

TEST(SellpPolicy, OneThreadPerRow) {
  // 000 §3.5: one thread per row, no vector lanes; one team per slice.
  // Checked with this build's device profile and a GPU profile (GPU teams
  // cover the slice, at most 128 threads; host teams are one thread).
  using exec = default_device::execution_space;
  for (const auto& profile : {tuning::profile_of(exec()), fake_gpu_profile()}) {
    for (std::int64_t b : {1, 3, 64, 1000}) {
      const auto policy = tuning::select(tuning::MatrixStats{}, profile, sellp::slices{}, b);
      ASSERT_EQ(policy.launches.size(), 1u);
      const auto& p = policy.launches[0];
      EXPECT_EQ(p.vector_length, 1) << profile;
      EXPECT_EQ(p.rows_per_team, b) << profile;
      EXPECT_LE(p.team_size, std::max<std::int64_t>(1, std::min<std::int64_t>(b, 128))) << profile;
      EXPECT_EQ(p.team_size, profile.gpu ? std::min<std::int64_t>(b, 128) : 1) << profile;
    }
  }
}

}  // namespace
}  // namespace kobalt::test
