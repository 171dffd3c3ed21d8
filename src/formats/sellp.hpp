// SPDX-License-Identifier: BSD-3-Clause
// Sellp: padded sliced ELLPACK (seed 001 §II-III; 000 §3.5). Rows are cut
// into slices of slice_size (b) consecutive rows; each slice is an ELL block
// whose width, slice_lengths[s], is its longest row rounded up to a multiple
// of the stride factor t. Slot k of local row r of slice s lives at
//     slice_sets[s] + k * b + r        (column major inside the slice)
// slice_sets holds ELEMENT offsets (001's "rowptr" of slices): slice_sets[s]
// = b * (slice_lengths[0] + ... + slice_lengths[s-1]), slice_sets[slices] =
// stored(). (Ginkgo counts slice_sets in columns; Kobalt counts elements so
// the offset is used as is, like a CSR row pointer.) The last slice is
// padded to b rows: rows past the matrix are all padding. As in Ell, a row's
// entries come first, in column order, then padding (column -1, value 0).
//
// SELL-C-sigma (sellp_params::sort_window > 1, formats/window_sort.hpp):
// stored row k holds matrix row row_order[k], the rows of each window of
// sigma rows sorted by decreasing length. Only the rows move: columns, x and
// y keep the matrix's numbering (spmv writes stored row k's sum to
// y[row_order[k]]). An empty row_order is the identity.
#pragma once

#include "../range.hpp"
#include "ell.hpp"
#include "format_traits.hpp"
#include "permutation_check.hpp"
#include "../compat.hpp"
#include "../errors.hpp"

#include <cstdint>
#include <string>

namespace kobalt {

/// Conversion parameters of Sellp (Ginkgo's "slice size and stride factor",
/// 000 Table 5).
struct sellp_params {
  /// Rows per slice, b >= 1. 64: 000 §3.5 (Ginkgo's default, the b of 000's
  /// experiments, one thread per row). 001 runs b = t = 8 ("SELL-8") with t
  /// threads per row instead.
  std::int64_t slice_size = 64;
  /// t >= 1: each slice's width is rounded up to a multiple of t. 1: 000 §3.5
  /// (one thread per row needs no extra padding); 001 uses t = 8.
  std::int64_t stride_factor = 1;
  /// Largest storage in bytes the result may take; 0 = what the device holds.
  std::uint64_t max_bytes = 0;
  /// sigma: 1 keeps the matrix's row order (SELL-P); a multiple of
  /// slice_size (up to 32768) sorts the rows of each window of sigma rows by
  /// decreasing length (SELL-C-sigma), so slices pad less on matrices whose
  /// row lengths vary. 000 §3.5 and 001 leave sorting out (its cost); 001
  /// §4 names it as the next step.
  std::int64_t sort_window = 1;
};

namespace detail {
inline void check_sellp_shape(std::int64_t slice_size, std::int64_t stride_factor,
                              const char* who) {
  if (slice_size < 1)
    throw invalid_parameter(std::string(who) + ": slice_size = " + std::to_string(slice_size) +
                            " must be at least 1");
  if (stride_factor < 1)
    throw invalid_parameter(std::string(who) + ": stride_factor = " +
                            std::to_string(stride_factor) + " must be at least 1");
}

/// Counts padded row i's entries and lowers first_bad to i when its slice
/// metadata or slots break the SELL-P layout.
template <class IndexView>
struct SellpLayoutCheckFunctor {
  using Index = typename IndexView::non_const_value_type;
  IndexView slice_sets, slice_lengths, col;
  std::int64_t rows, cols, b, t;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, std::int64_t& count,
                                         std::int64_t& first_bad) const {
    const std::int64_t s = i / b, local = i % b;
    const std::int64_t len = slice_lengths(s), base = slice_sets(s);
    bool ok = len >= 0 && len % t == 0 && slice_sets(s + 1) - base == len * b;
    bool padded = false;
    for (std::int64_t k = 0; ok && k < len; ++k) {
      const Index c = col(base + k * b + local);
      if (c < 0) {
        padded = true;
      } else if (padded || c >= cols || i >= rows) {
        ok = false;
      } else {
        ++count;
      }
    }
    if (!ok && i < first_bad) first_bad = i;
  }
};

/// Counts the entries of a SELL-P block and finds the first (padded) row
/// whose slice metadata or slots break the layout.
template <class ExecutionSpace, class IndexView>
layout_check check_sellp_layout(const ExecutionSpace& exec, const IndexView& slice_sets, const IndexView& slice_lengths,
                                const IndexView& col, std::int64_t rows, std::int64_t cols,
                                std::int64_t b, std::int64_t t) {
  layout_check r;
  const std::int64_t slices = static_cast<std::int64_t>(slice_lengths.extent(0));
  const std::int64_t padded_rows = slices * b;
  if (padded_rows == 0) return r;
  std::int64_t bad = padded_rows;
  Kokkos::parallel_reduce(
      "kobalt::sellp::check_layout", range_policy<ExecutionSpace>(exec, 0, padded_rows),
      SellpLayoutCheckFunctor<IndexView>{slice_sets, slice_lengths, col, rows, cols, b, t},
      Kokkos::Sum<std::int64_t>(r.nnz), Kokkos::Min<std::int64_t>(bad));
  r.bad_row = bad < padded_rows ? bad : -1;
  return r;
}
}  // namespace detail

