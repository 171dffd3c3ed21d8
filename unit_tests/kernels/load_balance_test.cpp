// SPDX-License-Identifier: BSD-3-Clause
// The warp-chunk kernels of the skewed-matrix issue against the reference:
// CSR load_balance (kernels/csr_load_balance.hpp), CSR merge_path
// (kernels/csr_merge_path.hpp), COO segmented
// (kernels/coo_segmented.hpp, 000 Alg. 1), COO load_balance
// (kernels/coo_load_balance.hpp; team tiles on GPUs, and on hosts with
// teams of one thread on the edge matrices), Hybrid's COO part
// (segmented and load_balance) and ALIGNED_COO's flat part (flat_then_seg), on every
// edge matrix and every shared matrix, rank 1 and rank 2, at the tuned
// chunk size and at tiny chunks (1, 2, 5 and 64 entries per lane), where
// every row of more than a few entries is split over many chunks: the
// split-row path (partials combined by the last chunk to arrive) and the
// COO atomics run on every backend, Serial included. CSR load_balance,
// merge_path, COO load_balance and the fixed-order Hybrid and ALIGNED_COO
// strategies are deterministic: two applies give the same bits.
#include "fixtures/chunk_kernels.hpp"
#include "fixtures/shared_matrices.hpp"
#include "fixtures/spmv_check.hpp"
#include "fixtures/types.hpp"

#include <algorithm>
#include <cstring>

namespace kobalt::test {
namespace {

using exec_type = Kokkos::DefaultExecutionSpace;

template <class T>
class LoadBalanceSpmv : public ::testing::Test {};
TYPED_TEST_SUITE(LoadBalanceSpmv, ValueIndexTypes, TypeNames);

TYPED_TEST(LoadBalanceSpmv, EveryEdgeMatrixAtEveryChunkSize) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  const bool gpu = tuning::cached_profile_of(exec_type()).gpu;
  for (const auto& m : edge_matrices<V, I>()) {
    expect_chunk_kernels_match(m.matrix, m.name, {0, 1, 2, 5, 64});
    expect_composite_chunks_match(m.matrix, m.name, {0, 1, 2, 5, 64});
    if (!gpu) expect_host_team_tiles_match(m.matrix, m.name);
  }
}

TYPED_TEST(LoadBalanceSpmv, AutomaticPicksAKernelThatMatchesReference) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  const exec_type exec;
  for (const auto& m : edge_matrices<V, I>()) {
    Triplets<V, I> t = m.matrix;
    t.assemble();
    const auto a = make_csr(t);
    const auto h = make_handle(exec, a, csr::strategy{csr::automatic{}});
    // The handle runs and names the kernel 003 Alg. 3 picked.
    EXPECT_FALSE(std::holds_alternative<csr::automatic>(h.strategy())) << m.name;
    EXPECT_NE(h.policy().rule.find("automatic: "), std::string::npos) << m.name;
    expect_handle_matches_reference(exec, h, a, t, m.name + " csr:automatic");
    expect_spmv_matches_reference(a, t, m.name + " csr:automatic (no handle)",
                                  csr::strategy{csr::automatic{}});
  }
}

// Rows longer than a chunk, a team and the whole launch: one row of 5000
// entries beside short rows, at chunks of 1 entry per lane (thousands of
// parts per row, combined by the last to arrive).
TYPED_TEST(LoadBalanceSpmv, RowsLongerThanTheWholeLaunch) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  Triplets<V, I> t;
  t.rows = 300;
  t.cols = 5000;
  Lcg rng(5);
  for (I j = 0; j < 5000; ++j) t.push_back(7, j, static_cast<V>(rng.uniform() - 0.5));
  for (I i = 0; i < t.rows; ++i)
    if (i != 7 && i % 4 != 0) t.push_back(i, (i * 13) % t.cols, static_cast<V>(1 + i % 3));
  for (I j = 0; j < 3000; ++j) t.push_back(299, j, V(0.25));  // the last row long too
  expect_chunk_kernels_match(t, "long_rows", {0, 1, 3});
  expect_composite_chunks_match(t, "long_rows", {0, 1, 3});
}

