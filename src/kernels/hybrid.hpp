// SPDX-License-Identifier: BSD-3-Clause
// Hybrid SpMV (seed 000 §4): the ELL kernel runs first and writes every row
// of y (it applies beta, and beta == 0 overwrites), so y needs no separate
// scaling; then the COO kernel accumulates alpha * (COO part) * x with one
// atomic per row segment (coo_accumulate). An ELL part of width 0 only
// scales y.
//
// Mapping: as ell_rows.hpp for the ELL part (league entry -> rows, team
// thread -> row, vector lane -> strided slots), as coo_chunks.hpp for the
// COO part (league entry -> an entry chunk, team thread -> a sub-chunk).
#pragma once

#include "common.hpp"
#include "coo_chunks.hpp"
#include "ell_rows.hpp"
#include "../formats/hybrid.hpp"

namespace kobalt::detail {

template <class ExecutionSpace, class Value, class Index, class Device, class XView, class YView>
void apply(const ExecutionSpace& exec, typename YView::non_const_value_type alpha,
           const Hybrid<Value, Index, Device>& a, const XView& x,
           typename YView::non_const_value_type beta, const YView& y) {
  if (a.ell_width() == 0)
    scale(exec, beta, y);
  else
    ell_rows(exec, kernel_label("hybrid", "ell"),
             tuning::select_ell_policy<ExecutionSpace>(a.rows(), a.ell_width()), alpha, a.ell(),
             x, beta, y);
  const auto& coo = a.coo();
  coo_accumulate(exec, kernel_label("hybrid", "coo"), alpha, coo.row_indices(), coo.col_indices(),
                 coo.values(), x, y);
}

}  // namespace kobalt::detail