/// SELL-P (001; 000 §3.5): slices of slice_size() rows, each an ELL block as
/// wide as its longest row rounded up to a multiple of stride_factor(),
/// padding marked by column -1; optionally rows sorted by length within
/// windows (SELL-C-sigma, row_order()). Built by to_sellp; runs
/// sellp::slices. See docs/formats.md.
template <class Value, class Index, class Device = default_device>
class Sellp : public format_types<Value, Index, Device> {
  using types = format_types<Value, Index, Device>;

 public:
  using typename types::execution_space;  ///< Where the kernels run.
  using typename types::index_view;  ///< An array of indices.
  using typename types::value_view;  ///< An array of values.

  Sellp() = default;

  /// Takes ownership of slice_sets (slices + 1 element offsets, starting at
  /// 0), slice_lengths (slices widths) and col/val (slice_sets[slices] slots),
  /// with slices = ceil(rows / slice_size), laid out as described at the top
  /// of this file. Checks the layout on the device and counts the entries:
  /// throws invalid_parameter for b < 1, t < 1 or wrong extents,
  /// invalid_matrix for inconsistent slice metadata, an entry after a padding
  /// slot, an entry in a row past the matrix or a column outside [0, cols).
  ///
  /// row_order (optional, SELL-C-sigma): rows entries, a permutation of
  /// [0, rows); stored row k holds matrix row row_order[k]. Empty: stored row
  /// k is row k. Throws invalid_matrix when it is not a permutation.
  Sellp(Index rows, Index cols, std::int64_t slice_size, std::int64_t stride_factor,
        index_view slice_sets, index_view slice_lengths, index_view col, value_view val,
        index_view row_order = {})
      : Sellp(execution_space(), rows, cols, slice_size, stride_factor, slice_sets, slice_lengths,
              col, val, row_order) {}
  /// The same, checked on the execution space instance `exec`.
  template <class ExecutionSpace>
  Sellp(const ExecutionSpace& exec, Index rows, Index cols, std::int64_t slice_size, std::int64_t stride_factor,
        index_view slice_sets, index_view slice_lengths, index_view col, value_view val,
        index_view row_order = {})
      : rows_(rows), cols_(cols), b_(slice_size), t_(stride_factor), sets_(slice_sets),
        lengths_(slice_lengths), col_(col), val_(val), order_(row_order) {
    if (rows < 0 || cols < 0) throw invalid_parameter("kobalt::Sellp: negative dimension");
    detail::check_sellp_shape(slice_size, stride_factor, "kobalt::Sellp");
    const std::int64_t slices = (static_cast<std::int64_t>(rows) + b_ - 1) / b_;
    if (static_cast<std::int64_t>(lengths_.extent(0)) != slices ||
        static_cast<std::int64_t>(sets_.extent(0)) != slices + 1)
      throw invalid_parameter("kobalt::Sellp: " + std::to_string(rows) + " rows in slices of " +
                              std::to_string(b_) + " need " + std::to_string(slices) +
                              " slice lengths and " + std::to_string(slices + 1) +
                              " slice offsets");
    auto ends = Kokkos::create_mirror_view_and_copy(
        Kokkos::HostSpace(),
        Kokkos::subview(sets_, Kokkos::make_pair(std::int64_t{0}, std::int64_t{1})));
    auto last = Kokkos::create_mirror_view_and_copy(
        Kokkos::HostSpace(), Kokkos::subview(sets_, Kokkos::make_pair(slices, slices + 1)));
    stored_ = static_cast<std::int64_t>(last(0));
    if (ends(0) != 0 || col_.extent(0) != static_cast<std::size_t>(stored_) ||
        val_.extent(0) != static_cast<std::size_t>(stored_))
      throw invalid_parameter("kobalt::Sellp: slice_sets must start at 0 and col and val "
                              "must hold slice_sets[slices] slots");
    const auto check = detail::check_sellp_layout(exec, sets_, lengths_, col_, rows,
                                                                   cols, b_, t_);
    if (check.bad_row >= 0)
      throw invalid_matrix("kobalt::Sellp: padded row " + std::to_string(check.bad_row) +
                           " (slice " + std::to_string(check.bad_row / b_) +
                           ") breaks the layout: slice length not a multiple of t, offsets "
                           "inconsistent, entry after padding or outside the matrix");
    nnz_ = check.nnz;
    if (order_.extent(0) != 0 &&
        (static_cast<std::int64_t>(order_.extent(0)) != static_cast<std::int64_t>(rows) ||
         !detail::is_permutation(exec, order_)))
      throw invalid_matrix("kobalt::Sellp: row_order must hold a permutation of the " +
                           std::to_string(rows) + " rows");
  }

