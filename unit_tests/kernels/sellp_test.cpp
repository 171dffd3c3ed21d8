// SPDX-License-Identifier: BSD-3-Clause
// SELL-P kernel (001's t threads per row, 000 Alg. 5 as t = 1) against the
// reference on every edge matrix for slice sizes b in {1, 3, 32, 64} and
// stride factors t in {1, 2, 8}, each also sorted in windows of 4b rows
// (SELL-C-sigma: y comes back in the matrix's row order), plus forced shapes
// (lanes over a slice's rows, threads per row, slices per team) where the
// backend runs teams, and more threads per row than it runs (fewer run).
#include "fixtures/direct_kernel_check.hpp"
#include "fixtures/profiles.hpp"
#include "fixtures/spmv_check.hpp"
#include "fixtures/team_limits.hpp"
#include "fixtures/types.hpp"

#include <algorithm>
#include <vector>

namespace kobalt::test {
namespace {

template <class T>
class SellpSpmv : public ::testing::Test {};
TYPED_TEST_SUITE(SellpSpmv, ValueIndexTypes, TypeNames);

inline std::string describe(const sellp_params& p) {
  return "sellp(b=" + std::to_string(p.slice_size) + ", t=" + std::to_string(p.stride_factor) +
         ", sigma=" + std::to_string(p.sort_window) + ")";
}

TYPED_TEST(SellpSpmv, MatchesReferenceOnEdgeMatrices) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  for (const auto& m : edge_matrices<V, I>()) {
    const auto a = make_csr(m.matrix);
    Triplets<V, I> assembled = m.matrix;
    assembled.assemble();
    for (std::int64_t b : {1, 3, 4, 8, 16, 32, 64}) {  // 4, 8, 16: SIMD slices on hosts
      for (std::int64_t t : {1, 2, 8}) {
        for (std::int64_t sigma : {std::int64_t{1}, 4 * b}) {
          const sellp_params p{b, t, 0, sigma};
          expect_spmv_matches_reference(to_sellp(a, p), assembled, m.name + " " + describe(p));
        }
      }
    }
  }
}

TYPED_TEST(SellpSpmv, ForcedShapesMatchReference) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  using device = default_device;
  using exec = device::execution_space;
  const int max_team = max_team_threads(), max_vector = max_vector_length();
  const bool on_host = arch::lanes<exec>::max_width == 1;
  for (const auto& m : edge_matrices<V, I>()) {
    const auto a = make_csr(m.matrix);
    Triplets<V, I> assembled = m.matrix;
    assembled.assemble();
    for (const sellp_params& f : {sellp_params{3, 2, 0}, sellp_params{8, 1, 0},
                                  sellp_params{3, 2, 0, 12}, sellp_params{8, 1, 0, 64}}) {
      const auto s = to_sellp(a, f);
      // Every body for every shape: any t is correct in each (the thread per
      // row ignores it); SIMD slices on hosts with slices of 8 rows.
      std::vector<tuning::LaunchForm> forms = {tuning::LaunchForm::thread_per_row,
                                               tuning::LaunchForm::column_groups};
      if (on_host && tuning::host_simd_slice(s.slice_size()))
        forms.push_back(tuning::LaunchForm::host_simd);
      for (const tuning::LaunchForm form : forms) {
        for (int lanes : {1, 2, 8, 32}) {
          for (int t : {1, 2, 3}) {
            for (int slices_per_team : {1, 2}) {
              tuning::LaunchShape p;
              p.part = "slices";
              p.vector_length = lanes;
              p.row_threads = t;
              p.team_size = t * slices_per_team;
              p.form = form;
              if (p.team_size * p.vector_length > max_team || lanes > max_vector) continue;
              expect_direct_kernel_matches<V, device>(
                  assembled,
                  [&](const auto& x, const auto& y, V alpha, V beta) {
                    detail::sellp_slices(exec(), p, "test::sellp", alpha, s, x, beta, y);
                  },
                  m.name + " " + describe(f) + " " + p.str());
            }
          }
        }
      }
    }
  }
}

