// SPDX-License-Identifier: BSD-3-Clause
// AlignedCoo: ALIGNED_COO of seed 004 (§IV-A/B/D, Fig. 1-4), with the
// corrections listed in docs/sources.md. Two parts:
//
// - seg part: num_seg segments of seg_size lanes, stored segment-major
//   (slot (segment s, lane l) at s*seg_size + l; arrays row/col/val), so the
//   lanes of one segment are contiguous (coalesced, 004 §IV-A). Rows are
//   packed whole and in row order into lanes (004 Fig. 1-2): a row occupies
//   consecutive segments of ONE lane, short rows follow each other in the same
//   lane. Hence every segment holds at most one entry per row ("alignment"),
//   and each row lives in exactly one lane. Within a row, entries are in
//   column order.
// - flat part: a Coo, sorted by (row, col), holding whole-flat_unit parts of
//   rows (004 §IV-D, Alg. 3: rl = trail + flat, trail = rl mod WARP_SIZE).
//
// Split of a row of length rl between the parts: its FIRST rl - trail
// entries (column order) go to the flat part, the LAST trail entries to the
// seg part, so a row of the Csr is flat part ++ seg part and to_csr is a
// per-row concatenation.
//
// Padding (race-free by construction; 004's "a row that does not occur in the
// segment" padding is racy on GPUs without lockstep, see docs/sources.md): padding
// slots are a suffix of each lane. A padding slot has col = padding_index
// (-1), value 0, and the row of its own lane's last entry (lane-local), or
// padding_index when the lane holds no entry. Kernels stop a lane at its first
// padding slot, so padding never reads x nor writes y; were it ever written,
// the lane-local row would still keep the write inside the lane.
//
// Column indices are kept: 004 §IV-C's replacement of J by x[J] makes the
// matrix depend on x and is not implemented (docs/sources.md).
#pragma once

#include "../range.hpp"
#include "coo.hpp"
#include "format_traits.hpp"
#include "../errors.hpp"

#include <cstdint>
#include <string>

namespace kobalt {

namespace aligned_coo {
/// How the entries of each row are divided between the seg and flat parts.
enum class split {
  automatic,  ///< the cheapest of the three below by 004's cost model (Alg. 3 as an argmin)
  hybrid,     ///< first rl - (rl mod flat_unit) entries -> flat part, the rest -> seg part
  all_seg,    ///< every entry in the seg part (no flat part)
  all_flat,   ///< every entry in the flat part (no seg part)
};

/// The split's name ("hybrid").
inline const char* name(split s) {
  switch (s) {
    case split::automatic: return "automatic";
    case split::hybrid: return "hybrid";
    case split::all_seg: return "all_seg";
    case split::all_flat: return "all_flat";
  }
  return "invalid";
}
}  // namespace aligned_coo

namespace detail {
/// Adds one per slot of `col` that holds an entry (not padding).
template <class IndexView>
struct AlignedCooCountEntriesFunctor {
  using value_type = std::int64_t;
  IndexView col;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t k, std::int64_t& c) const {
    if (col(k) != padding_index<typename IndexView::non_const_value_type>) ++c;
  }
};

/// Non-padding slots of a seg part.
template <class ExecutionSpace, class IndexView>
std::int64_t count_non_padding(const ExecutionSpace& exec, const IndexView& col) {
  std::int64_t result = 0;
  const std::int64_t n = static_cast<std::int64_t>(col.extent(0));
  if (n == 0) return 0;
  Kokkos::parallel_reduce(
      "kobalt::aligned_coo::count", range_policy<ExecutionSpace>(exec, 0, n),
      AlignedCooCountEntriesFunctor<IndexView>{col}, result);
  return result;
}
}  // namespace detail

/// ALIGNED_COO (004): a seg part of num_segments() segments of seg_size()
/// lanes, stored segment-major, each row whole in one lane (so plain stores,
/// no atomics), plus a flat Coo part with each row's multiple of flat_unit()
/// entries. Built by to_aligned_coo; runs aligned_coo::seg_then_flat or
/// aligned_coo::flat_then_seg. The corrections to the paper are listed in
/// docs/sources.md; see also docs/formats.md.
template <class Value, class Index, class Device = default_device>
class AlignedCoo : public format_types<Value, Index, Device> {
  using types = format_types<Value, Index, Device>;

