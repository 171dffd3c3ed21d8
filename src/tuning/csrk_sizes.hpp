// SPDX-License-Identifier: BSD-3-Clause
// CSR-k super-row sizes: the log model of seed 002 §4.1 (GPUs) and the
// constant fallback of §4.2 (CPUs). SSRS = super-rows per super-super-row,
// SRS = rows per super-row. Only heuristics live here; the conversion
// (formats/convert_csrk.hpp) asks for sizes when the caller leaves them 0.
#pragma once

#include "../kernels/arch/arch.hpp"

#include <cmath>
#include <cstdint>

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
/// SSRS just updated on the line above (NOTES.md, paper 002: "Read literally
/// they do"); that is the reading taken here, and NOTES.md's worked values
/// are computed with it.
struct CsrkCaseRule {
  double ssrs_factor;
  bool srs_from_ssrs;
  double srs_factor;
};

/// The log model SSRS = round(a - b ln r), SRS = round(c - d ln r), with
/// r = rdensity = nnz / rows, followed by the case rule of r's case.
struct CsrkSizeModel {
  const char* name;
  double ssrs_constant, ssrs_log;  ///< SSRS = round(ssrs_constant - ssrs_log * ln r)
  double srs_constant, srs_log;    ///< SRS  = round(srs_constant - srs_log * ln r)
  CsrkCaseRule case_rule[3];       ///< adjustments of cases 2, 3 and 4 (case 1: none)
};

// 002 §4.1, "NVIDIA Volta" formulas and case adjustments (V100, §5.1).
inline constexpr CsrkSizeModel csrk_volta_model{
    "volta",
    8.900, 1.25,
    10.146, 1.50,
    {{1.5, false, 2.0},    // case 2: SSRS = ⌊SSRS·1.5⌉, SRS = SRS·2
     {4.0, true, 0.5},     // case 3: SSRS = SSRS·4,     SRS = ⌊SSRS/2⌉
     {5.0, true, 0.5}}};   // case 4: SSRS = SSRS·5,     SRS = ⌊SSRS/2⌉

// 002 §4.1, "NVIDIA Ampere" formulas and case adjustments (A100, §5.1).
inline constexpr CsrkSizeModel csrk_ampere_model{
    "ampere",
    9.175, 1.32,
    20.500, 3.50,
    {{1.0, false, 4.0},    // case 2: SSRS unchanged,    SRS = SRS·4
     {2.5, true, 3.0},     // case 3: SSRS = ⌊SSRS·2.5⌉, SRS = SSRS·3
     {2.0, true, 2.0}}};   // case 4: SSRS = SSRS·2,     SRS = SSRS·2

// Rows per super-row of CSR-2 on CPUs: the geometric mean of the per-matrix
// optima, used by 002 for every matrix (002 §4.2, "SRS = 96").
inline constexpr std::int64_t host_csrk_super_row_size = 96;
// Super-rows per super-super-row of CSR-3 on CPUs: not yet measured. 002
// gives no CPU SSRS (§4.2 tunes CSR-2 only; §6.2 finds CSR-3 never beats
// CSR-2 on its CPUs); 8 x 96 = 768 rows per league entry keeps host teams
// coarse, like tuning::host_rows_per_team.
inline constexpr std::int64_t host_csrk_super_super_row_size = 8;

/// ⌊x⌉ of 002 §4.1: round to nearest, half toward +infinity.
inline std::int64_t round_half_up(double x) {
  return static_cast<std::int64_t>(std::floor(x + 0.5));
}

/// The rdensity case of 002 §4.1: 1 (r <= 8), 2 (8 < r <= 16),
/// 3 (16 < r <= 32), 4 (r > 32). It also picks the block shape
/// (tuning/csrk_policy.hpp).
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
///   r ≈ 1,240) the formula goes to 0 and below.
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

/// The model used on GPU backends. 002 measured Volta and Ampere only; the
/// Ampere coefficients are used for every GPU (Hopper included) as the
/// nearest measured architecture until kobalt-tune fits per-device ones.
inline constexpr const CsrkSizeModel& csrk_gpu_model = csrk_ampere_model;

/// Default CSR-k sizes for ExecutionSpace, k (2 or 3) and rdensity = nnz/rows.
/// - GPU backends (arch::warp_size > 1), k = 3: csrk_model_sizes(Ampere).
/// - GPU backends, k = 2: the super-row is the league entry, so it gets the
///   rows a k = 3 league entry (super-super-row) would hold: SRS = SSRS·SRS of
///   the model (002 tunes only CSR-3 on GPUs; our choice, not yet measured).
///   super_super_row_size is unused and reported as 1.
/// - Host backends: SRS = 96 (002 §4.2); k = 3 adds SSRS = 8 (not measured).
template <class ExecutionSpace>
CsrkSizes csrk_default_sizes(int k, double rdensity) {
  CsrkSizes s;
  if constexpr (arch::warp_size<ExecutionSpace> > 1) {
    s = csrk_model_sizes(csrk_gpu_model, rdensity);
    if (k == 2) {
      s.super_row_size *= s.super_super_row_size;
      s.super_super_row_size = 1;
    }
  } else {
    s.super_row_size = host_csrk_super_row_size;
    s.super_super_row_size = k == 3 ? host_csrk_super_super_row_size : 1;
  }
  return s;
}

}  // namespace kobalt::tuning
