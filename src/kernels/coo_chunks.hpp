// SPDX-License-Identifier: BSD-3-Clause
// COO "load_balance": 000 §3.2.1 Alg. 1's equal chunks of entries per warp,
// with beta applied and split rows combined in chunk order instead of
// atomics (the chunk kernel of entry_chunks.hpp): one launch per apply, no
// pre-scaled y, the same bits on every run. The row of an entry is read
// from the row indices. Chunk c owns the rows after the row of its first
// entry's predecessor up to the row of its last entry (the first chunk also
// the rows before the first entry, the last chunk those after the last
// entry); of those, the rows that have no entry in the chunk are empty.
#pragma once

#include "common.hpp"
#include "entry_chunks.hpp"
#include "../formats/coo.hpp"
#include "../tuning/policy.hpp"

#include <cstdint>
#include <string>

namespace kobalt::detail {

/// entry_chunks' row source for a row-sorted COO.
template <class IndexView>
struct CooRowIndices {
  using index_type = typename IndexView::non_const_value_type;
  struct Cursor {};

  IndexView row;
  std::int64_t nnz, rows;

  /// The first entry in [lo, hi) whose row is >= r (hi if none).
  KOKKOS_INLINE_FUNCTION std::int64_t lower_bound(index_type r, std::int64_t lo,
                                                  std::int64_t hi) const {
    while (lo < hi) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      if (row(mid) < r) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  KOKKOS_INLINE_FUNCTION OwnedRows<index_type> owned(std::int64_t, std::int64_t first,
                                                      std::int64_t last) const {
    const index_type begin = first == 0 ? index_type(0) : index_type(row(first - 1) + 1);
    const index_type end =
        last == nnz ? static_cast<index_type>(rows) : index_type(row(last - 1) + 1);
    return {begin, end};
  }
  KOKKOS_INLINE_FUNCTION bool is_empty(index_type r, std::int64_t first, std::int64_t last) const {
    const std::int64_t e = lower_bound(r, first, last);
    return e == last || row(e) != r;
  }
  KOKKOS_INLINE_FUNCTION Cursor start(std::int64_t, index_type) const { return {}; }
  KOKKOS_INLINE_FUNCTION index_type row_of(Cursor&, std::int64_t k) const { return row(k); }
  KOKKOS_INLINE_FUNCTION bool ends_by(const Cursor&, index_type r, std::int64_t e) const {
    return e >= nnz || row(e) != r;
  }
  KOKKOS_INLINE_FUNCTION bool started_before(const Cursor&, index_type r,
                                             std::int64_t first) const {
    return first > 0 && row(first - 1) == r;
  }
  /// Only split rows ask (at most two per chunk): two searches over all entries.
  KOKKOS_INLINE_FUNCTION RowSpan span(const Cursor&, index_type r) const {
    return {lower_bound(r, 0, nnz), lower_bound(r + 1, 0, nnz)};
  }
};

/// The parts of a Coo for chunks of `chunk` entries, on `exec`; one pass
/// over the row indices finds whether some row has no entries.
template <class ExecutionSpace, class Value, class Index, class Device>
ChunkParts<typename Device::memory_space> make_coo_chunks(const ExecutionSpace& exec,
                                                          const Coo<Value, Index, Device>& a,
                                                          std::int64_t chunk) {
  const auto row = a.row_indices();
  const std::int64_t nnz = a.nnz();
  std::int64_t distinct = 0;
  Kokkos::parallel_reduce(
      "kobalt::coo_distinct_rows", Kokkos::RangePolicy<ExecutionSpace>(exec, 0, nnz),
      KOKKOS_LAMBDA(const std::int64_t k, std::int64_t& n) {
        if (k == 0 || row(k) != row(k - 1)) ++n;
      },
      distinct);
  const bool empty_rows = distinct < static_cast<std::int64_t>(a.rows());
  return make_chunk_parts<typename Device::memory_space>(exec, nnz, chunk, empty_rows);
}

/// y = alpha*A*x + beta*y for a Coo with the parts `p` (made by
/// make_coo_chunks with s.entries_per_thread * s.vector_length entries per
/// chunk).
template <class ExecutionSpace, class Value, class Index, class Device, class XView, class YView>
void coo_chunks(const ExecutionSpace& exec, const tuning::LaunchShape& s,
                const std::string& label, typename YView::non_const_value_type alpha,
                const Coo<Value, Index, Device>& a, const XView& x,
                typename YView::non_const_value_type beta, const YView& y,
                const ChunkParts<typename Device::memory_space>& p) {
  using index_view = typename Coo<Value, Index, Device>::index_view;
  entry_chunks(exec, s, label, alpha,
               CooRowIndices<index_view>{a.row_indices(), a.nnz(), a.rows()}, a.col_indices(),
               a.values(), x, beta, y, p);
}

}  // namespace kobalt::detail
