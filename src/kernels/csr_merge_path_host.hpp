// SPDX-License-Identifier: BSD-3-Clause
// CSR merge_path on hosts (lane width 1): each thread walks one tile of the
// merge path itself, as in Merrill & Garland's CPU algorithm (SC'16 §4.1),
// instead of staging products in team scratch as the GPU tile kernel
// (csr_merge_path.hpp) does. The tiles are the handle's: on hosts the
// selector makes one per thread, or host_tiles_per_thread per thread for a
// matrix beyond the last-level cache (equal shares of rows + nonzeros, found
// by one merge-path search each, once; more tiles than threads are handed
// out dynamically: equal work is not equal time). Then the calling thread
// adds the carries of rows split between tiles, in tile order
// (merge_walk_fixup): no atomics, the same bits on every run, and one
// parallel launch per apply instead of the GPU form's two.
//
// A row ending in the tile is summed by a loop over its nonzeros with four
// independent partial sums (a fixed order, so results stay bitwise
// reproducible; the compiler may keep the four in one SIMD register and
// gather x). Rank-2 blocks sum one entry into all N columns.
#pragma once

#include "common.hpp"
#include "../arch/arch.hpp"

#include <cstdint>

namespace kobalt::detail {

/// sum += the products of the nonzeros [k, end) of one row.
template <class IndexView, class ValueView, class XB, class Scalar, int N>
KOKKOS_INLINE_FUNCTION void walk_row_part(const IndexView& col, const ValueView& val,
                                          const XB& x, std::int64_t k, std::int64_t end,
                                          Sums<Scalar, N>& sum) {
  // The value and index streams run ahead (arch::prefetch_ahead): once per
  // row and once per 4 entries of long rows.
  arch::prefetch_ahead(val.data() + k);
  arch::prefetch_ahead(col.data() + k);
  if constexpr (N == 1) {
    // Four chains: a single running sum is one dependent FMA per nonzero.
    Scalar s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (; k + 4 <= end; k += 4) {
      arch::prefetch_ahead(val.data() + k + 4);
      arch::prefetch_ahead(col.data() + k + 4);
      s0 += Scalar(val(k)) * Scalar(x.x(col(k)));
      s1 += Scalar(val(k + 1)) * Scalar(x.x(col(k + 1)));
      s2 += Scalar(val(k + 2)) * Scalar(x.x(col(k + 2)));
      s3 += Scalar(val(k + 3)) * Scalar(x.x(col(k + 3)));
    }
    for (; k < end; ++k) s0 += Scalar(val(k)) * Scalar(x.x(col(k)));
    sum.v[0] += (s0 + s1) + (s2 + s3);
  } else {
    for (; k < end; ++k) x.fma(sum, val(k), col(k));
  }
}

template <class OffsetView, class IndexView, class ValueView, class XB, class YB, bool HasBeta>
struct CsrMergeWalkFunctor {
  using scalar = typename YB::scalar;
  static constexpr int N = XB::count_max;

  OffsetView row_ptr;
  IndexView col;
  ValueView val;
  XB x;
  YB y;
  scalar alpha, beta;
  const std::int64_t* tile_row;  // raw: the handle's CsrMergePath owns them
  widest_t<scalar>* carries;
  std::int64_t rows, nnz, tile;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t t) const {
    const std::int64_t items = rows + nnz;
    const std::int64_t d0 = t * tile;
    const std::int64_t d1 = d0 + tile < items ? d0 + tile : items;
    const std::int64_t r0 = tile_row[t], r1 = tile_row[t + 1];
    std::int64_t k = d0 - r0;  // the tile's first nonzero
    // Rows r0 .. r1 - 1 end in this tile. Row r0 may have begun in earlier
    // tiles: its store holds this tile's part, the fixup adds theirs.
    for (std::int64_t r = r0; r < r1; ++r) {
      const std::int64_t end = static_cast<std::int64_t>(row_ptr(r + 1));
      Sums<scalar, N> sum;
      walk_row_part(col, val, x, k, end, sum);
      k = end;
      y.template store<HasBeta>(r, alpha, sum, beta);
    }
    // Row r1 stays open: its nonzeros up to the tile's end are the carry.
    Sums<scalar, N> open;
    walk_row_part(col, val, x, k, d1 - r1, open);
    for (int j = 0; j < N; ++j)
      carries[t * rhs_block + j] = static_cast<widest_t<scalar>>(open.v[j]);
  }
};

/// The fixup on hosts, by the calling thread once the walk has finished: for
/// each row left open by a run of tiles t..run_last(t) (all ending in that
/// row), y_row += alpha * (carries t..run_last(t)), summed in tile order.
/// One pass over the tiles (a few hundred at most, tuning/select_csr.hpp) costs
/// far less than a second parallel launch, which made small matrices' calls
/// twice as slow (docs/sources.md: "host_tiles_per_thread").
template <class YB>
void merge_walk_fixup(const YB& y, typename YB::scalar alpha, const std::int64_t* tile_row,
                      const std::int64_t* run_last,
                      const widest_t<typename YB::scalar>* carries, std::int64_t rows,
                      std::int64_t tiles) {
  using scalar = typename YB::scalar;
  constexpr int N = YB::count_max;
  for (std::int64_t t = 0; t < tiles;) {
    const std::int64_t r = tile_row[t + 1];  // the row tile t leaves open
    const std::int64_t last = r < rows ? run_last[t] : t;
    if (r < rows) {
      Sums<scalar, N> total;
      for (std::int64_t tt = t; tt <= last; ++tt)
        for (int j = 0; j < N; ++j) total.v[j] += static_cast<scalar>(carries[tt * rhs_block + j]);
      y.add(r, alpha, total);
    }
    t = last + 1;  // the next run's first tile
  }
}

}  // namespace kobalt::detail
