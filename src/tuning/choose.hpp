// SPDX-License-Identifier: BSD-3-Clause
// The format kobalt::automatic converts a Csr to: read off the
// row statistics (tuning::analyze), the device profile and how many applies
// the caller expects, so that a conversion is made only where it pays off
// (000 §5.3: conversions cost up to 280 SpMVs there).
//
// The rules, in order:
//  0. SELL-P (profile.auto_sellp_max_nnz > 0, set by kobalt-tune): a regular
//     matrix (002 §5.3) under auto_sellp_max_nnz nonzeros that SELL-P with
//     auto_sellp_slice_size-row slices (a profile key) pads to at most
//     auto_sellp_max_fill slots per nonzero takes SELL-P where it pays off
//     (rule 3's test with auto_sellp_speedup and auto_sellp_setup_spmvs);
//     otherwise the rules below decide.
//  1. Hosts (profile.auto_min_convert_nnz = 0) and matrices under
//     auto_min_convert_nnz nonzeros stay in Csr: CSR is at or near the best
//     there (docs/sources.md: "auto_min_convert_nnz").
//  2. The regular/irregular split of 002 §5.3 (row-length variance <= 10,
//     MatrixStats::regular). Regular matrices whose x exceeds the L2, with
//     rows of at least auto_aligned_coo_min_row_nnz entries that spread over
//     the columns (tuning/row_spread.hpp) take ALIGNED_COO; other
//     regular matrices that ELL pads to at most
//     auto_ell_max_fill slots per nonzero take ELL (others stay in Csr: a
//     few long rows would multiply the storage), or SELL-P on GPUs from
//     auto_sellp_over_ell_min_nnz nonzeros where ELL would run a thread per
//     row and store auto_ell_over_sellp_fill times SELL-P's slots (the same
//     loads, less padding), irregular ones from
//     profile.auto_hybrid_min_nnz nonzeros take Hybrid where its automatic
//     split leaves at most auto_hybrid_max_coo_share of the nonzeros to its
//     COO part, irregular ones of at most profile.auto_coo_max_nnz for which
//     csr::automatic would split rows by entries (merge_path, load_balance)
//     take COO (load_balance: tiles of consecutive entries, no search for
//     their rows), other irregular ones stay in Csr (csr::automatic: 003
//     Alg. 3 picks its kernel). The thresholds are the profile's
//     (auto_min_convert_nnz, auto_hybrid_min_nnz), each with its row in
//     docs/sources.md.
//  3. A conversion is made only when expected_applies * (1 - 1/speedup)
//     CSR SpMVs saved exceed its setup in CSR SpMVs: the profile's
//     auto_ell_speedup, auto_hybrid_speedup, auto_ell_setup_spmvs and
//     auto_hybrid_setup_spmvs (measured, docs/sources.md; kobalt-tune refits
//     them), and for ALIGNED_COO auto_aligned_coo_speedup and
//     auto_aligned_coo_setup_spmvs (measured, docs/sources.md).
#pragma once

#include "hybrid_partition.hpp"
#include "launch_shapes.hpp"
#include "profile.hpp"
#include "select_csr_automatic.hpp"
#include "stats.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>

