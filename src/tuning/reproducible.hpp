// SPDX-License-Identifier: BSD-3-Clause
// Reproducible results: which kernels add their partial sums into
// y in a fixed order, and the choice a handle makes when asked for the same
// bits on every run (make_handle(exec, A, kobalt::reproducible)).
//
// A kernel's summation order is fixed when no two threads add into one entry
// of y at run time: every kernel without atomics on y. The launch shapes
// (team size, vector length, chunk length) also set the order, but they are
// chosen from the matrix statistics and the device profile, so they are the
// same on every run with the same matrix, device and profile. What varies
// from run to run is the order in which atomics land: COO segmented, the
// COO part of Hybrid ell_then_coo, the flat part of ALIGNED_COO
// seg_then_flat, and ELL launches with several parts per row (row_parts > 1,
// 000 Alg. 4 / 003 Alg. 5 on few, wide rows).
#pragma once

#include "../errors.hpp"
#include "policy.hpp"
#include "strategy.hpp"

#include <string>
#include <variant>

namespace kobalt {

/// Tag of the handles whose applies give the same bits on every run (same
/// matrix, x, y, alpha, beta, device and profile):
/// make_handle(exec, A, kobalt::reproducible) or
/// make_handle(exec, A, strategy, kobalt::reproducible).
struct reproducible_t {
  explicit reproducible_t() = default;
};
/// The tag value: make_handle(exec, A, kobalt::reproducible).
inline constexpr reproducible_t reproducible{};

namespace tuning {

// ---- which strategies add in a fixed order ----------------------------------

/// True for strategies without atomics on y. ELL's are fixed-order with one
/// part per row, which the policy decides (splits_rows).
template <class Strategy>
constexpr bool fixed_order(Strategy) {
  return true;
}
/// The strategies that add into y with atomics.
constexpr bool fixed_order(coo::segmented) { return false; }
constexpr bool fixed_order(hybrid::ell_then_coo) { return false; }  ///< Adds with atomics.
constexpr bool fixed_order(aligned_coo::seg_then_flat) { return false; }  ///< Adds with atomics.
/// Whether the strategy a variant holds adds in a fixed order.
template <class... Strategies>
bool fixed_order(const std::variant<Strategies...>& s) {
  return std::visit([](auto v) { return fixed_order(v); }, s);
}

/// The strategy kobalt::reproducible picks when none is given: the format's
/// default where that is fixed-order, its fixed-order alternative otherwise.
template <class Strategy>
Strategy reproducible_strategy() {
  return Strategy{};
}
/// COO: load_balance.
template <>
inline coo::strategy reproducible_strategy<coo::strategy>() {
  return coo::load_balance{};
}
/// Hybrid: ell_then_load_balance.
template <>
inline hybrid::strategy reproducible_strategy<hybrid::strategy>() {
  return hybrid::ell_then_load_balance{};
}
/// ALIGNED_COO: flat_then_seg.
template <>
inline aligned_coo::strategy reproducible_strategy<aligned_coo::strategy>() {
  return aligned_coo::flat_then_seg{};
}

/// `s` if it adds in a fixed order; throws invalid_parameter naming the
/// fixed-order alternative otherwise (a strategy asked for by name is never
/// silently replaced).
template <class Strategy>
const Strategy& checked_fixed_order(const Strategy& s, const char* format) {
  if (!fixed_order(s))
    throw invalid_parameter(std::string("kobalt::reproducible: ") + format +
                            "::" + strategy_name(s) +
                            " adds into y with atomics, so its last bits may change from run "
                            "to run; use " + format + "::" +
                            strategy_name(reproducible_strategy<Strategy>()) +
                            " (or give no strategy)");
  return s;
}

// ---- launches with several parts per row -----------------------------------

/// True when a launch of `p` adds several parts of one row into y atomically.
inline bool splits_rows(const SpmvPolicy& p) {
  for (const auto& l : p.launches)
    if (l.row_parts > 1) return true;
  return false;
}

/// `p` with one part per row in every launch (ELL's row_parts = 1: one
/// subwarp or team sums each row, no atomics), its rule saying so.
inline SpmvPolicy one_part_per_row(SpmvPolicy p) {
  if (!splits_rows(p)) return p;
  for (auto& l : p.launches) l.row_parts = 1;
  p.rule += "; one part per row (kobalt::reproducible: no atomics)";
  return p;
}

}  // namespace tuning
}  // namespace kobalt
