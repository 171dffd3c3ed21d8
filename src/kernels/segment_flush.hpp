// SPDX-License-Identifier: BSD-3-Clause
// The shared body of the run-and-flush kernels (COO chunks, ALIGNED_COO's
// lanes): one thread walks `count` row-sorted slots at first, first + step,
// ..., sums while the row stays the same and hands each finished run to
// flush(row, sums). Padded walks stop at the first padding slot (column <
// 0; padding is a suffix). The warp-segmented scan of 000 Alg. 1 (the
// skewed-matrix issue) replaces this per-thread walk on GPUs.
#pragma once

#include "common.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kobalt::detail {

template <bool Padded, class RowView, class ColView, class ValView, class XB, class Scalar, int N,
          class Flush>
KOKKOS_INLINE_FUNCTION void segment_flush(const RowView& row, const ColView& col,
                                          const ValView& val, const XB& x, std::int64_t first,
                                          std::int64_t step, std::int64_t count,
                                          Sums<Scalar, N>& sum, const Flush& flush) {
  if (count <= 0) return;
  auto current = row(first);
  bool any = false;
  for (std::int64_t k = 0; k < count; ++k) {
    const std::int64_t slot = first + k * step;
    const auto c = col(slot);
    if constexpr (Padded) {
      if (c < 0) break;
    }
    const auto r = row(slot);
    if (r != current) {
      if (any) flush(current, sum);
      current = r;
      sum = Sums<Scalar, N>();
    }
    any = true;
    x.fma(sum, val(slot), c);
  }
  if (any) flush(current, sum);
}

}  // namespace kobalt::detail
