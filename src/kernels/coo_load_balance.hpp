// SPDX-License-Identifier: BSD-3-Clause
// COO "load_balance": 000 §3.2.1 Alg. 1's equal chunks of entries per warp,
// with beta applied and split rows combined in chunk order instead of
// atomics (the chunk kernel of load_balance_chunks.hpp; on GPUs the team
// tiles of coo_tiles.hpp over the same workspace): one launch per
// apply, no pre-scaled y, the same bits on every run. Also the COO part of
// Hybrid ell_then_load_balance and the flat part of ALIGNED_COO
// flat_then_seg. The row of an entry is read from the row indices. The rows
// without entries are listed once, in the handle, and chunk c scales the
// c-th equal share of that list: owning them by entry position (as CSR
// load_balance does) gave one chunk every row after the last entry, 2M rows
// for ALIGNED_COO's flat part of arrow:2000000, whose flat entries all lie
// in row 0 (docs/sources.md: "COO load_balance's rows").
#pragma once

#include "../range.hpp"
#include "common.hpp"
#include "strategy_kernel.hpp"
#include "coo_tiles.hpp"
#include "load_balance_chunks.hpp"
#include "../formats/coo.hpp"
#include "../tuning/policy.hpp"

#include <cstdint>
#include <string>

namespace kobalt::detail {

/// load_balance_chunks' row source for a row-sorted COO.
template <class IndexView>
struct CooRowIndices {
  using index_type = typename IndexView::non_const_value_type;
  /// The row of the lane's next entry (read ahead, as Alg. 1's `next`) and
  /// the row of the entry before the chunk: re-reading them from L2 every
  /// window multiplied this kernel's instructions (docs/sources.md).
  struct Cursor {
    index_type next, before_first;
  };

  IndexView row;
  const index_type* empty;  // the rows without entries, increasing (the handle's list)
  std::int64_t nnz, empty_count, chunks;

  template <int W, class F>
  KOKKOS_INLINE_FUNCTION void for_each_empty(std::int64_t c, std::int64_t, std::int64_t,
                                             int lane, const F& f) const {
    const std::int64_t begin = c * empty_count / chunks, end = (c + 1) * empty_count / chunks;
    for (std::int64_t i = begin + lane; i < end; i += W) f(empty[i]);
  }
  KOKKOS_INLINE_FUNCTION Cursor start(std::int64_t, std::int64_t first, int lane) const {
    const std::int64_t k = first + lane;
    return {k < nnz ? row(k) : index_type(-1), first > 0 ? row(first - 1) : index_type(-1)};
  }
  KOKKOS_INLINE_FUNCTION index_type row_of(Cursor& at, std::int64_t) const { return at.next; }
  KOKKOS_INLINE_FUNCTION bool next_ends(Cursor& at, index_type r, std::int64_t e) const {
    if (e >= nnz) return true;
    at.next = row(e);
    return at.next != r;
  }
  KOKKOS_INLINE_FUNCTION bool ends_by(const Cursor&, index_type r, std::int64_t e) const {
    return e >= nnz || row(e) != r;
  }
  KOKKOS_INLINE_FUNCTION bool started_before(const Cursor& at, index_type r,
                                             std::int64_t) const {
    return at.before_first == r;
  }
  /// Only split rows ask (at most two per chunk). Galloping from entry k
  /// (1, 2, 4, ... entries away, then bisection) reads near k: a bisection
  /// over all entries cost two chains of ~26 dependent DRAM loads per chunk
  /// and made the kernel far slower than Alg. 1 with atomics (docs/sources.md).
  KOKKOS_INLINE_FUNCTION RowSpan span(const Cursor&, index_type r, std::int64_t k) const {
    return {edge(r, k, -1) + 1, edge(r, k, 1)};
  }
  /// The nearest entry from k in direction dir (-1 or 1) that is not in row
  /// r (row(k) == r): -1 or nnz past the ends.
  KOKKOS_INLINE_FUNCTION std::int64_t edge(index_type r, std::int64_t k, int dir) const {
    std::int64_t in = k, step = 1, out;
    while (true) {
      out = in + dir * step;
      if (out < 0 || out >= nnz) {
        out = out < 0 ? -1 : nnz;
        break;
      }
      if (row(out) != r) break;
      in = out;
      step *= 2;
    }
    while (out - in > 1 || in - out > 1) {  // row(in) == r, out is not in row r
      const std::int64_t mid = in + (out - in) / 2;
      if (row(mid) == r) in = mid;
      else out = mid;
    }
    return out;
  }
};

/// What COO load_balance keeps in the handle: the split rows' parts, the
/// rows without entries, and for team tiles (LaunchForm::team_tiles) per
/// chunk c the first chunk of the row its first entry lies in (2c) and the
/// last chunk of the row its last entry lies in (2c + 1), which they read
/// instead of searching (empty for the other forms, which do not).
template <class Index, class MemorySpace, class Part>
struct CooLoadBalance {
  ChunkParts<MemorySpace, Part> parts;
  Kokkos::View<Index*, MemorySpace> empty;
  Kokkos::View<std::int64_t*, MemorySpace> border_chunks;

