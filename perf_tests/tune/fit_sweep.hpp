// SPDX-License-Identifier: BSD-3-Clause
// kobalt-tune's fits of a swept tunable: each training matrix is timed once
// per candidate value, and the fit keeps either the one candidate that does
// best over all matrices or (002 §4.1) a logarithmic regression of each
// matrix's best value against its row density. Pure arithmetic on the
// samples, so tested without a device.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

namespace kobalt::tuning {

/// One training matrix of a sweep: the seconds of one apply with each
/// candidate value (same order as the sweep's candidates; <= 0 = not
/// measured, e.g. the conversion was refused).
struct SweepSample {
  std::string name;              ///< the input, for the report
  double rdensity = 0;           ///< nonzeros per row (002 §4.1's x)
  std::vector<double> seconds;   ///< one apply per candidate
};

/// Training matrices a fitted key needs: from three on one outlier neither
/// sets a median alone nor meets a 90% share alone (docs/sources.md).
inline constexpr std::size_t fit_min_samples = 3;

/// The warning for `key` set from `samples` training matrices (`what`
/// names their kind); empty from fit_min_samples on. kobalt-tune prints
/// each warning and keeps it in the report.
inline std::string few_samples_warning(const std::string& key, std::size_t samples,
                                       const std::string& what) {
  if (samples >= fit_min_samples) return {};
  return "warning: " + key + " fitted from " + std::to_string(samples) + " " + what +
         " (fewer than " + std::to_string(fit_min_samples) +
         ": one matrix decides it); add training matrices of that kind";
}

/// Adds `warning` (when not empty) to `warnings` and as a line of `report`.
template <class Report>
void note_warning(const std::string& warning, std::vector<std::string>& warnings,
                  Report& report) {
  if (warning.empty()) return;
  warnings.push_back(warning);
  report << warning << "\n";
}

namespace detail {

/// The sample's fastest measured time; +inf when none was measured.
inline double fastest(const SweepSample& s) {
  double best = std::numeric_limits<double>::infinity();
  for (const double t : s.seconds)
    if (t > 0) best = std::min(best, t);
  return best;
}

}  // namespace detail

/// Index of the sample's fastest candidate (the first of equal ones); the
/// size of seconds when none was measured.
inline std::size_t best_candidate(const SweepSample& s) {
  std::size_t best = s.seconds.size();
  for (std::size_t c = 0; c < s.seconds.size(); ++c)
    if (s.seconds[c] > 0 && (best == s.seconds.size() || s.seconds[c] < s.seconds[best])) best = c;
  return best;
}

/// How close `times` (one per sample, <= 0 = not measured) come to each
/// sample's fastest candidate: the geometric mean over the samples of
/// fastest / time, 000 eq. 8's ratio averaged (1 = the best everywhere). A
/// time not measured counts as the sample's worst candidate.
inline double share_of_best(const std::vector<SweepSample>& samples,
                            const std::vector<double>& times) {
  double log_sum = 0;
  std::size_t counted = 0;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const double best = detail::fastest(samples[i]);
    if (!(best < std::numeric_limits<double>::infinity())) continue;
    double t = i < times.size() ? times[i] : 0;
    if (!(t > 0))
      for (const double u : samples[i].seconds) t = std::max(t, u);
    log_sum += std::log(best / t);
    ++counted;
  }
  return counted ? std::exp(log_sum / static_cast<double>(counted)) : 0;
}

/// share_of_best of one candidate column.
inline double candidate_share(const std::vector<SweepSample>& samples, std::size_t candidate) {
  std::vector<double> times;
  for (const auto& s : samples)
    times.push_back(candidate < s.seconds.size() ? s.seconds[candidate] : 0);
  return share_of_best(samples, times);
}