TEST(LoadBalanceDeterminism, TwoAppliesGiveTheSameBits) {
  Triplets<double, int> t;
  t.rows = 64;
  t.cols = 4096;
  Lcg rng(11);
  for (int i = 0; i < t.rows; ++i) {
    const int len = i % 8 == 0 ? 4000 : 1 + i % 5;
    for (int j = 0; j < len; ++j) t.push_back(i, (j * 7 + i) % t.cols, rng.uniform() - 0.5);
  }
  t.assemble();
  const exec_type exec;
  const auto a = make_csr(t);
  Kokkos::View<double*> x("x", t.cols), y0("y0", t.rows), y1("y1", t.rows);
  auto xh = Kokkos::create_mirror_view(x);
  for (int j = 0; j < t.cols; ++j) xh(j) = rng.uniform() - 0.5;
  Kokkos::deep_copy(x, xh);
  const auto same_bits_every_apply = [&](const auto& matrix, const auto& h, const std::string& what) {
    spmv(exec, h, 1.0, matrix, x, 0.0, y0);
    for (int repeat = 0; repeat < 5; ++repeat) {
      spmv(exec, h, 1.0, matrix, x, 0.0, y1);
      const auto a0 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y0);
      const auto a1 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y1);
      EXPECT_EQ(std::memcmp(a0.data(), a1.data(), a0.extent(0) * sizeof(double)), 0)
          << what << " repeat " << repeat;
    }
  };
  for (const csr::strategy s : {csr::strategy{csr::load_balance{}}, csr::strategy{csr::merge_path{}}})
    same_bits_every_apply(a, handle_with_chunks(a, s, 1), strategy_name(s));
  const auto coo = to_coo(a);
  same_bits_every_apply(coo, handle_with_chunks(coo, coo::load_balance{}, 1), "coo:load_balance");
  const auto hyb = to_hybrid(a, hybrid::column_limit{2});
  same_bits_every_apply(hyb, handle_with_chunks(hyb, hybrid::ell_then_load_balance{}, 1),
                        "hybrid:ell_then_load_balance");
  const auto aligned = to_aligned_coo(a);
  same_bits_every_apply(aligned, handle_with_chunks(aligned, aligned_coo::flat_then_seg{}, 1),
                        "aligned_coo:flat_then_seg");
  // Rows of at most 12 entries: merge_path in one launch on GPUs.
  Triplets<double, int> short_rows;
  short_rows.rows = 512;
  short_rows.cols = t.cols;
  for (int i = 0; i < short_rows.rows; ++i)
    for (int j = 0; j < 1 + i % 12; ++j)
      short_rows.push_back(i, (j * 97 + i) % t.cols, rng.uniform() - 0.5);
  short_rows.assemble();
  const auto b = make_csr(short_rows);
  Kokkos::resize(y0, b.rows());
  Kokkos::resize(y1, b.rows());
  same_bits_every_apply(b, handle_with_chunks(b, csr::merge_path{}, 1), "merge_path, short rows");
}

