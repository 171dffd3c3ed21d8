// SPDX-License-Identifier: BSD-3-Clause
// kobalt-tune's fit of the automatic handle's profile keys from
// measurements on a training set: for each matrix the CSR time, and the ELL
// (regular matrices) or Hybrid (irregular ones) time and setup. Pure
// arithmetic on the samples, so tested without a device.
//
// The rules (tuning/choose.hpp) convert a regular matrix to ELL and an
// irregular one to Hybrid; the fit sets where that pays:
//  - auto_min_convert_nnz: where at least fit_share_that_must_win of the
//    regular training matrices from there on gain >= fit_min_gain by ELL,
//    halfway (geometric mean) between the smallest such matrix and the next
//    smaller one (no regular matrix: the same over the irregular ones by
//    Hybrid; none wins: 0, always Csr);
//  - auto_hybrid_min_nnz: the same over the irregular matrices by Hybrid,
//    at least auto_min_convert_nnz (none wins: never Hybrid, fit_never_nnz);
//  - where some of a class win but from no size on enough of them do, its
//    threshold keeps the starting profile's value (class_threshold);
//  - the speedups: geometric means of CSR time over the format's time on the
//    matrices the rules then convert; the setups: their medians;
//  - auto_sellp_max_nnz (rule 0 of choose.hpp), fitted last: over the
//    regular matrices that SELL-P pads to at most auto_sellp_max_fill, the
//    largest bound under which at least fit_share_that_must_win of them gain
//    >= fit_min_gain by SELL-P over what rules 1-2 would run (ELL from
//    auto_min_convert_nnz, CSR below), placed halfway (geometric mean)
//    between the last matrix inside and the next one (0 = the smallest does
//    not win: never SELL-P); its speedup and setup as above, over the
//    matrices inside.
//
// Each class is fitted on its own samples: fitted over both at once,
// irregular matrices that Hybrid does not speed up held back ELL where it
// wins (docs/sources.md: "kobalt-tune's conversion thresholds").
#pragma once

#include "fit_sweep.hpp"

#include <kobalt/tuning/choose.hpp>
#include <kobalt/tuning/profile.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace kobalt::tuning {

/// One training matrix: CSR's time and the converted format's (ELL for a
/// regular matrix, Hybrid for an irregular one), both per apply, and the
/// conversion's setup time in CSR applies.
struct AutoSample {
  std::string name;               ///< the input, for the report
  std::int64_t nnz = 0;           ///< stored entries
  bool regular = false;           ///< row-length variance <= 10 (002 §5.3)
  double csr_seconds = 0;         ///< one CSR apply (csr::automatic)
  double format_seconds = 0;      ///< ELL when regular, Hybrid otherwise
  double format_setup_spmvs = 0;  ///< the conversion in CSR applies
  /// SELL-P slots per nonzero (the profile's auto_sellp_slice_size-row
  /// slices); 0 = not read
  double sellp_fill = 0;
  double sellp_seconds = 0;       ///< SELL-P (rule 0's); 0 = not measured
  double sellp_setup_spmvs = 0;   ///< Csr -> SELL-P in CSR applies
  /// CSR time over the format's; 0 when the format was not measured.
  double speedup() const { return format_seconds > 0 ? csr_seconds / format_seconds : 0; }
  /// CSR time over SELL-P's; 0 when SELL-P was not measured.
  double sellp_speedup() const { return sellp_seconds > 0 ? csr_seconds / sellp_seconds : 0; }
  /// SELL-P's gain over what rules 1-2 of choose.hpp run without rule 0:
  /// ELL from `convert_nnz` nonzeros (auto_min_convert_nnz; 0 = never) where
  /// ELL was measured, CSR otherwise; 0 when SELL-P was not measured.
  double sellp_gain(std::int64_t convert_nnz) const {
    const bool ell = convert_nnz > 0 && nnz >= convert_nnz && format_seconds > 0;
    return sellp_seconds > 0 ? (ell ? format_seconds : csr_seconds) / sellp_seconds : 0;
  }
  /// True when rule 0 (choose.hpp) would consider SELL-P for this matrix
  /// and SELL-P was measured.
  bool sellp_candidate() const {
    return sellp_shape_fits(regular, sellp_fill) && sellp_seconds > 0 && csr_seconds > 0;
  }
};

