// SPDX-License-Identifier: BSD-3-Clause
// The run-and-flush walk of ALIGNED_COO's lanes: one thread walks
// row-sorted slots, sums while the row stays the same and hands each
// finished run to flush(row, sums). (COO itself runs 000 Alg. 1's warp
// chunks, kernels/coo_segmented.hpp.)
#pragma once

#include "common.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kobalt::detail {

/// Slots first, first + step, ... (`count` of them) with a padding suffix
/// (ALIGNED_COO's lanes): stops at the first padding slot; a walk that
/// meets only padding flushes nothing.
template <class RowView, class ColView, class ValView, class XB, class Scalar, int N, class Flush>
KOKKOS_INLINE_FUNCTION void segment_flush_padded(const RowView& row, const ColView& col,
                                                 const ValView& val, const XB& x,
                                                 std::int64_t first, std::int64_t step,
                                                 std::int64_t count, Sums<Scalar, N>& sum,
                                                 const Flush& flush) {
  using index_type = typename RowView::non_const_value_type;
  constexpr index_type none = index_type(-1);
  index_type current = none;
  for (std::int64_t s = 0; s < count; ++s) {
    const std::int64_t slot = first + s * step;
    const auto c = col(slot);
    if (c < 0) break;  // padding: the rest of the walk is padding too
    const index_type r = row(slot);
    if (r != current) {
      if (current != none) flush(current, sum);
      current = r;
      sum = Sums<Scalar, N>();
    }
    x.fma(sum, val(slot), c);
  }
  if (current != none) flush(current, sum);
}

}  // namespace kobalt::detail
