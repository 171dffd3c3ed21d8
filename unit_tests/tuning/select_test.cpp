// SPDX-License-Identifier: BSD-3-Clause
// tuning::select (tuning/select.hpp), for the host profile of this process
// and a hand-built GPU profile: the launch shapes of every kernel strategy
// (CSR subwarps per 003 Alg. 2, ELL lanes per 000 Alg. 4's 1e-2 rule,
// SELL-P teams, COO chunks, hybrid and ALIGNED_COO launch pairs, CSR-k block
// shapes per 002 §4.1 rdensity case), and the resolution of conversion
// parameters into layouts (hybrid partitions -> ELL width, csrk::parameters
// -> csrk::layout with its invalid_parameter cases, aligned_coo::params ->
// aligned_coo::layout).
#include "fixtures/profiles.hpp"
#include "fixtures/row_lengths.hpp"
#include "fixtures/team_limits.hpp"
#include "fixtures/types.hpp"

#include <kobalt/kobalt.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace kobalt::test {
namespace {

using tuning::DeviceProfile;
using tuning::LaunchShape;
using tuning::MatrixStats;
using tuning::SpmvPolicy;

MatrixStats stats_of(std::int64_t rows, std::int64_t max_row_nnz, double mean_row_nnz = 1.0) {
  MatrixStats s;
  s.rows = rows;
  s.cols = rows;
  s.max_row_nnz = max_row_nnz;
  s.mean_row_nnz = mean_row_nnz;
  s.nnz = static_cast<std::int64_t>(mean_row_nnz * static_cast<double>(rows));
  return s;
}

/// A graph of `rows` rows and exactly `nnz` nonzeros, none longer than 100.
MatrixStats graph_of(std::int64_t rows, std::int64_t nnz) {
  MatrixStats st = stats_of(rows, 100, double(nnz) / double(rows));
  st.nnz = nnz;
  return st;
}

/// The policy's one launch, by value (the policy is often a temporary).
LaunchShape only_launch(const SpmvPolicy& p) {
  EXPECT_EQ(p.launches.size(), 1u) << p;
  return p.launches.at(0);
}

TEST(SelectHelpers, PowersOfTwo) {
  EXPECT_EQ(tuning::floor_pow2_capped(0, 32), 1);
  EXPECT_EQ(tuning::floor_pow2_capped(1, 32), 1);
  EXPECT_EQ(tuning::floor_pow2_capped(3, 32), 2);
  EXPECT_EQ(tuning::floor_pow2_capped(31, 32), 16);
  EXPECT_EQ(tuning::floor_pow2_capped(32, 32), 32);
  EXPECT_EQ(tuning::floor_pow2_capped(1000, 32), 32);
  EXPECT_EQ(tuning::floor_pow2_capped(1000, 1), 1);
  EXPECT_EQ(tuning::ceil_pow2_capped(0, 64), 1);
  EXPECT_EQ(tuning::ceil_pow2_capped(5, 64), 8);
  EXPECT_EQ(tuning::ceil_pow2_capped(8, 64), 8);
  EXPECT_EQ(tuning::ceil_pow2_capped(100, 32), 32);
  EXPECT_EQ(tuning::ceil_pow2_capped(100, 1), 1);
}

TEST(SelectProfiles, HostAndFakeGpu) {
  const DeviceProfile host = host_profile();
  EXPECT_FALSE(host.gpu);
  EXPECT_EQ(host.warp_width, 1);
  const DeviceProfile gpu = fake_gpu_profile();
  EXPECT_TRUE(gpu.gpu);
  EXPECT_EQ(gpu.warp_width, 32);
  EXPECT_EQ(gpu.team_threads, 128);
}

// ---- kernel strategies -------------------------------------------------------

TEST(SelectCsr, ClassicalLanesAreTheFloorPowerOfTwoOfTheLongestRowCappedAtTheWarp) {
  const DeviceProfile gpu = fake_gpu_profile();
  const struct {
    std::int64_t longest;
    int lanes;
  } expected[] = {{0, 1},   {1, 1},   {2, 2},   {3, 2},   {5, 4},     {8, 8},
                  {31, 16}, {32, 32}, {33, 32}, {64, 32}, {1000, 32}};
  for (const auto& e : expected) {
    const SpmvPolicy p = tuning::select(stats_of(1000, e.longest), gpu, csr::classical{});
    EXPECT_EQ(p.format, "csr");
    EXPECT_EQ(p.kernel, "classical");
    const LaunchShape s = only_launch(p);
    EXPECT_EQ(s.part, "rows");
    EXPECT_EQ(s.vector_length, e.lanes) << e.longest;
    EXPECT_EQ(s.team_size, 128 / e.lanes) << e.longest;
    EXPECT_EQ(s.rows_per_team, s.team_size) << e.longest;  // GPU: a team thread per row
    EXPECT_NE(p.rule.find("longest row " + std::to_string(e.longest)), std::string::npos) << p.rule;
  }
  // A 64-lane wavefront lets the subwarp grow to 64.
  DeviceProfile wave = gpu;
  wave.warp_width = 64;
  EXPECT_EQ(only_launch(tuning::select(stats_of(10, 100), wave, csr::classical{})).vector_length,
            64);
  EXPECT_EQ(only_launch(tuning::select(stats_of(10, 100), wave, csr::classical{})).team_size, 2);
  // Host: one lane whatever the rows, one thread walks rows_per_team rows.
  const DeviceProfile host = host_profile();
  for (std::int64_t longest : {0, 1, 7, 100, 5000}) {
    const LaunchShape s = only_launch(tuning::select(stats_of(1000, longest), host,
                                                      csr::classical{}));
    EXPECT_EQ(s.vector_length, 1) << longest;
    EXPECT_EQ(s.team_size, std::max(1, host.team_threads)) << longest;
    EXPECT_EQ(s.rows_per_team, host.rows_per_team) << longest;
  }
}

TEST(SelectCsr, BasicIsOneThreadPerRow) {
  for (const DeviceProfile& profile : {host_profile(), fake_gpu_profile()}) {
    const SpmvPolicy p = tuning::select(stats_of(1000, 500), profile, csr::basic{});
    EXPECT_EQ(p.kernel, "basic");
    const LaunchShape s = only_launch(p);
    EXPECT_EQ(s.vector_length, 1) << profile;
    EXPECT_EQ(s.team_size, std::max(1, profile.team_threads)) << profile;
    EXPECT_EQ(s.rows_per_team, profile.gpu ? s.team_size : profile.rows_per_team) << profile;
  }
  // The variant picks its alternative; the default is automatic, which
  // resolves to classical on this small regular matrix.
  const DeviceProfile gpu = fake_gpu_profile();
  EXPECT_EQ(tuning::select(stats_of(10, 20, 20.0), gpu, csr::strategy{}).str(),
            tuning::select(stats_of(10, 20, 20.0), gpu, csr::classical{}).str());
  EXPECT_EQ(tuning::select(stats_of(10, 20), gpu, csr::strategy{csr::basic{}}).str(),
            tuning::select(stats_of(10, 20), gpu, csr::basic{}).str());
  EXPECT_EQ(strategy_name(csr::strategy{}), "automatic");
  EXPECT_EQ(strategy_name(csr::strategy{csr::basic{}}), "basic");
  EXPECT_EQ(strategy_name(csr::strategy{csr::load_balance{}}), "load_balance");
}

// Hosts: CSR automatic is always merge_path. A matrix beyond the last-level
// cache (8 bytes per nonzero) gets host_tiles_per_thread tiles per thread of
// at least host_min_tile_items, never fewer than threads, handed out
// dynamically; one that fits, or an unknown cache, one tile per thread
// (issue 15).
TEST(SelectCsr, AutomaticOnHostsCutsTilesByTheCache) {
  DeviceProfile host = host_profile();
  host.compute_units = 3;
  const auto tiles_of = [&](const MatrixStats& st, const char* phrase) {
    EXPECT_TRUE(std::holds_alternative<csr::merge_path>(
        tuning::resolve(st, host, csr::strategy{csr::automatic{}})));
    const SpmvPolicy p = tuning::select(st, host, csr::automatic{});
    EXPECT_EQ(p.kernel, "merge_path");
    const LaunchShape s = only_launch(p);
    EXPECT_EQ(s.vector_length, 1);
    EXPECT_EQ(s.team_size, 1);
    EXPECT_NE(p.rule.find(phrase), std::string::npos) << p.rule;
    const std::int64_t items = st.rows + st.nnz;
    return (items + s.entries_per_thread - 1) / s.entries_per_thread;
  };
  const char* dynamic = "handed out dynamically";
  const char* fixed = "one tile of equal rows + nonzeros per thread";
  const MatrixStats large = stats_of(30000000, 2000, 5.0);  // 1.5e8 nonzeros
  const MatrixStats mid = stats_of(50000, 5, 2.0);          // 1e5 nonzeros, 1.5e5 items
  host.l2_bytes = 0;  // unknown cache: the static split
  EXPECT_EQ(tiles_of(large, fixed), 3);
  host.l2_bytes = std::uint64_t(300) << 20;
  EXPECT_EQ(tiles_of(large, dynamic), 3 * tuning::host_tiles_per_thread);
  EXPECT_EQ(tiles_of(mid, fixed), 3);  // 0.8 MB fits
  host.l2_bytes = std::uint64_t(256) << 10;
  // Beyond a 256 KiB cache: tiles of host_min_tile_items (150000 / 16384 -> 10).
  EXPECT_EQ(tiles_of(mid, dynamic), 10);
  // Beyond the cache yet under host_min_tile_items per thread: one tile per
  // thread, never fewer (36000 nonzeros, 45000 items).
  EXPECT_EQ(tiles_of(stats_of(9000, 4, 4.0), "too few items for more tiles"), 3);
  // A profile's merge_path_items fixes the tile instead.
  host.merge_path_items = 100;
  EXPECT_EQ(only_launch(tuning::select(stats_of(1000, 3), host, csr::merge_path{})).entries_per_thread,
            100);
}

// GPU merge_path: the selector decides the form from the longest row. With
// tiles of 256 items (32 lanes x 8) a row of L nonzeros spans at most
// ceil((L + 1) / 256) tiles, so rows up to 8191 finish in the tile kernel
// (32 tiles, one warp's worth) and longer ones take the fixup launch; the
// launch prints its form and the rule says why. Hosts have no second launch.
TEST(SelectCsr, MergePathFormFromTheLongestRow) {
  const DeviceProfile gpu = fake_gpu_profile();
  for (const auto& [longest, form] :
       {std::pair{std::int64_t(0), tuning::LaunchForm::one_launch},
        std::pair{std::int64_t(8191), tuning::LaunchForm::one_launch},
        std::pair{std::int64_t(8192), tuning::LaunchForm::with_fixup},
        std::pair{std::int64_t(2000000), tuning::LaunchForm::with_fixup}}) {
    const MatrixStats st = stats_of(1000, longest, longest > 0 ? 5.0 : 0.0);
    const SpmvPolicy p = tuning::select(st, gpu, csr::merge_path{});
    EXPECT_EQ(only_launch(p).form, form) << longest;
    EXPECT_EQ(tuning::merge_path_in_one_launch(st, gpu), form == tuning::LaunchForm::one_launch);
    EXPECT_NE(p.str().find(std::string("form=") + tuning::form_name(form)), std::string::npos)
        << p.str();
    EXPECT_NE(p.rule.find(form == tuning::LaunchForm::one_launch ? "in the tile kernel"
                                                                 : "by a fixup launch"),
              std::string::npos)
        << p.rule;
  }
  // A longest row unknown (none recorded for a matrix with entries): the fixup.
  EXPECT_EQ(only_launch(tuning::select(stats_of(10, 0, 3.0), gpu, csr::merge_path{})).form,
            tuning::LaunchForm::with_fixup);
  const SpmvPolicy h = tuning::select(stats_of(1000, 20000, 5.0), host_profile(), csr::merge_path{});
  EXPECT_EQ(only_launch(h).form, tuning::LaunchForm::single);
  EXPECT_EQ(h.str().find("form="), std::string::npos) << h.str();
}

// GPU merge_path: a tile per team of merge_path_team_warps warps where the
// matrix stays in the L2 (8 bytes per nonzero within half the L2) and fills
// a team tile per compute unit, a tile per warp otherwise and wherever the L2 is unknown; the profile's items per
// lane in both, and the one-launch bound counted in the longer tiles.
TEST(SelectCsr, MergePathTeamTilesWhereTheMatrixStaysInTheL2) {
  DeviceProfile gpu = fake_gpu_profile();
  const auto warps = [&](const MatrixStats& st) {
    return only_launch(tuning::select(st, gpu, csr::merge_path{})).row_threads;
  };
  const MatrixStats graph = stats_of(325557, 2716, 9.88);  // a web graph of 3.2e6 nonzeros
  const MatrixStats large = stats_of(5000000, 3000000, 10.0);  // 5e7 nonzeros: streams
  EXPECT_EQ(gpu.l2_bytes, 0u);
  EXPECT_EQ(warps(graph), 1);
  gpu.l2_bytes = std::uint64_t(60) << 20;
  EXPECT_EQ(warps(graph), tuning::merge_path_team_warps);
  EXPECT_GT(tuning::merge_path_team_warps, 1);
  const SpmvPolicy p = tuning::select(graph, gpu, csr::merge_path{});
  const LaunchShape& l = only_launch(p);
  EXPECT_EQ(l.team_size, tuning::merge_path_team_warps);
  EXPECT_EQ(l.entries_per_thread, gpu.merge_path_items);
  EXPECT_NE(p.rule.find("within half the L2"), std::string::npos) << p.rule;
  EXPECT_NE(p.str().find("row_threads=" + std::to_string(tuning::merge_path_team_warps)),
            std::string::npos)
      << p.str();
  EXPECT_EQ(l.form, tuning::LaunchForm::one_launch);
  EXPECT_EQ(warps(large), 1);
  // Fewer items than a team tile per compute unit: warp tiles.
  const std::int64_t team_tile = std::int64_t(gpu.merge_path_items) * gpu.warp_width *
                                 tuning::merge_path_team_warps;
  MatrixStats small = graph;
  small.rows = 1000;
  small.nnz = team_tile * gpu.compute_units - small.rows - 1;
  EXPECT_EQ(warps(small), 1);
  small.nnz += 1;
  EXPECT_EQ(warps(small), tuning::merge_path_team_warps);
  // The bounds: 8 bytes per nonzero at exactly half the L2 still fit.
  MatrixStats edge = graph;
  edge.nnz = static_cast<std::int64_t>(gpu.l2_bytes / 16);
  EXPECT_EQ(warps(edge), tuning::merge_path_team_warps);
  edge.nnz += 1;
  EXPECT_EQ(warps(edge), 1);
  // One launch while the longest row spans at most W runs of team tiles
  // (W * tile items), which warp tiles would have sent to the fixup.
  MatrixStats long_row = graph;
  long_row.max_row_nnz = tuning::merge_path_one_launch_runs * gpu.warp_width * team_tile - 1;
  EXPECT_EQ(only_launch(tuning::select(long_row, gpu, csr::merge_path{})).form,
            tuning::LaunchForm::one_launch);
  long_row.max_row_nnz += 1;
  EXPECT_EQ(only_launch(tuning::select(long_row, gpu, csr::merge_path{})).form,
            tuning::LaunchForm::with_fixup);
}

// GPU warp tiles of a matrix with fewer items than one team tile per
// compute unit take merge_path_small_items per lane, more where the longest
// row would otherwise leave the one launch it has at the profile's count;
// from that floor on (and past half the L2, where warp tiles stay) the
// profile's items.
TEST(SelectCsr, MergePathSmallMatricesTakeShorterWarpTiles) {
  DeviceProfile gpu = fake_gpu_profile();
  gpu.l2_bytes = std::uint64_t(50) << 20;
  ASSERT_EQ(gpu.merge_path_items, 8);
  ASSERT_LT(tuning::merge_path_small_items, gpu.merge_path_items);
  const auto launch = [&](const MatrixStats& st) {
    return only_launch(tuning::select(st, gpu, csr::merge_path{}));
  };
  const std::int64_t floor =
      std::int64_t(gpu.merge_path_items) * gpu.warp_width * tuning::merge_path_team_warps *
      gpu.compute_units;
  // wiki-Vote's shape: warp tiles of the fewest items, in one launch.
  MatrixStats small = graph_of(8297, 103689);
  small.max_row_nnz = 893;
  EXPECT_EQ(launch(small).row_threads, 1);
  EXPECT_EQ(launch(small).entries_per_thread, tuning::merge_path_small_items);
  EXPECT_EQ(launch(small).form, tuning::LaunchForm::one_launch);
  EXPECT_NE(tuning::select(small, gpu, csr::merge_path{}).rule.find(
                "fewer items than a team tile per compute unit"),
            std::string::npos);
  // The floor: one item below it shorter warp tiles, at it team tiles.
  MatrixStats edge = graph_of(1000, floor - 1000 - 1);
  edge.max_row_nnz = 100;
  EXPECT_EQ(launch(edge).row_threads, 1);
  EXPECT_EQ(launch(edge).entries_per_thread, tuning::merge_path_small_items);
  edge.nnz += 1;
  EXPECT_EQ(launch(edge).row_threads, tuning::merge_path_team_warps);
  // Past half the L2 warp tiles keep the profile's items.
  MatrixStats large = graph_of(5000000, 30000000);
  large.max_row_nnz = 100;
  EXPECT_EQ(launch(large).row_threads, 1);
  EXPECT_EQ(launch(large).entries_per_thread, gpu.merge_path_items);
  EXPECT_NE(tuning::select(large, gpu, csr::merge_path{}).rule.find("(device profile)"),
            std::string::npos);
  // An unknown L2 never takes team tiles; below the floor the same shorter tiles.
  gpu.l2_bytes = 0;
  EXPECT_EQ(launch(small).entries_per_thread, tuning::merge_path_small_items);
  EXPECT_EQ(launch(graph_of(1000, floor)).entries_per_thread, gpu.merge_path_items);
  // as-caida's longest row, 2,628, spans one launch of the profile's 256
  // items but not of 64: the fewest items per lane that keep it, 3.
  MatrixStats long_row = graph_of(26475, 106762);
  long_row.max_row_nnz = 2628;
  EXPECT_EQ(launch(long_row).entries_per_thread, 3);
  EXPECT_EQ(launch(long_row).form, tuning::LaunchForm::one_launch);
  EXPECT_NE(tuning::select(long_row, gpu, csr::merge_path{}).rule.find(
                "the fewest that keep the longest row in one launch"),
            std::string::npos);
  EXPECT_EQ(tuning::select(small, gpu, csr::merge_path{}).rule.find("the fewest that keep"),
            std::string::npos);
  // A row past one launch even at the profile's count: the fewest items.
  long_row.max_row_nnz = 100000;
  EXPECT_EQ(launch(long_row).entries_per_thread, tuning::merge_path_small_items);
  EXPECT_EQ(launch(long_row).form, tuning::LaunchForm::with_fixup);
  // A profile of fewer items than merge_path_small_items keeps its own.
  gpu.merge_path_items = 1;
  EXPECT_EQ(launch(small).entries_per_thread, 1);
}

// GPU team tiles load the values past L1 where 8 bytes per nonzero take at
// least merge_path_l2_only_values of the L2 (the three mid-size graphs of
// 3e6 nonzeros on a 50 MiB L2), through L1 below it (dblp-2010, 1.6e6), and
// never in warp tiles or on hosts. The policy prints it.
TEST(SelectCsr, MergePathTeamTilesLoadValuesPastL1WhereTheyNearlyFillTheL2) {
  DeviceProfile gpu = fake_gpu_profile();
  gpu.l2_bytes = std::uint64_t(50) << 20;
  const auto loads = [&](std::int64_t rows, std::int64_t nnz) {
    return only_launch(tuning::select(graph_of(rows, nnz), gpu, csr::merge_path{})).value_loads;
  };
  EXPECT_EQ(loads(325557, 3216152), tuning::ValueLoads::l2_only);
  EXPECT_EQ(loads(100000, 3050615), tuning::ValueLoads::l2_only);
  EXPECT_EQ(loads(326186, 1615400), tuning::ValueLoads::cached);
  // The bound: exactly the share takes it, one nonzero fewer does not.
  const auto bound = static_cast<std::int64_t>(
      std::ceil(tuning::merge_path_l2_only_values * double(gpu.l2_bytes) / 8));
  EXPECT_EQ(loads(300000, bound), tuning::ValueLoads::l2_only);
  EXPECT_EQ(loads(300000, bound - 1), tuning::ValueLoads::cached);
  // Past half the L2 the tiles are per warp, which keep the plain loads.
  const MatrixStats streams = stats_of(5000000, 3000000, 10.0);
  EXPECT_EQ(only_launch(tuning::select(streams, gpu, csr::merge_path{})).row_threads, 1);
  EXPECT_EQ(only_launch(tuning::select(streams, gpu, csr::merge_path{})).value_loads,
            tuning::ValueLoads::cached);
  const SpmvPolicy p = tuning::select(stats_of(325557, 2716, 9.88), gpu, csr::merge_path{});
  EXPECT_NE(p.rule.find("values loaded past L1"), std::string::npos) << p.rule;
  EXPECT_NE(p.str().find("values=l2_only"), std::string::npos) << p.str();
  MatrixStats host_graph = stats_of(325557, 2716, 9.88);
  EXPECT_EQ(only_launch(tuning::select(host_graph, host_profile(), csr::merge_path{})).value_loads,
            tuning::ValueLoads::cached);
}

// GPU team tiles where the profile knows the resident tiles: the items per
// lane (8-11) that end the matrix in the fewest whole waves, each weighed by
// its tile's work (n + merge_path_team_fixed_items). The three mid-size
// graphs and email-Enron, 12 tiles per SM of 132: cnr-2000 1.94 waves at
// 9, dblp-2010 one wave at 10, uk-2007-05_100000 1.94 at 8, email-Enron a
// quarter wave at any count, so the least work a tile.
TEST(SelectCsr, MergePathTeamItemsEndInWholeWaves) {
  DeviceProfile gpu = fake_gpu_profile();
  gpu.l2_bytes = std::uint64_t(60) << 20;
  const auto items = [&](std::int64_t rows, std::int64_t nnz) {
    const SpmvPolicy p = tuning::select(graph_of(rows, nnz), gpu, csr::merge_path{});
    EXPECT_EQ(only_launch(p).row_threads, tuning::merge_path_team_warps);
    return only_launch(p).entries_per_thread;
  };
  // Unknown residency: the profile's items.
  EXPECT_EQ(gpu.merge_path_team_resident, 0);
  EXPECT_EQ(items(325557, 3216152), gpu.merge_path_items);
  gpu.merge_path_team_resident = 12;
  EXPECT_EQ(items(325557, 3216152), 9);
  EXPECT_EQ(items(326186, 1615400), 10);
  EXPECT_EQ(items(100000, 3050615), 8);
  EXPECT_EQ(items(36692, 367662), tuning::merge_path_team_items_min);
  // No other count in range ends in fewer waves at less work.
  const std::int64_t resident = 12 * 132, threads = 32 * tuning::merge_path_team_warps;
  for (const std::int64_t total : {400000, 1941586, 3541709, 3150615, 4200000}) {
    const auto cost = [&](std::int64_t n) {
      const std::int64_t tiles = (total + threads * n - 1) / (threads * n);
      return (tiles + resident - 1) / resident * (n + tuning::merge_path_team_fixed_items);
    };
    const std::int64_t chosen = items(total / 10, total - total / 10);
    EXPECT_GE(chosen, tuning::merge_path_team_items_min);
    EXPECT_LE(chosen, tuning::merge_path_team_items_max);
    for (int n = tuning::merge_path_team_items_min; n <= tuning::merge_path_team_items_max; ++n)
      EXPECT_LE(cost(chosen), cost(n)) << total << " items, " << n << " per lane";
  }
  const SpmvPolicy p = tuning::select(stats_of(325557, 100, 9.88), gpu, csr::merge_path{});
  EXPECT_NE(p.rule.find("fewest waves"), std::string::npos) << p.rule;
}

// 003 Alg. 3 on NVIDIA: a row longer than 1024 takes the balanced cases:
// merge_path from 2e5 nonzeros or where it runs in one launch (no row
// longer than 8191 for tiles of 256 items: at most 32 tiles end inside
// it), load_balance otherwise; basic when no row is longer than 7,
// classical when the mean row fills >= 3/4 of its subwarp and no row is
// longer than 512, the balanced cases otherwise, except basic when no row
// is longer than 20 and there are fewer than 1e6 nonzeros, and classical
// under 2e5 nonzeros with no row longer than 256 (003's 1e6-nonzero limit
// dropped, basic, the fill and the row limits added after the H200
// measurements in select_csr_automatic.hpp); AMD: 1e8 nonzeros and 768, load_balance.
TEST(SelectCsr, AutomaticFollows003Alg3) {
  const DeviceProfile gpu = fake_gpu_profile();
  DeviceProfile amd = gpu;
  amd.backend = "HIP";
  amd.kind = arch::Backend::hip;
  const std::string lb = "load_balance", mp = "merge_path", cl = "classical", ba = "basic";
  const struct {
    std::int64_t rows, longest;
    double mean;
    std::string nvidia, amd;
  } cases[] = {{1000, 20, 16.0, cl, cl},          {1000, 1024, 30.0, mp, lb},
               {1000, 1025, 5.0, mp, lb},         {200000, 10, 8.0, cl, cl},
               {200001, 10, 6.0, cl, cl},         {1000, 769, 30.0, mp, lb},
               {30000000, 10, 8.0, cl, lb},       {30000000, 2000, 5.0, mp, lb},
               {39999, 2000, 5.0, mp, lb},        {40000, 2000, 5.0, mp, lb},
               {1000, 7, 5.0, ba, cl},            {30000000, 7, 6.9, ba, lb},
               {1000, 8, 6.0, cl, cl},
               // Under 2e5 nonzeros, merge_path while one launch takes it.
               {1000, 8191, 5.0, mp, lb},         {1000, 8192, 5.0, lb, lb},
               {39999, 20000, 5.0, lb, lb},
               // The mean fills the subwarp: classical up to rows of 512.
               {1000, 512, 30.0, cl, cl},         {1000, 513, 30.0, mp, cl},
               // The mean fills less than 3/4 of classical's subwarp: 003's
               // balanced cases.
               {1000, 257, 11.9, mp, cl},         {1000, 1024, 23.9, mp, lb},
               {65536, 21, 6.0, mp, cl},          {5000000, 29, 10.0, mp, cl},
               {16000000, 9, 3.25, mp, cl},       {166667, 17, 6.0, mp, cl},
               // ... with no row longer than 20 and under 1e6 nonzeros:
               // basic, in one launch.
               {1000, 8, 5.9, ba, cl},            {1000, 20, 11.9, ba, cl},
               {65536, 17, 6.0, ba, cl},          {166666, 17, 6.0, ba, cl},
               // ... under 2e5 nonzeros with no row longer than 256: classical.
               {1000, 21, 11.9, cl, cl},          {1000, 256, 11.9, cl, cl},
               {33333, 256, 6.0, cl, cl},         {33334, 256, 6.0, mp, cl}};
  for (const auto& c : cases) {
    const MatrixStats st = stats_of(c.rows, c.longest, c.mean);
    for (const auto& [profile, kernel] : {std::pair{gpu, c.nvidia}, std::pair{amd, c.amd}}) {
      const csr::strategy r = tuning::resolve(st, profile, csr::strategy{csr::automatic{}});
      EXPECT_EQ(strategy_name(r), kernel)
          << profile.backend << " nnz " << st.nnz << " longest " << c.longest;
      const SpmvPolicy p = tuning::select(st, profile, csr::automatic{});
      EXPECT_EQ(p.kernel, kernel);
      EXPECT_EQ(p.rule.rfind("automatic: ", 0), 0u) << p.rule;
      EXPECT_NE(p.rule.find("003 Alg. 3"), std::string::npos) << p.rule;
    }
  }
  // Other strategies resolve to themselves.
  const MatrixStats st = stats_of(10, 3);
  EXPECT_TRUE(std::holds_alternative<csr::basic>(
      tuning::resolve(st, gpu, csr::strategy{csr::basic{}})));
  // Without a known longest row, load_balance (correct for any rows).
  MatrixStats unknown = stats_of(10, 0, 3.0);
  EXPECT_TRUE(std::holds_alternative<csr::load_balance>(
      tuning::resolve(unknown, gpu, csr::strategy{csr::automatic{}})));
}

// 000 §3.2.2: min(omega * SMs * warps_per_SM, ceil(nnz / 32)) warps on GPUs,
// omega = 8 / 32 / 128 below 2e5 / 2e6 / above ([ext] 512 from 2e7, 2048
// from 2e8); hosts cut the nonzeros into one equal chunk per thread, or
// chunks of the profile's entries_per_thread.
TEST(SelectWarpChunks, LaunchSizeFromOmega) {
  const DeviceProfile gpu = fake_gpu_profile();  // 132 SMs, warp 32, 4 warps per SM
  ASSERT_EQ(gpu.warps_per_cu, 4);
  const struct {
    std::int64_t nnz;
    int omega;
  } cases[] = {{1000, 8},      {199999, 8},      {200000, 32},       {1999999, 32},
               {2000000, 128}, {19999999, 128},  {20000000, 512},    {200000000, 2048}};
  for (const auto& c : cases) {
    EXPECT_EQ(tuning::oversubscription(gpu, c.nnz), c.omega) << c.nnz;
    MatrixStats st = stats_of(1000, 10);
    st.nnz = c.nnz;
    for (const SpmvPolicy& p : {tuning::select(st, gpu, coo::segmented{}),
                                tuning::select(st, gpu, csr::load_balance{})}) {
      const LaunchShape s = only_launch(p);
      EXPECT_EQ(s.part, "chunks");
      EXPECT_EQ(s.vector_length, 32);
      EXPECT_EQ(s.team_size, 4);
      const std::int64_t warps =
          std::min<std::int64_t>(std::int64_t(c.omega) * 132 * 4, (c.nnz + 31) / 32);
      EXPECT_EQ(s.entries_per_thread, (c.nnz + warps * 32 - 1) / (warps * 32)) << c.nnz;
      // The chunks cover every entry.
      EXPECT_GE(s.entries_per_thread * 32 * warps, c.nnz);
    }
  }
  DeviceProfile amd = gpu;
  amd.backend = "HIP";
  amd.kind = arch::Backend::hip;
  EXPECT_EQ(tuning::oversubscription(amd, 99999), 2);
  EXPECT_EQ(tuning::oversubscription(amd, 100000), 8);
  EXPECT_EQ(tuning::oversubscription(amd, 10000000), 32);
  DeviceProfile host = host_profile();
  host.compute_units = 3;
  MatrixStats st = stats_of(100, 3);
  st.nnz = 301;
  for (const SpmvPolicy& p : {tuning::select(st, host, coo::segmented{}),
                              tuning::select(st, host, coo::load_balance{}),
                              tuning::select(st, host, csr::load_balance{})}) {
    const LaunchShape h = only_launch(p);
    EXPECT_EQ(h.vector_length, 1);
    EXPECT_EQ(h.team_size, 1);
    EXPECT_EQ(h.entries_per_thread, 101) << p.str();  // ceil(301 / 3)
  }
  host.entries_per_thread = 64;
  EXPECT_EQ(only_launch(tuning::select(st, host, coo::segmented{})).entries_per_thread, 64);
}

// The kernels that add split rows atomically lengthen their chunks so the
// longest row takes at most hot_row_atomics adds (arrow 2e6's 2e6-entry
// row: 16 entries per lane, not 000 §3.2.2's 3); CSR load_balance (no
// atomics), short rows and a profile's own omega keep the rule's chunks.
TEST(SelectWarpChunks, HotRowAtomicsLengthenTheChunks) {
  DeviceProfile gpu = fake_gpu_profile();
  MatrixStats arrow = stats_of(2000000, 3);
  arrow.nnz = 6000000;
  arrow.max_row_nnz = 2000000;
  const std::int64_t rule = only_launch(tuning::select(arrow, gpu, csr::load_balance{})).entries_per_thread;
  EXPECT_EQ(rule, 3);  // omega 128: 67,584 warps for 6e6 entries
  const SpmvPolicy coo = tuning::select(arrow, gpu, coo::segmented{});
  EXPECT_EQ(only_launch(coo).entries_per_thread, 16);  // ceil(2e6 / (4096 x 32))
  EXPECT_NE(coo.rule.find("atomics at most 4096"), std::string::npos) << coo.rule;
  const SpmvPolicy hybrid = tuning::select(arrow, gpu, hybrid::ell_then_coo{}, 2, 2000001);
  EXPECT_EQ(hybrid.launches.at(1).entries_per_thread, 16);
  const SpmvPolicy flat = tuning::select(arrow, gpu, aligned_coo::seg_then_flat{}, 6000000);
  EXPECT_EQ(flat.launches.at(1).entries_per_thread, 16);
  // The longest row of 4096 x 32 entries fits the cap with the rule's chunks.
  MatrixStats short_rows = arrow;
  short_rows.max_row_nnz = 4096 * 32 * 3;
  const SpmvPolicy kept = tuning::select(short_rows, gpu, coo::segmented{});
  EXPECT_EQ(only_launch(kept).entries_per_thread, rule);
  EXPECT_EQ(kept.rule.find("atomics at most"), std::string::npos) << kept.rule;
  gpu.oversubscription = 128;  // the profile's omega is taken as it is
  EXPECT_EQ(only_launch(tuning::select(arrow, gpu, coo::segmented{})).entries_per_thread, rule);
}

// The kernels that combine split rows in chunk order run team tiles on GPUs
// (256 threads, a run of 8 entries each, whatever the size or the profile's
// omega), in COO load_balance and the deterministic Hybrid and ALIGNED_COO
// parts alike; hosts keep 000 Alg. 1's chunks with omega capped at 8.
TEST(SelectWarpChunks, CombinedChunksAreTeamTilesOnGpus) {
  DeviceProfile gpu = fake_gpu_profile();
  for (const std::int64_t nnz :
       {std::int64_t{1000}, std::int64_t{5000000}, std::int64_t{300000000}}) {
    MatrixStats st = stats_of(1000, 10);
    st.nnz = nnz;
    for (const LaunchShape& s :
         {only_launch(tuning::select(st, gpu, coo::load_balance{})),
          tuning::select(st, gpu, hybrid::ell_then_load_balance{}, 2, nnz).launches.at(1),
          tuning::select(st, gpu, aligned_coo::flat_then_seg{}, nnz).launches.at(0)}) {
      EXPECT_EQ(s.form, tuning::LaunchForm::team_tiles) << s;
      EXPECT_EQ(s.team_size, tuning::coo_team_tile_threads) << s;
      EXPECT_EQ(s.vector_length, 1) << s;
      EXPECT_EQ(s.entries_per_thread, tuning::team_tile_run) << s;
      EXPECT_EQ(kobalt::detail::chunk_entries(s), 2048) << s;
    }
    EXPECT_NE(tuning::select(st, gpu, coo::load_balance{}).rule.find("team tiles"),
              std::string::npos);
  }
  gpu.oversubscription = 64;
  MatrixStats st = stats_of(1000, 10);
  st.nnz = 5000000;
  EXPECT_EQ(only_launch(tuning::select(st, gpu, coo::load_balance{})).form,
            tuning::LaunchForm::team_tiles);
  DeviceProfile host = host_profile();
  host.compute_units = 3;
  st.nnz = 301;
  const LaunchShape h = only_launch(tuning::select(st, host, coo::load_balance{}));
  EXPECT_EQ(h.form, tuning::LaunchForm::single);
  EXPECT_EQ(kobalt::detail::chunk_entries(h), 101);  // ceil(301 / 3), one lane
}

TEST(SelectEll, LanesByTheOnePercentRule) {
  // 000 Alg. 4: one lane unless width / rows > 1e-2, then 2^ceil(log2 width)
  // capped at the warp; a full warp per row gets max(min(width / 32, nwarps
  // / rows), 1) warps per row, nwarps = 132 SMs x 4 = 528.
  const DeviceProfile gpu = fake_gpu_profile();
  ASSERT_EQ(gpu.compute_units * gpu.warps_per_cu, 528);
  const struct {
    std::int64_t rows, width;
    int lanes, parts;
  } expected[] = {{1000, 10, 1, 1},  {1000, 11, 16, 1}, {10, 5, 8, 1},    {10, 1000, 32, 31},
                  {100, 1, 1, 1},    {100, 2, 2, 1},    {99, 1, 1, 1},    {99, 3, 4, 1},
                  {0, 5, 1, 1},      {100000, 1000, 1, 1}, {100000, 1001, 32, 1},
                  {100, 5000, 32, 5}, {1000, 40, 32, 1}};
  for (const auto& e : expected) {
    const SpmvPolicy p = tuning::select(stats_of(e.rows, e.width), gpu, ell::rows{}, e.width);
    EXPECT_EQ(p.format, "ell");
    EXPECT_EQ(p.kernel, "rows");
    const LaunchShape s = only_launch(p);
    EXPECT_EQ(s.vector_length, e.lanes) << e.rows << " x " << e.width;
    EXPECT_EQ(s.row_parts, e.parts) << e.rows << " x " << e.width;
    EXPECT_EQ(s.team_size, 128 / e.lanes) << e.rows << " x " << e.width;
    EXPECT_EQ(s.rows_per_team, s.team_size);
  }
  const DeviceProfile host = host_profile();
  for (const auto& e : expected) {
    const LaunchShape s =
        only_launch(tuning::select(stats_of(e.rows, e.width), host, ell::rows{}, e.width));
    EXPECT_EQ(s.vector_length, 1) << e.rows << " x " << e.width;
    EXPECT_EQ(s.row_parts, 1) << e.rows << " x " << e.width;
    EXPECT_EQ(s.rows_per_team, host.rows_per_team);
  }
  EXPECT_EQ(tuning::ell_lanes_ratio, 1e-2);
}

TEST(SelectEll, ColumnGroupsByAlgorithmFive) {
  // 003 Alg. 5: one group unless width / rows > 1e-2, then min(16,
  // 2^ceil(log2 width)) groups; with 16 groups max(min(width / 16, nwarps /
  // rows), 1) teams per row. Groups are warps over blocks of 32 rows, teams
  // of 512 threads.
  const DeviceProfile gpu = fake_gpu_profile();
  const struct {
    std::int64_t rows, width;
    int groups, parts;
  } expected[] = {{1000, 10, 1, 1}, {1000, 11, 16, 1}, {10, 5, 8, 1},    {10, 1000, 16, 52},
                  {100, 2, 2, 1},   {99, 3, 4, 1},     {100, 5000, 16, 5}, {1000, 17, 16, 1}};
  for (const auto& e : expected) {
    const SpmvPolicy p =
        tuning::select(stats_of(e.rows, e.width), gpu, ell::column_groups{}, e.width);
    EXPECT_EQ(p.kernel, "column_groups");
    const LaunchShape s = only_launch(p);
    EXPECT_EQ(s.vector_length, 32) << e.rows << " x " << e.width;
    EXPECT_EQ(s.row_threads, e.groups) << e.rows << " x " << e.width;
    EXPECT_EQ(s.row_parts, e.parts) << e.rows << " x " << e.width;
    EXPECT_EQ(s.team_size * s.vector_length, 512) << e.rows << " x " << e.width;
    EXPECT_EQ(s.rows_per_team, 512 / e.groups) << e.rows << " x " << e.width;
  }
  const LaunchShape h =
      only_launch(tuning::select(stats_of(10, 1000), host_profile(), ell::column_groups{}, 1000));
  EXPECT_EQ(h.team_size, 1);
  EXPECT_EQ(h.row_threads, 1);
  EXPECT_EQ(h.row_parts, 1);
  EXPECT_EQ(h.rows_per_team, 1);
}

TEST(SelectSellp, WholeSlicesPerTeamThreadsPerRowFromTheStrideFactor) {
  const DeviceProfile gpu = fake_gpu_profile();
  const DeviceProfile host = host_profile();
  for (std::int64_t b : {1, 3, 32, 64, 128, 129, 1000}) {
    const SpmvPolicy g = tuning::select(MatrixStats{}, gpu, sellp::slices{}, b, 1);
    EXPECT_EQ(g.format, "sellp");
    EXPECT_EQ(g.kernel, "slices");
    const int lanes = tuning::floor_pow2_capped(b, 32);
    EXPECT_EQ(only_launch(g).vector_length, lanes) << b;
    EXPECT_EQ(only_launch(g).row_threads, 1) << b;
    EXPECT_EQ(only_launch(g).team_size, 128 / lanes) << b;
    EXPECT_EQ(only_launch(g).rows_per_team, 128 / lanes * b) << b;
    EXPECT_EQ(only_launch(g).form, tuning::LaunchForm::thread_per_row) << b;
    const SpmvPolicy h = tuning::select(MatrixStats{}, host, sellp::slices{}, b, 1);
    EXPECT_EQ(only_launch(h).form, tuning::LaunchForm::thread_per_row) << b;
    EXPECT_EQ(only_launch(h).team_size, 1) << b;
    EXPECT_EQ(only_launch(h).vector_length, 1) << b;
    EXPECT_EQ(only_launch(h).rows_per_team, b) << b;
  }
  // 001's SELL-8: 8 lanes x 8 threads per row, two slices per 128-thread team.
  const LaunchShape sell8 = only_launch(tuning::select(MatrixStats{}, gpu, sellp::slices{}, 8, 8));
  EXPECT_EQ(sell8.vector_length, 8);
  EXPECT_EQ(sell8.row_threads, 8);
  EXPECT_EQ(sell8.team_size, 16);
  EXPECT_EQ(sell8.form, tuning::LaunchForm::column_groups);
  EXPECT_NE(sell8.str().find("form=column_groups"), std::string::npos) << sell8.str();
  // Hosts: slices of 8 rows are one SIMD vector each.
  EXPECT_EQ(only_launch(tuning::select(MatrixStats{}, host, sellp::slices{}, 8, 1)).form,
            tuning::LaunchForm::host_simd);
  // t is capped so a team stays within 1024 threads.
  EXPECT_EQ(only_launch(tuning::select(MatrixStats{}, gpu, sellp::slices{}, 64, 64)).row_threads,
            32);
}

TEST(SelectHybrid, EllLaunchThenCooChunks) {
  const DeviceProfile gpu = fake_gpu_profile();
  for (std::int64_t t : {0, 1, 11, 64}) {
    const SpmvPolicy p =
        tuning::select(stats_of(1000, 70), gpu, hybrid::ell_then_coo{}, t, 5000);
    EXPECT_EQ(p.format, "hybrid");
    EXPECT_EQ(p.kernel, "ell_then_coo");
    ASSERT_EQ(p.launches.size(), 2u);
    EXPECT_EQ(p.launches[0].part, "ell");
    EXPECT_EQ(p.launches[1].part, "coo");
    // The ELL part follows the ELL rule at width t.
    const LaunchShape e = only_launch(tuning::select(stats_of(1000, 70), gpu, ell::rows{}, t));
    EXPECT_EQ(p.launches[0].vector_length, e.vector_length) << t;
    EXPECT_EQ(p.launches[0].team_size, e.team_size) << t;
    // The COO part is sized for its own 5000 entries: 157 warps of one entry per lane.
    EXPECT_EQ(p.launches[1].entries_per_thread, 1);
    EXPECT_EQ(p.launches[1].vector_length, 32);
  }
  EXPECT_EQ(tuning::select(stats_of(1000, 70), gpu, hybrid::ell_then_coo{}, 11, 0).launches[0]
                .vector_length,
            16);
}

TEST(SelectAlignedCoo, SegLanesThenFlatChunks) {
  for (const DeviceProfile& profile : {host_profile(), fake_gpu_profile()}) {
    const SpmvPolicy p =
        tuning::select(stats_of(100, 3), profile, aligned_coo::seg_then_flat{}, 40);
    EXPECT_EQ(p.format, "aligned_coo");
    EXPECT_EQ(p.kernel, "seg_then_flat");
    ASSERT_EQ(p.launches.size(), 2u);
    EXPECT_EQ(p.launches[0].part, "seg");
    EXPECT_EQ(p.launches[0].vector_length, 1);
    EXPECT_EQ(p.launches[0].team_size, std::max(1, profile.team_threads));
    EXPECT_EQ(p.launches[1].part, "flat");
    MatrixStats flat = stats_of(100, 3);
    flat.nnz = 40;
    EXPECT_EQ(p.launches[1].str(), tuning::warp_chunk_launch(flat, profile, "flat").str());
  }
}

// 002 §4.1: 8x12, 4x8x12, 8x8x8, 16x8x4 (lanes x rows x super-rows) on GPUs;
// one thread, one lane on hosts (ported from the CsrkPolicy test).
TEST(SelectCsrk, BlockShapesFollowTheRdensityCases) {
  const DeviceProfile gpu = fake_gpu_profile();
  const struct {
    double r;
    int lanes, team, row_threads_k3;
  } expected[] = {{3.0, 1, 96, 8}, {12.0, 4, 96, 8}, {20.0, 8, 64, 8}, {40.0, 16, 32, 8}};
  for (const auto& e : expected) {
    const SpmvPolicy p3 = tuning::select(stats_of(100, 50, e.r), gpu, csrk::groups{}, 3);
    EXPECT_EQ(p3.format, "csrk");
    EXPECT_EQ(p3.kernel, "groups");
    const LaunchShape k3 = only_launch(p3);
    EXPECT_EQ(k3.part, "k3");
    EXPECT_EQ(k3.vector_length, e.lanes) << e.r;
    EXPECT_EQ(k3.team_size, e.team) << e.r;
    EXPECT_EQ(k3.row_threads, e.row_threads_k3) << e.r;
    EXPECT_EQ(k3.super_row_threads() * k3.row_threads, k3.team_size) << e.r;
    EXPECT_NO_THROW(detail::check_csrk_shape(k3)) << e.r;
    EXPECT_NE(p3.rule.find("rdensity case " + std::to_string(tuning::csrk_rdensity_case(e.r))),
              std::string::npos)
        << p3.rule;
    const LaunchShape k2 = only_launch(tuning::select(stats_of(100, 50, e.r), gpu,
                                                       csrk::groups{}, 2));
    EXPECT_EQ(k2.part, "k2");
    EXPECT_EQ(k2.vector_length, e.lanes) << e.r;
    EXPECT_EQ(k2.team_size, e.team) << e.r;
    EXPECT_EQ(k2.row_threads, k2.team_size) << e.r;
    EXPECT_EQ(k2.super_row_threads(), 1) << e.r;
  }
  // Lanes are capped at the warp.
  DeviceProfile narrow = gpu;
  narrow.warp_width = 8;
  EXPECT_EQ(only_launch(tuning::select(stats_of(100, 50, 40.0), narrow, csrk::groups{}, 3))
                .vector_length,
            8);
  // Host: Listing 1's nested loops, one thread and one lane per team.
  const SpmvPolicy host = tuning::select(stats_of(100, 50, 40.0), host_profile(), csrk::groups{}, 3);
  const LaunchShape h = only_launch(host);
  EXPECT_EQ(h.team_size, 1);
  EXPECT_EQ(h.vector_length, 1);
  EXPECT_EQ(h.row_threads, 1);
  EXPECT_EQ(h.super_row_threads(), 1);
  std::ostringstream shape;
  shape << h;
  EXPECT_EQ(shape.str(), "k3{team_size=1, vector_length=1, rows_per_team=1}");
  EXPECT_EQ(host.str(), "groups k3{team_size=1, vector_length=1, rows_per_team=1}");
  // A GPU shape prints its row threads.
  std::ostringstream gpu_shape;
  gpu_shape << only_launch(tuning::select(stats_of(100, 50, 20.0), gpu, csrk::groups{}, 3));
  EXPECT_EQ(gpu_shape.str(), "k3{team_size=64, vector_length=8, rows_per_team=1, row_threads=8}");
}

TEST(SelectVariant, EveryFormatsVariantPicksItsAlternative) {
  const DeviceProfile gpu = fake_gpu_profile();
  const MatrixStats s = stats_of(500, 40, 12.0);
  EXPECT_EQ(tuning::select(s, gpu, coo::strategy{}).str(),
            tuning::select(s, gpu, coo::segmented{}).str());
  EXPECT_EQ(tuning::select(s, gpu, ell::strategy{}, 9).str(),
            tuning::select(s, gpu, ell::rows{}, 9).str());
  EXPECT_EQ(tuning::select(s, gpu, sellp::strategy{}, 32, 1).str(),
            tuning::select(s, gpu, sellp::slices{}, 32, 1).str());
  EXPECT_EQ(tuning::select(s, gpu, hybrid::strategy{}, 7, 300).str(),
            tuning::select(s, gpu, hybrid::ell_then_coo{}, 7, 300).str());
  EXPECT_EQ(tuning::select(s, gpu, csrk::strategy{}, 3).str(),
            tuning::select(s, gpu, csrk::groups{}, 3).str());
  EXPECT_EQ(tuning::select(s, gpu, aligned_coo::strategy{}, 100).str(),
            tuning::select(s, gpu, aligned_coo::seg_then_flat{}, 100).str());
}

// ---- conversion parameters -> layouts ----------------------------------------

template <class T>
class SelectLayouts : public ::testing::Test {};
TYPED_TEST_SUITE(SelectLayouts, ValueIndexTypes, TypeNames);

TYPED_TEST(SelectLayouts, HybridPartitionsGiveTheEllWidth) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  // R = {1, ..., 10}: Q_R(x) = floor(10 x) + 1 for 0 <= x < 0.9.
  const auto stats = tuning::analyze(
      make_csr(matrix_with_row_lengths<V, I>({3, 1, 4, 10, 5, 9, 2, 6, 8, 7})));
  for (const DeviceProfile& profile : {host_profile(), fake_gpu_profile()}) {
    auto t = [&](const hybrid::partition& p) {
      return tuning::select<V, I>(stats, profile, p).ell_width;
    };
    EXPECT_EQ(t(hybrid::imbalance_limit{0.5}), 6);
    EXPECT_EQ(t(hybrid::imbalance_limit{-0.1}), 0);
    EXPECT_EQ(t(hybrid::imbalance_limit{0.9}), 10);
    EXPECT_EQ(t(hybrid::imbalance_bounded_limit{0.5, 0.25}), 2);
    EXPECT_EQ(t(hybrid::imbalance_bounded_limit{0.5, 1.0}), 6);
    EXPECT_EQ(t(hybrid::column_limit{25}), 25);
    EXPECT_EQ(t(hybrid::column_limit{0}), 0);
    EXPECT_EQ(t(hybrid::automatic{}), 0);  // cap floor(10 * 1e-3) = 0
    EXPECT_EQ(t(hybrid::partition{}), 0);  // the default is automatic
    // minimal_storage: x = p/(v+2p): 1/4 -> 3; 1/3 -> 4; 2/5 -> 5.
    EXPECT_EQ(t(hybrid::minimal_storage{}),
              sizeof(I) == 4 ? (sizeof(V) == 8 ? 3 : 4) : (sizeof(V) == 8 ? 4 : 5));
    EXPECT_EQ(t(hybrid::minimal_storage{}),
              tuning::quantile(stats, hybrid::minimal_storage_quantile<V, I>()));
  }
  // max_bytes passes through; a bad partition throws.
  const auto l = tuning::select<V, I>(stats, host_profile(), hybrid::column_limit{3}, 4096);
  EXPECT_EQ(l.ell_width, 3);
  EXPECT_EQ(l.max_bytes, 4096u);
  auto resolve = [&](const MatrixStats& st, const hybrid::partition& p) {
    return tuning::select<V, I>(st, host_profile(), p);
  };
  EXPECT_EQ(resolve(stats, hybrid::column_limit{3}).max_bytes, 0u);
  EXPECT_THROW(resolve(stats, hybrid::column_limit{-1}), invalid_parameter);
  EXPECT_THROW(resolve(stats, hybrid::imbalance_limit{std::numeric_limits<double>::quiet_NaN()}),
               invalid_parameter);
  EXPECT_THROW(resolve(stats, hybrid::imbalance_bounded_limit{0.3, 0.0}), invalid_parameter);
  // 5000 rows of 9: automatic's cap floor(5000 * 1e-3) = 5 binds.
  const auto wide = tuning::analyze(
      make_csr(matrix_with_row_lengths<V, I>(std::vector<std::int64_t>(5000, 9))));
  EXPECT_EQ(resolve(wide, hybrid::automatic{}).ell_width, 5);
}

