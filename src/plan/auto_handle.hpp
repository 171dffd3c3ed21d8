// SPDX-License-Identifier: BSD-3-Clause
// The automatic handle: make_handle(exec, csr, kobalt::automatic{n})
// analyses the matrix once on the device (tuning::analyze_moments: one
// reduction over the row lengths, which on profiles whose rule 0 may convert
// to SELL-P also sums the slices' widths, tuning/sellp_fill.hpp; a second one
// for those widths where rule 2 may take SELL-P for ELL, or over the rows'
// first and last columns where it asks for the row spread,
// tuning/row_spread.hpp), chooses the format
// from the statistics, the device profile and the expected number of
// applies (tuning/choose.hpp), converts once and keeps an SpmvHandle of the
// chosen format; spmv(exec, handle, alpha, csr, x, beta, y) applies it.
#pragma once

#include "../formats/convert_ell.hpp"
#include "../formats/convert_hybrid.hpp"
#include "../formats/convert_sellp.hpp"
#include "../formats/value_map.hpp"
#include "../tuning/choose.hpp"
#include "../tuning/row_spread.hpp"
#include "../tuning/sellp_fill.hpp"
#include "convert.hpp"
#include "handle.hpp"
#include "spmv.hpp"

#include <cstdint>
#include <string>
#include <type_traits>
#include <variant>

namespace kobalt {

/// Asks make_handle for the automatic choice of format and strategy.
/// expected_applies: how many applies the handle will see; a conversion is
/// made only where it pays off within them (default 1000, the hint
/// kobalt-bench gives MKL's inspector-executor).
struct automatic {
  std::int64_t expected_applies = 1000;  ///< applies the handle will see (>= 1)
};

/// A handle that chose its format: a Csr kept as it is, or converted once
/// to Ell, Hybrid, Sellp or AlignedCoo, each applied through its own SpmvHandle. Sharing and
/// ordering of applies are those of the chosen handle (SpmvHandle).
///
/// Values: a converted format is a snapshot of the Csr's values at setup;
/// after the Csr's values change (same structure), update_values(exec)
/// writes them into the copy through the map the conversion kept (one
/// gather per value array, no new analysis, choice or conversion). A Csr
/// kept as it is is read at every apply. Moved, not copied (SpmvHandle).
template <class CsrMatrix, class ExecutionSpace = typename CsrMatrix::execution_space>
class AutoHandle {
 public:
  using matrix_type = CsrMatrix;  ///< what the caller gives to spmv
  using execution_space = ExecutionSpace;                ///< where setup and applies run
  using value_type = typename CsrMatrix::value_type;     ///< the matrix's values
  using index_type = typename CsrMatrix::index_type;     ///< the matrix's column indices
  using device_type = typename CsrMatrix::device_type;   ///< the matrix's Kokkos device
  using ell_type = Ell<value_type, index_type, device_type>;        ///< the ELL it may convert to
  using hybrid_type = Hybrid<value_type, index_type, device_type>;  ///< the Hybrid it may convert to
  using sellp_type = Sellp<value_type, index_type, device_type>;    ///< the Sellp it may convert to
  /// the AlignedCoo it may convert to
  using aligned_coo_type = AlignedCoo<value_type, index_type, device_type>;
  using coo_type = Coo<value_type, index_type, device_type>;  ///< the Coo it may convert to
  /// The chosen format's handle.
  using handle_type = std::variant<SpmvHandle<CsrMatrix, ExecutionSpace>,
                                   SpmvHandle<ell_type, ExecutionSpace>,
                                   SpmvHandle<hybrid_type, ExecutionSpace>,
                                   SpmvHandle<sellp_type, ExecutionSpace>,
                                   SpmvHandle<aligned_coo_type, ExecutionSpace>,
                                   SpmvHandle<coo_type, ExecutionSpace>>;
  /// Slot numbers wide enough for the Csr's nnz (its offset type may be
  /// wider than its column indices).
  using map_index_type =
      std::conditional_t<(sizeof(typename CsrMatrix::offset_type) > sizeof(index_type)),
                         std::int64_t, index_type>;
  /// Where each value of the converted copy comes from in the Csr.
  using map_type = ValueMap<value_type, map_index_type, device_type>;

  /// An empty handle (empty() is true), to be assigned a made one.
  AutoHandle() = default;

