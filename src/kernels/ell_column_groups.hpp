// SPDX-License-Identifier: BSD-3-Clause
// ELL kernel of seed 003 §3.3 (Alg. 5): the threads of a group take one
// slot column of consecutive rows (coalesced on every GPU, where 000's
// subwarp per row reads slots `stride` apart), t groups share each row and
// add their partial sums in team scratch; with `row_parts` > 1 (Alg. 5's
// nblock_per_row) several teams share a row and add into y atomically, y
// scaled by beta first. 003 adds the groups with shared-memory atomics;
// Kobalt adds them in a fixed order (deterministic for row_parts == 1).
// The kernel body is kernels/ell_sellp_column_groups.hpp, shared with
// SELL-P: the ELL rows are cut into blocks of the vector length. One group
// and one part per row is a thread per row (Alg. 5's case width / rows <=
// 1e-2) and runs as ell_rows' thread per row
// (kernels/ell_sellp_thread_per_row.hpp).
#pragma once

#include "ell_rows.hpp"
#include "ell_sellp_column_groups.hpp"
#include "strategy_kernel.hpp"
#include "../formats/ell.hpp"
#include "../tuning/policy.hpp"

#include <cstdint>
#include <string>

namespace kobalt::detail {

/// y = alpha*A*x + beta*y for an Ell with launch shape s: blocks of
/// s.vector_length rows, s.row_threads groups per row, s.row_parts teams
/// per block.
template <class ExecutionSpace, class Value, class Index, class Device, class XView, class YView>
void ell_column_groups(const ExecutionSpace& exec, const tuning::LaunchShape& s,
                       const std::string& label, typename YView::non_const_value_type alpha,
                       const Ell<Value, Index, Device>& a, const XView& x,
                       typename YView::non_const_value_type beta, const YView& y) {
  if (s.row_threads <= 1 && s.row_parts <= 1) {
    tuning::LaunchShape thread_per_row = s;
    thread_per_row.vector_length = 1;
    ell_rows(exec, thread_per_row, label, alpha, a, x, beta, y);
    return;
  }
  const std::int64_t rows = a.rows();
  const std::int64_t b = s.vector_length > 0 ? s.vector_length : 1;
  const EllBlocks blocks{b, a.stored_per_row(), a.stride()};
  ell_sellp_column_groups(exec, s, label, alpha, blocks, rows, b, (rows + b - 1) / b,
              s.row_parts > 1 ? s.row_parts : 1, a.col_indices(), a.values(), x, beta, y);
}

/// ell::column_groups: groups of threads over one slot column.
template <>
struct strategy_kernel<ell::column_groups> : without_workspace {
  /// One launch.
  template <class E, class V, class I, class D, class X, class Y, class W>
  static void run(const E& exec, const tuning::SpmvPolicy& p, const W&,
                  typename Y::non_const_value_type alpha, const Ell<V, I, D>& a, const X& x,
                  typename Y::non_const_value_type beta, const Y& y) {
    static const std::string column_groups_label = kernel_label("ell", "column_groups");
    ell_column_groups(exec, p.launches.at(0), column_groups_label, alpha, a, x,
                      beta, y);
  }
};

}  // namespace kobalt::detail
