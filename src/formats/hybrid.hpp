// SPDX-License-Identifier: BSD-3-Clause
// Hybrid (HYB): Ell + Coo (seed 000 §4, 003 §3.4). The first t entries of
// each row go to the ELL part (width t, stride rows), the rest to a COO
// part sorted by (row, col). How t is chosen (a hybrid::partition such as
// imbalance_limit) is tuning's business (tuning/hybrid_partition.hpp); the
// Hybrid holds the resolved t.
#pragma once

#include "coo.hpp"
#include "ell.hpp"
#include "format_traits.hpp"
#include "../errors.hpp"

#include <cstdint>
#include <string>
#include <utility>

namespace kobalt {

namespace hybrid {
/// The split to_hybrid() makes, concrete (tuning::select resolves a
/// hybrid::partition such as imbalance_limit into this).
struct layout {
  std::int64_t ell_width = 0;    ///< t: entries per row kept in the ELL part, >= 0
  std::uint64_t max_bytes = 0;   ///< largest storage the result may take; 0 = the device's memory
};
}  // namespace hybrid

/// Hybrid (HYB, 000 §4): the first ell_width() entries of each row in an
/// Ell, the rest in a Coo. Built by to_hybrid from a partition
/// (hybrid::automatic by default); runs hybrid::ell_then_coo or
/// hybrid::ell_then_load_balance. See docs/formats.md.
template <class Value, class Index, class Device = default_device>
class Hybrid : public format_types<Value, Index, Device> {
  using types = format_types<Value, Index, Device>;

 public:
  using ell_type = Ell<Value, Index, Device>;  ///< Type of the ELL part.
  using coo_type = Coo<Value, Index, Device>;  ///< Type of the COO part.

  Hybrid() = default;
  /// Takes an ELL part and a COO part of the same shape. Every COO entry of
  /// a row must lie right of that row's ELL entries (000 §4: ELL holds each
  /// row's first t entries), so a row is its ELL entries followed by its COO
  /// entries; ell_width() is the split t. Throws dimension_mismatch if the
  /// parts differ in shape.
  Hybrid(ell_type ell, coo_type coo) : ell_(std::move(ell)), coo_(std::move(coo)) {
    if (ell_.rows() != coo_.rows() || ell_.cols() != coo_.cols())
      throw dimension_mismatch("kobalt::Hybrid: the ELL part is " + std::to_string(ell_.rows()) +
                               " x " + std::to_string(ell_.cols()) + ", the COO part " +
                               std::to_string(coo_.rows()) + " x " +
                               std::to_string(coo_.cols()));
  }

  Index rows() const { return ell_.rows(); }  ///< Number of rows.
  Index cols() const { return ell_.cols(); }  ///< Number of columns.
  std::int64_t nnz() const { return ell_.nnz() + coo_.nnz(); }  ///< Entries of both parts.
  /// ELL slots (padding included) plus COO entries.
  std::int64_t stored() const { return ell_.stored() + coo_.stored(); }
  std::uint64_t bytes() const { return ell_.bytes() + coo_.bytes(); }  ///< Bytes of both parts.

  const ell_type& ell() const { return ell_; }  ///< The ELL part.
  const coo_type& coo() const { return coo_; }  ///< The COO part.
  /// The resolved t: slots per row of the ELL part.
  std::int64_t ell_width() const { return ell_.stored_per_row(); }

 private:
  ell_type ell_;
  coo_type coo_;
};

}  // namespace kobalt