TEST(SellpSpmvShapes, MoreThreadsPerRowThanTheBackendRunsFallsBack) {
  // A team of t threads per row that the backend cannot run (registers cap
  // complex<double> teams on CUDA; Serial runs one thread per team) runs with
  // fewer threads per row and still matches the reference. Every row's width
  // is a multiple of the requested t, not of the one that runs.
  using V = double;
  using device = default_device;
  using exec = device::execution_space;
  const int max_team = max_team_threads();
  if (max_team >= 1024) GTEST_SKIP() << "the backend runs teams of " << max_team;
  for (const auto& m : edge_matrices<V, std::int32_t>()) {
    Triplets<V, std::int32_t> assembled = m.matrix;
    assembled.assemble();
    const auto s = to_sellp(make_csr(m.matrix), {4, 8, 0});
    tuning::LaunchShape p;
    p.part = "slices";
    p.row_threads = 2 * max_team;
    p.team_size = p.row_threads;
    p.form = tuning::LaunchForm::column_groups;
    expect_direct_kernel_matches<V, device>(
        assembled,
        [&](const auto& x, const auto& y, V alpha, V beta) {
          detail::sellp_slices(exec(), p, "test::sellp", alpha, s, x, beta, y);
        },
        m.name + " t=" + std::to_string(p.row_threads));
  }
}

TEST(SellpSpmvShapes, FormsTheKernelCannotRunAreRefused) {
  // The kernel runs the body the launch names and picks none itself: no
  // form, a CSR form, or host SIMD slices it is not built for (or on a GPU).
  using V = double;
  using device = default_device;
  using exec = device::execution_space;
  const auto matrices = edge_matrices<V, std::int32_t>();
  const auto& m = matrices.front();
  const auto s = to_sellp(make_csr(m.matrix), {3, 1, 0});
  Kokkos::View<V*, device> x("x", s.cols()), y("y", s.rows());
  for (const tuning::LaunchForm form :
       {tuning::LaunchForm::single, tuning::LaunchForm::one_launch,
        tuning::LaunchForm::host_simd}) {
    tuning::LaunchShape p;
    p.part = "slices";
    p.vector_length = 3;
    p.form = form;
    EXPECT_THROW(detail::sellp_slices(exec(), p, "test::sellp", V(1), s, x, V(0), y),
                 invalid_parameter)
        << tuning::form_name(form);
  }
}

TEST(SellpSpmvMixed, FloatMatrixDoubleVectors) {
  for (const auto& m : edge_matrices<float, std::int32_t>()) {
    Triplets<float, std::int32_t> assembled = m.matrix;
    assembled.assemble();
    for (const sellp_params& p : {sellp_params{}, sellp_params{4, 1, 0, 16}}) {
      const auto s = to_sellp(make_csr(m.matrix), p);
      for (const auto& c : spmv_cases()) expect_spmv_case<double>(s, assembled, c, m.name + " " + describe(p));
    }
  }
}

TEST(SellpPolicy, StrideFactorThreadsPerRow) {
  // 001: t = the stride factor threads per row, lanes over the slice's rows
  // (a power of two up to the warp), whole slices per team of up to 128
  // threads. Hosts: one thread per slice.
  using exec = default_device::execution_space;
  const auto gpu = fake_gpu_profile();
  for (std::int64_t b : {1, 3, 8, 32, 64, 1000}) {
    for (std::int64_t t : {1, 2, 8}) {
      const auto p = tuning::select(tuning::MatrixStats{}, gpu, sellp::slices{}, b, t).launches.at(0);
      const int lanes = static_cast<int>(std::min<std::int64_t>(b >= 32 ? 32 : b == 3 ? 2 : b, 32));
      EXPECT_EQ(p.vector_length, lanes) << b << " " << t;
      EXPECT_EQ(p.row_threads, t) << b << " " << t;
      EXPECT_EQ(p.team_size, std::max<std::int64_t>(1, 128 / (t * lanes)) * t) << b << " " << t;
      EXPECT_EQ(p.rows_per_team, p.team_size / t * b) << b << " " << t;
      const auto h =
          tuning::select(tuning::MatrixStats{}, tuning::profile_of(exec()), sellp::slices{}, b, t)
              .launches.at(0);
      EXPECT_EQ(p.form, t > 1 ? tuning::LaunchForm::column_groups
                              : tuning::LaunchForm::thread_per_row)
          << b << " " << t;
      if (!tuning::profile_of(exec()).gpu) {
        EXPECT_EQ(h.team_size, 1);
        EXPECT_EQ(h.row_threads, 1);
        // Slices of 4, 8 or 16 rows are SIMD vectors on hosts.
        EXPECT_EQ(h.vector_length, b == 8 ? 8 : 1) << b;
        EXPECT_EQ(h.form, b == 8 ? tuning::LaunchForm::host_simd
                                 : tuning::LaunchForm::thread_per_row)
            << b;
      }
    }
  }
}

}  // namespace
}  // namespace kobalt::test
