// SPDX-License-Identifier: BSD-3-Clause
// The shared row body of the row kernels (CSR, ELL, SELL-P, CSR-k): the
// vector lanes of one team thread split a row's slots and their partial
// sums are reduced over the lanes.
//
// A row is `count` slots at first, first + step, first + 2*step, ... (CSR:
// step 1; ELL: step = stride; SELL-P: step = slice size). Lane l of L takes
// slots l, l + L, ... so consecutive lanes read consecutive slots of CSR and
// the same slot column of consecutive rows in ELL/SELL-P. Padded formats
// stop a lane at its first padding slot (column < 0): a row's padding
// follows its entries (000 Alg. 3 lines 6-7).
#pragma once

#include "common.hpp"

#include <Kokkos_Core.hpp>

namespace kobalt::detail {

template <bool Padded, class Offset, class Member, class ColView, class ValView, class XB,
          class Scalar, int N>
KOKKOS_INLINE_FUNCTION void row_reduce(const Member& team, int lanes, const ColView& col,
                                       const ValView& val, const XB& x, Offset first, Offset step,
                                       Offset count, Sums<Scalar, N>& result) {
  if constexpr (N == 1) {
    Scalar sum = 0;
    Kokkos::parallel_reduce(
        Kokkos::ThreadVectorRange(team, lanes),
        [&](const int lane, Scalar& partial) {
          for (Offset k = lane; k < count; k += lanes) {
            const Offset slot = first + k * step;
            const auto c = col(slot);
            if constexpr (Padded) {
              if (c < 0) break;
            }
            partial += Scalar(val(slot)) * Scalar(x.x(c));
          }
        },
        sum);
    result.v[0] = sum;
  } else {
    Kokkos::parallel_reduce(
        Kokkos::ThreadVectorRange(team, lanes),
        [&](const int lane, Sums<Scalar, N>& partial) {
          for (Offset k = lane; k < count; k += lanes) {
            const Offset slot = first + k * step;
            const auto c = col(slot);
            if constexpr (Padded) {
              if (c < 0) break;
            }
            x.fma(partial, val(slot), c);
          }
        },
        Kokkos::Sum<Sums<Scalar, N>>(result));
  }
}

}  // namespace kobalt::detail
