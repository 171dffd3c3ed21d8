// SPDX-License-Identifier: BSD-3-Clause
// The kernel side of a strategy's record: for each strategy tag of
// tuning/strategy.hpp, the workspace a handle keeps for it between applies,
// how that workspace is built, and the launches of one apply. Each record
// is a strategy_kernel specialization in the kernel file named after its
// strategy; plan/dispatch.hpp only visits them, so a tag without a record
// does not compile there.
//
// A record reads:
//   template <class Matrix> using workspace = ...;   // no_workspace if none
//   static workspace<Matrix> make_workspace(exec, a, policy);
//   static void run(exec, policy, workspace, alpha, a, x, beta, y);
#pragma once

#include "../errors.hpp"
#include "../scalar.hpp"
#include "../tuning/policy.hpp"
#include "../tuning/strategy.hpp"
#include "common.hpp"

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

namespace kobalt::detail {

/// Scratch an apply needs besides x and y, in the widest scalar of the
/// matrix's kind (double or complex<double>: vectors of either precision fit).
template <class Matrix>
using workspace_scalar = widest_t<typename Matrix::value_type>;
/// A workspace array of that scalar in the matrix's memory space.
template <class Matrix>
using workspace_view = Kokkos::View<workspace_scalar<Matrix>*, typename Matrix::memory_space>;

/// The record of one strategy tag; specialized beside each kernel.
template <class Strategy>
struct strategy_kernel;

/// The workspace of kernels that keep nothing between applies.
struct no_workspace {
  std::size_t bytes() const { return 0; }  ///< nothing allocated
};

/// Device bytes a workspace holds: a View's span, else its own bytes().
template <class Workspace>
std::size_t workspace_bytes(const Workspace& w) {
  if constexpr (Kokkos::is_view<Workspace>::value)
    return w.span() * sizeof(typename Workspace::value_type);
  else
    return w.bytes();
}

/// Entries one chunk (tile) of a chunked launch covers: what the
/// partitions of the load-balancing kernels are cut for. Team tiles give
/// each of a team's threads a run of entries; the other chunks, each lane.
inline std::int64_t chunk_entries(const tuning::LaunchShape& l) {
  return l.entries_per_thread *
         (l.form == tuning::LaunchForm::team_tiles ? l.team_size : l.vector_length);
}

/// Base of the records whose kernels keep nothing: no allocation at setup
/// nor on the handle-less path.
struct without_workspace {
  template <class Matrix>
  using workspace = no_workspace;  ///< nothing kept
  /// Nothing to build.
  template <class ExecutionSpace, class Matrix>
  static no_workspace make_workspace(const ExecutionSpace&, const Matrix&,
                                     const tuning::SpmvPolicy&) {
    return {};
  }
};

/// The automatic tags pick a kernel (tuning::resolve) before any apply, so
/// an unresolved one reaching a kernel is a bug in the caller.
struct unresolved_kernel : without_workspace {
  /// Throws invalid_parameter.
  template <class E, class Matrix, class X, class Y, class W>
  static void run(const E&, const tuning::SpmvPolicy&, const W&, typename Y::non_const_value_type,
                  const Matrix&, const X&, typename Y::non_const_value_type, const Y&) {
    throw invalid_parameter(std::string("kobalt::spmv: ") +
                            tuning::format_strategy<Matrix>::format +
                            "::automatic must be resolved before dispatch");
  }
};
/// csr::automatic: resolved to a CSR kernel first.
template <>
struct strategy_kernel<csr::automatic> : unresolved_kernel {};
/// ell::automatic: resolved to rows or column_groups first.
template <>
struct strategy_kernel<ell::automatic> : unresolved_kernel {};

}  // namespace kobalt::detail
