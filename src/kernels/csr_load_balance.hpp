// SPDX-License-Identifier: BSD-3-Clause
// CSR "load_balance" (000 §3.3's CSR-I: COO-like nonzero chunks over CSR),
// deterministic and in one launch: the chunk kernel of
// load_balance_chunks.hpp with rows found by walking the row pointer. Each
// lane walks forward from the row of its previous entry; the chunk's first
// row comes from a search done once, in the handle (csr_chunk_rows), which
// also says which rows each chunk owns (the rows whose row-pointer value
// lies in the chunk).
#pragma once

#include "../range.hpp"
#include "common.hpp"
#include "strategy_kernel.hpp"
#include "load_balance_chunks.hpp"
#include "../arch/arch.hpp"
#include "../errors.hpp"
#include "../formats/csr.hpp"
#include "../tuning/policy.hpp"

#include <cstdint>
#include <string>

namespace kobalt::detail {

/// What the CSR chunk kernel keeps between applies (in the handle): the
/// parts of split rows, and first_row(c), c = 0..chunks: the first row whose
/// row-pointer value lies in chunk c (rows for c = chunks), so chunk c owns
/// rows [first_row(c), first_row(c + 1)).
template <class MemorySpace, class Part>
struct CsrLoadBalance {
  Kokkos::View<std::int64_t*, MemorySpace> first_row;
  ChunkParts<MemorySpace, Part> parts;

  std::int64_t chunks() const { return parts.chunks; }
  std::size_t bytes() const { return first_row.extent(0) * sizeof(std::int64_t) + parts.bytes(); }
};

/// Counts the rows r with row_ptr(r) == row_ptr(r + 1) (no entry).
template <class RowPtr>
struct CsrEmptyRowsFunctor {
  using value_type = std::int64_t;
  RowPtr row_ptr;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t r, std::int64_t& n) const {
    if (row_ptr(r) == row_ptr(r + 1)) ++n;
  }
};

/// first_row(c): the first row whose row-pointer value lies in chunk c
/// (rows for c = chunks), by a binary search in the row pointer.
template <class RowPtr, class FirstRows>
struct CsrChunkRowsFunctor {
  RowPtr row_ptr;
  FirstRows first_row;
  std::int64_t rows, chunks, chunk;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t c) const {
    if (c == 0 || c == chunks) {
      first_row(c) = c == 0 ? 0 : rows;
      return;
    }
    // lower_bound: the first r with row_ptr(r) >= c * chunk.
    const std::int64_t target = c * chunk;
    std::int64_t lo = 0, hi = rows;
    while (lo < hi) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      if (static_cast<std::int64_t>(row_ptr(mid)) < target) lo = mid + 1;
      else hi = mid;
    }
    first_row(c) = lo;
  }
};

/// The chunk partition of a Csr for chunks of `chunk` entries: one binary
/// search in the row pointer per chunk, on `exec`.
template <class ExecutionSpace, class Value, class Index, class Device, class Offset>
CsrLoadBalance<typename Device::memory_space, widest_t<Value>> make_csr_load_balance(
    const ExecutionSpace& exec, const Csr<Value, Index, Device, Offset>& a, std::int64_t chunk) {
  using memory_space = typename Device::memory_space;
  using row_ptr_view = typename Csr<Value, Index, Device, Offset>::row_ptr_view;
  const auto row_ptr = a.row_ptr();
  const std::int64_t rows = a.rows();
  std::int64_t empty = 0;
  Kokkos::parallel_reduce(
      "kobalt::csr_empty_rows", range_policy<ExecutionSpace>(exec, 0, rows),
      CsrEmptyRowsFunctor<row_ptr_view>{row_ptr}, empty);
  CsrLoadBalance<memory_space, widest_t<Value>> p;
  p.parts = make_chunk_parts<memory_space, widest_t<Value>>(exec, a.nnz(), chunk, empty > 0);
  const std::int64_t chunks = p.parts.chunks;
  if (chunks == 0) return p;
  p.first_row = Kokkos::View<std::int64_t*, memory_space>(
      compat::uninitialized(exec, "kobalt::chunk_rows"), chunks + 1);
  const auto first_row = p.first_row;
  Kokkos::parallel_for(
      "kobalt::csr_chunk_rows", range_policy<ExecutionSpace>(exec, 0, chunks + 1),
      CsrChunkRowsFunctor<row_ptr_view, decltype(p.first_row)>{row_ptr, first_row, rows, chunks,
                                                                chunk});
  return p;
}

