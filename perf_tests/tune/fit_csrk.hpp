// SPDX-License-Identifier: BSD-3-Clause
// kobalt-tune's fit of the CSR-k sizes (seed 002). kobalt-tune times CSR-k
// on each training matrix over the paper's grid of sizes (first pass), then
// each candidate setting of the profile's CSR-k keys that the grid suggests
// (second pass), and keeps the candidate that comes closest to each
// matrix's grid best:
//  - GPUs (k = 3, §4.1): the profile's own model, 002's Volta and Ampere
//    models, the logarithmic regression of each matrix's best SSRS and SRS
//    against rdensity (§4.1's procedure), and the grid's best constant pair.
//    002 then lowered the regression's ln coefficients by hand and added
//    case rules; a tool cannot repeat that step, so the regression runs as
//    fitted and the constant pair stands in for the hand step (the measured
//    best sizes showed no trend in rdensity: csrk_sizes.hpp, hopper).
//  - Hosts (k = 2, §4.2): the profile's SRS, the geometric mean of each
//    matrix's best SRS (§4.2's constant-time choice) and the grid's best
//    constant SRS.
// Pure arithmetic on the samples, so tested without a device.
#pragma once

#include "fit_sweep.hpp"

#include <kobalt/tuning/csrk_sizes.hpp>
#include <kobalt/tuning/profile.hpp>

#include <algorithm>
#include <cstdint>
#include <iomanip>
#include <sstream>
#include <string>
#include <vector>

