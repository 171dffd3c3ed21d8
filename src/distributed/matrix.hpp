// SPDX-License-Identifier: BSD-3-Clause
// A matrix distributed by rows over an MPI communicator: each rank holds its
// owned rows as a Csr whose columns are GLOBAL indices, plus the partitions
// of the rows (y) and of the columns (x) that every rank agrees on.
#pragma once

#include "../formats/csr.hpp"
#include "collective_errors.hpp"
#include "partition.hpp"

#include <mpi.h>

#include <cstdint>
#include <string>
#include <utility>

namespace kobalt::distributed {

/// A rows() x cols() matrix over `comm`. Rank r holds rows.count(r) rows, the
/// global rows rows.owned(r) in that (increasing) order, as `local`: a Csr
/// with rows.count(r) rows, cols() columns and global column indices. y is
/// laid out like the rows (rank r holds y at rows.owned(r), in that order),
/// x like the columns (rank r holds x at cols.owned(r)). Shares the Csr's
/// arrays, as Csr does. The communicator is the caller's and must stay
/// valid while the matrix is used: setups and products use it.
template <class Value, class Index, class Device = default_device>
class DistributedMatrix {
 public:
  using value_type = Value;    ///< the matrix's values
  using index_type = Index;    ///< its column indices (global) and local row counts
  using device_type = Device;  ///< where the local Csr lives
  using local_matrix_type = Csr<Value, Index, Device>;  ///< a rank's owned rows

  /// An empty matrix, to be assigned a made one.
  DistributedMatrix() = default;

  /// Rows and columns partitioned as given (rectangular matrices, or x laid
  /// out differently from y). Collective over `comm`: checks on every rank
  /// that both partitions span comm's size, that every rank holds the same
  /// partitions and global shape, and that `local` has this rank's row count
  /// and the global column count; a failure on any rank throws on every rank
  /// (invalid_parameter or dimension_mismatch, naming the rank).
  DistributedMatrix(MPI_Comm comm, local_matrix_type local, Partition rows, Partition cols)
      : comm_(comm), local_(std::move(local)), rows_(std::move(rows)), cols_(std::move(cols)) {
    check();
  }
  /// A square matrix whose x is laid out like y (cols = rows): local.cols()
  /// must be rows.size().
  DistributedMatrix(MPI_Comm comm, local_matrix_type local, Partition rows)
      : DistributedMatrix(comm, std::move(local), rows, rows) {}

  MPI_Comm comm() const { return comm_; }                 ///< the communicator (not duplicated)
  int rank() const { return rank_; }                     ///< this process's rank in comm()
  int ranks() const { return rows_.ranks(); }            ///< comm()'s size
  std::int64_t rows() const { return rows_.size(); }     ///< global rows
  std::int64_t cols() const { return cols_.size(); }     ///< global columns
  const Partition& row_partition() const { return rows_; }  ///< who owns each row (and y entry)
  const Partition& col_partition() const { return cols_; }  ///< who owns each x entry
  /// This rank's rows, global column indices.
  const local_matrix_type& local() const { return local_; }
  /// The entries of y this rank holds (its rows).
  std::int64_t local_rows() const { return rows_.count(rank_); }
  /// The entries of x this rank holds.
  std::int64_t local_cols() const { return cols_.count(rank_); }

 private:
  void check() {
    int size = 1;
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size);
    const std::string who = "kobalt::distributed::DistributedMatrix";
    collectively(comm_, [&] {
      if (rows_.ranks() != size || cols_.ranks() != size)
        throw invalid_parameter(who + ": the partitions span " + std::to_string(rows_.ranks()) +
                                " (rows) and " + std::to_string(cols_.ranks()) +
                                " (columns) ranks, the communicator has " + std::to_string(size));
    });
    // Every rank must hold the same shape and the same partitions.
    std::int64_t mine[4] = {rows_.size(), cols_.size(),
                            static_cast<std::int64_t>(rows_.fingerprint() >> 1),
                            static_cast<std::int64_t>(cols_.fingerprint() >> 1)};
    std::int64_t low[4], high[4];
    MPI_Allreduce(mine, low, 4, MPI_INT64_T, MPI_MIN, comm_);
    MPI_Allreduce(mine, high, 4, MPI_INT64_T, MPI_MAX, comm_);
    collectively(comm_, [&] {
      if (low[0] != high[0] || low[1] != high[1])
        throw dimension_mismatch(who + ": the ranks disagree on the global shape (rows " +
                                 std::to_string(low[0]) + " to " + std::to_string(high[0]) +
                                 ", columns " + std::to_string(low[1]) + " to " +
                                 std::to_string(high[1]) + ")");
      if (low[2] != high[2] || low[3] != high[3])
        throw invalid_parameter(who + ": the ranks hold different partitions");
      if (local_.rows() != rows_.count(rank_) || local_.cols() != cols_.size())
        throw dimension_mismatch(who + ": the local Csr is " + std::to_string(local_.rows()) +
                                 " x " + std::to_string(local_.cols()) + ", the partitions give " +
                                 "this rank " + std::to_string(rows_.count(rank_)) + " rows of " +
                                 std::to_string(cols_.size()) + " global columns");
    });
  }

  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  local_matrix_type local_;
  Partition rows_, cols_;
};

}  // namespace kobalt::distributed
