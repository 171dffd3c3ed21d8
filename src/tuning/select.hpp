// SPDX-License-Identifier: BSD-3-Clause
// tuning::select: the one place heuristics live, one file per format
// family (included below). Each overload takes the matrix statistics, the
// device profile and a strategy (a kernel strategy of tuning/strategy.hpp,
// or a conversion parameter with automatic fields) and returns something
// concrete: an SpmvPolicy for a kernel strategy, a format layout for a
// conversion. Every constant names its source.
#pragma once

#include "launch_shapes.hpp"
#include "select_coo.hpp"
#include "select_csr.hpp"
#include "select_csr_automatic.hpp"
#include "select_csrk.hpp"
#include "select_ell_sellp.hpp"

#include <variant>

namespace kobalt::tuning {

/// The strategy that runs: csr::automatic resolved by 003 Alg. 3, any other
/// strategy as it is.
template <class Strategy>
Strategy resolve(const MatrixStats&, const DeviceProfile&, const Strategy& s) {
  return s;
}

/// A strategy variant: the alternative it holds, with the format's extra
/// argument (ELL width, slice size, k) where its overload takes one.
template <class... Strategies, class... Extra>
SpmvPolicy select(const MatrixStats& stats, const DeviceProfile& profile,
                  const std::variant<Strategies...>& s, const Extra&... extra) {
  return std::visit([&](auto v) { return select(stats, profile, v, extra...); }, s);
}

}  // namespace kobalt::tuning