TEST(SelectCsrkLayout, ParametersResolveOnTheHost) {
  const DeviceProfile host = default_host_profile();
  const MatrixStats s = stats_of(1029, 9, 4.5);
  auto with = [](int k, std::int64_t srs, std::int64_t ssrs) {
    csrk::parameters p;
    p.k = k;
    p.super_row_size = srs;
    p.super_super_row_size = ssrs;
    return p;
  };
  // k = 0: the host's CSR-2 with 96 rows per super-row (002 §4.2).
  csrk::layout l = tuning::select(s, host, csrk::parameters{});
  EXPECT_EQ(l.k, 2);
  EXPECT_EQ(l.super_row_size, 96);
  EXPECT_EQ(l.super_super_row_size, 0);
  EXPECT_EQ(l.order, csrk::reordering::none);
  EXPECT_EQ(l.max_bytes, 0u);
  // k = 3: SSRS from the profile (8).
  l = tuning::select(s, host, with(3, 0, 0));
  EXPECT_EQ(l.k, 3);
  EXPECT_EQ(l.super_row_size, 96);
  EXPECT_EQ(l.super_super_row_size, host.csrk_super_super_row_size);
  EXPECT_EQ(l.super_super_row_size, 8);
  // Given sizes are kept; order and max_bytes pass through.
  csrk::parameters given = with(3, 7, 3);
  given.order = csrk::reordering::rcm;
  given.max_bytes = 12345;
  l = tuning::select(s, host, given);
  EXPECT_EQ(l.k, 3);
  EXPECT_EQ(l.super_row_size, 7);
  EXPECT_EQ(l.super_super_row_size, 3);
  EXPECT_EQ(l.order, csrk::reordering::rcm);
  EXPECT_EQ(l.max_bytes, 12345u);
  l = tuning::select(s, host, with(2, 5, 0));
  EXPECT_EQ(l.super_row_size, 5);
  EXPECT_EQ(l.super_super_row_size, 0);
  // Invalid parameters.
  for (int k : {-1, 1, 4, 5})
    EXPECT_THROW(tuning::select(s, host, with(k, 0, 0)), invalid_parameter) << "k=" << k;
  EXPECT_THROW(tuning::select(s, host, with(2, -1, 0)), invalid_parameter);
  EXPECT_THROW(tuning::select(s, host, with(3, -5, 2)), invalid_parameter);
  EXPECT_THROW(tuning::select(s, host, with(3, 2, -1)), invalid_parameter);
  EXPECT_THROW(tuning::select(s, host, with(2, 2, 2)), invalid_parameter);  // SSRS is k = 3 only
  // k = 0 is the host's 2, so an SSRS is rejected there too.
  EXPECT_THROW(tuning::select(s, host, with(0, 0, 4)), invalid_parameter);
  EXPECT_NO_THROW(tuning::select(s, host, with(3, 2, 2)));
}

