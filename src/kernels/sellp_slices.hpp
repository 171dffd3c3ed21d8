// SPDX-License-Identifier: BSD-3-Clause
// SELL-P kernel (001 Fig. 2-3; 000 §3.5 Alg. 5 as its t = 1 case): a team
// takes whole slices, t team threads share each row of a slice (thread j
// takes slots j, j + t, ...), the vector lanes take the slice's rows, the t
// partial sums of a row are added in team scratch and y is written once (no
// atomics). The threads per row t come from the launch (s.row_threads), not
// from the format's stride factor: any t reads any SELL-P correctly, the
// stride factor only pads each slice to a multiple of it. The kernel body
// is kernels/ell_sellp_column_groups.hpp, shared with ELL's column groups
// (003 Alg. 5); t = 1 runs as a thread per row
// (kernels/ell_sellp_thread_per_row.hpp, measured there); on hosts, slices
// of 4, 8 or 16 rows run as SIMD vectors (sellp_slices_host.hpp). The
// launch's form names the body; the selector chooses it.
// A SELL-C-sigma matrix writes stored row k's sum to y(row_order(k)).
#pragma once

#include "ell_sellp_column_groups.hpp"
#include "ell_sellp_thread_per_row.hpp"
#include "sellp_slices_host.hpp"
#include "strategy_kernel.hpp"
#include "../errors.hpp"
#include "../formats/sellp.hpp"
#include "../tuning/policy.hpp"
#include "../tuning/strategy.hpp"

#include <cstdint>
#include <string>

namespace kobalt::detail {

/// y = alpha*A*x + beta*y for a Sellp with launch shape s (y fully written,
/// beta == 0 overwrites), by the body s.form names (tuning::select picks
/// it): invalid_parameter for a form this kernel or backend cannot run.
template <class ExecutionSpace, class Value, class Index, class Device, class XView, class YView>
void sellp_slices(const ExecutionSpace& exec, const tuning::LaunchShape& s,
                  const std::string& label, typename YView::non_const_value_type alpha,
                  const Sellp<Value, Index, Device>& a, const XView& x,
                  typename YView::non_const_value_type beta, const YView& y) {
  using matrix = Sellp<Value, Index, Device>;
  switch (s.form) {
    case tuning::LaunchForm::host_simd:
      // Hosts: a lane per row of the slice, one thread per row's slots: the
      // slice is one SIMD vector (sellp_slices_host.hpp).
      if constexpr (arch::lanes<ExecutionSpace>::max_width == 1) {
        if (tuning::host_simd_slice(a.slice_size())) {
          sellp_slices_host(exec, label, alpha, a, x, beta, y);
          return;
        }
        throw invalid_parameter("kobalt: " + label + ": host SIMD slices of " +
                                std::to_string(a.slice_size()) +
                                " rows; the kernel is built for 4, 8 or 16");
      } else {
        throw invalid_parameter("kobalt: " + label +
                                ": host SIMD slices asked for on a GPU backend");
      }
    case tuning::LaunchForm::thread_per_row:  // t = 1 (ell_sellp_thread_per_row.hpp)
      ell_sellp_thread_per_row(exec, label, alpha, static_cast<std::int64_t>(a.rows()), a.nnz(),
                a.stored(), a.col_indices().data(), a.values().data(),
                [&](auto offset) {
                  using Offset = decltype(offset);
                  return SliceRowSlots<Offset, Index>{
                      a.slice_sets().data(), a.slice_lengths().data(),
                      a.row_order().extent(0) ? a.row_order().data() : nullptr,
                      Offset(a.slice_size())};
                },
                x, beta, y);
      return;
    case tuning::LaunchForm::column_groups: {
      const SliceBlocks<typename matrix::index_view> blocks{
          a.slice_sets(), a.slice_lengths(),
          a.row_order().extent(0) ? a.row_order().data() : nullptr, a.slice_size()};
      ell_sellp_column_groups(exec, s, label, alpha, blocks, static_cast<std::int64_t>(a.rows()),
                  a.slice_size(), a.slices(), 1, a.col_indices(), a.values(), x, beta, y);
      return;
    }
    default:
      throw invalid_parameter("kobalt: " + label + ": launch form '" +
                              tuning::form_name(s.form) +
                              "' is no SELL-P body (thread_per_row, column_groups, host_simd)");
  }
}

/// sellp::slices: whole slices per team, nothing kept between applies.
template <>
struct strategy_kernel<sellp::slices> : without_workspace {
  /// One launch.
  template <class E, class V, class I, class D, class X, class Y, class W>
  static void run(const E& exec, const tuning::SpmvPolicy& p, const W&,
                  typename Y::non_const_value_type alpha, const Sellp<V, I, D>& a, const X& x,
                  typename Y::non_const_value_type beta, const Y& y) {
    static const std::string slices_label = kernel_label("sellp", "slices");
    sellp_slices(exec, p.launches.at(0), slices_label, alpha, a, x, beta, y);
  }
};

}  // namespace kobalt::detail