  std::size_t bytes() const {
    return parts.bytes() + empty.extent(0) * sizeof(Index) +
           border_chunks.extent(0) * sizeof(std::int64_t);
  }
};

/// border_chunks (above) of chunk c, from the row indices.
template <class IndexView, class OutView>
struct CooBorderChunksFunctor {
  CooRowIndices<IndexView> rows;
  OutView out;
  std::int64_t chunk;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t c) const {
    const std::int64_t first = c * chunk;
    const std::int64_t last = (first + chunk < rows.nnz ? first + chunk : rows.nnz) - 1;
    out(2 * c) = (rows.edge(rows.row(first), first, -1) + 1) / chunk;
    out(2 * c + 1) = (rows.edge(rows.row(last), last, 1) - 1) / chunk;
  }
};

/// has(row(k)) = 1 where entry k is the first of its row's run.
template <class RowView, class HasView>
struct CooRowsWithEntriesFunctor {
  RowView row;
  HasView has;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t k) const {
    if (k == 0 || row(k) != row(k - 1)) has(row(k)) = 1;
  }
};

/// The chunks of a Coo of `chunk` entries, on `exec`: the parts, the rows
/// without entries (a count per row and a compaction) and, for `form`
/// team_tiles, the border chunks.
template <class ExecutionSpace, class Value, class Index, class Device>
CooLoadBalance<Index, typename Device::memory_space, widest_t<Value>> make_coo_load_balance(
    const ExecutionSpace& exec, const Coo<Value, Index, Device>& a, std::int64_t chunk,
    tuning::LaunchForm form) {
  using memory_space = typename Device::memory_space;
  using index_view = typename Coo<Value, Index, Device>::index_view;
  CooLoadBalance<Index, memory_space, widest_t<Value>> p;
  const auto row = a.row_indices();
  const std::int64_t nnz = a.nnz(), rows = a.rows();
  // has(r) = 1 when row r has an entry: the first entry of each run sets it.
  Kokkos::View<Index*, memory_space> has(Kokkos::view_alloc(exec, std::string("kobalt::coo_has_row")),
                                         rows);
  Kokkos::parallel_for(
      "kobalt::coo_rows_with_entries", range_policy<ExecutionSpace>(exec, 0, nnz),
      CooRowsWithEntriesFunctor<index_view, decltype(has)>{row, has});
  std::int64_t empty = 0;
  Kokkos::parallel_reduce(
      "kobalt::coo_empty_rows", range_policy<ExecutionSpace>(exec, 0, rows),
      CountUnmarkedRowsFunctor<decltype(has)>{has}, empty);
  p.parts = make_chunk_parts<memory_space, widest_t<Value>>(exec, nnz, chunk, empty > 0);
  if (p.parts.chunks > 0 && form == tuning::LaunchForm::team_tiles) {
    p.border_chunks = Kokkos::View<std::int64_t*, memory_space>(
        compat::uninitialized(exec, "kobalt::coo_border_chunks"),
        static_cast<std::size_t>(2 * p.parts.chunks));
    Kokkos::parallel_for(
        "kobalt::coo_border_chunks", range_policy<ExecutionSpace>(exec, 0, p.parts.chunks),
        CooBorderChunksFunctor<index_view, decltype(p.border_chunks)>{
            {row, nullptr, nnz, 0, p.parts.chunks}, p.border_chunks, chunk});
  }
  if (empty > 0) {
    p.empty = Kokkos::View<Index*, memory_space>(compat::uninitialized(exec, "kobalt::coo_empty_rows"),
                                                 empty);
    const auto list = p.empty;
    Kokkos::parallel_scan(
        "kobalt::coo_list_empty_rows", range_policy<ExecutionSpace>(exec, 0, rows),
        ListUnmarkedRowsFunctor<Index, decltype(has), decltype(p.empty)>{has, list});
  }
  return p;
}

