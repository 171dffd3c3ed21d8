// SPDX-License-Identifier: BSD-3-Clause
// CSR-k super-row sizes: the log model of seed 002 §4.1 (GPUs) and the
// constant fallback of §4.2 (CPUs). SSRS = super-rows per super-super-row,
// SRS = rows per super-row. Only heuristics live here; tuning::select turns
// csrk::parameters (sizes 0 = automatic) into the concrete csrk::layout the
// conversion (formats/convert_csrk.hpp) takes.
#pragma once

#include "profile.hpp"
#include "../formats/csrk.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

namespace kobalt::tuning {

/// Sizes of a CSR-k structure (both >= 1).
struct CsrkSizes {
  std::int64_t super_super_row_size = 1;  ///< SSRS: super-rows per super-super-row
  std::int64_t super_row_size = 1;        ///< SRS: rows per super-row
};

/// One of 002 §4.1's post-formula adjustments (cases 2-4):
///   SSRS' = round(SSRS * ssrs_factor)
///   SRS'  = round((srs_from_ssrs ? SSRS' : SRS) * srs_factor)
/// Read literally, the paper's "SRS = ⌊SSRS/2⌉" and "SRS = SSRS·3" use the
/// SSRS just updated on the line above (the paper does not say which SSRS
/// is meant; docs/sources.md, 002's corrections); that is the reading taken
/// here, and the worked values in docs/sources.md are computed with it.
struct CsrkCaseRule {
  double ssrs_factor;  ///< SSRS' = round(SSRS * ssrs_factor)
  bool srs_from_ssrs;  ///< SRS' scales the new SSRS' (true) or SRS (false)
  double srs_factor;  ///< SRS' = round(base * srs_factor)
};

/// The log model SSRS = round(a - b ln r), SRS = round(c - d ln r), with
/// r = rdensity = nnz / rows, followed by the case rule of r's case.
struct CsrkSizeModel {
  const char* name;  ///< "volta", "ampere", "hopper", "fitted" (DeviceProfile::csrk_model)
  double ssrs_constant;  ///< a in SSRS = round(a - b ln r)
  double ssrs_log;       ///< b in SSRS = round(a - b ln r)
  double srs_constant;   ///< c in SRS = round(c - d ln r)
  double srs_log;        ///< d in SRS = round(c - d ln r)
  CsrkCaseRule case_rule[3];       ///< adjustments of cases 2, 3 and 4 (case 1: none)
};

/// 002 §4.1, "NVIDIA Volta" formulas and case adjustments (its Volta GPU, §5.1).
inline constexpr CsrkSizeModel csrk_volta_model{
    "volta",
    8.900, 1.25,
    10.146, 1.50,
    {{1.5, false, 2.0},    // case 2: SSRS = ⌊SSRS·1.5⌉, SRS = SRS·2
     {4.0, true, 0.5},     // case 3: SSRS = SSRS·4,     SRS = ⌊SSRS/2⌉
     {5.0, true, 0.5}}};   // case 4: SSRS = SSRS·5,     SRS = ⌊SSRS/2⌉

/// 002 §4.1, "NVIDIA Ampere" formulas and case adjustments (its Ampere GPU, §5.1).
inline constexpr CsrkSizeModel csrk_ampere_model{
    "ampere",
    9.175, 1.32,
    20.500, 3.50,
    {{1.0, false, 4.0},    // case 2: SSRS unchanged,    SRS = SRS·4
     {2.5, true, 3.0},     // case 3: SSRS = ⌊SSRS·2.5⌉, SRS = SSRS·3
     {2.0, true, 2.0}}};   // case 4: SSRS = SSRS·2,     SRS = SSRS·2

/// 002 §4.1's training grid re-run by the project: the optima showed no trend
/// in rdensity, and one constant pair, (32, 8), came closer to each grid best
/// than the Ampere model, so the model is that constant (docs/sources.md).
inline constexpr CsrkSizeModel csrk_hopper_model{
    "hopper",
    32.0, 0.0,
    8.0, 0.0,
    {{1.0, false, 1.0}, {1.0, false, 1.0}, {1.0, false, 1.0}}};

/// ⌊x⌉ of 002 §4.1: round to nearest, half toward +infinity, saturated
/// at +-csrk_size_max (a model with huge coefficients must not overflow;
/// NaN gives 0).
inline std::int64_t round_half_up(double x) {
  const double r = std::floor(x + 0.5);
  const double most = static_cast<double>(csrk_size_max);
  if (!(r == r)) return 0;
  return static_cast<std::int64_t>(r > most ? most : r < -most ? -most : r);
}

/// The rdensity case of 002 §4.1: 1 (r <= 8), 2 (8 < r <= 16),
/// 3 (16 < r <= 32), 4 (r > 32). It also picks the block shape
/// (tuning::select for csrk::groups).
inline int csrk_rdensity_case(double rdensity) {
  if (rdensity <= 8.0) return 1;
  if (rdensity <= 16.0) return 2;
  if (rdensity <= 32.0) return 3;
  return 4;
}

/// (SSRS, SRS) of `model` at `rdensity`, exactly as 002 §4.1 (literal reading
/// of the case rules, see CsrkCaseRule). Outside the paper's data:
/// - rdensity < 1 is evaluated at 1 (our choice): the model was fitted on
///   002's suite with rdensity 2.10-41.94 (Table 1, §5.3), and ln r -> -inf
///   as r -> 0 (an empty matrix);
/// - each size is at least 1: at very high rdensity (Volta SSRS above
///   r ≈ 1,240) the formula goes to 0 and below;
/// - each size is at most csrk_size_max (coefficients a profile refuses, or
///   a model built in code).
inline CsrkSizes csrk_model_sizes(const CsrkSizeModel& model, double rdensity) {
  const double r = rdensity < 1.0 || !(rdensity == rdensity) ? 1.0 : rdensity;
  const double ln_r = std::log(r);
  std::int64_t ssrs = round_half_up(model.ssrs_constant - model.ssrs_log * ln_r);
  std::int64_t srs = round_half_up(model.srs_constant - model.srs_log * ln_r);
  const int c = csrk_rdensity_case(r);
  if (c > 1) {
    const CsrkCaseRule& rule = model.case_rule[c - 2];
    ssrs = round_half_up(static_cast<double>(ssrs) * rule.ssrs_factor);
    srs = round_half_up(static_cast<double>(rule.srs_from_ssrs ? ssrs : srs) * rule.srs_factor);
  }
  CsrkSizes s;
  s.super_super_row_size = ssrs < 1 ? 1 : ssrs;
  s.super_row_size = srs < 1 ? 1 : srs;
  return s;
}

/// A built-in size model by name ("hopper", "ampere", "volta"), nullptr otherwise.
inline const CsrkSizeModel* csrk_model_named(const std::string& name) {
  if (name == "hopper") return &csrk_hopper_model;
  if (name == "ampere") return &csrk_ampere_model;
  if (name == "volta") return &csrk_volta_model;
  return nullptr;
}

/// The size model of a profile: a built-in one by csrk_model's name, or
/// for "fitted" kobalt-tune's coefficients (perf_tests/tune/fit_csrk.hpp)
/// with no case adjustments (002 set those by hand for each architecture; a
/// fit has no such step). False for "none".
inline bool csrk_model_of(const DeviceProfile& profile, CsrkSizeModel& model) {
  if (profile.csrk_model == "fitted") {
    model = CsrkSizeModel{"fitted",
                          profile.csrk_ssrs_constant,
                          profile.csrk_ssrs_log,
                          profile.csrk_srs_constant,
                          profile.csrk_srs_log,
                          {{1.0, false, 1.0}, {1.0, false, 1.0}, {1.0, false, 1.0}}};
    return true;
  }
  if (const CsrkSizeModel* named = csrk_model_named(profile.csrk_model)) {
    model = *named;
    return true;
  }
  return false;
}

/// Default CSR-k sizes for a device profile, k (2 or 3) and rdensity = nnz/rows.
/// - A profile with a size model (a measured device's row: kobalt-tune's
///   "fitted" one; other GPUs: "ampere", 002's newest architecture; a file
///   may name any), k = 3: csrk_model_sizes of it.
/// - Same, k = 2: the super-row is the league entry, so it gets the rows a
///   k = 3 league entry (super-super-row) would hold: SRS = SSRS·SRS of the
///   model (002 tunes only CSR-3 on GPUs); for "hopper", 256, near the best
///   SRS of its sweep (docs/sources.md: "csrk_hopper_model"). super_super_row_size
///   is unused and reported as 1; the product saturates at csrk_size_max.
/// - A profile without a model (hosts): its fixed sizes (by default SRS = 96,
///   002 §4.2; k = 3 adds SSRS = 8, not measured).
inline CsrkSizes csrk_default_sizes(const DeviceProfile& profile, int k, double rdensity) {
  CsrkSizes s;
  CsrkSizeModel model{};
  if (csrk_model_of(profile, model)) {
    s = csrk_model_sizes(model, rdensity);
    if (k == 2) {
      // Both at most csrk_size_max: the product fits; saturated like them.
      s.super_row_size = std::min(s.super_row_size * s.super_super_row_size, csrk_size_max);
      s.super_super_row_size = 1;
    }
  } else {
    s.super_row_size = profile.csrk_super_row_size;
    s.super_super_row_size = k == 3 ? profile.csrk_super_super_row_size : 1;
  }
  return s;
}

}  // namespace kobalt::tuning

namespace kobalt::csrk {
/// Parameters of the automatic CSR-k conversion (plan/convert.hpp). Fields of
/// 0 are chosen by tuning::select from the device profile.
struct parameters {
  /// Levels: 2 (super-rows) or 3 (super-rows and super-super-rows); anything
  /// else throws invalid_parameter. 0 = the profile's (002 §6.2: 3 on GPUs,
  /// 2 on CPUs).
  int k = 0;
  /// Rows per super-row (SRS), >= 0. 0 = 002 §4.1's log model on GPUs,
  /// 96 on CPUs (§4.2).
  std::int64_t super_row_size = 0;
  /// Super-rows per super-super-row (SSRS), k = 3 only (must stay 0 for
  /// k = 2), >= 0. 0 = 002 §4.1's log model on GPUs, 8 on CPUs (not measured).
  std::int64_t super_super_row_size = 0;
  /// none by default: RCM needs a host pass over the pattern (its BFS is
  /// sequential), so it is opt-in.
  reordering order = reordering::none;
  /// Largest storage in bytes the result may take; 0 = what the device holds.
  std::uint64_t max_bytes = 0;
};
}  // namespace kobalt::csrk