TEST(SelectCsrkLayout, ParametersResolveOnAGpu) {
  const DeviceProfile gpu = fake_gpu_profile();
  for (double r : {2.0, 5.0, 12.0, 20.0, 40.0}) {
    const MatrixStats s = stats_of(1000, 100, r);
    const auto model = tuning::csrk_model_sizes(tuning::csrk_ampere_model, r);
    // k = 0: CSR-3 with the Ampere model's sizes (002 §4.1, §6.2).
    csrk::layout l = tuning::select(s, gpu, csrk::parameters{});
    EXPECT_EQ(l.k, 3) << r;
    EXPECT_EQ(l.super_row_size, model.super_row_size) << r;
    EXPECT_EQ(l.super_super_row_size, model.super_super_row_size) << r;
    // k = 2: the super-row takes the rows of a super-super-row.
    csrk::parameters k2;
    k2.k = 2;
    l = tuning::select(s, gpu, k2);
    EXPECT_EQ(l.k, 2) << r;
    EXPECT_EQ(l.super_row_size, model.super_row_size * model.super_super_row_size) << r;
    EXPECT_EQ(l.super_super_row_size, 0) << r;
  }
  // k = 0 is CSR-3 on a GPU: an SSRS is accepted.
  csrk::parameters p;
  p.super_super_row_size = 4;
  const csrk::layout l = tuning::select(stats_of(100, 5, 3.0), gpu, p);
  EXPECT_EQ(l.k, 3);
  EXPECT_EQ(l.super_super_row_size, 4);
  // The layout builds the structure it describes.
  const auto csr = make_csr(matrix_with_row_lengths<double, std::int32_t>(
      std::vector<std::int64_t>(50, 3)));
  const auto a = to_csrk(csr, l);
  EXPECT_EQ(a.k(), 3);
  EXPECT_EQ(a.super_row_size(), l.super_row_size);
  EXPECT_EQ(a.super_super_row_size(), 4);
}