/// The candidate with the highest candidate_share (the first of equal
/// ones); `candidates` = how many there are.
inline std::size_t best_constant(const std::vector<SweepSample>& samples, std::size_t candidates) {
  std::size_t best = 0;
  double best_share = -1;
  for (std::size_t c = 0; c < candidates; ++c) {
    const double share = candidate_share(samples, c);
    if (share > best_share) best_share = share, best = c;
  }
  return best;
}

/// A swept key leaves the starting profile's value only for a candidate
/// whose candidate_share is at least this many times that value's: at the
/// launch floor the launch keys' shares lie close together and reorder
/// between runs, and smaller gains did not hold (docs/sources.md:
/// "sweep_min_gain"). 1.05 = the conversions' gain (fit_auto.hpp's fit_min_gain).
inline constexpr double sweep_min_gain = 1.05;

/// best_constant, except that candidate `current` (the starting value;
/// >= candidates: none of them) stays unless the best one's share is
/// positive and at least sweep_min_gain times its own (nothing measured:
/// it stays).
inline std::size_t best_constant_from(const std::vector<SweepSample>& samples,
                                      std::size_t candidates, std::size_t current) {
  const std::size_t best = best_constant(samples, candidates);
  if (current >= candidates || best == current) return best;
  const double share = candidate_share(samples, best);
  return share > 0 && share >= sweep_min_gain * candidate_share(samples, current) ? best
                                                                                 : current;
}

/// What best_constant_from's choice gains over the starting candidate
/// `current`: the ratio of their candidate_shares, 1 when the start stays
/// (nothing measured, or no candidate gains sweep_min_gain), infinity when
/// the start is not a candidate and another is chosen. kobalt-tune compares
/// two keys that scale the same launch with it (only the larger gain moves).
inline double gain_from(const std::vector<SweepSample>& samples, std::size_t candidates,
                        std::size_t current) {
  const std::size_t chosen = best_constant_from(samples, candidates, current);
  if (chosen == current) return 1;
  if (current >= candidates) return std::numeric_limits<double>::infinity();
  return candidate_share(samples, chosen) / candidate_share(samples, current);
}

/// y = constant - log * ln(x), written as 002 §4.1 writes its size models.
struct LogFit {
  double constant = 0;  ///< the value at x = 1
  double log = 0;       ///< minus the slope in ln x (002: positive, sizes fall with density)
  /// The fitted value at x (x < 1 is taken as 1, as tuning::csrk_model_sizes does).
  double at(double x) const { return constant - log * std::log(x < 1 ? 1.0 : x); }
};

/// Least squares of y against ln(x) (002 §4.1's "logarithmic regression";
/// x < 1 is taken as 1). One distinct x: the mean of y, log 0. No points:
/// {0, 0}.
inline LogFit log_regression(const std::vector<double>& x, const std::vector<double>& y) {
  const std::size_t n = std::min(x.size(), y.size());
  if (n == 0) return {};
  double mu = 0, my = 0;
  for (std::size_t i = 0; i < n; ++i) mu += std::log(std::max(x[i], 1.0)), my += y[i];
  mu /= static_cast<double>(n);
  my /= static_cast<double>(n);
  double suu = 0, suy = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double u = std::log(std::max(x[i], 1.0)) - mu;
    suu += u * u;
    suy += u * (y[i] - my);
  }
  if (suu <= 0) return {my, 0};
  const double slope = suy / suu;
  return {my - slope * mu, -slope};
}

/// Geometric mean of each sample's best candidate value (`values[c]` of
/// candidate c), 002 §4.2's constant-time CSR-2 size; 0 without samples.
inline double geometric_mean_of_best(const std::vector<SweepSample>& samples,
                                     const std::vector<double>& values) {
  double log_sum = 0;
  std::size_t n = 0;
  for (const auto& s : samples) {
    const std::size_t c = best_candidate(s);
    if (c >= values.size()) continue;
    log_sum += std::log(values[c]);
    ++n;
  }
  return n ? std::exp(log_sum / static_cast<double>(n)) : 0;
}

}  // namespace kobalt::tuning
