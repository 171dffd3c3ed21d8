// SPDX-License-Identifier: BSD-3-Clause
// Entries per row of each format, counted on the device. Shared by the
// X -> Csr conversions (which count into row_ptr(i + 1), offset 1) and by
// row_lengths() for tuning::analyze (offset 0). Padding never counts. Also
// the row of a given entry, for conversions that move a thread per entry.
#pragma once

#include "../range.hpp"
#include "format_traits.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kobalt::detail {

/// The row r with row_ptr(r) <= e < row_ptr(r + 1), for 0 <= e < nnz:
/// bisection over the row pointer (the last r with row_ptr(r) <= e, which
/// skips empty rows). Neighbouring threads take the same path, so the
/// top of the search stays in cache.
template <class RowPtr>
KOKKOS_INLINE_FUNCTION std::int64_t row_of_entry(const RowPtr& row_ptr, std::int64_t rows,
                                                 std::int64_t e) {
  std::int64_t lo = 0, hi = rows;  // row_ptr(lo) <= e < row_ptr(hi)
  while (hi - lo > 1) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (static_cast<std::int64_t>(row_ptr(mid)) <= e)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

/// Entry k counted in out(row(k) + offset).
template <class RowView, class OutView>
struct CountEntryRowFunctor {
  using count = typename OutView::non_const_value_type;
  OutView out;
  RowView row;
  std::int64_t offset;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t k) const {
    Kokkos::atomic_add(&out(static_cast<std::int64_t>(row(k)) + offset), count(1));
  }
};

/// out(row(k) + offset) += 1 for every entry k of a (row, col) entry list.
template <class ExecutionSpace, class RowView, class OutView>
void count_entries_per_row(const ExecutionSpace& exec, const RowView& row, const OutView& out,
                           std::int64_t offset, const char* label) {
  Kokkos::parallel_for(
      label,
      range_policy<ExecutionSpace>(exec, 0, static_cast<std::int64_t>(row.extent(0))),
      CountEntryRowFunctor<RowView, OutView>{out, row, offset});
}

/// Slots of a padded row before its first padding slot: the row's slots are
/// col(base), col(base + stride), ... (width of them), entries first, then
/// padding (col < 0), so a bisection finds the boundary: a row of 2M slots
/// costs ~21 reads instead of a walk (docs/sources.md: "Conversion kernels").
template <class IndexView>
KOKKOS_INLINE_FUNCTION std::int64_t slots_before_padding(const IndexView& col, std::int64_t base,
                                                         std::int64_t stride, std::int64_t width) {
  std::int64_t lo = 0, hi = width;  // slots [0, lo) are entries, [hi, width) padding
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (col(base + mid * stride) >= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/// out(i + offset) = entries of ELL row i (its slots before the padding).
template <class IndexView, class OutView>
struct CountEllRowFunctor {
  using count = typename OutView::non_const_value_type;
  OutView out;
  std::int64_t offset;
  IndexView col;
  std::int64_t stride, width;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    out(i + offset) = static_cast<count>(slots_before_padding(col, i, stride, width));
  }
};

/// out(i + offset) = slots of ELL row i before its first padding slot (a
/// row's entries precede its padding).
template <class ExecutionSpace, class IndexView, class OutView>
void count_ell_rows(const ExecutionSpace& exec, const IndexView& col, std::int64_t rows,
                    std::int64_t width, std::int64_t stride, const OutView& out,
                    std::int64_t offset, const char* label) {
  Kokkos::parallel_for(
      label, range_policy<ExecutionSpace>(exec, 0, rows),
      CountEllRowFunctor<IndexView, OutView>{out, offset, col, stride, width});
}

/// out(row_order(i) + offset) = entries of SELL-P stored row i (its slots
/// before the padding; row i itself when not `ordered`).
template <class IndexView, class OutView>
struct CountSellpRowFunctor {
  using count = typename OutView::non_const_value_type;
  IndexView slice_sets;
  std::int64_t b;
  IndexView slice_lengths;
  bool ordered;
  IndexView row_order;
  OutView out;
  std::int64_t offset;
  IndexView col;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    const std::int64_t s = i / b, base = slice_sets(s) + i % b, width = slice_lengths(s);
    const std::int64_t row = ordered ? static_cast<std::int64_t>(row_order(i)) : i;
    out(row + offset) = static_cast<count>(slots_before_padding(col, base, b, width));
  }
};

/// out(row_order(k) + offset) = slots of SELL-P stored row k before its
/// first padding slot (row_order empty: the identity).
template <class ExecutionSpace, class IndexView, class OutView>
void count_sellp_rows(const ExecutionSpace& exec, const IndexView& slice_sets,
                      const IndexView& slice_lengths, const IndexView& col,
                      const IndexView& row_order, std::int64_t rows, std::int64_t b,
                      const OutView& out, std::int64_t offset, const char* label) {
  const bool ordered = row_order.extent(0) != 0;
  Kokkos::parallel_for(
      label, range_policy<ExecutionSpace>(exec, 0, rows),
      CountSellpRowFunctor<IndexView, OutView>{slice_sets, b, slice_lengths, ordered, row_order,
                                               out, offset, col});
}

/// Lane `lane` of ALIGNED_COO's seg part walked: each run of one row's
/// entries added to out(row).
template <class IndexView, class OutView>
struct AddSegLaneRunsFunctor {
  using index_type = typename IndexView::non_const_value_type;
  using count = typename OutView::non_const_value_type;
  std::int64_t num_seg, seg_size;
  IndexView seg_col, seg_row;
  OutView out;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t lane) const {
    index_type current = padding_index<index_type>;
    count run = 0;
    for (std::int64_t s = 0; s < num_seg; ++s) {
      const std::int64_t slot = s * seg_size + lane;
      if (seg_col(slot) == padding_index<index_type>) break;
      if (seg_row(slot) != current) {
        if (current != padding_index<index_type>) out(current) += run;
        current = seg_row(slot);
        run = 0;
      }
      ++run;
    }
    if (current != padding_index<index_type>) out(current) += run;
  }
};

/// out(row) += entries of that row in ALIGNED_COO's seg part. Each row is
/// one run in one lane, so a plain add per run is race-free.
template <class ExecutionSpace, class IndexView, class OutView>
void add_seg_runs(const ExecutionSpace& exec, const IndexView& seg_row, const IndexView& seg_col,
                  std::int64_t seg_size, std::int64_t num_seg, const OutView& out,
                  const char* label) {
  Kokkos::parallel_for(
      label, range_policy<ExecutionSpace>(exec, 0, seg_size),
      AddSegLaneRunsFunctor<IndexView, OutView>{num_seg, seg_size, seg_col, seg_row, out});
}

}  // namespace kobalt::detail