TEST(SelectAlignedCooLayout, ParamsResolveToALayout) {
  // 004 Fig. 2: Alg. 1 gives 4 lanes and Alg. 3 picks all_seg.
  const auto paper = row_pointer({3, 1, 2, 2, 1, 1});
  const Kokkos::DefaultExecutionSpace exec;
  for (const DeviceProfile& profile : {host_profile(), fake_gpu_profile()}) {
    aligned_coo::layout l = tuning::select(exec, paper, profile, aligned_coo::params{});
    EXPECT_EQ(l.choice, aligned_coo::split::all_seg);
    EXPECT_EQ(l.seg_size, 4);
    EXPECT_EQ(l.flat_unit, 32);
    EXPECT_EQ(l.max_bytes, 0u);
    aligned_coo::params p;
    p.choice = aligned_coo::split::hybrid;
    p.flat_unit = 2;
    p.seg_size = 3;
    p.max_bytes = 999;
    l = tuning::select(exec, paper, profile, p);
    EXPECT_EQ(l.choice, aligned_coo::split::hybrid);
    EXPECT_EQ(l.seg_size, 3);
    EXPECT_EQ(l.flat_unit, 2);
    EXPECT_EQ(l.max_bytes, 999u);
    // An empty seg part still gets a valid layout (seg_size >= 1).
    p = aligned_coo::params{};
    p.choice = aligned_coo::split::all_flat;
    l = tuning::select(exec, paper, profile, p);
    EXPECT_EQ(l.choice, aligned_coo::split::all_flat);
    EXPECT_GE(l.seg_size, 1);
    EXPECT_NO_THROW(aligned_coo::validate(l));
    // Bad parameters throw.
    p = aligned_coo::params{};
    p.seg_size = -1;
    EXPECT_THROW(tuning::select(exec, paper, profile, p), invalid_parameter);
    p = aligned_coo::params{};
    p.flat_unit = 0;
    EXPECT_THROW(tuning::select(exec, paper, profile, p), invalid_parameter);
  }
  // Alg. 3 is the argmin of choose_aligned_coo's costs.
  std::vector<std::int64_t> skewed(4001, 1);
  skewed[0] = 4097;
  const auto c = tuning::choose_aligned_coo(exec, row_pointer(skewed), aligned_coo::params{});
  EXPECT_EQ(tuning::select(exec, row_pointer(skewed), host_profile(), aligned_coo::params{}).choice,
            c.split);
  EXPECT_EQ(c.split, aligned_coo::split::hybrid);
}