namespace kobalt::tuning {

/// The formats kobalt::automatic converts to.
enum class auto_format { csr, ell, hybrid, sellp, aligned_coo, coo };

/// Most of an irregular matrix's nonzeros that Hybrid's automatic split may
/// leave to its COO part: past it Hybrid runs as COO, slower than CSR on
/// power-law graphs (docs/sources.md: "auto_hybrid_max_coo_share").
inline constexpr double auto_hybrid_max_coo_share = 0.5;

/// True where rule 2 may give Hybrid, so that the analysis reads the
/// row-length distribution its COO share needs (tuning::analyze): a
/// converting profile, an irregular matrix of at least auto_min_convert_nnz
/// and auto_hybrid_min_nnz nonzeros.
inline bool hybrid_split_read(const MatrixStats& stats, const DeviceProfile& profile) {
  return profile.auto_min_convert_nnz > 0 && stats.nnz >= profile.auto_min_convert_nnz &&
         !stats.regular() && stats.nnz >= profile.auto_hybrid_min_nnz;
}

/// The share of the nonzeros hybrid::automatic's split leaves to Hybrid's
/// COO part (0 for a matrix without entries); the statistics must hold the
/// row-length distribution (tuning::analyze).
inline double hybrid_coo_share(const MatrixStats& stats) {
  if (stats.nnz == 0) return 0;
  const std::int64_t t = hybrid::width(stats, hybrid::as_bounded(hybrid::automatic{}));
  return static_cast<double>(entries_beyond(stats, t)) / static_cast<double>(stats.nnz);
}

/// Whether rule 2 may give Hybrid to a matrix whose automatic split leaves
/// `coo_share` of the nonzeros (hybrid_coo_share) to its COO part.
inline bool hybrid_coo_share_allowed(double coo_share) {
  return coo_share <= auto_hybrid_max_coo_share;
}

/// Most slots per nonzero rule 0 accepts (the padding is read and multiplied
/// on every apply); it lies between the padding of a regular matrix SELL-P
/// won on and one it lost on (docs/sources.md: "auto_sellp_max_fill").
inline constexpr double auto_sellp_max_fill = 1.25;

/// Most slots per nonzero rule 2 lets ELL store: the rows kernel stops at a
/// row's first padding slot, so padding costs storage more than time, and
/// the bound keeps the regular matrices ELL runs faster while refusing
/// those it would pad several times over (docs/sources.md, "ELL padding limit").
inline constexpr double auto_ell_max_fill = 3.0;

/// Where rule 2 takes ELL with a thread per row, SELL-P (t = 1, slices of
/// at least a warp's rows) runs the same loads with less padding: it is
/// taken from this many nonzeros, where ELL would store at least
/// auto_ell_over_sellp_fill times its slots. Smaller matrices run near the
/// launch floor, where SELL-P's slice offsets cost more than the padding
/// saves (docs/sources.md, "ELL or SELL-P by their slots").
inline constexpr std::int64_t auto_sellp_over_ell_min_nnz = 1000000;
/// ELL's slots over SELL-P's from which rule 2 takes SELL-P (above).
inline constexpr double auto_ell_over_sellp_fill = 1.1;

/// Rule 2's ALIGNED_COO: the fewest entries per row (the mean) and the least
/// row spread (tuning::row_spread) at which a regular matrix whose x exceeds
/// the L2 takes ALIGNED_COO. Shorter rows lost to ELL there, and banded
/// matrices (spread near 0) lost by far (docs/sources.md: "auto_aligned_coo").
inline constexpr double auto_aligned_coo_min_row_nnz = 16;
inline constexpr double auto_aligned_coo_min_spread = 0.5;  ///< see auto_aligned_coo_min_row_nnz
/// CSR time over ALIGNED_COO's and its setup in CSR applies where rule 2
/// takes it: the least speedup and the largest setup measured on those
/// matrices (docs/sources.md: "auto_aligned_coo").
inline constexpr double auto_aligned_coo_speedup = 1.42;
inline constexpr double auto_aligned_coo_setup_spmvs = 12.6;  ///< see auto_aligned_coo_speedup

/// Rule 2's COO: CSR merge_path's time over COO load_balance's and its
/// setup in CSR applies on the irregular matrices it takes: the mean
/// speedup and the largest setup measured there (docs/sources.md: "auto_coo").
inline constexpr double auto_coo_speedup = 1.09;
inline constexpr double auto_coo_setup_spmvs = 45.2;  ///< see auto_coo_speedup

/// Whether a CSR kernel splits rows by entries (merge_path, load_balance):
/// where csr::automatic picks one, rule 2's COO does the same balancing
/// without searching for each entry's row.
inline bool balances_entries(const csr::strategy& s) {
  return std::holds_alternative<csr::merge_path>(s) || std::holds_alternative<csr::load_balance>(s);
}

/// True when rule 2 must know the matrix's row spread (tuning/row_spread.hpp):
/// the profile converts matrices of this size (GPUs), the matrix is regular
/// with rows of at least auto_aligned_coo_min_row_nnz entries, and x
/// (cols * value_bytes) exceeds the profile's L2 (unknown: never).
inline bool row_spread_needed(const MatrixStats& stats, const DeviceProfile& profile,
                              std::size_t value_bytes) {
  return profile.auto_min_convert_nnz > 0 && stats.nnz >= profile.auto_min_convert_nnz &&
         stats.regular() && stats.mean_row_nnz >= auto_aligned_coo_min_row_nnz &&
         profile.l2_bytes > 0 &&
         static_cast<std::uint64_t>(stats.cols) * value_bytes > profile.l2_bytes;
}

/// ELL's slots per nonzero for a matrix with statistics `stats`: every row
/// padded to the longest, rows * max_row_nnz / nnz (1 = no padding; 0
/// without entries). Read off the row moments, no pass over the matrix.
inline double ell_fill(const MatrixStats& stats) {
  if (stats.nnz <= 0) return 0;
  return static_cast<double>(stats.rows) * static_cast<double>(stats.max_row_nnz) /
         static_cast<double>(stats.nnz);
}

/// The format's name as kobalt-bench spells it.
inline const char* format_name(auto_format f) {
  switch (f) {
    case auto_format::ell: return "ell";
    case auto_format::hybrid: return "hybrid";
    case auto_format::sellp: return "sellp";
    case auto_format::aligned_coo: return "aligned_coo";
    case auto_format::coo: return "coo";
    default: return "csr";
  }
}

/// Applies after which a conversion with this speedup and setup pays off:
/// setup / (1 - 1/speedup), in whole applies, rounded up; a format no
/// faster than CSR (speedup <= 1) never pays off.
inline std::int64_t break_even_applies(double speedup, double setup_spmvs) {
  if (!(speedup > 1.0)) return std::numeric_limits<std::int64_t>::max();
  const double n = std::ceil(setup_spmvs / (1.0 - 1.0 / speedup));
  return n >= 9e18 ? std::numeric_limits<std::int64_t>::max() : static_cast<std::int64_t>(n);
}

/// What kobalt::automatic chose and why.
struct FormatChoice {
  auto_format format = auto_format::csr;  ///< the format the handle converts to
  std::string rule;  ///< the rule that fired, with the statistics it read
};

/// True when SELL-P's padding suits rule 0: a regular matrix that SELL-P
/// with the profile's auto_sellp_slice_size-row slices pads to at most
/// auto_sellp_max_fill slots per nonzero (sellp_fill 0: not read, or no
/// entries). The one test of the matrix's shape, shared by choose_format
/// and kobalt-tune's fit (perf_tests/tune/fit_auto.hpp), so that the fit
/// trains on the matrices the rule takes.
inline bool sellp_shape_fits(bool regular, double sellp_fill) {
  return regular && sellp_fill > 0 && sellp_fill <= auto_sellp_max_fill;
}

/// True when rule 0 must know the matrix's SELL-P fill (tuning/sellp_fill.hpp,
/// with profile.auto_sellp_slice_size): the profile converts to SELL-P, and
/// the matrix is regular and small enough.
inline bool sellp_fill_needed(const MatrixStats& stats, const DeviceProfile& profile) {
  return stats.nnz < profile.auto_sellp_max_nnz && stats.regular();
}

/// True where rule 2 may give a matrix ELL would take to SELL-P, so that
/// the analysis reads SELL-P's fill: on a GPU profile that converts, with
/// slices of at least a warp's rows (a warp then reads one slice, as it
/// reads ELL's rows), a regular matrix of at least
/// auto_sellp_over_ell_min_nnz nonzeros whose rows ELL would give a thread
/// each (width / rows at most ell_lanes_ratio) and pad to at least
/// auto_ell_over_sellp_fill slots per nonzero (SELL-P stores at least one).
inline bool sellp_may_replace_ell(const MatrixStats& stats, const DeviceProfile& profile) {
  return profile.gpu && profile.auto_min_convert_nnz > 0 &&
         profile.auto_sellp_slice_size >= profile.warp_width && stats.regular() &&
         stats.nnz >= std::max(profile.auto_min_convert_nnz, auto_sellp_over_ell_min_nnz) &&
         static_cast<double>(stats.max_row_nnz) <= ell_lanes_ratio * static_cast<double>(stats.rows) &&
         ell_fill(stats) >= auto_ell_over_sellp_fill;
}

/// True when choose_format reads the matrix's SELL-P fill: for rule 0
/// (sellp_fill_needed), or for rule 2's choice between ELL and SELL-P
/// (sellp_may_replace_ell).
inline bool sellp_fill_read(const MatrixStats& stats, const DeviceProfile& profile) {
  return sellp_fill_needed(stats, profile) || sellp_may_replace_ell(stats, profile);
}

/// True when rule 2 gives a matrix ELL would take to SELL-P instead
/// (sellp_may_replace_ell): ELL would store at least
/// auto_ell_over_sellp_fill times SELL-P's slots (sellp_fill 0: not read).
inline bool sellp_replaces_ell(const MatrixStats& stats, const DeviceProfile& profile,
                               double sellp_fill) {
  return sellp_may_replace_ell(stats, profile) && sellp_fill > 0 &&
         ell_fill(stats) >= auto_ell_over_sellp_fill * sellp_fill;
}

/// The format for a matrix with statistics `stats` on the device of
/// `profile`, applied about `expected_applies` times. sellp_fill: the
/// matrix's SELL-P slots per nonzero with profile.auto_sellp_slice_size-row
/// slices, read only where sellp_fill_read (0 = not computed: no SELL-P).
/// row_spread: tuning::row_spread of the matrix, read only where
/// row_spread_needed (0 = not computed: no ALIGNED_COO). Where
/// hybrid_split_read, `stats` must hold the row-length distribution
/// (tuning::analyze), or choose_format throws invalid_parameter.
inline FormatChoice choose_format(const MatrixStats& stats, const DeviceProfile& profile,
                                  std::int64_t expected_applies, double sellp_fill = 0,
                                  double row_spread = 0) {
  std::ostringstream why;
  const auto stay = [&](const std::string& reason) {
    return FormatChoice{auto_format::csr, "csr: " + reason};
  };
  if (sellp_fill_needed(stats, profile) && sellp_shape_fits(stats.regular(), sellp_fill)) {
    const std::int64_t needed =
        break_even_applies(profile.auto_sellp_speedup, profile.auto_sellp_setup_spmvs);
    if (expected_applies >= needed) {
      why << "sellp: row-length variance " << stats.variance_row_nnz << " <= "
          << regular_variance_limit << ": regular (002 §5.3) with " << stats.nnz
          << " < auto_sellp_max_nnz = " << profile.auto_sellp_max_nnz << " nonzeros, "
          << sellp_fill << " <= " << auto_sellp_max_fill << " SELL-P slots per nonzero (b = "
          << profile.auto_sellp_slice_size << "), SELL-P (pays off after " << needed
          << " applies, " << expected_applies << " expected)";
      return {auto_format::sellp, why.str()};
    }
  }
  if (profile.auto_min_convert_nnz <= 0)
    return stay("the device profile converts nothing (auto_min_convert_nnz = 0: on hosts CSR "
                "was at or near the best format)");
  if (stats.nnz < profile.auto_min_convert_nnz)
    return stay(std::to_string(stats.nnz) + " nonzeros < auto_min_convert_nnz = " +
                std::to_string(profile.auto_min_convert_nnz) +
                " (below it no conversion paid off where the profile was fitted)");
  why << "row-length variance " << stats.variance_row_nnz;
  auto_format f;
  std::int64_t needed = 0;
  if (stats.regular()) {
    why << " <= " << regular_variance_limit << ": regular (002 §5.3)";
    if (row_spread >= auto_aligned_coo_min_spread &&
        stats.mean_row_nnz >= auto_aligned_coo_min_row_nnz) {
      f = auto_format::aligned_coo;
      why << ", x beyond the L2, rows of " << stats.mean_row_nnz << " >= "
          << auto_aligned_coo_min_row_nnz << " entries spanning " << row_spread << " >= "
          << auto_aligned_coo_min_spread << " of the columns: ALIGNED_COO";
      needed = break_even_applies(auto_aligned_coo_speedup, auto_aligned_coo_setup_spmvs);
    } else if (ell_fill(stats) > auto_ell_max_fill) {
      why << ", but ELL would store " << ell_fill(stats) << " > " << auto_ell_max_fill
          << " slots per nonzero (longest row " << stats.max_row_nnz << "): stays in CSR";
      return {auto_format::csr, "csr: " + why.str()};
    } else if (sellp_replaces_ell(stats, profile, sellp_fill)) {
      // SELL-P's setup is ELL's (a padded copy), so ELL's break-even stands.
      f = auto_format::sellp;
      why << ", ELL would store " << ell_fill(stats) << " slots per nonzero, a thread per row, "
          << "SELL-P " << sellp_fill << " (b = " << profile.auto_sellp_slice_size
          << "; ELL's >= " << auto_ell_over_sellp_fill << "x): SELL-P";
      needed = break_even_applies(profile.auto_ell_speedup, profile.auto_ell_setup_spmvs);
    } else {
      f = auto_format::ell;
      why << ", ELL (" << ell_fill(stats) << " <= " << auto_ell_max_fill << " slots per nonzero)";
      needed = break_even_applies(profile.auto_ell_speedup, profile.auto_ell_setup_spmvs);
    }
  } else if (stats.nnz <= profile.auto_coo_max_nnz &&
             balances_entries(resolve_csr(stats, profile).first)) {
    f = auto_format::coo;
    why << " > " << regular_variance_limit << ": irregular (002 §5.3) with " << stats.nnz
        << " <= auto_coo_max_nnz = " << profile.auto_coo_max_nnz
        << " nonzeros, where CSR automatic would run merge_path or load_balance: COO load_balance";
    needed = break_even_applies(auto_coo_speedup, auto_coo_setup_spmvs);
  } else if (stats.nnz >= profile.auto_hybrid_min_nnz) {
    const double share = hybrid_coo_share(stats);
    why << " > " << regular_variance_limit << ": irregular (002 §5.3) with " << stats.nnz
        << " >= auto_hybrid_min_nnz = " << profile.auto_hybrid_min_nnz;
    if (!hybrid_coo_share_allowed(share)) {
      why << ", but Hybrid's split would leave " << share << " > " << auto_hybrid_max_coo_share
          << " of them to its COO part: CSR automatic (003 Alg. 3)";
      return {auto_format::csr, "csr: " + why.str()};
    }
    f = auto_format::hybrid;
    why << ", Hybrid (" << share << " <= " << auto_hybrid_max_coo_share
        << " of them in its COO part)";
    needed = break_even_applies(profile.auto_hybrid_speedup, profile.auto_hybrid_setup_spmvs);
  } else {
    why << " > " << regular_variance_limit << ": irregular (002 §5.3) with " << stats.nnz
        << " < auto_hybrid_min_nnz = " << profile.auto_hybrid_min_nnz
        << ", CSR automatic (003 Alg. 3)";
    return {auto_format::csr, "csr: " + why.str()};
  }
  if (expected_applies < needed) {
    why << " would pay off after " << needed << " applies, " << expected_applies
        << " expected: stays in CSR";
    return {auto_format::csr, "csr: " + why.str()};
  }
  why << " (pays off after " << needed << " applies, " << expected_applies << " expected)";
  return {f, std::string(format_name(f)) + ": " + why.str()};
}

}  // namespace kobalt::tuning