namespace kobalt::tuning {

/// The sizes kobalt-tune sweeps for k levels. k = 3: 002 §4.1's training
/// grid (SSRS, SRS) in {4, 6, 8, 12, 16, 24, 32, 48}^2, 64 pairs. k = 2:
/// §4.2's SRS in {2^i, 1.5 * 2^i : i = 3..11} = {8, 12, ..., 2048, 3072},
/// 18 values (super_super_row_size 1, unused).
inline std::vector<CsrkSizes> csrk_sweep_grid(int k) {
  std::vector<CsrkSizes> grid;
  if (k == 3) {
    const std::int64_t sizes[] = {4, 6, 8, 12, 16, 24, 32, 48};
    for (const std::int64_t ssrs : sizes)
      for (const std::int64_t srs : sizes) grid.push_back({ssrs, srs});
  } else {
    for (std::int64_t p = 8; p <= 2048; p *= 2) {
      grid.push_back({1, p});
      grid.push_back({1, p + p / 2});
    }
  }
  return grid;
}

/// A candidate setting of the profile's CSR-k keys, timed on every
/// training matrix in kobalt-tune's second pass (sizes from
/// csrk_default_sizes of `profile`).
struct CsrkCandidate {
  std::string label;       ///< for the report ("002 Volta", "regression", ...)
  DeviceProfile profile;   ///< the base profile with the candidate's CSR-k keys
};

/// What the CSR-k fit keeps, and its report.
struct CsrkFit {
  DeviceProfile profile;  ///< the base profile with the chosen candidate's CSR-k keys
  std::string report;     ///< the grid's best per matrix, each candidate and its share
  /// Set when fewer than fit_min_samples matrices were measured (also in the report).
  std::vector<std::string> warnings;
};

namespace detail {

/// `from`'s CSR-k size keys into `to`.
inline void copy_csrk_sizes(const DeviceProfile& from, DeviceProfile& to) {
  to.csrk_model = from.csrk_model;
  to.csrk_ssrs_constant = from.csrk_ssrs_constant;
  to.csrk_ssrs_log = from.csrk_ssrs_log;
  to.csrk_srs_constant = from.csrk_srs_constant;
  to.csrk_srs_log = from.csrk_srs_log;
  to.csrk_super_row_size = from.csrk_super_row_size;
  to.csrk_super_super_row_size = from.csrk_super_super_row_size;
}

/// base with a "fitted" model of these coefficients.
inline DeviceProfile with_fitted_model(DeviceProfile p, const LogFit& ssrs, const LogFit& srs) {
  p.csrk_model = "fitted";
  p.csrk_ssrs_constant = ssrs.constant;
  p.csrk_ssrs_log = ssrs.log;
  p.csrk_srs_constant = srs.constant;
  p.csrk_srs_log = srs.log;
  return p;
}

/// One report line for a candidate: its model's coefficients (k = 3) or
/// its SRS (k = 2).
inline std::string describe_candidate(const CsrkCandidate& c, int k) {
  std::ostringstream s;
  s << c.label;
  // Pad to 26 characters (UTF-8: count the bytes that start a character).
  std::size_t shown = 0;
  for (const char ch : c.label) shown += (static_cast<unsigned char>(ch) & 0xC0) != 0x80;
  for (; shown < 26; ++shown) s << ' ';
  CsrkSizeModel m{};
  if (k == 3 && csrk_model_of(c.profile, m)) {
    // a - b ln r, with "+ |b|" where b < 0 (sizes that grow with density).
    const auto minus_log = [](double b) {
      std::ostringstream t;
      t << std::fixed << std::setprecision(3) << (b < 0 ? " + " : " - ") << (b < 0 ? -b : b)
        << " ln r";
      return t.str();
    };
    s << std::fixed << std::setprecision(3) << " SSRS = " << m.ssrs_constant
      << minus_log(m.ssrs_log) << ", SRS = " << m.srs_constant << minus_log(m.srs_log)
      << (c.profile.csrk_model == "volta" || c.profile.csrk_model == "ampere"
              ? " (+ 002's case rules)"
              : "");
  } else if (k == 3) {
    s << " SSRS = " << c.profile.csrk_super_super_row_size
      << ", SRS = " << c.profile.csrk_super_row_size << " (fixed)";
  } else {
    s << " SRS = " << c.profile.csrk_super_row_size;
  }
  return s.str();
}

}  // namespace detail

/// The candidates of the second pass (see the file comment), from the
/// first pass's samples over `grid` (csrk_sweep_grid(k)); the base
/// profile's own setting comes first.
inline std::vector<CsrkCandidate> csrk_candidates(const std::vector<SweepSample>& grid_samples,
                                                  const std::vector<CsrkSizes>& grid, int k,
                                                  const DeviceProfile& base) {
  std::vector<CsrkCandidate> out;
  const std::size_t constant = best_constant(grid_samples, grid.size());
  if (k == 3) {
    const bool paper_model = base.csrk_model == "volta" || base.csrk_model == "ampere";
    if (!paper_model) out.push_back({"this profile's (" + base.csrk_model + ")", base});
    for (const char* name : {"volta", "ampere"}) {
      DeviceProfile p = base;
      p.csrk_model = name;
      out.push_back({std::string("002 ") + (name[0] == 'v' ? "Volta" : "Ampere"), p});
    }
    std::vector<double> rdensity, best_ssrs, best_srs;
    for (const auto& s : grid_samples) {
      const std::size_t c = best_candidate(s);
      if (c >= grid.size()) continue;
      rdensity.push_back(s.rdensity);
      best_ssrs.push_back(static_cast<double>(grid[c].super_super_row_size));
      best_srs.push_back(static_cast<double>(grid[c].super_row_size));
    }
    if (!rdensity.empty())
      out.push_back({"log regression (002 §4.1)",
                     detail::with_fitted_model(base, log_regression(rdensity, best_ssrs),
                                               log_regression(rdensity, best_srs))});
    if (constant < grid.size())
      out.push_back(
          {"best constant of the grid",
           detail::with_fitted_model(
               base, {static_cast<double>(grid[constant].super_super_row_size), 0},
               {static_cast<double>(grid[constant].super_row_size), 0})});
  } else {
    out.push_back({"this profile's", base});
    std::vector<double> values;
    for (const auto& g : grid) values.push_back(static_cast<double>(g.super_row_size));
    const double mean = geometric_mean_of_best(grid_samples, values);
    if (mean > 0) {
      DeviceProfile p = base;
      p.csrk_super_row_size = std::max<std::int64_t>(round_half_up(mean), 1);
      out.push_back({"geometric mean (002 §4.2)", p});
    }
    if (constant < grid.size()) {
      DeviceProfile p = base;
      p.csrk_super_row_size = grid[constant].super_row_size;
      out.push_back({"best constant of the grid", p});
    }
  }
  return out;
}

/// Keeps the candidate whose times come closest to each training matrix's
/// grid best: the highest share_of_best(grid_samples, candidate_seconds[c])
/// (candidate_seconds[c][i]: candidate c on grid_samples[i]), the earlier
/// candidate on a tie. The result is `base` with the chosen candidate's
/// CSR-k keys; without candidates `base` unchanged.
inline CsrkFit fit_csrk(const std::vector<SweepSample>& grid_samples,
                        const std::vector<CsrkSizes>& grid, int k,
                        const std::vector<CsrkCandidate>& candidates,
                        const std::vector<std::vector<double>>& candidate_seconds,
                        const DeviceProfile& base) {
  CsrkFit fit{base, "", {}};
  std::ostringstream report;
  report << "CSR-k, k = " << k << ": the best of " << grid.size()
         << " sizes on each training matrix (002 §" << (k == 3 ? "4.1" : "4.2") << ")\n";
  for (const auto& s : grid_samples) {
    const std::size_t c = best_candidate(s);
    report << "  " << s.name << " (rdensity " << std::fixed << std::setprecision(2) << s.rdensity
           << std::defaultfloat << "): ";
    if (c >= grid.size()) {
      report << "not measured\n";
      continue;
    }
    if (k == 3) report << "SSRS " << grid[c].super_super_row_size << ", ";
    report << "SRS " << grid[c].super_row_size << "\n";
  }
  std::size_t chosen = candidates.size();
  double chosen_share = -1;
  report << "candidates, with their apply time as a share of each matrix's grid best "
            "(geometric mean):\n";
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    const double share = c < candidate_seconds.size()
                             ? share_of_best(grid_samples, candidate_seconds[c])
                             : 0;
    report << "  " << detail::describe_candidate(candidates[c], k) << "  share "
           << std::fixed << std::setprecision(3) << share << std::defaultfloat << "\n";
    if (share > chosen_share) chosen_share = share, chosen = c;
  }
  if (chosen < candidates.size()) {
    detail::copy_csrk_sizes(candidates[chosen].profile, fit.profile);
    report << "kept: " << candidates[chosen].label << "\n";
    const auto measured = std::count_if(grid_samples.begin(), grid_samples.end(),
                                        [&](const SweepSample& s) {
                                          return best_candidate(s) < grid.size();
                                        });
    note_warning(few_samples_warning("the CSR-k size keys", static_cast<std::size_t>(measured),
                                     "matrices measured"),
                 fit.warnings, report);
  } else {
    report << "no CSR-k candidate measured: the profile's CSR-k keys stay\n";
  }
  fit.report = report.str();
  return fit;
}

}  // namespace kobalt::tuning