// The merge path's two forms (kernels/csr_merge_path.hpp): on GPUs the rows
// left open between tiles are finished in the tile kernel where the policy
// asks for it (LaunchForm::one_launch) and no run of tiles ending inside one
// row is longer than the warp width; a longer run keeps the fixup launch;
// hosts walk their tiles and never take the one-launch workspace. The longest run is checked against the tile starts
// seen from the host, and both forms against the reference, twice (the
// one-launch counters must be back at 0 for the second apply).
TEST(MergePathForms, OneLaunchWhileEveryRunFitsTheWarp) {
  const exec_type exec;
  const int width = arch::warp_width(exec);
  Lcg rng(17);
  Triplets<double, int> short_rows;  // rows of 1-40 entries
  short_rows.rows = short_rows.cols = 3000;
  for (int i = 0; i < short_rows.rows; ++i)
    for (int j = 0; j < 1 + (i * 7) % 40; ++j)
      short_rows.push_back(i, (i + 31 * j) % short_rows.cols, rng.uniform() - 0.5);
  Triplets<double, int> long_row = short_rows;  // and one row of 6000 entries
  long_row.cols = 6000;
  for (int j = 0; j < 6000; ++j) long_row.push_back(1234, j, rng.uniform() - 0.5);
  constexpr auto one_launch = tuning::LaunchForm::one_launch;
  constexpr auto fixup = tuning::LaunchForm::with_fixup;
  for (const auto* t : {&short_rows, &long_row}) {
    Triplets<double, int> m = *t;
    m.assemble();
    const auto a = make_csr(m);
    const auto row_ptr = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a.row_ptr());
    std::int64_t max_row = 0;
    for (int i = 0; i < a.rows(); ++i)
      max_row = std::max<std::int64_t>(max_row, row_ptr(i + 1) - row_ptr(i));
    for (const std::int64_t tile : {std::int64_t(32), std::int64_t(256)}) {
      const auto p = kobalt::detail::make_csr_merge_path(exec, a, tile, one_launch);
      // The most tile ends that fall inside one row, from the host.
      std::int64_t longest = 0, run = 0, previous = -1;
      for (std::int64_t t = 1; t <= p.tiles(); ++t) {
        const std::int64_t items = a.rows() + a.nnz();
        const std::int64_t r =
            kobalt::detail::merge_path_row(row_ptr, a.rows(), a.nnz(), std::min(t * tile, items));
        run = r == previous ? run + 1 : 1;
        previous = r;
        if (r < a.rows()) longest = std::max(longest, run);
      }
      const std::string what = std::to_string(a.nnz()) + " nonzeros, tile " + std::to_string(tile);
      EXPECT_EQ(p.longest_run, longest) << what;
      // Asked for one launch, the builder still checks the runs it measures.
      EXPECT_EQ(p.one_launch(), width > 1 && longest <= width) << what;
      // The selector's bound holds: no run is longer than the longest row's tiles.
      EXPECT_LE(longest, (max_row + tile) / tile) << what;
      // Asked for the fixup launch, it never builds the one-launch workspace.
      EXPECT_FALSE(kobalt::detail::make_csr_merge_path(exec, a, tile, fixup).one_launch()) << what;
    }
    // Tiles of 32 lanes x 1 item per lane: the long row spans about 190;
    // 12 per lane take two rounds of loads (merge_path_batch is 8).
    for (const std::int64_t per_lane : {1, 8, 12}) {
      const auto h = handle_with_chunks(a, csr::merge_path{}, per_lane);
      for (int apply = 0; apply < 2; ++apply)
        expect_handle_matches_reference(exec, h, a, m,
                                        "merge_path per_lane=" + std::to_string(per_lane) +
                                            " apply " + std::to_string(apply));
    }
    // Tiles per team: 2, 4 and 16 warps, 1 to 12 items per thread, both
    // forms; the long row spans up to 190 of them (the fixup).
    for (const int warps : {2, 4, 16})
      for (const std::int64_t per_lane : {1, 5, 12})
        for (const auto form : {one_launch, fixup}) {
          const auto h = merge_path_team_tiles(a, warps, per_lane, form);
          for (int apply = 0; apply < 2; ++apply)
            expect_handle_matches_reference(
                exec, h, a, m,
                "merge_path team of " + std::to_string(warps) + " warps, per_lane=" +
                    std::to_string(per_lane) + " " + tuning::form_name(form) + " apply " +
                    std::to_string(apply));
        }
  }
  if (width > 1) {  // both forms were reached
    const auto shorts =
        kobalt::detail::make_csr_merge_path(exec, make_csr(short_rows), 256, one_launch);
    EXPECT_TRUE(shorts.one_launch());
  }
}