/// Limits as Kokkos reports them for a backend of `threads` threads per team
/// and up to `lanes` lanes: on a GPU (`gpu`) a team's threads times lanes
/// share the block and lanes come in powers of two; on a host (Serial: one
/// thread) the lanes are a loop.
arch::TeamLimits limits_of(int threads, int lanes, bool gpu) {
  arch::TeamLimits t;
  t.vector_length_max = lanes;
  t.vector_length_power_of_two = gpu;
  for (int step = 0; step < arch::TeamLimits::lane_steps; ++step)
    t.team_size_max[step] = (1 << step) > lanes ? 0 : gpu ? threads >> step : threads;
  t.scratch_max[0] = gpu ? 40960 : 32768;
  t.scratch_max[1] = 20 << 20;
  return t;
}
arch::TeamLimits host_limits(int threads) { return limits_of(threads, 1024, false); }
arch::TeamLimits gpu_limits(int threads) { return limits_of(threads, 32, true); }

/// `p` asking for `team_threads` on a backend of `limits`.
DeviceProfile asking(DeviceProfile p, int team_threads, const arch::TeamLimits& limits) {
  p.team_threads = team_threads;
  p.team_limits = limits;
  return p;
}

// A profile that asks for more threads per team than the backend runs
// (KOBALT_PROFILE {"team_threads": 2} on Serial aborted in Kokkos): the
// selector clamps the launch and says so in the policy's notes.
TEST(SelectLimits, ProfileTeamBeyondTheBackendIsClampedWithANote) {
  DeviceProfile host = asking(host_profile(), 2, host_limits(1));
  const SpmvPolicy basic = tuning::select(stats_of(100, 5, 5.0), host, csr::basic{});
  EXPECT_EQ(basic.launches.at(0).team_size, 1) << basic;
  EXPECT_EQ(basic.launches.at(0).rows_per_team, host.rows_per_team) << basic;  // hosts: the key's
  EXPECT_NE(basic.notes.find("team_size 2 with 1 lane: the backend runs at most 1 team thread "
                             "(Kokkos team_size_max)"),
            std::string::npos)
      << basic.notes;
  EXPECT_NE(basic.str().find("(note: rows clamped:"), std::string::npos) << basic;
  EXPECT_EQ(tuning::launch_excess(basic.launches.at(0), host.team_limits), "");
  // Within the limits nothing changes and there is no note.
  host.team_limits = host_limits(4);
  const SpmvPolicy fits = tuning::select(stats_of(100, 5, 5.0), host, csr::basic{});
  EXPECT_EQ(fits.launches.at(0).team_size, 2);
  EXPECT_EQ(fits.notes, "");
  EXPECT_EQ(fits.str().find("note"), std::string::npos) << fits;
  // Unknown limits (a profile built by hand) change nothing either.
  host.team_limits = arch::TeamLimits{};
  EXPECT_EQ(tuning::select(stats_of(100, 5, 5.0), host, csr::basic{}).launches.at(0).team_size, 2);
}

