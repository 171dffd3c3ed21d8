// SPDX-License-Identifier: BSD-3-Clause
// A benchmark input spread over ranks: the structured generators build each
// rank's rows alone (generators/row_range.hpp), the random ones are
// built whole on every rank from the same seed and cut (moving the matrix
// through one host would cost more than building it), and files are read
// on rank 0 and scattered.
#pragma once

#include "../generators/generators.hpp"
#include "../generators/row_range.hpp"
#include "../inputs.hpp"

#include <kobalt/distributed/distributed.hpp>
#include <kobalt/kobalt.hpp>

#include <mpi.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace kobalt::bench::distributed {

namespace kd = kobalt::distributed;

using gen::build_rows;
using gen::row_pointer;
using gen::rows_of;
using gen::structured;
using gen::Structured;

/// An input as every rank holds it before it is spread over a communicator.
template <class Value, class Index>
struct SpreadInput {
  std::string name, source;
  GeneratorSpec spec;                          ///< generators
  bool generated = false, by_rows = false;     ///< by_rows: a structured generator
  Csr<Value, Index, default_device> whole;     ///< random generators: every rank; files: rank 0
  Triplets<Value, Index> triplets;             ///< files: rank 0 only
};

/// Loads `text` on every rank (files on rank 0 only). Throws
/// std::invalid_argument where --scaling weak cannot grow the input.
template <class Value, class Index>
SpreadInput<Value, Index> load(const std::string& text, bool weak, int rank) {
  SpreadInput<Value, Index> in;
  in.source = text;
  if (std::filesystem::exists(text) || !is_generator_spec(text)) {
    if (weak)
      throw std::invalid_argument("'" + text + "': --scaling weak grows generated grids only");
    in.name = file_input_name(text);
    if (rank == 0) in.triplets = read_matrix_market<Value, Index>(text);
    return in;
  }
  in.generated = true;
  in.spec = parse_generator(text);
  in.name = to_string(in.spec);
  in.by_rows = structured(in.spec, 1).has_value();
  if (weak && !structured(in.spec, 2))
    throw std::invalid_argument("'" + text + "': --scaling weak grows lap2d, lap3d, stencil27 and "
                                "fem; use --scaling strong");
  if (!in.by_rows) in.whole = generate<Value, Index, default_device>(in.spec);
  return in;
}

/// The matrix one device runs alone for the reference times: the whole
/// input (strong scaling) or one rank's share (weak: the input itself).
/// Rank 0 only.
template <class Value, class Index>
Csr<Value, Index, default_device> single_device(const SpreadInput<Value, Index>& in) {
  if (!in.generated) return make_csr(in.triplets);
  if (!in.by_rows) return in.whole;
  const Structured s = *structured(in.spec, 1);
  return build_rows<Value, Index>(s, row_pointer(s), 0, s.rows);
}

/// The first row rank `rank` owns in a contiguous partition.
inline std::int64_t first_of(const kd::Partition& rows, int rank) {
  std::int64_t first = 0;
  for (int r = 0; r < rank; ++r) first += rows.count(r);
  return first;
}

/// `in` spread over `comm` (every rank of it calls): rows balanced by
/// nonzeros, or for --scaling weak each rank its own share of the grown
/// grid (the input `ranks` times, rank r holding the r-th). Collective: an
/// error on one rank (its rows do not fit) is thrown on every rank.
template <class Value, class Index>
kd::DistributedMatrix<Value, Index> spread(const SpreadInput<Value, Index>& in, MPI_Comm comm,
                                           bool weak) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  if (!in.generated) return kd::scatter_matrix(comm, 0, in.triplets);
  Csr<Value, Index, default_device> local;
  kd::Partition rows;
  kd::collectively(comm, [&] {
    if (!in.by_rows) {
      rows = kd::Partition::balanced(row_pointer(in.whole), ranks);
      local = rows_of(in.whole, first_of(rows, rank), rows.count(rank));
      return;
    }
    const Structured s = *structured(in.spec, weak ? ranks : 1);
    const std::vector<std::int64_t> rp = row_pointer(s);
    if (weak) {
      std::vector<std::int64_t> offsets;
      for (int r = 0; r <= ranks; ++r) offsets.push_back(s.rows / ranks * r);
      rows = kd::Partition::contiguous(offsets);
    } else {
      rows = kd::Partition::balanced(rp, ranks);
    }
    local = build_rows<Value, Index>(s, rp, first_of(rows, rank), rows.count(rank));
  });
  return kd::DistributedMatrix<Value, Index>(comm, local, rows);
}

}  // namespace kobalt::bench::distributed