  /// Analyses `a` on `exec`, chooses (tuning::choose_format with the cached
  /// device profile) and converts.
  AutoHandle(const ExecutionSpace& exec, const CsrMatrix& a, const automatic& options = {})
      : AutoHandle(exec, a, options, tuning::cached_profile_of(exec)) {}

  /// Same with an explicit device profile.
  AutoHandle(const ExecutionSpace& exec, const CsrMatrix& a, const automatic& options,
             const tuning::DeviceProfile& profile)
      : matrix_(a), analysis_(analyse(exec, a, checked(options), profile)) {
    build(exec, a, profile);
  }

  /// True for a default-constructed or moved-from handle.
  bool empty() const {
    return std::visit([](const auto& h) { return h.empty(); }, handle_);
  }

  /// Writes the Csr's current values into what the handle holds: the
  /// converted copy (one gather per value array through the kept map) and
  /// the chosen handle's op(A) copies (SpmvHandle::update_values), on
  /// `exec`. The structure, the statistics and the choice stay as they
  /// were. Does nothing where the Csr is applied as it is and no op(A) copy
  /// exists (holds_value_copy() false).
  void update_values(const ExecutionSpace& exec) {
    if (empty())
      throw invalid_parameter("kobalt::AutoHandle::update_values: the handle is empty "
                              "(default-constructed or moved from)");
    if (!map_.empty()) map_.gather(exec, detail::value_arrays(matrix_));
    std::visit([&](auto& h) { h.update_values(exec); }, handle_);
  }
  /// The same after switching to the values of `a`: a Csr with this
  /// handle's row pointer and column arrays (the same storage) whose values
  /// may live elsewhere; later applies take `a`. Throws invalid_parameter
  /// for another structure.
  void update_values(const ExecutionSpace& exec, const CsrMatrix& a) {
    if (empty())
      throw invalid_parameter("kobalt::AutoHandle::update_values: the handle is empty "
                              "(default-constructed or moved from)");
    detail::check_same_structure(matrix_, a, "kobalt::AutoHandle::update_values");
    matrix_ = a;
    if (auto* kept = std::get_if<SpmvHandle<CsrMatrix, ExecutionSpace>>(&handle_))
      kept->update_values(exec, a);
    else
      update_values(exec);
  }
  /// True when the handle holds values of its own (a converted copy or
  /// op(A) copies), which update_values refreshes.
  bool holds_value_copy() const {
    return !map_.empty() ||
           std::visit([](const auto& h) { return h.holds_value_copy(); }, handle_);
  }
  /// Device bytes of the map that refreshes the converted copy (0 without one).
  std::uint64_t value_map_bytes() const { return map_.bytes(); }

  /// The Csr the handle was made for (shared, not copied).
  const CsrMatrix& matrix() const { return matrix_; }
  /// The format chosen and the rule that fired.
  const tuning::FormatChoice& choice() const { return analysis_.choice; }
  /// The statistics the choice read: tuning::analyze_moments, or
  /// tuning::analyze (with the row-length distribution) where the choice
  /// read Hybrid's split (tuning::hybrid_split_read).
  const tuning::MatrixStats& stats() const { return analysis_.stats; }
  /// SELL-P slots per nonzero (tuning::sellp_fill with the profile's
  /// auto_sellp_slice_size), where the choice read it; 0 otherwise.
  double sellp_fill() const { return analysis_.sellp_fill; }
  /// The row spread (tuning::row_spread), where the choice read it; 0 otherwise.
  double row_spread() const { return analysis_.row_spread; }
  /// Seconds the analysis (tuning::analyze_moments: one reduction, with
  /// the SELL-P fill where it may be read, and the row-length distribution
  /// where Hybrid may be chosen) and the choice took (host
  /// clock; the reduction's results reach the host, so their device work is
  /// inside). The conversion and the chosen handle's setup are not, so that
  /// the two costs can be told apart.
  double analysis_seconds() const { return analysis_.seconds; }
  /// The chosen format's handle, for std::visit.
  const handle_type& handle() const { return handle_; }