// COO load_balance on arrays that do not start on a 16-byte boundary
// (Views into larger arrays, one entry in): GPU team tiles read such runs
// entry by entry instead of with 16-byte loads.
TYPED_TEST(LoadBalanceSpmv, CooArraysOffTheirAlignment) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  using Matrix = Coo<V, I>;
  Triplets<V, I> t;
  t.rows = 700;
  t.cols = 900;
  Lcg rng(3);
  for (I i = 0; i < t.rows; ++i)
    for (I j = 0; j < (i % 50 == 0 ? 400 : i % 7); ++j)
      t.push_back(i, (j * 31 + i) % t.cols, static_cast<V>(rng.uniform() - 0.5));
  t.assemble();
  const auto coo = to_coo(make_csr(t));
  const std::int64_t nnz = coo.nnz();
  const std::pair<std::int64_t, std::int64_t> shifted(1, nnz + 1);
  typename Matrix::index_view row("row", nnz + 1), col("col", nnz + 1);
  typename Matrix::value_view val("val", nnz + 1);
  Kokkos::deep_copy(Kokkos::subview(row, shifted), coo.row_indices());
  Kokkos::deep_copy(Kokkos::subview(col, shifted), coo.col_indices());
  Kokkos::deep_copy(Kokkos::subview(val, shifted), coo.values());
  const Matrix off(coo.rows(), coo.cols(), Kokkos::subview(row, shifted),
                   Kokkos::subview(col, shifted), Kokkos::subview(val, shifted));
  const exec_type exec;
  for (const std::int64_t per_lane : {0, 1, 3})
    expect_handle_matches_reference(exec, handle_with_chunks(off, coo::load_balance{}, per_lane),
                                    off, t, "coo:load_balance off alignment per_lane=" +
                                                std::to_string(per_lane));
}

// The chunks' borders that GPU team tiles read from the handle: per chunk,
// the first chunk of the row its first entry lies in and the last chunk of
// the row its last entry lies in, against a walk over the row indices; and
// none for the warp chunks.
TYPED_TEST(LoadBalanceSpmv, CooBorderChunksAreWhereTheBorderRowsStartAndEnd) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  const exec_type exec;
  for (const auto& m : edge_matrices<V, I>()) {
    Triplets<V, I> t = m.matrix;
    t.assemble();
    const auto coo = to_coo(make_csr(t));
    const std::int64_t nnz = coo.nnz();
    const auto row = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), coo.row_indices());
    for (const std::int64_t chunk : {1, 3, 8, 64}) {
      const auto p = kobalt::detail::make_coo_load_balance(exec, coo, chunk,
                                                           tuning::LaunchForm::team_tiles);
      const auto border =
          Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), p.border_chunks);
      const std::int64_t chunks = (nnz + chunk - 1) / chunk;
      ASSERT_EQ(static_cast<std::int64_t>(border.extent(0)), 2 * chunks) << m.name;
      for (std::int64_t c = 0; c < chunks; ++c) {
        std::int64_t start = c * chunk, end = std::min(nnz, start + chunk) - 1;
        while (start > 0 && row(start - 1) == row(c * chunk)) --start;
        const I last_row = row(end);
        while (end + 1 < nnz && row(end + 1) == last_row) ++end;
        EXPECT_EQ(border(2 * c), start / chunk) << m.name << " chunk " << chunk << " c " << c;
        EXPECT_EQ(border(2 * c + 1), end / chunk) << m.name << " chunk " << chunk << " c " << c;
      }
      // The warp chunks never read them, so their workspace holds none.
      EXPECT_EQ(kobalt::detail::make_coo_load_balance(exec, coo, chunk, tuning::LaunchForm::single)
                    .border_chunks.extent(0),
                0u)
          << m.name << " chunk " << chunk;
    }
  }
}

using LoadBalanceShared = NeedsSharedMatrices<>;

TEST_F(LoadBalanceShared, EverySharedMatrix) {
  for (const std::string& name : shared_matrix_names()) {
    const auto& t = shared_matrix<double, std::int32_t>(name);
    expect_chunk_kernels_match(t, name, {0, 3});
    expect_composite_chunks_match(t, name, {0});
    const auto& f = shared_matrix<float, std::int64_t>(name);
    expect_chunk_kernels_match(f, name + " float/int64", {0});
  }
}

}  // namespace
}  // namespace kobalt::test
