// SPDX-License-Identifier: BSD-3-Clause
// A rank's rows split by column owner: the diagonal block (columns this rank
// owns, renumbered to their place in its part of x) and the off-diagonal
// block (ghost columns, renumbered compactly: grouped by owning rank, in
// increasing global order within each, which is the order they arrive in).
// Where few rows touch a ghost, the off-diagonal block keeps only those rows
// (PETSc's compressed rows): its product then reads and writes a short
// vector instead of all of y.
#pragma once

#include "../compat.hpp"
#include "../formats/csr.hpp"
#include "../tuning/compressed_rows.hpp"
#include "gather.hpp"
#include "partition.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace kobalt::distributed::detail {

/// The two blocks of a rank's rows and what refreshes their values.
template <class Value, class Index, class Device>
struct Blocks {
  using csr_type = Csr<Value, Index, Device>;
  using values_view = Kokkos::View<Value*, Device>;
  using map_view = Kokkos::View<Index*, Device>;
  csr_type diagonal, off_diagonal;
  /// The blocks' value arrays, writable: update_values gathers into them.
  values_view diagonal_values, off_diagonal_values;
  /// Where each block entry's value sits in the local Csr's values.
  map_view diagonal_map, off_diagonal_map;
  /// Compressed off-diagonal block: the local row of each of its rows, and
  /// its product's output; both empty where it holds every local row.
  map_view off_diagonal_rows;
  values_view off_diagonal_y;
  /// True where the off-diagonal block keeps only the rows that touch a ghost.
  bool compressed() const { return off_diagonal_rows.extent(0) > 0; }
  /// Global column of each ghost (the off-diagonal block's columns).
  std::vector<std::int64_t> ghosts;
  /// The rank that owns each ghost, non-decreasing.
  std::vector<int> ghost_owners;
};

/// One block's arrays on the host while they are built.
template <class Index>
struct HostBlock {
  std::vector<Index> row_ptr{0}, col, map;
  /// Appends a row from (column, position) pairs, sorted by column.
  void add_row(std::vector<std::pair<Index, Index>>& entries) {
    std::stable_sort(entries.begin(), entries.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& e : entries) {
      col.push_back(e.first);
      map.push_back(e.second);
    }
    row_ptr.push_back(static_cast<Index>(col.size()));
    entries.clear();
  }
};

/// The device Csr of a block built on the host, its values gathered from
/// `values` (the local Csr's) on `exec`.
template <class ExecutionSpace, class Value, class Index, class Device>
void make_block(const ExecutionSpace& exec, const HostBlock<Index>& host, Index rows, Index cols,
                const Kokkos::View<const Value*, Device>& values, Csr<Value, Index, Device>& block,
                Kokkos::View<Value*, Device>& block_values, Kokkos::View<Index*, Device>& map) {
  using unmanaged = Kokkos::View<const Index*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
  Kokkos::View<Index*, Device> row_ptr(compat::uninitialized(exec, "kobalt::distributed::row_ptr"),
                                       host.row_ptr.size());
  Kokkos::View<Index*, Device> col(compat::uninitialized(exec, "kobalt::distributed::col"),
                                   host.col.size());
  map = Kokkos::View<Index*, Device>(compat::uninitialized(exec, "kobalt::distributed::value_map"),
                                     host.map.size());
  block_values = Kokkos::View<Value*, Device>(
      compat::uninitialized(exec, "kobalt::distributed::values"), host.map.size());
  Kokkos::deep_copy(exec, row_ptr, unmanaged(host.row_ptr.data(), host.row_ptr.size()));
  Kokkos::deep_copy(exec, col, unmanaged(host.col.data(), host.col.size()));
  Kokkos::deep_copy(exec, map, unmanaged(host.map.data(), host.map.size()));
  gather(exec, "kobalt::distributed::gather_values", block_values, values, map);
  exec.fence();  // the host arrays are the caller's locals
  block = Csr<Value, Index, Device>(assume_valid, exec, rows, cols, row_ptr, col, block_values);
}

/// Splits `local` (this rank's rows, global columns) by the owners `cols`
/// gives its columns; `rank` is this rank. Setup work, on the host.
template <class ExecutionSpace, class Value, class Index, class Device>
Blocks<Value, Index, Device> split_blocks(const ExecutionSpace& exec,
                                          const Csr<Value, Index, Device>& local,
                                          const Partition& cols, int rank) {
  exec.fence();  // the caller may have filled the Csr on exec
  const auto row_ptr = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), local.row_ptr());
  const auto col = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), local.col_indices());
  Blocks<Value, Index, Device> b;
  // The ghosts, as (owner, global column), sorted and unique, and the rows
  // that touch one: few of them, and the off-diagonal block keeps only those.
  std::vector<std::pair<int, std::int64_t>> ghosts;
  Index touching = 0;
  for (Index i = 0; i < local.rows(); ++i) {
    bool touches = false;
    for (Index k = row_ptr(i); k < row_ptr(i + 1); ++k) {
      const int owner = cols.owner(col(k));
      if (owner == rank) continue;
      ghosts.emplace_back(owner, col(k));
      touches = true;
    }
    touching += touches ? 1 : 0;
  }
  std::sort(ghosts.begin(), ghosts.end());
  ghosts.erase(std::unique(ghosts.begin(), ghosts.end()), ghosts.end());
  const bool compress = tuning::compress_off_diagonal_rows(touching, local.rows());
  std::vector<Index> kept_rows;
  HostBlock<Index> diagonal, off_diagonal;
  std::vector<std::pair<Index, Index>> diagonal_row, off_diagonal_row;
  for (Index i = 0; i < local.rows(); ++i) {
    for (Index k = row_ptr(i); k < row_ptr(i + 1); ++k) {
      const std::int64_t c = col(k);
      const int owner = cols.owner(c);
      if (owner == rank) {
        diagonal_row.emplace_back(static_cast<Index>(cols.local_index(c)), k);
      } else {
        const auto at = std::lower_bound(ghosts.begin(), ghosts.end(), std::make_pair(owner, c));
        off_diagonal_row.emplace_back(static_cast<Index>(at - ghosts.begin()), k);
      }
    }
    diagonal.add_row(diagonal_row);
    if (!compress || !off_diagonal_row.empty()) {
      if (compress) kept_rows.push_back(i);
      off_diagonal.add_row(off_diagonal_row);
    }
  }
  for (const auto& g : ghosts) {
    b.ghost_owners.push_back(g.first);
    b.ghosts.push_back(g.second);
  }
  make_block(exec, diagonal, local.rows(), static_cast<Index>(cols.count(rank)), local.values(),
             b.diagonal, b.diagonal_values, b.diagonal_map);
  const auto off_rows = static_cast<Index>(off_diagonal.row_ptr.size() - 1);
  make_block(exec, off_diagonal, off_rows, static_cast<Index>(ghosts.size()), local.values(),
             b.off_diagonal, b.off_diagonal_values, b.off_diagonal_map);
  if (compress) {
    b.off_diagonal_rows = Kokkos::View<Index*, Device>(
        compat::uninitialized(exec, "kobalt::distributed::off_diagonal_rows"), kept_rows.size());
    Kokkos::deep_copy(exec, b.off_diagonal_rows,
                      Kokkos::View<const Index*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                          kept_rows.data(), kept_rows.size()));
    b.off_diagonal_y = Kokkos::View<Value*, Device>(
        compat::uninitialized(exec, "kobalt::distributed::off_diagonal_y"), kept_rows.size());
    exec.fence();  // kept_rows is a local
  }
  return b;
}

}  // namespace kobalt::distributed::detail