  /// Device bytes of the converted copy (0 when the Csr is applied as it is).
  std::uint64_t converted_bytes() const {
    return std::visit(
        [](const auto& h) -> std::uint64_t {
          using held = typename std::decay_t<decltype(h)>::matrix_type;
          return std::is_same_v<held, CsrMatrix> ? 0 : h.matrix().bytes();
        },
        handle_);
  }
  /// True when every apply adds in a fixed order (SpmvHandle::reproducible).
  bool reproducible() const {
    return std::visit([](const auto& h) { return h.reproducible(); }, handle_);
  }
  /// One line for tables: the format, then its handle's summary.
  std::string summary() const {
    return std::string(tuning::format_name(analysis_.choice.format)) + " " +
           std::visit([](const auto& h) { return h.summary(); }, handle_);
  }
  /// What was chosen and why, then the chosen handle's describe().
  std::string describe() const {
    if (empty()) return "empty handle (default-constructed or moved from)";
    const std::string values =
        map_.empty() ? std::string("the Csr is applied as it is")
                     : std::string("the ") + tuning::format_name(analysis_.choice.format) +
                           " holds a copy of the Csr's values as of setup or the last "
                           "update_values";
    return "automatic: " + analysis_.choice.rule + "; " + values + "; " +
           std::visit([](const auto& h) { return h.describe(); }, handle_);
  }

 private:
  /// What the handle read and chose, and how long that took.
  struct Analysis {
    tuning::MatrixStats stats;
    tuning::FormatChoice choice;
    double sellp_fill;
    double row_spread;
    double seconds;
  };
  static Analysis analyse(const ExecutionSpace& exec, const CsrMatrix& a, const automatic& options,
                          const tuning::DeviceProfile& profile) {
    Kokkos::Timer timer;
    // The moments decide the format; only Hybrid's split needs the
    // row-length distribution, read below where Hybrid may be chosen.
    Analysis r{{}, {}, 0, 0, 0};
    if (a.nnz() < profile.auto_sellp_max_nnz) {
      // Rule 0 may read SELL-P's fill: the same reduction reads it.
      const auto m = tuning::analyze_moments_and_sellp_fill(exec, a, profile.auto_sellp_slice_size);
      r.stats = m.stats;
      if (tuning::sellp_fill_read(r.stats, profile)) r.sellp_fill = m.sellp_fill;
    } else {
      r.stats = tuning::analyze_moments(exec, a);
      // Rule 2's fill: a second reduction, only where it may change the
      // choice; summed in the first, its sliced loop slowed every analysis
      // (docs/sources.md, "ELL or SELL-P by their slots").
      if (tuning::sellp_may_replace_ell(r.stats, profile))
        r.sellp_fill = tuning::sellp_fill(exec, a, profile.auto_sellp_slice_size);
    }
    if (tuning::hybrid_split_read(r.stats, profile)) r.stats = tuning::analyze(exec, a);
    if (tuning::row_spread_needed(r.stats, profile, sizeof(value_type)))
      r.row_spread = tuning::row_spread(exec, a);
    r.choice = tuning::choose_format(r.stats, profile, options.expected_applies, r.sellp_fill,
                                     r.row_spread);
    r.seconds = timer.seconds();
    return r;
  }
  static const automatic& checked(const automatic& options) {
    if (options.expected_applies < 1)
      throw invalid_parameter("kobalt::automatic: expected_applies = " +
                              std::to_string(options.expected_applies) + " must be >= 1");
    return options;
  }