// GPU launches keep their structure when clamped: one row per thread of a
// row launch, CSR-k's team a multiple of its row threads, the warp-chunk
// lanes at the warp.
TEST(SelectLimits, GpuLaunchesAreClampedKeepingTheirShape) {
  DeviceProfile gpu = asking(fake_gpu_profile(), 4096, gpu_limits(1024));
  const SpmvPolicy basic = tuning::select(stats_of(100000, 5, 5.0), gpu, csr::basic{});
  EXPECT_EQ(basic.launches.at(0).team_size, 1024) << basic;
  EXPECT_EQ(basic.launches.at(0).rows_per_team, 1024) << basic;
  const SpmvPolicy classical = tuning::select(stats_of(100000, 8, 8.0), gpu, csr::classical{});
  EXPECT_EQ(classical.launches.at(0).vector_length, 8) << classical;
  EXPECT_EQ(classical.launches.at(0).team_size, 128) << classical;  // 1024 threads of 8 lanes
  EXPECT_NE(classical.notes.find("team_size 512 with 8 lanes"), std::string::npos) << classical;
  const SpmvPolicy chunks = tuning::select(stats_of(100000, 50, 10.0), gpu, csr::load_balance{});
  EXPECT_EQ(chunks.launches.at(0).vector_length, 32) << chunks;
  EXPECT_EQ(chunks.launches.at(0).team_size, 32) << chunks;
  // CSR-k's 8 x 12 block on a backend of 64 threads per team: 8 row threads, 8 super-rows.
  gpu.team_limits = gpu_limits(64);
  const SpmvPolicy k3 = tuning::select(stats_of(100000, 5, 5.0), gpu, csrk::groups{}, 3);
  EXPECT_EQ(k3.launches.at(0).row_threads, 8) << k3;
  EXPECT_EQ(k3.launches.at(0).team_size, 64) << k3;
  EXPECT_EQ(k3.launches.at(0).super_row_threads(), 8) << k3;
  // ELL column groups (16 groups of a warp per row here) keep whole groups.
  const SpmvPolicy groups =
      tuning::select(stats_of(100, 1000, 1000.0), gpu, ell::column_groups{}, 1000);
  const LaunchShape& g = groups.launches.at(0);
  EXPECT_EQ(g.vector_length, 32) << groups;
  EXPECT_LE(g.team_size, 2) << groups;  // 64 threads = 2 of 32 lanes
  EXPECT_EQ(g.team_size % g.row_threads, 0) << groups;
  EXPECT_EQ(g.rows_per_team, g.team_size / g.row_threads * 32) << groups;
  for (const SpmvPolicy* p : {&basic, &classical, &chunks})
    EXPECT_EQ(tuning::launch_excess(p->launches.at(0), gpu_limits(1024)), "") << *p;
  for (const SpmvPolicy* p : {&k3, &groups})
    EXPECT_EQ(tuning::launch_excess(p->launches.at(0), gpu_limits(64)), "") << *p;
}