  /// For conversions: the caller guarantees the layout and passes the
  /// stored slot count and the entry count.
  Sellp(detail::trusted_layout_t, Index rows, Index cols, std::int64_t slice_size,
        std::int64_t stride_factor, index_view slice_sets, index_view slice_lengths,
        index_view col, value_view val, std::int64_t stored, std::int64_t nnz,
        index_view row_order = {})
      : rows_(rows), cols_(cols), b_(slice_size), t_(stride_factor), sets_(slice_sets),
        lengths_(slice_lengths), col_(col), val_(val), order_(row_order), stored_(stored),
        nnz_(nnz) {}

  Index rows() const { return rows_; }  ///< Number of rows.
  Index cols() const { return cols_; }  ///< Number of columns.
  /// Entries of the matrix (padding excluded).
  std::int64_t nnz() const { return nnz_; }
  /// Slots held in memory, padding included (= slice_sets[slices]).
  std::int64_t stored() const { return stored_; }
  /// Bytes of the arrays, padding included.
  std::uint64_t bytes() const {
    return static_cast<std::uint64_t>(stored_) * (sizeof(Index) + sizeof(Value)) +
           static_cast<std::uint64_t>(sets_.extent(0) + lengths_.extent(0) + order_.extent(0)) *
               sizeof(Index);
  }
  /// Rows per slice (b).
  std::int64_t slice_size() const { return b_; }
  /// Slice widths are multiples of this (t).
  std::int64_t stride_factor() const { return t_; }
  /// Slices.
  std::int64_t slices() const { return static_cast<std::int64_t>(lengths_.extent(0)); }

  /// Element offset of each slice's first slot; slices() + 1 entries.
  const index_view& slice_sets() const { return sets_; }
  /// Width (slots per row) of each slice, a multiple of stride_factor().
  const index_view& slice_lengths() const { return lengths_; }
  /// Slot k of local row r of slice s: col_indices()(slice_sets(s) + k * b + r).
  const index_view& col_indices() const { return col_; }
  const value_view& values() const { return val_; }  ///< Value of each slot (0 in padding).
  /// Matrix row held by each stored row (SELL-C-sigma); empty: the identity.
  const index_view& row_order() const { return order_; }

 private:
  Index rows_ = 0, cols_ = 0;
  std::int64_t b_ = 64, t_ = 1;
  index_view sets_, lengths_, col_;
  value_view val_;
  index_view order_;
  std::int64_t stored_ = 0, nnz_ = 0;
};

}  // namespace kobalt