  /// Converts `a` to the chosen format, keeping the map that refreshes the
  /// copy's values, and makes the handle that applies it.
  void build(const ExecutionSpace& exec, const CsrMatrix& a, const tuning::DeviceProfile& profile) {
    switch (analysis_.choice.format) {
      case tuning::auto_format::ell: {
        auto c = map_type::convert(
            exec, a, [](const auto& e, const auto& m) { return to_ell(e, m, ell_params{}); });
        // The row statistics are the Csr's: ELL stores the same rows.
        handle_ = SpmvHandle<ell_type, ExecutionSpace>(exec, c.matrix, {}, profile, analysis_.stats);
        map_ = std::move(c.map);
        return;
      }
      case tuning::auto_format::hybrid: {
        // The analysis read the row-length distribution (000 eq. 5-6) for
        // the choice; the Hybrid stores the Csr's rows, so its handle takes
        // the same statistics.
        const tuning::MatrixStats& full = analysis_.stats;
        const auto layout = tuning::select<value_type, index_type>(full, profile, hybrid::automatic{});
        auto c = map_type::convert(
            exec, a, [&layout](const auto& e, const auto& m) { return to_hybrid(e, m, layout); });
        handle_ = SpmvHandle<hybrid_type, ExecutionSpace>(exec, c.matrix, {}, profile, full);
        map_ = std::move(c.map);
        return;
      }
      case tuning::auto_format::sellp: {
        sellp_params p;
        p.slice_size = profile.auto_sellp_slice_size;  // t = 1, rows in their order
        auto c = map_type::convert(
            exec, a, [&p](const auto& e, const auto& m) { return to_sellp(e, m, p); });
        handle_ = SpmvHandle<sellp_type, ExecutionSpace>(exec, c.matrix, {}, profile, analysis_.stats);
        map_ = std::move(c.map);
        return;
      }
      case tuning::auto_format::aligned_coo: {
        // Resolved for the Csr's own entry bytes before the slot numbers are
        // converted through it.
        const aligned_coo::layout layout = detail::aligned_coo_layout(exec, a, profile);
        auto c = map_type::convert(exec, a, [&layout](const auto& e, const auto& m) {
          return to_aligned_coo(e, m, layout);
        });
        handle_ = SpmvHandle<aligned_coo_type, ExecutionSpace>(exec, c.matrix, {}, profile,
                                                               analysis_.stats);
        map_ = std::move(c.map);
        return;
      }
      case tuning::auto_format::coo: {
        // The Coo stores the Csr's entries in their order: the statistics stand.
        auto c = map_type::convert(exec, a, [](const auto& e, const auto& m) { return to_coo(e, m); });
        handle_ = SpmvHandle<coo_type, ExecutionSpace>(exec, c.matrix, coo::load_balance{}, profile,
                                                       analysis_.stats);
        map_ = std::move(c.map);
        return;
      }
      default:
        handle_ = SpmvHandle<CsrMatrix, ExecutionSpace>(exec, a, csr::automatic{}, profile,
                                                        analysis_.stats);
    }
  }

  CsrMatrix matrix_;
  Analysis analysis_{};
  handle_type handle_;
  map_type map_;
};

/// make_handle(exec, csr, kobalt::automatic{n}): the automatic handle.
template <class ExecutionSpace, class Value, class Index, class Device, class Offset>
AutoHandle<Csr<Value, Index, Device, Offset>, ExecutionSpace> make_handle(
    const ExecutionSpace& exec, const Csr<Value, Index, Device, Offset>& a,
    const automatic& options) {
  static_assert(Kokkos::is_execution_space<ExecutionSpace>::value,
                "kobalt::make_handle: the first argument must be an execution space instance");
  return AutoHandle<Csr<Value, Index, Device, Offset>, ExecutionSpace>(exec, a, options);
}

/// y = alpha*A*x + beta*y with an automatic handle: `a` must be the Csr it
/// was made for; the chosen format's handle applies (see spmv with a
/// SpmvHandle for x, y and the errors).
template <class ExecutionSpace, class CsrMatrix, class HandleSpace, class XView, class YView>
void spmv(const ExecutionSpace& exec, const AutoHandle<CsrMatrix, HandleSpace>& handle,
          typename YView::const_value_type alpha, const CsrMatrix& a, const XView& x,
          typename YView::const_value_type beta, const YView& y) {
  detail::check_handle(handle, a);
  std::visit([&](const auto& h) { spmv(exec, h, alpha, h.matrix(), x, beta, y); },
             handle.handle());
}

/// y = alpha*op(A)*x + beta*y with an automatic handle and a mode ("N",
/// "T", "C", "H"): the chosen handle's op(A) (SpmvHandle::op_handle).
template <class ExecutionSpace, class CsrMatrix, class HandleSpace, class XView, class YView>
void spmv(const ExecutionSpace& exec, const AutoHandle<CsrMatrix, HandleSpace>& handle,
          const char mode[], typename YView::const_value_type alpha, const CsrMatrix& a,
          const XView& x, typename YView::const_value_type beta, const YView& y) {
  detail::check_handle(handle, a);
  std::visit([&](const auto& h) { spmv(exec, h, mode, alpha, h.matrix(), x, beta, y); },
             handle.handle());
}

}  // namespace kobalt