/// load_balance_chunks' row source for a Csr: a lane walks the row pointer forward
/// from the row of its previous entry (skipping empty rows). Rows are
/// counted in Index, the offsets read as int64 (they may be unsigned).
template <class OffsetView, class Index>
struct CsrRowWalk {
  using index_type = Index;
  struct Cursor {
    index_type r;
    std::int64_t start, end;  // the entries of row r
  };

  OffsetView row_ptr;
  const std::int64_t* first_row;  // the handle's CsrLoadBalance::first_row

  /// Chunk c owns rows [first_row[c], first_row[c + 1]) and scales the empty ones.
  template <int W, class F>
  KOKKOS_INLINE_FUNCTION void for_each_empty(std::int64_t c, std::int64_t, std::int64_t,
                                             int lane, const F& f) const {
    const index_type end = static_cast<index_type>(first_row[c + 1]);
    for (index_type r = static_cast<index_type>(first_row[c]) + lane; r < end; r += W)
      if (row_ptr(r) == row_ptr(r + 1)) f(r);
  }
  /// The row holding entry `first`: the chunk's first owned row, or the row
  /// before it when that one started in an earlier chunk.
  KOKKOS_INLINE_FUNCTION Cursor start(std::int64_t c, std::int64_t first, int) const {
    index_type r = static_cast<index_type>(first_row[c]);
    if (static_cast<std::int64_t>(row_ptr(r)) > first) --r;
    return {r, static_cast<std::int64_t>(row_ptr(r)), static_cast<std::int64_t>(row_ptr(r + 1))};
  }
  KOKKOS_INLINE_FUNCTION index_type row_of(Cursor& at, std::int64_t k) const {
    while (at.end <= k) {  // walk to the row of entry k (skips empty rows)
      ++at.r;
      at.start = at.end;
      at.end = static_cast<std::int64_t>(row_ptr(at.r + 1));
    }
    return at.r;
  }
  KOKKOS_INLINE_FUNCTION bool next_ends(Cursor& at, index_type, std::int64_t e) const {
    return at.end <= e;
  }
  KOKKOS_INLINE_FUNCTION bool ends_by(const Cursor& at, index_type, std::int64_t e) const {
    return at.end <= e;
  }
  KOKKOS_INLINE_FUNCTION bool started_before(const Cursor& at, index_type,
                                             std::int64_t first) const {
    return at.start < first;
  }
  KOKKOS_INLINE_FUNCTION RowSpan span(const Cursor& at, index_type, std::int64_t) const {
    return {at.start, at.end};
  }
};

/// y = alpha*A*x + beta*y for a Csr with the chunk partition `p` (made by
/// make_csr_load_balance with s.entries_per_thread * s.vector_length entries per
/// chunk).
template <class ExecutionSpace, class Value, class Index, class Device, class Offset, class XView,
          class YView>
void csr_load_balance(const ExecutionSpace& exec, const tuning::LaunchShape& s,
                const std::string& label, typename YView::non_const_value_type alpha,
                const Csr<Value, Index, Device, Offset>& a, const XView& x,
                typename YView::non_const_value_type beta, const YView& y,
                const CsrLoadBalance<typename Device::memory_space, widest_t<Value>>& p) {
  using row_ptr_view = typename Csr<Value, Index, Device, Offset>::row_ptr_view;
  load_balance_chunks(exec, s, label, alpha,
               CsrRowWalk<row_ptr_view, Index>{a.row_ptr(), p.first_row.data()},
               a.col_indices(), a.values(), x, beta, y, p.parts);
}

/// csr::load_balance: the handle keeps the chunk partition.
template <>
struct strategy_kernel<csr::load_balance> {
  /// Partition and partial sums.
  template <class Matrix>
  using workspace = CsrLoadBalance<typename Matrix::memory_space, workspace_scalar<Matrix>>;
  /// Chunks of the policy's launch length.
  template <class E, class Matrix>
  static workspace<Matrix> make_workspace(const E& exec, const Matrix& a,
                                          const tuning::SpmvPolicy& policy) {
    return make_csr_load_balance(exec, a, chunk_entries(policy.launches.at(0)));
  }
  /// One launch.
  template <class E, class V, class I, class D, class O, class X, class Y, class W>
  static void run(const E& exec, const tuning::SpmvPolicy& p, const W& workspace,
                  typename Y::non_const_value_type alpha, const Csr<V, I, D, O>& a, const X& x,
                  typename Y::non_const_value_type beta, const Y& y) {
    static const std::string load_balance_label = kernel_label("csr", "load_balance");
    csr_load_balance(exec, p.launches.at(0), load_balance_label, alpha, a, x,
                     beta, y, workspace);
  }
};

}  // namespace kobalt::detail