 public:
  using typename types::execution_space;  ///< Where the kernels run.
  using typename types::index_view;  ///< An array of indices.
  using typename types::value_view;  ///< An array of values.
  using flat_type = Coo<Value, Index, Device>;  ///< Type of the flat part.

  AlignedCoo() = default;
  /// Takes ownership of a seg part (seg_size * num_seg slots each, laid out
  /// and padded as the file comment says) and a flat part; `split` is the
  /// split that produced them (never automatic), `flat_unit` the unit of the
  /// hybrid split. Throws invalid_matrix if the extents do not match.
  AlignedCoo(Index rows, Index cols, Index seg_size, Index num_seg, index_view seg_row,
             index_view seg_col, value_view seg_val, flat_type flat, aligned_coo::split split,
             int flat_unit)
      : AlignedCoo(execution_space(), rows, cols, seg_size, num_seg, seg_row, seg_col, seg_val, flat, split, flat_unit) {}
  /// The same, counting the seg entries on the execution space instance `exec`.
  template <class ExecutionSpace>
  AlignedCoo(const ExecutionSpace& exec, Index rows, Index cols, Index seg_size, Index num_seg, index_view seg_row,
             index_view seg_col, value_view seg_val, flat_type flat, aligned_coo::split split,
             int flat_unit)
      : rows_(rows), cols_(cols), seg_size_(seg_size), num_seg_(num_seg), seg_row_(seg_row),
        seg_col_(seg_col), seg_val_(seg_val), flat_(flat), split_(split),
        flat_unit_(flat_unit) {
    const std::int64_t slots = static_cast<std::int64_t>(seg_size) * num_seg;
    if (seg_size < 0 || num_seg < 0 || static_cast<std::int64_t>(seg_row.extent(0)) != slots ||
        static_cast<std::int64_t>(seg_col.extent(0)) != slots ||
        static_cast<std::int64_t>(seg_val.extent(0)) != slots)
      throw invalid_matrix("AlignedCoo: seg arrays must hold seg_size * num_seg = " +
                           std::to_string(slots) + " slots");
    if (flat.rows() != rows || flat.cols() != cols)
      throw invalid_matrix("AlignedCoo: the flat part's shape differs from the matrix's");
    seg_nnz_ = detail::count_non_padding(exec, seg_col);
  }

  Index rows() const { return rows_; }  ///< Number of rows.
  Index cols() const { return cols_; }  ///< Number of columns.
  /// Matrix entries (explicit zeros included, padding excluded).
  std::int64_t nnz() const { return seg_nnz_ + flat_.nnz(); }
  /// Entries held in memory: all seg slots (padding included) + flat entries.
  std::int64_t stored() const {
    return static_cast<std::int64_t>(seg_size_) * num_seg_ + flat_.stored();
  }
  /// Bytes of both parts, padding included.
  std::uint64_t bytes() const {
    return static_cast<std::uint64_t>(stored()) * (2 * sizeof(Index) + sizeof(Value));
  }

  /// Lanes per segment (004's Seg_size); 0 when the seg part is empty.
  Index seg_size() const { return seg_size_; }
  /// Segments (004's Num_of_seg): the capacity of one lane.
  Index num_segments() const { return num_seg_; }
  /// Entries in the seg part (padding excluded).
  std::int64_t seg_nnz() const { return seg_nnz_; }
  /// Seg part, slot (segment s, lane l) at s * seg_size() + l: row of each
  /// slot (the lane's own row in padding, or -1 in an empty lane).
  const index_view& seg_row_indices() const { return seg_row_; }
  /// Column of each seg slot (-1 = padding).
  const index_view& seg_col_indices() const { return seg_col_; }
  /// Value of each seg slot (0 in padding).
  const value_view& seg_values() const { return seg_val_; }
  /// The flat part: whole-flat_unit parts of rows, sorted by (row, col).
  const flat_type& flat() const { return flat_; }
  /// The split that was used (automatic has been resolved).
  aligned_coo::split split() const { return split_; }
  int flat_unit() const { return flat_unit_; }  ///< Unit of the hybrid split (32 by default).

 private:
  Index rows_ = 0, cols_ = 0, seg_size_ = 0, num_seg_ = 0;
  index_view seg_row_, seg_col_;
  value_view seg_val_;
  flat_type flat_;
  aligned_coo::split split_ = aligned_coo::split::all_seg;
  int flat_unit_ = 32;
  std::int64_t seg_nnz_ = 0;
};

}  // namespace kobalt
