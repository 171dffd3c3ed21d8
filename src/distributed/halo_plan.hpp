// SPDX-License-Identifier: BSD-3-Clause
// Who sends which x entries to whom: computed once at setup from each rank's
// ghost columns, with one MPI_Alltoall of counts and one MPI_Alltoallv of the
// requested global columns.
#pragma once

#include "../errors.hpp"
#include "partition.hpp"

#include <mpi.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace kobalt::distributed {

/// The exchange of one distributed product. Neighbours are listed in
/// increasing rank order, each with its range in the send or receive buffer.
/// The receive buffer is the off-diagonal block's x: ghosts grouped by owner.
struct HaloPlan {
  std::vector<int> send_ranks;             ///< ranks this one sends to
  std::vector<std::int64_t> send_offsets;  ///< send_ranks.size() + 1 ranges in the send buffer
  /// This rank's x positions (its owned entries) to send, in buffer order.
  std::vector<std::int64_t> send_index;
  std::vector<int> recv_ranks;             ///< ranks this one receives from
  std::vector<std::int64_t> recv_offsets;  ///< recv_ranks.size() + 1 ranges in the ghost vector

  std::int64_t sent_entries() const { return send_offsets.back(); }      ///< x entries sent per product
  std::int64_t received_entries() const { return recv_offsets.back(); }  ///< ghosts received per product

  /// True where each neighbour's entries are consecutive x positions (rows
  /// cut into slabs of a grid): a send can then read x where it lies.
  bool sends_are_runs() const {
    for (std::size_t r = 0; r + 1 < send_offsets.size(); ++r)
      for (std::int64_t k = send_offsets[r] + 1; k < send_offsets[r + 1]; ++k)
        if (send_index[static_cast<std::size_t>(k)] != send_index[static_cast<std::size_t>(k - 1)] + 1)
          return false;
    return true;
  }
};

namespace detail {

/// The plan for ghosts `ghosts` (global columns) owned by `ghost_owners`
/// (non-decreasing), with x laid out by `cols`. Collective over `comm`;
/// the caller has checked that the counts fit MPI's int.
inline HaloPlan make_halo_plan(MPI_Comm comm, const Partition& cols,
                               const std::vector<std::int64_t>& ghosts,
                               const std::vector<int>& ghost_owners) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  std::vector<int> recv_counts(static_cast<std::size_t>(size), 0), send_counts(recv_counts);
  for (const int owner : ghost_owners) ++recv_counts[owner];
  MPI_Alltoall(recv_counts.data(), 1, MPI_INT, send_counts.data(), 1, MPI_INT, comm);
  std::vector<int> recv_displs(static_cast<std::size_t>(size), 0), send_displs(recv_displs);
  for (int r = 1; r < size; ++r) {
    recv_displs[r] = recv_displs[r - 1] + recv_counts[r - 1];
    send_displs[r] = send_displs[r - 1] + send_counts[r - 1];
  }
  // The columns each rank asks of this one, in that rank's ghost order.
  std::vector<std::int64_t> asked(
      static_cast<std::size_t>(send_displs[size - 1] + send_counts[size - 1]));
  MPI_Alltoallv(ghosts.data(), recv_counts.data(), recv_displs.data(), MPI_INT64_T, asked.data(),
                send_counts.data(), send_displs.data(), MPI_INT64_T, comm);
  HaloPlan plan;
  plan.send_offsets.push_back(0);
  plan.recv_offsets.push_back(0);
  for (int r = 0; r < size; ++r) {
    if (send_counts[r] > 0) {
      plan.send_ranks.push_back(r);
      plan.send_offsets.push_back(plan.send_offsets.back() + send_counts[r]);
    }
    if (recv_counts[r] > 0) {
      plan.recv_ranks.push_back(r);
      plan.recv_offsets.push_back(plan.recv_offsets.back() + recv_counts[r]);
    }
  }
  plan.send_index.reserve(asked.size());
  for (const std::int64_t c : asked) plan.send_index.push_back(cols.local_index(c));
  return plan;
}

}  // namespace detail
}  // namespace kobalt::distributed
