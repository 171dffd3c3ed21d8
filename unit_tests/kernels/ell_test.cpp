// SPDX-License-Identifier: BSD-3-Clause
// ELL kernels (000 Alg. 3-4 rows, 003 Alg. 5 column groups; early stop)
// against the reference on every edge matrix, for several widths and
// strides, with the policy the tuning layer picks and with forced shapes:
// vector lanes and parts per row (atomics) for rows, blocks, groups per row
// and parts for column groups, which host policies never select.
#include "fixtures/direct_kernel_check.hpp"
#include "fixtures/profiles.hpp"
#include "fixtures/spmv_check.hpp"
#include "fixtures/team_limits.hpp"
#include "fixtures/types.hpp"

namespace kobalt::test {
namespace {

template <class T>
class EllSpmv : public ::testing::Test {};
TYPED_TEST_SUITE(EllSpmv, ValueIndexTypes, TypeNames);

/// Default, stride > rows, extra width, both.
inline std::vector<ell_params> ell_variants(std::int64_t rows, std::int64_t longest) {
  return {{}, {0, rows + 5, 0}, {longest + 3, 0, 0}, {longest + 2, rows + 3, 0}};
}

inline std::string describe(const ell_params& p) {
  return "ell(stored_per_row=" + std::to_string(p.stored_per_row) +
         ", stride=" + std::to_string(p.stride) + ")";
}

TYPED_TEST(EllSpmv, MatchesReferenceOnEdgeMatrices) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  for (const auto& m : edge_matrices<V, I>()) {
    const auto a = make_csr(m.matrix);
    Triplets<V, I> assembled = m.matrix;
    assembled.assemble();
    for (const auto& p : ell_variants(a.rows(), a.max_row_nnz())) {
      const auto e = to_ell(a, p);
      for (const ell::strategy& s : {ell::strategy{ell::automatic{}}, ell::strategy{ell::rows{}},
                                     ell::strategy{ell::column_groups{}}})
        expect_spmv_matches_reference(e, assembled,
                                      m.name + " " + describe(p) + " " + strategy_name(s), s);
    }
  }
}

TYPED_TEST(EllSpmv, ForcedShapesMatchReference) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  using device = default_device;
  using exec = device::execution_space;
  const int max_team = max_team_threads(), max_vector = max_vector_length();
  for (const auto& m : edge_matrices<V, I>()) {
    const auto a = make_csr(m.matrix);
    Triplets<V, I> assembled = m.matrix;
    assembled.assemble();
    const auto e = to_ell(a, {a.max_row_nnz() + 1, a.rows() + 2, 0});
    const auto check = [&](const tuning::LaunchShape& p, auto launcher, const std::string& what) {
      if (p.team_size * p.vector_length > max_team || p.vector_length > max_vector) return;
      expect_direct_kernel_matches<V, device>(
          assembled,
          [&](const auto& x, const auto& y, V alpha, V beta) {
            launcher(exec(), p, "test::ell", alpha, e, x, beta, y);
          },
          m.name + " " + what + " " + p.str());
    };
    // rows: lanes over a row's slots, parts of a row added atomically.
    for (int lanes : {1, 2, 4, 32}) {
      for (int parts : {1, 3}) {
        tuning::LaunchShape p;
        p.part = "rows";
        p.vector_length = lanes;
        p.rows_per_team = 7;
        p.row_parts = parts;
        check(p, [](auto&&... args) { detail::ell_rows(args...); }, "rows");
      }
    }
    // column_groups: blocks of `lanes` rows, t groups per row, parts per block.
    for (int lanes : {1, 2, 32}) {
      for (int t : {1, 2, 3}) {
        for (int blocks_per_team : {1, 2}) {
          for (int parts : {1, 2}) {
            tuning::LaunchShape p;
            p.part = "groups";
            p.vector_length = lanes;
            p.row_threads = t;
            p.team_size = t * blocks_per_team;
            p.row_parts = parts;
            check(p, [](auto&&... args) { detail::ell_column_groups(args...); }, "groups");
          }
        }
      }
    }
  }
}

TEST(EllSpmvMixed, FloatMatrixDoubleVectors) {
  for (const auto& m : edge_matrices<float, std::int32_t>()) {
    const auto e = to_ell(make_csr(m.matrix));
    Triplets<float, std::int32_t> assembled = m.matrix;
    assembled.assemble();
    for (const auto& c : spmv_cases()) expect_spmv_case<double>(e, assembled, c, m.name);
  }
}

TEST(EllPolicy, LanesFollowAlgorithmFour) {
  // 000 Alg. 4: one lane unless width / rows > 1e-2, then 2^ceil(log2 width)
  // capped at the warp; host backends have a warp of 1. Checked with this
  // build's device profile and with a GPU profile (warp 32).
  using exec = default_device::execution_space;
  const auto lanes = [](const tuning::DeviceProfile& profile, std::int64_t rows,
                        std::int64_t width) {
    tuning::MatrixStats stats;
    stats.rows = rows;
    const auto policy = tuning::select(stats, profile, ell::rows{}, width);
    EXPECT_EQ(policy.launches.size(), 1u);
    return policy.launches.at(0).vector_length;
  };
  for (const auto& profile : {tuning::profile_of(exec()), fake_gpu_profile()}) {
    const int warp = profile.warp_width;
    EXPECT_EQ(lanes(profile, 1000, 10), 1) << profile;  // ratio 1e-2
    EXPECT_EQ(lanes(profile, 1000, 11), std::min(16, warp)) << profile;
    EXPECT_EQ(lanes(profile, 10, 5), std::min(8, warp)) << profile;
    EXPECT_EQ(lanes(profile, 10, 1000), warp) << profile;
  }
  EXPECT_EQ(lanes(fake_gpu_profile(), 1000, 11), 16);
  EXPECT_EQ(tuning::ceil_pow2_capped(5, 64), 8);
  EXPECT_EQ(tuning::ceil_pow2_capped(8, 64), 8);
  EXPECT_EQ(tuning::ceil_pow2_capped(1, 64), 1);
  EXPECT_EQ(tuning::ceil_pow2_capped(0, 64), 1);
  EXPECT_EQ(tuning::ceil_pow2_capped(100, 32), 32);
}

TEST(EllPolicy, AutomaticResolvesByBackend) {
  // 003 §3.3: column groups on AMD, 000's rows elsewhere.
  tuning::DeviceProfile amd = fake_gpu_profile();
  amd.backend = "HIP";
  amd.kind = arch::Backend::hip;
  EXPECT_EQ(tuning::select(tuning::MatrixStats{}, amd, ell::automatic{}, 5).kernel,
            "column_groups");
  EXPECT_EQ(tuning::select(tuning::MatrixStats{}, fake_gpu_profile(), ell::automatic{}, 5).kernel,
            "rows");
  EXPECT_TRUE(std::holds_alternative<ell::rows>(
      tuning::resolve(tuning::MatrixStats{}, fake_gpu_profile(), ell::strategy{})));
  EXPECT_TRUE(std::holds_alternative<ell::column_groups>(
      tuning::resolve(tuning::MatrixStats{}, amd, ell::strategy{})));
}

}  // namespace
}  // namespace kobalt::test