/// y = alpha*A*x + beta*y for a Coo with the chunks `p` (made by
/// make_coo_load_balance with s.entries_per_thread * s.vector_length entries per
/// chunk).
template <class ExecutionSpace, class Value, class Index, class Device, class XView, class YView>
void coo_load_balance(const ExecutionSpace& exec, const tuning::LaunchShape& s,
                const std::string& label, typename YView::non_const_value_type alpha,
                const Coo<Value, Index, Device>& a, const XView& x,
                typename YView::non_const_value_type beta, const YView& y,
                const CooLoadBalance<Index, typename Device::memory_space, widest_t<Value>>& p) {
  using index_view = typename Coo<Value, Index, Device>::index_view;
  using scalar = typename YView::non_const_value_type;
  // beta == 1 leaves the rows without entries as they are: the deterministic
  // Hybrid and ALIGNED_COO add their COO part so, and most rows have none.
  const std::int64_t empty = beta == scalar(1) ? 0 : static_cast<std::int64_t>(p.empty.extent(0));
  const CooRowIndices<index_view> rows{a.row_indices(), p.empty.data(), a.nnz(), empty,
                                       p.parts.chunks};
  if (s.form == tuning::LaunchForm::team_tiles)
    coo_tiles(exec, s, label, alpha, rows, a.col_indices(), a.values(), x, beta, y, p.parts,
              p.border_chunks.data());
  else
    load_balance_chunks(exec, s, label, alpha, rows, a.col_indices(), a.values(), x, beta, y,
                        p.parts);
}

/// coo::load_balance: the handle keeps the split rows' partial sums.
template <>
struct strategy_kernel<coo::load_balance> {
  /// Partial sums and the rows without entries.
  template <class Matrix>
  using workspace = CooLoadBalance<typename Matrix::index_type, typename Matrix::memory_space,
                                   workspace_scalar<Matrix>>;
  /// Chunks of the policy's launch length.
  template <class E, class Matrix>
  static workspace<Matrix> make_workspace(const E& exec, const Matrix& a,
                                          const tuning::SpmvPolicy& policy) {
    const auto& l = policy.launches.at(0);
    return make_coo_load_balance(exec, a, chunk_entries(l), l.form);
  }
  /// The workspace of the COO part of another format (Hybrid's, ALIGNED_COO's
  /// flat part) run by launch `l`: none when the part holds no entries.
  template <class E, class Part>
  static workspace<Part> for_part(const E& exec, const Part& part, const tuning::LaunchShape& l) {
    if (part.nnz() == 0) return {};
    return make_coo_load_balance(exec, part, chunk_entries(l), l.form);
  }
  /// One launch: beta is applied by the chunks.
  template <class E, class V, class I, class D, class X, class Y, class W>
  static void run(const E& exec, const tuning::SpmvPolicy& p, const W& workspace,
                  typename Y::non_const_value_type alpha, const Coo<V, I, D>& a, const X& x,
                  typename Y::non_const_value_type beta, const Y& y) {
    static const std::string load_balance_label = kernel_label("coo", "load_balance");
    coo_load_balance(exec, p.launches.at(0), load_balance_label, alpha, a, x,
                     beta, y, workspace);
  }
};

}  // namespace kobalt::detail
