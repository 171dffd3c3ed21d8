// SPDX-License-Identifier: BSD-3-Clause
// A matrix read on one rank (the root) handed out by rows to every rank of a
// communicator: what an application that reads a Matrix Market file once
// does before it builds a distributed handle.
#pragma once

#include "../formats/host_transfer.hpp"
#include "collective_errors.hpp"
#include "matrix.hpp"
#include "mpi_types.hpp"
#include "partition.hpp"

#include <mpi.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace kobalt::distributed {

namespace detail {

/// Sends each rank its part of `per_rank` (root only: per_rank[r] for rank r)
/// with MPI_Scatterv; returns this rank's part.
template <class T>
std::vector<T> scatter_parts(MPI_Comm comm, int root, const std::vector<std::vector<T>>& per_rank) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  std::vector<int> counts(rank == root ? size : 0), displs(rank == root ? size : 0);
  std::vector<T> flat;
  if (rank == root) {
    int at = 0;
    for (int r = 0; r < size; ++r) {
      counts[r] = static_cast<int>(per_rank[r].size());
      displs[r] = at;
      at += counts[r];
      flat.insert(flat.end(), per_rank[r].begin(), per_rank[r].end());
    }
  }
  int mine = 0;
  MPI_Scatter(counts.data(), 1, MPI_INT, &mine, 1, MPI_INT, root, comm);
  std::vector<T> out(static_cast<std::size_t>(mine));
  MPI_Scatterv(flat.data(), counts.data(), displs.data(), mpi_type<T>(), out.data(), mine,
               mpi_type<T>(), root, comm);
  return out;
}

}  // namespace detail

/// Hands out `global` (read on rank `root`; the other ranks' argument is
/// ignored) by rows: rank r gets the rows `rows` gives it, as a Csr with
/// global columns, on Device. `rows` and `cols` must be the same on every
/// rank; without them the rows are contiguous and balanced by nonzeros
/// (Partition::balanced, computed on the root), and x is laid out like y for
/// a square matrix, in uniform contiguous ranges otherwise. Unsorted
/// triplets and duplicates are assembled on the root first. Collective; an
/// error on the root (triplets out of range, a partition that does not
/// cover the matrix, more entries for one rank than an MPI count holds) is
/// thrown on every rank.
template <class Device = default_device, class Value, class Index>
DistributedMatrix<Value, Index, Device> scatter_matrix(
    MPI_Comm comm, int root, const Triplets<Value, Index>& global,
    std::optional<Partition> rows = std::nullopt, std::optional<Partition> cols = std::nullopt) {
  const std::string who = "kobalt::distributed::scatter_matrix";
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  collectively(comm, [&] {
    if (root < 0 || root >= size)
      throw invalid_parameter(who + ": root " + std::to_string(root) + " is not a rank of the " +
                              std::to_string(size) + "-rank communicator");
  });
  // On the root: the assembled matrix, the partitions, and each rank's entries.
  Triplets<Value, Index> t;
  std::vector<std::int64_t> shape_and_offsets;  // rows, cols, then the default row offsets
  std::vector<std::vector<Index>> part_row(size), part_col(size);
  std::vector<std::vector<Value>> part_val(size);
  collectively(comm, [&] {
    if (rank != root) return;
    global.validate();
    t = global;
    if (!t.is_assembled()) t.assemble();
    std::vector<std::int64_t> row_ptr(static_cast<std::size_t>(t.rows) + 1, 0);
    for (const Index r : t.row) ++row_ptr[static_cast<std::size_t>(r) + 1];
    for (std::size_t r = 1; r < row_ptr.size(); ++r) row_ptr[r] += row_ptr[r - 1];
    const Partition p = rows ? *rows : Partition::balanced(row_ptr, size);
    if (p.size() != t.rows || (cols && cols->size() != t.cols))
      throw invalid_parameter(who + ": the partitions cover " + std::to_string(p.size()) +
                              " rows and " + std::to_string(cols ? cols->size() : t.cols) +
                              " columns, the matrix is " + std::to_string(t.rows) + " x " +
                              std::to_string(t.cols));
    if (p.ranks() != size)
      throw invalid_parameter(who + ": the row partition spans " + std::to_string(p.ranks()) +
                              " ranks, the communicator has " + std::to_string(size));
    // Entries are sorted by (row, column); each rank's keep that order, with
    // the rows renumbered to their place among the rank's rows.
    for (std::size_t k = 0; k < t.val.size(); ++k) {
      const int r = p.owner(t.row[k]);
      part_row[r].push_back(static_cast<Index>(p.local_index(t.row[k])));
      part_col[r].push_back(t.col[k]);
      part_val[r].push_back(t.val[k]);
    }
    for (int r = 0; r < size; ++r)
      if (part_val[r].size() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
        throw index_overflow(who + ": rank " + std::to_string(r) + " would get " +
                             std::to_string(part_val[r].size()) +
                             " entries, more than one MPI message holds");
    shape_and_offsets = {t.rows, t.cols};
    if (!rows)
      for (int r = 0; r <= size; ++r)
        shape_and_offsets.push_back(r == 0 ? 0 : shape_and_offsets.back() + p.count(r - 1));
  });
  shape_and_offsets.resize(static_cast<std::size_t>(size) + 3);
  MPI_Bcast(shape_and_offsets.data(), size + 3, MPI_INT64_T, root, comm);
  const Partition row_part =
      rows ? *rows
           : Partition::contiguous({shape_and_offsets.begin() + 2, shape_and_offsets.end()});
  const std::int64_t global_rows = shape_and_offsets[0], global_cols = shape_and_offsets[1];
  const Partition col_part = cols ? *cols
                             : global_rows == global_cols ? row_part
                                                          : Partition::uniform(global_cols, size);
  collectively(comm, [&] {
    if (row_part.ranks() != size || col_part.ranks() != size)
      throw invalid_parameter(who + ": the partitions span " + std::to_string(row_part.ranks()) +
                              " (rows) and " + std::to_string(col_part.ranks()) +
                              " (columns) ranks, the communicator has " + std::to_string(size));
  });
  Triplets<Value, Index> mine;
  mine.rows = static_cast<Index>(row_part.count(rank));
  mine.cols = static_cast<Index>(global_cols);
  mine.row = detail::scatter_parts(comm, root, part_row);
  mine.col = detail::scatter_parts(comm, root, part_col);
  mine.val = detail::scatter_parts(comm, root, part_val);
  typename Device::execution_space exec;
  Csr<Value, Index, Device> local;
  collectively(comm, [&] { local = make_csr<Device>(exec, mine); });
  return DistributedMatrix<Value, Index, Device>(comm, local, row_part, col_part);
}

}  // namespace kobalt::distributed
