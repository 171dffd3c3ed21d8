// SPDX-License-Identifier: BSD-3-Clause
// The dispatch table: one entry per (format, strategy), each a launcher call
// with the policy the handle resolved. Nothing here selects anything: the
// policy decides the launch shapes, the strategy type decides the kernel.
// A new kernel adds one select() overload (tuning/select.hpp), one policy_for
// line if its format needs an extra fact, and one run() entry here.
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
#include "../kernels/sellp_slices.hpp"
#include "../errors.hpp"
#include "../tuning/select.hpp"

#include <cstddef>
#include <string>
#include <type_traits>
#include <variant>

namespace kobalt::detail {

// ---- workspace ---------------------------------------------------------------

/// Scratch an apply needs besides x and y, in the widest scalar of the
/// matrix's kind (double or complex<double>: vectors of either precision fit).
template <class Matrix>
using workspace_scalar = widest_t<typename Matrix::value_type>;
template <class Matrix>
using workspace_view = Kokkos::View<workspace_scalar<Matrix>*, typename Matrix::memory_space>;

/// What a handle keeps for its kernel between applies; empty (nothing
/// allocated) for most (format, strategy) pairs.
template <class Matrix>
struct Workspace {
  workspace_view<Matrix> gather;  ///< permuted CsrK: P x of a rank-1 apply
  /// CSR load_balance: partition and partial sums
  CsrLoadBalance<typename Matrix::memory_space, workspace_scalar<Matrix>> chunks;
  /// CSR merge_path: tile starts and carries
  CsrMergePath<typename Matrix::memory_space, workspace_scalar<Matrix>> tiles;
  /// COO load_balance, and the COO (flat) part of the deterministic Hybrid
  /// (ALIGNED_COO) strategies: partial sums and the rows without entries
  CooLoadBalance<typename Matrix::index_type, typename Matrix::memory_space, workspace_scalar<Matrix>>
      coo_parts;
  /// ALIGNED_COO seg_then_flat: the rows outside the seg part, which its seg
  /// launch scales by beta
  Kokkos::View<typename Matrix::index_type*, typename Matrix::memory_space> rows_outside_seg;
  std::size_t bytes() const {
    return gather.extent(0) * sizeof(workspace_scalar<Matrix>) + chunks.bytes() + tiles.bytes() +
           coo_parts.bytes() + rows_outside_seg.extent(0) * sizeof(typename Matrix::index_type);
  }
};

/// Formats whose kernels may need workspace (a permuted CsrK gathers P x;
/// CSR load_balance keeps its chunk partition, merge_path its tiles, COO
/// load_balance and the deterministic Hybrid and ALIGNED_COO strategies the
/// partial sums and empty rows of their COO part).
template <class Matrix>
inline constexpr bool may_need_workspace =
    !std::is_same_v<typename tuning::format_strategy<Matrix>::type, ell::strategy> &&
    !std::is_same_v<typename tuning::format_strategy<Matrix>::type, sellp::strategy>;

/// The workspace argument of kernels that take none.
struct no_workspace {};

/// The workspace of matrix a for the strategy and policy that will run (a
/// resolved strategy): room for P x (a.cols() values) for a CsrK with a
/// permutation, the chunk partition for CSR load_balance, the tiles for
/// CSR merge_path, the partial sums and empty rows of the COO part for COO
/// load_balance, Hybrid ell_then_load_balance and ALIGNED_COO flat_then_seg,
/// nothing else.
/// Allocated and filled on `exec`.
template <class ExecutionSpace, class Matrix, class Strategy>
Workspace<Matrix> make_workspace(const ExecutionSpace& exec, const Matrix& a,
                                 const Strategy& strategy, const tuning::SpmvPolicy& policy) {
  Workspace<Matrix> w;
  if constexpr (std::is_same_v<Strategy, csrk::strategy>) {
    if (a.is_permuted())
      w.gather = workspace_view<Matrix>(compat::uninitialized(exec, "kobalt::workspace"),
                                        static_cast<std::size_t>(a.cols()));
  } else if constexpr (std::is_same_v<Strategy, csr::strategy>) {
    if (std::holds_alternative<csr::load_balance>(strategy)) {
      const auto& l = policy.launches.at(0);
      w.chunks = make_csr_load_balance(exec, a, l.entries_per_thread * l.vector_length);
    } else if (std::holds_alternative<csr::merge_path>(strategy)) {
      const auto& l = policy.launches.at(0);
      w.tiles = make_csr_merge_path(exec, a, l.entries_per_thread * l.vector_length, l.form);
    }
  } else if constexpr (std::is_same_v<Strategy, coo::strategy>) {
    if (std::holds_alternative<coo::load_balance>(strategy)) {
      const auto& l = policy.launches.at(0);
      w.coo_parts = make_coo_load_balance(exec, a, l.entries_per_thread * l.vector_length);
    }
  } else if constexpr (std::is_same_v<Strategy, hybrid::strategy>) {
    if (std::holds_alternative<hybrid::ell_then_load_balance>(strategy) && a.coo().nnz() > 0) {
      const auto& l = policy.launches.at(1);
      w.coo_parts = make_coo_load_balance(exec, a.coo(), l.entries_per_thread * l.vector_length);
    }
  } else if constexpr (std::is_same_v<Strategy, aligned_coo::strategy>) {
    if (std::holds_alternative<aligned_coo::flat_then_seg>(strategy) && a.flat().nnz() > 0) {
      const auto& l = policy.launches.at(0);
      w.coo_parts = make_coo_load_balance(exec, a.flat(), l.entries_per_thread * l.vector_length);
    }
    if (std::holds_alternative<aligned_coo::seg_then_flat>(strategy))
      w.rows_outside_seg = rows_outside_seg(exec, a);
  } else {
    (void)exec, (void)a, (void)strategy, (void)policy;
  }
  return w;
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

// ---- the table: (format, strategy) -> launches ------------------------------

template <class E, class V, class I, class D, class X, class Y, class W, class O>
void run(const E& exec, const tuning::SpmvPolicy& p, const W&, csr::basic,
         typename Y::non_const_value_type alpha, const Csr<V, I, D, O>& a, const X& x,
         typename Y::non_const_value_type beta, const Y& y) {
  csr_basic_classical(exec, p.launches.at(0), kernel_label("csr", "basic"), alpha, a, x, beta, y);
}

template <class E, class V, class I, class D, class X, class Y, class W, class O>
void run(const E& exec, const tuning::SpmvPolicy& p, const W&, csr::classical,
         typename Y::non_const_value_type alpha, const Csr<V, I, D, O>& a, const X& x,
         typename Y::non_const_value_type beta, const Y& y) {
  csr_basic_classical(exec, p.launches.at(0), kernel_label("csr", "classical"), alpha, a, x, beta, y);
}

template <class E, class V, class I, class D, class X, class Y, class W, class O>
void run(const E& exec, const tuning::SpmvPolicy& p, const W& workspace, csr::load_balance,
         typename Y::non_const_value_type alpha, const Csr<V, I, D, O>& a, const X& x,
         typename Y::non_const_value_type beta, const Y& y) {
  csr_load_balance(exec, p.launches.at(0), kernel_label("csr", "load_balance"), alpha, a, x, beta, y,
             workspace.chunks);
}

template <class E, class V, class I, class D, class X, class Y, class W, class O>
void run(const E& exec, const tuning::SpmvPolicy& p, const W& workspace, csr::merge_path,
         typename Y::non_const_value_type alpha, const Csr<V, I, D, O>& a, const X& x,
         typename Y::non_const_value_type beta, const Y& y) {
  csr_merge_path(exec, p.launches.at(0), kernel_label("csr", "merge_path"), alpha, a, x, beta, y,
                 workspace.tiles);
}

/// 000 §3.1: y is scaled first (the kernel only adds), unless beta == 1.
template <class E, class V, class I, class D, class X, class Y, class W>
void run(const E& exec, const tuning::SpmvPolicy& p, const W&, coo::segmented,
         typename Y::non_const_value_type alpha, const Coo<V, I, D>& a, const X& x,
         typename Y::non_const_value_type beta, const Y& y) {
  scale(exec, beta, y);
  coo_segmented(exec, p.launches.at(0), kernel_label("coo", "segmented"), alpha, a.row_indices(),
                a.col_indices(), a.values(), x, y);
}

/// One launch: beta is applied by the chunks (kernels/coo_load_balance.hpp).
template <class E, class V, class I, class D, class X, class Y, class W>
void run(const E& exec, const tuning::SpmvPolicy& p, const W& workspace, coo::load_balance,
         typename Y::non_const_value_type alpha, const Coo<V, I, D>& a, const X& x,
         typename Y::non_const_value_type beta, const Y& y) {
  coo_load_balance(exec, p.launches.at(0), kernel_label("coo", "load_balance"), alpha, a, x, beta, y,
             workspace.coo_parts);
}

template <class E, class V, class I, class D, class X, class Y, class W>
void run(const E& exec, const tuning::SpmvPolicy& p, const W&, ell::rows,
         typename Y::non_const_value_type alpha, const Ell<V, I, D>& a, const X& x,
         typename Y::non_const_value_type beta, const Y& y) {
  ell_rows(exec, p.launches.at(0), kernel_label("ell", "rows"), alpha, a, x, beta, y);
}

template <class E, class V, class I, class D, class X, class Y, class W>
void run(const E& exec, const tuning::SpmvPolicy& p, const W&, ell::column_groups,
         typename Y::non_const_value_type alpha, const Ell<V, I, D>& a, const X& x,
         typename Y::non_const_value_type beta, const Y& y) {
  ell_column_groups(exec, p.launches.at(0), kernel_label("ell", "column_groups"), alpha, a, x,
                    beta, y);
}

template <class E, class V, class I, class D, class X, class Y, class W>
void run(const E& exec, const tuning::SpmvPolicy& p, const W&, sellp::slices,
         typename Y::non_const_value_type alpha, const Sellp<V, I, D>& a, const X& x,
         typename Y::non_const_value_type beta, const Y& y) {
  sellp_slices(exec, p.launches.at(0), kernel_label("sellp", "slices"), alpha, a, x, beta, y);
}

/// 000 §4: the ELL kernel writes every row of y (beta applied; beta == 0
/// overwrites), so y needs no separate scaling; then the COO kernel
/// accumulates. An ELL part of width 0 only scales y.
template <class E, class V, class I, class D, class X, class Y, class W>
void run(const E& exec, const tuning::SpmvPolicy& p, const W&, hybrid::ell_then_coo,
         typename Y::non_const_value_type alpha, const Hybrid<V, I, D>& a, const X& x,
         typename Y::non_const_value_type beta, const Y& y) {
  if (a.ell_width() == 0)
    scale(exec, beta, y);
  else
    ell_rows(exec, p.launches.at(0), kernel_label("hybrid", "ell"), alpha, a.ell(), x, beta, y);
  const auto& coo = a.coo();
  coo_segmented(exec, p.launches.at(1), kernel_label("hybrid", "coo"), alpha, coo.row_indices(),
                coo.col_indices(), coo.values(), x, y);
}

/// The same ELL launch, then the COO part as coo::load_balance with beta = 1
/// (rows it does not hold keep the ELL result; kernels/coo_load_balance.hpp skips
/// them). An ELL part of width 0: the COO part applies beta itself, one
/// launch.
template <class E, class V, class I, class D, class X, class Y, class W>
void run(const E& exec, const tuning::SpmvPolicy& p, const W& workspace,
         hybrid::ell_then_load_balance, typename Y::non_const_value_type alpha,
         const Hybrid<V, I, D>& a, const X& x, typename Y::non_const_value_type beta,
         const Y& y) {
  using scalar = typename Y::non_const_value_type;
  if (a.ell_width() > 0) {
    ell_rows(exec, p.launches.at(0), kernel_label("hybrid", "ell"), alpha, a.ell(), x, beta, y);
    beta = scalar(1);
  }
  if (a.coo().nnz() > 0)
    coo_load_balance(exec, p.launches.at(1), kernel_label("hybrid", "coo"), alpha, a.coo(), x, beta, y,
               workspace.coo_parts);
  else if (a.ell_width() == 0)
    scale(exec, beta, y);
}

template <class E, class V, class I, class D, class X, class Y, class W>
void run(const E& exec, const tuning::SpmvPolicy& p, const W& workspace, csrk::groups,
         typename Y::non_const_value_type alpha, const CsrK<V, I, D>& a, const X& x,
         typename Y::non_const_value_type beta, const Y& y) {
  csrk_groups(exec, p.launches.at(0), alpha, a, x, beta, y, workspace.gather);
}

/// 004 §IV-D: the seg kernel, which applies beta to every row (its own rows
/// as it stores them, the others from the handle's list), then the flat
/// part with 000 Alg. 1's atomics: two launches.
template <class E, class V, class I, class D, class X, class Y, class W>
void run(const E& exec, const tuning::SpmvPolicy& p, const W& workspace,
         aligned_coo::seg_then_flat, typename Y::non_const_value_type alpha,
         const AlignedCoo<V, I, D>& a, const X& x, typename Y::non_const_value_type beta,
         const Y& y) {
  aligned_coo_seg(exec, p.launches.at(0), kernel_label("aligned_coo", "seg"), alpha, a, x, beta, y,
                  workspace.rows_outside_seg);
  coo_segmented(exec, p.launches.at(1), kernel_label("aligned_coo", "flat"), alpha,
                a.flat().row_indices(), a.flat().col_indices(), a.flat().values(), x, y);
}

/// The flat part as coo::load_balance writes every row (beta applied; with
/// no flat entries y is only scaled), then the seg kernel adds its rows with
/// plain adds (one thread per row).
template <class E, class V, class I, class D, class X, class Y, class W>
void run(const E& exec, const tuning::SpmvPolicy& p, const W& workspace,
         aligned_coo::flat_then_seg, typename Y::non_const_value_type alpha,
         const AlignedCoo<V, I, D>& a, const X& x, typename Y::non_const_value_type beta,
         const Y& y) {
  using scalar = typename Y::non_const_value_type;
  if (a.flat().nnz() > 0)
    coo_load_balance(exec, p.launches.at(0), kernel_label("aligned_coo", "flat"), alpha, a.flat(), x,
               beta, y, workspace.coo_parts);
  else
    scale(exec, beta, y);
  aligned_coo_seg(exec, p.launches.at(1), kernel_label("aligned_coo", "seg"), alpha, a, x,
                  scalar(1), y, workspace.rows_outside_seg);  // adds: no rows to scale
}

/// The visit over the strategy variant: the one dispatch of every apply.
template <class E, class Matrix, class Strategy, class X, class Y, class W>
void dispatch(const E& exec, const Strategy& strategy, const tuning::SpmvPolicy& p,
              const W& workspace, typename Y::non_const_value_type alpha, const Matrix& a,
              const X& x, typename Y::non_const_value_type beta, const Y& y) {
  std::visit(
      [&](auto s) {
        using S = decltype(s);
        // Handles and the handle-less spmv resolve automatic strategies
        // first (tuning::resolve); an unresolved one never reaches a kernel.
        if constexpr (std::is_same_v<S, csr::automatic> || std::is_same_v<S, ell::automatic>)
          throw invalid_parameter(std::string("kobalt::spmv: ") +
                                  tuning::format_strategy<Matrix>::format +
                                  "::automatic must be resolved before dispatch");
        else
          run(exec, p, workspace, s, alpha, a, x, beta, y);
      },
      strategy);
}

}  // namespace kobalt::detail
