// SPDX-License-Identifier: BSD-3-Clause
// Reproducible results: which kernels add their partial sums into
// y in a fixed order (what each strategy tag declares, tuning/strategy.hpp),
// and the choice a handle makes when asked for the same bits on every run
// (make_handle(exec, A, kobalt::reproducible)).
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

#include <cstddef>
#include <string>
#include <utility>
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

/// What the strategy's tag declares (tuning/strategy.hpp): true for
/// strategies without atomics on y. ELL's are fixed-order with one part per
/// row, which the policy decides (splits_rows).
template <class Strategy>
constexpr bool fixed_order(Strategy) {
  static_assert(declares_facts<Strategy>::value);
  return Strategy::fixed_order;
}
/// Whether the strategy a variant holds adds in a fixed order.
template <class... Strategies>
bool fixed_order(const std::variant<Strategies...>& s) {
  return std::visit([](auto v) { return fixed_order(v); }, s);
}

/// Index of the first alternative of a strategy variant that adds in a
/// fixed order (the variant's size when none does).
template <class... Strategies>
constexpr std::size_t first_fixed_order(const std::variant<Strategies...>*) {
  const bool fixed[] = {fixed_order(Strategies{})...};
  std::size_t i = 0;
  while (i < sizeof...(Strategies) && !fixed[i]) ++i;
  return i;
}

/// The strategy kobalt::reproducible picks when none is given: the format's
/// first alternative that adds in a fixed order by its tag (COO
/// load_balance, Hybrid ell_then_load_balance, ALIGNED_COO flat_then_seg,
/// the default elsewhere).
template <class Strategy>
Strategy reproducible_strategy() {
  constexpr std::size_t i = first_fixed_order(static_cast<const Strategy*>(nullptr));
  static_assert(i < std::variant_size_v<Strategy>,
                "kobalt::reproducible: the format needs a strategy that adds in a fixed order");
  return Strategy(std::in_place_index<i>);
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
