// SPDX-License-Identifier: BSD-3-Clause
// Errors every rank agrees on: a check that fails on one rank is thrown, with
// the same type and message, on every rank of the communicator, so that no
// rank waits in a collective that the failing one never reaches.
#pragma once

#include "../errors.hpp"

#include <mpi.h>

#include <exception>
#include <string>
#include <utility>

namespace kobalt::distributed {

namespace detail {

/// The Kobalt exception types, as a number that travels between ranks.
enum class error_kind : int {
  error,
  invalid_parameter,
  dimension_mismatch,
  invalid_matrix,
  index_overflow,
  format_too_large
};

inline error_kind kind_of(const std::exception& e) {
  if (dynamic_cast<const invalid_parameter*>(&e)) return error_kind::invalid_parameter;
  if (dynamic_cast<const dimension_mismatch*>(&e)) return error_kind::dimension_mismatch;
  if (dynamic_cast<const invalid_matrix*>(&e)) return error_kind::invalid_matrix;
  if (dynamic_cast<const index_overflow*>(&e)) return error_kind::index_overflow;
  if (dynamic_cast<const format_too_large*>(&e)) return error_kind::format_too_large;
  return error_kind::error;
}

/// Throws the exception of `kind` with `message`. format_too_large loses
/// its byte counts on the other ranks: they keep them in the message.
[[noreturn]] inline void throw_kind(error_kind kind, const std::string& message) {
  switch (kind) {
    case error_kind::invalid_parameter: throw invalid_parameter(message);
    case error_kind::dimension_mismatch: throw dimension_mismatch(message);
    case error_kind::invalid_matrix: throw invalid_matrix(message);
    case error_kind::index_overflow: throw index_overflow(message);
    default: throw error(message);
  }
}

}  // namespace detail

/// Runs `check` (local work that may throw) on every rank of `comm`, then
/// agrees with one MPI_Allreduce: where it threw on any rank, every rank
/// throws the error of the lowest such rank, its type kept (format_too_large
/// as kobalt::error) and its message prefixed with "rank r: ". Collective.
template <class Check>
void collectively(MPI_Comm comm, Check&& check) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int kind = 0;
  std::string message;
  bool failed = false;
  try {
    std::forward<Check>(check)();
  } catch (const std::exception& e) {
    failed = true;
    kind = static_cast<int>(detail::kind_of(e));
    message = e.what();
  }
  const int mine = failed ? rank : size;
  int first = size;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == size) return;
  int head[2] = {kind, static_cast<int>(message.size())};
  MPI_Bcast(head, 2, MPI_INT, first, comm);
  message.resize(static_cast<std::size_t>(head[1]));
  MPI_Bcast(message.data(), head[1], MPI_CHAR, first, comm);
  detail::throw_kind(static_cast<detail::error_kind>(head[0]),
                     "rank " + std::to_string(first) + ": " + message);
}

}  // namespace kobalt::distributed
