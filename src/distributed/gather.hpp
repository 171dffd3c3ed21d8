// SPDX-License-Identifier: BSD-3-Clause
// out(i) = in(index(i)) on an execution-space instance: packs the x entries a
// halo sends, and refreshes the blocks' values from the local Csr's; and
// out(index(i)) += in(i), which adds a compressed off-diagonal product to y.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kobalt::distributed::detail {

/// One entry of a gather.
template <class Out, class In, class Index>
struct GatherFunctor {
  Out out;
  In in;
  Index index;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const { out(i) = in(index(i)); }
};

/// out(i) = in(index(i)) for every i of out, on `exec`, launched as `label`.
template <class ExecutionSpace, class Out, class In, class Index>
void gather(const ExecutionSpace& exec, const char* label, const Out& out, const In& in,
            const Index& index) {
  const auto n = static_cast<std::int64_t>(out.extent(0));
  if (n == 0) return;
  Kokkos::parallel_for(label,
                       Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, n),
                       GatherFunctor<Out, In, Index>{out, in, index});
}

/// One entry of a scatter-add.
template <class Out, class In, class Index>
struct ScatterAddFunctor {
  Out out;
  In in;
  Index index;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const { out(index(i)) += in(i); }
};

/// out(index(i)) += in(i) for every i of in, on `exec`; the indices must be
/// distinct (no atomics).
template <class ExecutionSpace, class Out, class In, class Index>
void scatter_add(const ExecutionSpace& exec, const char* label, const Out& out, const In& in,
                 const Index& index) {
  const auto n = static_cast<std::int64_t>(in.extent(0));
  if (n == 0) return;
  Kokkos::parallel_for(label,
                       Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, n),
                       ScatterAddFunctor<Out, In, Index>{out, in, index});
}

}  // namespace kobalt::distributed::detail
