// SPDX-License-Identifier: BSD-3-Clause
// tuning::choose_format (issue 16): the rule that must fire on hand-made
// statistics of each class, and the break-even on expected applies.
#include "fixtures/profiles.hpp"

#include <kobalt/tuning/choose.hpp>

#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace kobalt::test {
namespace {

using tuning::auto_format;
using tuning::MatrixStats;

MatrixStats stats_of(std::int64_t rows, double mean, double variance, std::int64_t longest) {
  MatrixStats s;
  s.rows = s.cols = rows;
  s.nnz = static_cast<std::int64_t>(mean * static_cast<double>(rows));
  s.mean_row_nnz = mean;
  s.variance_row_nnz = variance;
  s.max_row_nnz = longest;
  return s;
}

/// Statistics with a row-length distribution: (length, rows) pairs by
/// increasing length, as tuning::analyze would compute them.
MatrixStats stats_from_rows(const std::vector<std::pair<std::int64_t, std::int64_t>>& lengths) {
  MatrixStats s;
  double squares = 0;
  for (const auto& [length, rows] : lengths) {
    s.rows += rows;
    s.nnz += length * rows;
    squares += static_cast<double>(length) * static_cast<double>(length) * static_cast<double>(rows);
    s.row_lengths.push_back(length);
    s.rows_up_to.push_back(s.rows);
  }
  s.cols = s.rows;
  s.min_row_nnz = lengths.front().first;
  s.max_row_nnz = lengths.back().first;
  s.mean_row_nnz = static_cast<double>(s.nnz) / static_cast<double>(s.rows);
  s.variance_row_nnz = squares / static_cast<double>(s.rows) - s.mean_row_nnz * s.mean_row_nnz;
  return s;
}

/// The format chosen, with the rule's text checked for `phrase`.
auto_format chosen(const MatrixStats& s, const tuning::DeviceProfile& p, std::int64_t applies,
                   const std::string& phrase, double sellp_fill = 0, double row_spread = 0) {
  const auto c = tuning::choose_format(s, p, applies, sellp_fill, row_spread);
  EXPECT_NE(c.rule.find(phrase), std::string::npos) << c.rule;
  EXPECT_EQ(c.rule.rfind(tuning::format_name(c.format), 0), 0u) << c.rule;
  return c.format;
}

const MatrixStats stencil = stats_of(8000000, 7.0, 0.1, 7);       // regular, 5.6e7
// Irregular, 1.6e7 nonzeros: rows of 3 and 40 of 1e5, which hold a quarter
// of the nonzeros beyond Hybrid's split (t = 3).
const MatrixStats long_rows = stats_from_rows({{3, 3999960}, {100000, 40}});
// Irregular, 5.3e7 nonzeros: Hybrid's split (t = 1) leaves 0.92 of them to COO.
const MatrixStats power_law =
    stats_from_rows({{1, 2000000}, {10, 1000000}, {40, 999990}, {100000, 10}});
// Irregular, 3.4e5 nonzeros: 6% beyond Hybrid's split (t = 8).
const MatrixStats mid_graph = stats_from_rows({{8, 39900}, {208, 100}});
const MatrixStats small = stats_of(3000, 5.0, 0.5, 6);            // 1.5e4

TEST(ChooseFormat, GpuRegularTakesEll) {
  EXPECT_EQ(chosen(stencil, fake_gpu_profile(), 1000, "regular (002 §5.3), ELL"),
            auto_format::ell);
}

// A regular matrix ELL would pad to 1.25 slots per nonzero (rows of 4.8 on
// average, the longest 6) and SELL-P's warp-wide slices to 1.02: SELL-P,
// from 1.1x SELL-P's slots; not where the fill was not read, where ELL
// would give its rows lanes (longest row over 1e-2 of the rows), under 1e6
// nonzeros, or with slices narrower than a warp.
TEST(ChooseFormat, GpuRegularTakesSellpWhereEllPadsMore) {
  const MatrixStats circuit = stats_of(1600000, 4.8, 0.4, 6);
  tuning::DeviceProfile p = fake_gpu_profile();
  p.auto_sellp_slice_size = 32;
  EXPECT_TRUE(tuning::sellp_fill_read(circuit, p));
  EXPECT_FALSE(tuning::sellp_fill_needed(circuit, p));
  EXPECT_EQ(chosen(circuit, p, 1000, "ELL would store 1.25 slots per nonzero", 1.02),
            auto_format::sellp);
  EXPECT_EQ(chosen(circuit, p, 1000, "SELL-P 1.13 (b = 32", 1.13), auto_format::sellp);
  EXPECT_EQ(chosen(circuit, p, 1000, "ELL (1.25 <= 3", 1.14), auto_format::ell);
  EXPECT_EQ(chosen(circuit, p, 1000, "ELL (1.25 <= 3", 0), auto_format::ell);
  const MatrixStats wide_rows = stats_of(20000, 390.0, 9.0, 430);  // 430 / 20000 > 1e-2
  EXPECT_FALSE(tuning::sellp_fill_read(wide_rows, p));
  EXPECT_EQ(chosen(wide_rows, p, 1000, "ELL (", 1.0), auto_format::ell);
  const MatrixStats small_circuit = stats_of(200000, 4.8, 0.4, 6);  // 9.6e5 nonzeros
  EXPECT_FALSE(tuning::sellp_fill_read(small_circuit, p));
  EXPECT_EQ(chosen(small_circuit, p, 1000, "ELL (", 1.02), auto_format::ell);
  tuning::DeviceProfile narrow = p;
  narrow.auto_sellp_slice_size = 16;
  EXPECT_FALSE(tuning::sellp_fill_read(circuit, narrow));
  EXPECT_EQ(chosen(circuit, narrow, 1000, "ELL (", 1.02), auto_format::ell);
  // ELL's break-even stands for SELL-P: too few applies keep CSR.
  EXPECT_EQ(chosen(circuit, p, 1, "stays in CSR", 1.02), auto_format::csr);
  // Hosts never take it.
  EXPECT_FALSE(tuning::sellp_fill_read(circuit, default_host_profile()));
}

TEST(ChooseFormat, GpuLargeIrregularTakesHybrid) {
  EXPECT_EQ(chosen(long_rows, fake_gpu_profile(), 1000, "irregular (002 §5.3)"),
            auto_format::hybrid);
  EXPECT_EQ(chosen(long_rows, fake_gpu_profile(), 1000, "Hybrid (0.249994 <= 0.5"),
            auto_format::hybrid);
}

// Where Hybrid's COO part would hold most nonzeros, Hybrid runs as COO:
// the matrix stays in Csr.
TEST(ChooseFormat, GpuPowerLawStaysInCsr) {
  EXPECT_NEAR(tuning::hybrid_coo_share(power_law), 48999600.0 / 52999600.0, 1e-12);
  EXPECT_EQ(chosen(power_law, fake_gpu_profile(), 1000, "its COO part: CSR automatic"),
            auto_format::csr);
  // Half the nonzeros beyond the split (t = 1) still take Hybrid, a little
  // more do not.
  tuning::DeviceProfile p = fake_gpu_profile();
  p.auto_min_convert_nnz = p.auto_hybrid_min_nnz = 1000;
  p.auto_coo_max_nnz = 0;  // COO would take these sizes first
  const MatrixStats half = stats_from_rows({{1, 1999}, {2001, 1}});
  const MatrixStats more = stats_from_rows({{1, 1998}, {2002, 1}});
  EXPECT_EQ(tuning::hybrid_coo_share(half), 0.5);
  EXPECT_EQ(chosen(half, p, 1000, "Hybrid (0.5 <= 0.5"), auto_format::hybrid);
  EXPECT_EQ(chosen(more, p, 1000, "0.50025 > 0.5"), auto_format::csr);
  // A Hybrid candidate needs the distribution; the moments alone are refused.
  EXPECT_TRUE(tuning::hybrid_split_read(power_law, fake_gpu_profile()));
  EXPECT_FALSE(tuning::hybrid_split_read(mid_graph, fake_gpu_profile()));
  EXPECT_FALSE(tuning::hybrid_split_read(power_law, default_host_profile()));
  EXPECT_THROW(tuning::choose_format(stats_of(4000000, 16.0, 3e4, 1e5), fake_gpu_profile(), 1000),
               invalid_parameter);
}

// Irregular matrices of at most auto_coo_max_nnz nonzeros take COO
// load_balance where it pays off; more stay in Csr (or take Hybrid), and
// regular ones never do.
TEST(ChooseFormat, GpuSmallIrregularTakesCoo) {
  tuning::DeviceProfile p = fake_gpu_profile();
  ASSERT_EQ(default_host_profile().auto_coo_max_nnz, 0);
  ASSERT_GE(p.auto_coo_max_nnz, mid_graph.nnz);  // the GPU default
  EXPECT_EQ(chosen(mid_graph, p, 1000, "COO load_balance"), auto_format::coo);
  p.auto_coo_max_nnz = mid_graph.nnz;
  EXPECT_EQ(chosen(mid_graph, p, 1000, "COO load_balance"), auto_format::coo);
  EXPECT_EQ(chosen(mid_graph, p, 1000, "<= auto_coo_max_nnz"), auto_format::coo);
  const std::int64_t needed =
      tuning::break_even_applies(tuning::auto_coo_speedup, tuning::auto_coo_setup_spmvs);
  EXPECT_EQ(chosen(mid_graph, p, needed, "COO load_balance"), auto_format::coo);
  EXPECT_EQ(chosen(mid_graph, p, needed - 1, "stays in CSR"), auto_format::csr);
  p.auto_coo_max_nnz = mid_graph.nnz - 1;
  EXPECT_EQ(chosen(mid_graph, p, 1000, "CSR automatic (003 Alg. 3)"), auto_format::csr);
  p.auto_coo_max_nnz = stencil.nnz;
  EXPECT_NE(chosen(stencil, p, 1000000, ""), auto_format::coo);
  // Irregular, but rows that fill classical's subwarp: CSR classical, not
  // merge_path, so no COO.
  const MatrixStats filled = stats_from_rows({{24, 10000}, {200, 200}});
  ASSERT_FALSE(filled.regular());
  ASSERT_TRUE(std::holds_alternative<csr::classical>(tuning::resolve_csr(filled, p).first));
  EXPECT_EQ(chosen(filled, p, 1000, "CSR automatic (003 Alg. 3)"), auto_format::csr);
  // A row past 1024 entries: CSR automatic runs load_balance, which COO's
  // tiles balance the same way, so COO.
  const MatrixStats arrowhead = stats_from_rows({{2, 40000}, {40001, 1}});
  ASSERT_TRUE(std::holds_alternative<csr::load_balance>(tuning::resolve_csr(arrowhead, p).first));
  p.auto_coo_max_nnz = arrowhead.nnz;
  EXPECT_EQ(chosen(arrowhead, p, 1000, "merge_path or load_balance: COO"), auto_format::coo);
}


TEST(ChooseFormat, SmallMatricesStayInCsr) {
  EXPECT_EQ(chosen(small, fake_gpu_profile(), 1000000, "auto_min_convert_nnz"), auto_format::csr);
}

TEST(ChooseFormat, HostsStayInCsr) {
  tuning::DeviceProfile host = host_profile();
  ASSERT_EQ(host.auto_min_convert_nnz, 0);
  EXPECT_EQ(chosen(stencil, host, 1000000, "converts nothing"), auto_format::csr);
  EXPECT_EQ(chosen(power_law, host, 1000000, "converts nothing"), auto_format::csr);
}

// A conversion is made from its break-even number of applies on, not before.
TEST(ChooseFormat, FewAppliesStayInCsr) {
  const auto gpu = fake_gpu_profile();
  const std::int64_t ell = tuning::break_even_applies(gpu.auto_ell_speedup,
                                                      gpu.auto_ell_setup_spmvs);
  const std::int64_t hybrid = tuning::break_even_applies(gpu.auto_hybrid_speedup,
                                                         gpu.auto_hybrid_setup_spmvs);
  // 22.5 / (1 - 1/1.47) = 70.4; 34 / (1 - 1/1.24) = 175.7.
  EXPECT_EQ(ell, 71);
  EXPECT_EQ(hybrid, 176);
  EXPECT_EQ(chosen(stencil, gpu, ell - 1, "stays in CSR"), auto_format::csr);
  EXPECT_EQ(chosen(stencil, gpu, ell, "pays off after 71 applies"), auto_format::ell);
  EXPECT_EQ(chosen(long_rows, gpu, hybrid - 1, "stays in CSR"), auto_format::csr);
  EXPECT_EQ(chosen(long_rows, gpu, hybrid, "pays off after 176 applies"), auto_format::hybrid);
  // A format no faster than CSR never pays off.
  EXPECT_EQ(tuning::break_even_applies(1.0, 5.0), std::numeric_limits<std::int64_t>::max());
  tuning::DeviceProfile slow = gpu;
  slow.auto_ell_speedup = 0.9;
  EXPECT_EQ(chosen(stencil, slow, std::numeric_limits<std::int64_t>::max() - 1, "stays in CSR"),
            auto_format::csr);
}

// Rule 2's ALIGNED_COO: a regular matrix with rows of >= 16 entries spread
// over >= half the columns, whose x exceeds the L2 (the spread is read only
// then); banded rows, short rows, an x within the L2 or few applies keep ELL
// or CSR.
TEST(ChooseFormat, SpreadRowsBeyondTheL2TakeAlignedCoo) {
  tuning::DeviceProfile gpu = fake_gpu_profile();
  MatrixStats wide = stats_of(500000, 100.0, 0.0, 100);
  wide.cols = 8000000;  // x: 64 MB of doubles
  EXPECT_FALSE(tuning::row_spread_needed(wide, gpu, 8)) << "L2 unknown";
  gpu.l2_bytes = std::uint64_t(60) << 20;
  EXPECT_TRUE(tuning::row_spread_needed(wide, gpu, 8));
  EXPECT_FALSE(tuning::row_spread_needed(wide, gpu, 4)) << "32 MB of floats fit";
  EXPECT_EQ(chosen(wide, gpu, 1000, "spanning 0.98 >= 0.5 of the columns: ALIGNED_COO", 0, 0.98),
            auto_format::aligned_coo);
  EXPECT_EQ(chosen(wide, gpu, 1000, "ELL", 0, 0.49), auto_format::ell);
  EXPECT_EQ(chosen(wide, gpu, 1000, "ELL", 0, 0), auto_format::ell);
  // 12.6 / (1 - 1/1.42) = 42.6: from 43 applies.
  const std::int64_t needed = tuning::break_even_applies(tuning::auto_aligned_coo_speedup,
                                                         tuning::auto_aligned_coo_setup_spmvs);
  EXPECT_EQ(needed, 43);
  EXPECT_EQ(chosen(wide, gpu, needed - 1, "stays in CSR", 0, 0.98), auto_format::csr);
  EXPECT_EQ(chosen(wide, gpu, needed, "pays off after 43 applies", 0, 0.98),
            auto_format::aligned_coo);
  MatrixStats short_rows = stats_of(6500000, 8.0, 2.0, 14);
  short_rows.cols = 6500000;
  EXPECT_FALSE(tuning::row_spread_needed(short_rows, gpu, 8));
  EXPECT_EQ(chosen(short_rows, gpu, 1000, "ELL", 0, 0.78), auto_format::ell);
  MatrixStats uneven = wide;
  uneven.variance_row_nnz = 400;
  EXPECT_FALSE(tuning::row_spread_needed(uneven, gpu, 8));
  EXPECT_FALSE(tuning::row_spread_needed(wide, default_host_profile(), 8));
}

// The profile's threshold moves the small-matrix rule (kobalt-tune sets it).
TEST(ChooseFormat, ProfileThresholdDecides) {
  tuning::DeviceProfile p = fake_gpu_profile();
  p.auto_min_convert_nnz = 1000;
  EXPECT_EQ(chosen(small, p, 1000, "regular"), auto_format::ell);
  p.auto_min_convert_nnz = 100000000;
  EXPECT_EQ(chosen(stencil, p, 1000, "auto_min_convert_nnz"), auto_format::csr);
  p.auto_min_convert_nnz = 1000;
  p.auto_hybrid_min_nnz = 1000;
  p.auto_coo_max_nnz = 0;  // COO would take it first
  EXPECT_EQ(chosen(mid_graph, p, 1000, "auto_hybrid_min_nnz = 1000, Hybrid"), auto_format::hybrid);
}

/// A host profile whose rule 0 converts regular matrices under 2.5e5
/// nonzeros to SELL-P: 1.15x, setup 5 CSR applies (break-even 39.3 -> 39),
/// with the default 8-row slices.
tuning::DeviceProfile sellp_host() {
  tuning::DeviceProfile p = default_host_profile();
  p.auto_sellp_max_nnz = 250000;
  p.auto_sellp_speedup = 1.15;
  p.auto_sellp_setup_spmvs = 5.0;
  return p;
}

const MatrixStats small_mesh = stats_of(40000, 6.0, 0.4, 9);  // regular, 2.4e5

TEST(ChooseFormat, SmallRegularTakesSellpWhereTheProfileSaysSo) {
  const auto p = sellp_host();
  EXPECT_TRUE(tuning::sellp_fill_needed(small_mesh, p));
  EXPECT_EQ(chosen(small_mesh, p, 1000, "SELL-P (pays off after 39 applies", 1.2),
            auto_format::sellp);
  EXPECT_EQ(chosen(small_mesh, p, 1000, "1.25 SELL-P slots per nonzero (b = 8)", 1.25),
            auto_format::sellp);
  // Beside each limit: padding, size, regularity, fill not read, applies.
  EXPECT_EQ(chosen(small_mesh, p, 1000, "converts nothing", 1.2501), auto_format::csr);
  EXPECT_EQ(chosen(small_mesh, p, 1000, "converts nothing", 0), auto_format::csr);
  tuning::DeviceProfile at_limit = p;
  at_limit.auto_sellp_max_nnz = small_mesh.nnz;
  EXPECT_FALSE(tuning::sellp_fill_needed(small_mesh, at_limit));
  EXPECT_EQ(chosen(small_mesh, at_limit, 1000, "converts nothing", 1.0), auto_format::csr);
  at_limit.auto_sellp_max_nnz = small_mesh.nnz + 1;
  EXPECT_EQ(chosen(small_mesh, at_limit, 1000, "auto_sellp_max_nnz = 240001", 1.0),
            auto_format::sellp);
  const MatrixStats uneven = stats_of(40000, 6.0, 10.5, 30);
  EXPECT_FALSE(tuning::sellp_fill_needed(uneven, p));
  EXPECT_EQ(chosen(uneven, p, 1000, "converts nothing", 1.0), auto_format::csr);
  EXPECT_EQ(chosen(small_mesh, p, 38, "converts nothing", 1.0), auto_format::csr);
  // The slice size is the profile's, and the rule says which.
  tuning::DeviceProfile b16 = p;
  b16.auto_sellp_slice_size = 16;
  EXPECT_EQ(chosen(small_mesh, b16, 1000, "SELL-P slots per nonzero (b = 16)", 1.1),
            auto_format::sellp);
  EXPECT_EQ(chosen(small_mesh, p, 39, "SELL-P", 1.0), auto_format::sellp);
  // Profiles without rule 0 (the kinds' defaults) never read the fill.
  EXPECT_FALSE(tuning::sellp_fill_needed(small_mesh, default_host_profile()));
  EXPECT_FALSE(tuning::sellp_fill_needed(small_mesh, fake_gpu_profile()));
  EXPECT_EQ(chosen(small_mesh, default_host_profile(), 1000, "converts nothing", 1.0),
            auto_format::csr);
}

// On a GPU profile rule 0 comes first; larger regular matrices still take
// ELL, and one that SELL-P would pad too much falls through to the rules
// after it.
TEST(ChooseFormat, SellpRuleComesFirstThenTheOthers) {
  tuning::DeviceProfile p = fake_gpu_profile();
  p.auto_min_convert_nnz = 1000;
  p.auto_sellp_max_nnz = 250000;
  p.auto_sellp_speedup = 1.3;
  p.auto_sellp_setup_spmvs = 3.0;
  EXPECT_EQ(chosen(small_mesh, p, 1000, "SELL-P", 1.1), auto_format::sellp);
  const MatrixStats even_mesh = stats_of(40000, 6.0, 0.4, 7);  // ELL pads to 7/6 slots
  EXPECT_EQ(chosen(even_mesh, p, 1000, "regular (002 §5.3), ELL", 1.4), auto_format::ell);
  EXPECT_EQ(chosen(stencil, p, 1000, "regular (002 §5.3), ELL", 1.0), auto_format::ell);
  // small_mesh's longest row (9, mean 6) pads ELL to 1.5 slots per nonzero,
  // within the limit.
  EXPECT_EQ(chosen(small_mesh, p, 1000, "ELL (1.5 <= 3 slots per nonzero)", 1.4), auto_format::ell);
}

// ELL pads every row to the longest: a regular matrix whose few long rows
// would multiply the storage stays in Csr. The case of issue 51: 1e6 rows,
// 10% of them with 9 entries, the rest with 1 (variance 5.76: regular),
// took ELL at 5 slots per nonzero.
TEST(ChooseFormat, EllThatWouldPadMuchStaysInCsr) {
  MatrixStats block;
  block.rows = block.cols = 1000000;
  block.nnz = 100000 * 9 + 900000 * 1;
  block.min_row_nnz = 1;
  block.max_row_nnz = 9;
  block.mean_row_nnz = 1.8;
  block.variance_row_nnz = 0.1 * (9 - 1.8) * (9 - 1.8) + 0.9 * (1 - 1.8) * (1 - 1.8);
  ASSERT_TRUE(block.regular());
  EXPECT_DOUBLE_EQ(tuning::ell_fill(block), 5.0);
  const auto gpu = fake_gpu_profile();
  ASSERT_GE(block.nnz, gpu.auto_min_convert_nnz);
  EXPECT_EQ(chosen(block, gpu, 1000000000, "ELL would store 5 > 3 slots per nonzero"),
            auto_format::csr);
  EXPECT_EQ(chosen(block, gpu, 1000000000, "longest row 9"), auto_format::csr);
  // At the bound ELL is taken, past it not: rows of mean 4 padded to the
  // longest, 12, take 3 slots per nonzero; to 13, 3.25.
  MatrixStats at = stats_of(1600000, 4.0, 0.5, 12);
  EXPECT_DOUBLE_EQ(tuning::ell_fill(at), 3.0);
  EXPECT_EQ(chosen(at, gpu, 1000000000, "ELL (3 <= 3 slots per nonzero)"), auto_format::ell);
  at.max_row_nnz = 13;
  EXPECT_EQ(chosen(at, gpu, 1000000000, "stays in CSR"), auto_format::csr);
  // No entries: nothing is padded.
  EXPECT_EQ(tuning::ell_fill(MatrixStats{}), 0.0);
}

}  // namespace
}  // namespace kobalt::test