/// A conversion counts as a win from this gain on: beyond the run-to-run
/// spread (docs/sources.md: "fit_min_gain").
inline constexpr double fit_min_gain = 1.05;
/// The share of training matrices at or above a threshold that must win:
/// the target for `auto`, within 1.10x of the best on >= 90% (docs/sources.md).
inline constexpr double fit_share_that_must_win = 0.9;
/// "Never" for an nnz threshold (the profile file takes up to 1e15).
inline constexpr std::int64_t fit_never_nnz = 1000000000000000;

/// What the fit set, and a line per decision for kobalt-tune's report.
struct AutoFit {
  DeviceProfile profile;  ///< the base profile with the auto_* keys refitted
  std::string report;    ///< one line per key set, with the samples behind it
  /// Keys set from fewer than fit_min_samples matrices (also in the report).
  std::vector<std::string> warnings;
};

namespace detail {

/// True when the sample's conversion gains fit_min_gain over CSR.
inline bool conversion_wins(const AutoSample& s) { return s.speedup() >= fit_min_gain; }

/// A bound between training matrices of `below` < `above` nonzeros: their
/// geometric mean, and above `below` (the fit's thresholds and the SELL-P
/// bound lie halfway, on the log scale the sizes span).
inline std::int64_t nnz_between(std::int64_t below, std::int64_t above) {
  return std::max<std::int64_t>(
      below + 1, std::llround(std::sqrt(static_cast<double>(below) * static_cast<double>(above))));
}

/// Where a class starts to convert: the smallest sample of `samples`
/// (sorted by nnz) from which at least fit_share_that_must_win of the
/// samples at or above it win, placed halfway (geometric mean) between it
/// and the next smaller sample, as fit_sellp places its upper bound; that
/// sample's nnz when it is the smallest; -1 if none. Placed at the sample
/// itself, a matrix in the gap stayed in CSR however near the win it lay
/// (docs/sources.md: "Threshold placement").
inline std::int64_t winning_threshold(const std::vector<AutoSample>& samples) {
  for (std::size_t i = 0; i < samples.size(); ++i) {
    std::size_t wins = 0;
    for (std::size_t j = i; j < samples.size(); ++j) wins += conversion_wins(samples[j]);
    const double from_here = static_cast<double>(samples.size() - i);
    if (static_cast<double>(wins) < fit_share_that_must_win * from_here) continue;
    return i == 0 ? samples[0].nnz : nnz_between(samples[i - 1].nnz, samples[i].nnz);
  }
  return -1;
}

/// winning_threshold of one class, where its samples are mixed (some
/// win, but from no size on do fit_share_that_must_win of them) `start`,
/// the starting profile's threshold, stays: on such evidence both "never"
/// and a threshold where the wins begin sent matrices to a slower format
/// (docs/sources.md: "kobalt-tune's conversion thresholds"). `start` <= 0 or
/// fit_never_nnz: -1. The note for the report goes to `why`.
inline std::int64_t class_threshold(const std::vector<AutoSample>& samples, std::int64_t start,
                                    std::string& why) {
  const std::int64_t from = winning_threshold(samples);
  const auto wins = std::count_if(samples.begin(), samples.end(), conversion_wins);
  if (from >= 0 || wins == 0) return from;
  why = "; mixed: " + std::to_string(wins) + " of " + std::to_string(samples.size()) +
        " win, but from no size on do " + std::to_string(int(fit_share_that_must_win * 100)) +
        "%: the starting profile's value stays";
  return start > 0 && start < fit_never_nnz ? start : -1;
}

/// Geometric mean of speedup_of(sample) over `s` (not empty).
template <class SpeedupOf>
double geometric_mean(const std::vector<AutoSample>& s, SpeedupOf&& speedup_of) {
  double log_sum = 0;
  for (const auto& x : s) log_sum += std::log(speedup_of(x));
  return std::exp(log_sum / static_cast<double>(s.size()));
}

inline double geometric_mean_speedup(const std::vector<AutoSample>& s) {
  return geometric_mean(s, [](const AutoSample& x) { return x.speedup(); });
}

/// Median of setup_of(sample) over `s` (not empty).
template <class SetupOf>
double median(const std::vector<AutoSample>& s, SetupOf&& setup_of) {
  std::vector<double> v;
  for (const auto& x : s) v.push_back(setup_of(x));
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

inline double median_setup(const std::vector<AutoSample>& s) {
  return median(s, [](const AutoSample& x) { return x.format_setup_spmvs; });
}

/// How many of `samples` (sorted by nnz), from the smallest on, lie inside
/// the largest prefix that ends in a win and where at least
/// fit_share_that_must_win of the samples gain >= fit_min_gain by SELL-P
/// over what the rules would run instead (AutoSample::sellp_gain with
/// auto_min_convert_nnz = `convert_nnz`); 0 if none.
inline std::size_t sellp_winning_prefix(const std::vector<AutoSample>& samples,
                                        std::int64_t convert_nnz) {
  const auto wins = [convert_nnz](const AutoSample& s) {
    return s.sellp_gain(convert_nnz) >= fit_min_gain;
  };
  for (std::size_t n = samples.size(); n > 0; --n) {
    if (!wins(samples[n - 1])) continue;
    const auto end = samples.begin() + static_cast<std::ptrdiff_t>(n);
    const auto won = std::count_if(samples.begin(), end, wins);
    if (static_cast<double>(won) >= fit_share_that_must_win * static_cast<double>(n)) return n;
  }
  return 0;
}

/// Rule 0's keys (auto_sellp_*) from the SELL-P candidates among `all`,
/// after rules 1-2's thresholds are fitted into `p`: rule 0 fires first, so
/// SELL-P must beat ELL where the rules would convert to ELL, not only CSR.
/// Measured against CSR alone, the fit took SELL-P where it only tied ELL
/// (docs/sources.md: "SELL-P bound fitted against ELL").
inline void fit_sellp(const std::vector<AutoSample>& all, DeviceProfile& p,
                      std::ostream& report, std::vector<std::string>& warnings) {
  std::vector<AutoSample> c;
  for (const auto& s : all)
    if (s.sellp_candidate()) c.push_back(s);
  if (c.empty()) {
    report << "auto_sellp_* kept: no regular training matrix with SELL-P measured and at most "
           << auto_sellp_max_fill << " slots per nonzero\n";
    return;
  }
  std::sort(c.begin(), c.end(),
            [](const AutoSample& a, const AutoSample& b) { return a.nnz < b.nnz; });
  const std::size_t n = sellp_winning_prefix(c, p.auto_min_convert_nnz);
  note_warning(few_samples_warning("auto_sellp_max_nnz", n == 0 ? c.size() : n,
                                   n == 0 ? "SELL-P candidates" : "SELL-P candidates that win"),
               warnings, report);
  if (n == 0) {
    p.auto_sellp_max_nnz = 0;
    report << "auto_sellp_max_nnz = 0 (SELL-P gains less than " << fit_min_gain
           << "x over CSR or ELL on " << c.front().name << ", the smallest of " << c.size()
           << " candidates)\n";
    return;
  }
  const std::vector<AutoSample> inside(c.begin(), c.begin() + static_cast<std::ptrdiff_t>(n));
  p.auto_sellp_max_nnz = n == c.size() ? inside.back().nnz + 1
                                        : nnz_between(inside.back().nnz, c[n].nnz);
  p.auto_sellp_speedup =
      geometric_mean(inside, [](const AutoSample& x) { return x.sellp_speedup(); });
  p.auto_sellp_setup_spmvs =
      median(inside, [](const AutoSample& x) { return x.sellp_setup_spmvs; });
  report << "auto_sellp_max_nnz = " << p.auto_sellp_max_nnz << " (SELL-P gains " << fit_min_gain
         << "x over CSR, or ELL from auto_min_convert_nnz, on >= "
         << fit_share_that_must_win * 100 << "% of the " << n << " of " << c.size()
         << " candidates up to " << inside.back().name << ")\nauto_sellp_speedup = "
         << p.auto_sellp_speedup << ", auto_sellp_setup_spmvs = " << p.auto_sellp_setup_spmvs
         << "\n";
}

}  // namespace detail

/// Refits base's auto_* keys from `samples` (those with a format time; the
/// others are ignored; the SELL-P keys from those with a SELL-P time). Keys
/// without a sample to set them keep base's value.
inline AutoFit fit_auto(std::vector<AutoSample> samples, const DeviceProfile& base) {
  AutoFit fit{base, "", {}};
  DeviceProfile& p = fit.profile;
  std::ostringstream report;
  const std::vector<AutoSample> all = samples;  // fit_sellp reads those without a conversion too
  samples.erase(std::remove_if(samples.begin(), samples.end(),
                               [](const AutoSample& s) {
                                 return !(s.format_seconds > 0 && s.csr_seconds > 0);
                               }),
                samples.end());
  std::sort(samples.begin(), samples.end(),
            [](const AutoSample& a, const AutoSample& b) { return a.nnz < b.nnz; });
  report << samples.size() << " training matrices with a conversion measured\n";
  if (samples.empty()) {
    detail::fit_sellp(all, p, report, fit.warnings);
    fit.report = report.str();
    return fit;
  }
  std::vector<AutoSample> regular, irregular;
  for (const auto& s : samples) (s.regular ? regular : irregular).push_back(s);
  std::string ell_why, hybrid_why;
  const std::int64_t ell_from =
      detail::class_threshold(regular, base.auto_min_convert_nnz, ell_why);
  const std::int64_t hybrid_from =
      detail::class_threshold(irregular, base.auto_hybrid_min_nnz, hybrid_why);
  const std::int64_t convert = regular.empty() ? hybrid_from : ell_from;
  p.auto_min_convert_nnz = convert < 0 ? 0 : std::max<std::int64_t>(convert, 1);
  report << "auto_min_convert_nnz = " << p.auto_min_convert_nnz
         << (convert < 0 ? " (no conversion gains " : " (from here conversions gain ")
         << fit_min_gain << "x on >= " << fit_share_that_must_win * 100 << "% of the "
         << (regular.empty() ? irregular.size() : regular.size())
         << (regular.empty() ? " irregular matrices by Hybrid" : " regular matrices by ELL")
         << (regular.empty() ? hybrid_why : ell_why) << ")\n";
  note_warning(few_samples_warning("auto_min_convert_nnz",
                                   regular.empty() ? irregular.size() : regular.size(),
                                   regular.empty() ? "irregular matrices" : "regular matrices"),
               fit.warnings, report);
  const auto below = [](std::int64_t from) {
    return [from](const AutoSample& s) { return from < 0 || s.nnz < from; };
  };
  regular.erase(std::remove_if(regular.begin(), regular.end(), below(convert)), regular.end());
  if (!irregular.empty() && convert >= 0) {
    p.auto_hybrid_min_nnz =
        hybrid_from < 0 ? fit_never_nnz : std::max(hybrid_from, p.auto_min_convert_nnz);
    report << "auto_hybrid_min_nnz = " << p.auto_hybrid_min_nnz << " (" << irregular.size()
           << " irregular matrices" << hybrid_why
           << (hybrid_from >= 0 && hybrid_from < p.auto_min_convert_nnz
                   ? "; Hybrid wins from " + std::to_string(hybrid_from) +
                         ", but no conversion is made below auto_min_convert_nnz"
                   : std::string())
           << ")\n";
    note_warning(few_samples_warning("auto_hybrid_min_nnz", irregular.size(),
                                     "irregular matrices"),
                 fit.warnings, report);
  }
  irregular.erase(
      std::remove_if(irregular.begin(), irregular.end(),
                     below(convert < 0 ? convert : p.auto_hybrid_min_nnz)),
      irregular.end());
  if (!regular.empty()) {
    p.auto_ell_speedup = detail::geometric_mean_speedup(regular);
    p.auto_ell_setup_spmvs = detail::median_setup(regular);
    report << "auto_ell_speedup = " << p.auto_ell_speedup << ", auto_ell_setup_spmvs = "
           << p.auto_ell_setup_spmvs << " (" << regular.size() << " regular matrices)\n";
    note_warning(few_samples_warning("auto_ell_speedup", regular.size(),
                                     "regular matrices that convert"),
                 fit.warnings, report);
  }
  if (!irregular.empty()) {
    p.auto_hybrid_speedup = detail::geometric_mean_speedup(irregular);
    p.auto_hybrid_setup_spmvs = detail::median_setup(irregular);
    report << "auto_hybrid_speedup = " << p.auto_hybrid_speedup
           << ", auto_hybrid_setup_spmvs = " << p.auto_hybrid_setup_spmvs << " ("
           << irregular.size() << " irregular matrices)\n";
    note_warning(few_samples_warning("auto_hybrid_speedup", irregular.size(),
                                     "irregular matrices that convert"),
                 fit.warnings, report);
  }
  detail::fit_sellp(all, p, report, fit.warnings);
  fit.report = report.str();
  return fit;
}

}  // namespace kobalt::tuning
