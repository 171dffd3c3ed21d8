// SPDX-License-Identifier: BSD-3-Clause
// The dispatch: a visit over the strategy variant that runs the record of
// the held strategy (detail::strategy_kernel, one beside each kernel) with
// the policy and workspace the handle resolved. Nothing here selects or
// launches anything itself: the policy decides the launch shapes, the record
// the kernel and the workspace it keeps. A new kernel adds its file's
// include here, and a policy_for line only if its format needs an extra fact.
#pragma once

#include "../kernels/aligned_coo_seg.hpp"
#include "../kernels/common.hpp"
#include "../kernels/coo_load_balance.hpp"
#include "../kernels/coo_segmented.hpp"
#include "../kernels/csr_basic_classical.hpp"
#include "../kernels/csr_load_balance.hpp"
#include "../kernels/csr_merge_path.hpp"
#include "../kernels/csrk_groups.hpp"
#include "../kernels/ell_column_groups.hpp"
#include "../kernels/ell_rows.hpp"
#include "../kernels/hybrid_ell_then_coo.hpp"
#include "../kernels/sellp_slices.hpp"
#include "../kernels/strategy_kernel.hpp"
#include "../tuning/select.hpp"
#include "../tuning/strategy.hpp"

#include <cstddef>
#include <utility>
#include <variant>

namespace kobalt::detail {

// ---- workspace ---------------------------------------------------------------

/// What a handle keeps for its kernel between applies: the workspace of the
/// record of each strategy, indexed like the format's strategy variant
/// (types repeat: most records keep no_workspace).
template <class Matrix, class Strategies = typename tuning::format_strategy<Matrix>::type>
struct workspace_of;
/// One alternative per strategy.
template <class Matrix, class... Strategies>
struct workspace_of<Matrix, std::variant<Strategies...>> {
  /// The variant of the records' workspaces.
  using type = std::variant<typename strategy_kernel<Strategies>::template workspace<Matrix>...>;
};
/// The workspace a handle of Matrix holds.
template <class Matrix>
using Workspace = typename workspace_of<Matrix>::type;

/// Device bytes of the workspace a handle holds.
template <class... Workspaces>
std::size_t workspace_bytes(const std::variant<Workspaces...>& w) {
  return std::visit([](const auto& v) { return workspace_bytes(v); }, w);
}

/// The workspace of matrix a for the strategy and policy that will run (a
/// resolved strategy), built by its record on `exec`: at the strategy's
/// index, so the apply finds it there.
template <std::size_t N = 0, class ExecutionSpace, class Matrix, class Strategy>
Workspace<Matrix> make_workspace(const ExecutionSpace& exec, const Matrix& a,
                                 const Strategy& strategy, const tuning::SpmvPolicy& policy) {
  if constexpr (N + 1 < std::variant_size_v<Strategy>)
    if (strategy.index() != N) return make_workspace<N + 1>(exec, a, strategy, policy);
  using record = strategy_kernel<std::variant_alternative_t<N, Strategy>>;
  return Workspace<Matrix>(std::in_place_index<N>, record::make_workspace(exec, a, policy));
}

// ---- the policy of a (format, strategy): select() with the format's facts ----

template <class Matrix, class Strategy>
tuning::SpmvPolicy policy_for(const tuning::MatrixStats& stats,
                              const tuning::DeviceProfile& profile, const Matrix&,
                              const Strategy& s) {
  return tuning::select(stats, profile, s);
}
template <class V, class I, class D, class Strategy>
tuning::SpmvPolicy policy_for(const tuning::MatrixStats& stats,
                              const tuning::DeviceProfile& profile, const Ell<V, I, D>& a,
                              const Strategy& s) {
  return tuning::select(stats, profile, s, a.stored_per_row());
}
template <class V, class I, class D, class Strategy>
tuning::SpmvPolicy policy_for(const tuning::MatrixStats& stats,
                              const tuning::DeviceProfile& profile, const Sellp<V, I, D>& a,
                              const Strategy& s) {
  return tuning::select(stats, profile, s, a.slice_size(), a.stride_factor());
}
template <class V, class I, class D, class Strategy>
tuning::SpmvPolicy policy_for(const tuning::MatrixStats& stats,
                              const tuning::DeviceProfile& profile, const Hybrid<V, I, D>& a,
                              const Strategy& s) {
  return tuning::select(stats, profile, s, a.ell_width(), a.coo().nnz());
}
template <class V, class I, class D, class Strategy>
tuning::SpmvPolicy policy_for(const tuning::MatrixStats& stats,
                              const tuning::DeviceProfile& profile, const AlignedCoo<V, I, D>& a,
                              const Strategy& s) {
  return tuning::select(stats, profile, s, a.flat().nnz());
}
template <class V, class I, class D, class Strategy>
tuning::SpmvPolicy policy_for(const tuning::MatrixStats& stats,
                              const tuning::DeviceProfile& profile, const CsrK<V, I, D>& a,
                              const Strategy& s) {
  return tuning::select(stats, profile, s, a.k());
}

// ---- the visit ---------------------------------------------------------------

/// The one dispatch of every apply: the record of the strategy held at index
/// N runs with the workspace at the same index (make_workspace put it there).
template <std::size_t N = 0, class E, class Matrix, class Strategy, class X, class Y, class W>
void dispatch(const E& exec, const Strategy& strategy, const tuning::SpmvPolicy& p,
              const W& workspace, typename Y::non_const_value_type alpha, const Matrix& a,
              const X& x, typename Y::non_const_value_type beta, const Y& y) {
  if constexpr (N + 1 < std::variant_size_v<Strategy>)
    if (strategy.index() != N)
      return dispatch<N + 1>(exec, strategy, p, workspace, alpha, a, x, beta, y);
  using record = strategy_kernel<std::variant_alternative_t<N, Strategy>>;
  record::run(exec, p, std::get<N>(workspace), alpha, a, x, beta, y);
}

}  // namespace kobalt::detail