// A policy the caller gives is not clamped: check_launches names the limit.
TEST(SelectLimits, GivenPoliciesBeyondTheBackendAreErrors) {
  const arch::TeamLimits gpu = gpu_limits(1024);
  LaunchShape s;
  s.team_size = 64;
  s.vector_length = 32;
  SpmvPolicy p;
  p.kernel = "rows";
  p.launches = {s};
  try {
    tuning::check_launches(p, gpu, "kobalt::SpmvHandle");
    ADD_FAILURE() << "no invalid_parameter";
  } catch (const invalid_parameter& e) {
    EXPECT_NE(std::string(e.what()).find("team_size 64 with 32 lanes: the backend runs at most 32 "
                                         "team threads (Kokkos team_size_max)"),
              std::string::npos)
        << e.what();
  }
  p.launches[0].team_size = 4;
  p.launches[0].vector_length = 24;
  EXPECT_NE(tuning::launch_excess(p.launches[0], gpu).find("a power of two of at most 32 lanes "
                                                           "(Kokkos vector_length_max)"),
            std::string::npos);
  p.launches[0].vector_length = 64;
  EXPECT_THROW(tuning::check_launches(p, gpu, "test"), invalid_parameter);
  p.launches[0].vector_length = 24;  // hosts run any vector length
  EXPECT_NO_THROW(tuning::check_launches(p, host_limits(8), "test"));
  p.launches[0].team_size = 9;
  EXPECT_THROW(tuning::check_launches(p, host_limits(8), "test"), invalid_parameter);
  EXPECT_EQ(tuning::scratch_excess(1, (20 << 20) + 1, gpu).find("level-1 team scratch: the backend "
                                                                "allows at most 20971520"),
            std::string("20971521 bytes of ").size());
  EXPECT_EQ(tuning::scratch_excess(0, 40960, gpu), "");
}

// The backend's own answers: what Kokkos says of the default execution
// space, read once (arch::team_limits).
TEST(SelectLimits, BackendLimitsAreKokkosAnswers) {
  using exec = Kokkos::DefaultExecutionSpace;
  const arch::TeamLimits t = arch::team_limits(exec());
  ASSERT_TRUE(t.known());
  EXPECT_EQ(t.vector_length_max, Kokkos::TeamPolicy<exec>::vector_length_max());
  EXPECT_EQ(t.team_size_for(1), max_team_threads());
  EXPECT_EQ(t.scratch_max[0],
            static_cast<std::uint64_t>(Kokkos::TeamPolicy<exec>::scratch_size_max(0)));
  EXPECT_EQ(tuning::profile_of(exec()).team_limits.team_size_for(1), max_team_threads());
  EXPECT_EQ(arch::device_info(exec()).team.vector_length_max, t.vector_length_max);
}

}  // namespace
}  // namespace kobalt::test
