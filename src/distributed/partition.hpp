// SPDX-License-Identifier: BSD-3-Clause
// Which rank owns each index of a global range (the rows of A and y, or the
// columns of A and entries of x): contiguous ranges, or any index-to-rank map.
// A rank's indices are kept in increasing global order, which is the order
// of its rows in its local Csr and of its entries in its part of x and y.
#pragma once

#include "../errors.hpp"
#include "fingerprint.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace kobalt::distributed {

/// An assignment of the global indices 0 .. size() - 1 to ranks() ranks.
/// Contiguous: rank r owns offsets[r] .. offsets[r + 1] - 1 (ranks() + 1
/// offsets, as PETSc's ownership ranges). Map: rank owners[i] owns index i,
/// in any pattern; every rank holds the whole map (size() ints).
class Partition {
 public:
  /// An empty partition (no ranks), to be assigned a made one.
  Partition() = default;

  /// Rank r owns [offsets[r], offsets[r + 1]). Throws invalid_parameter
  /// unless offsets starts at 0 and never decreases.
  static Partition contiguous(std::vector<std::int64_t> offsets) {
    if (offsets.size() < 2 || offsets.front() != 0)
      throw invalid_parameter("kobalt::distributed::Partition::contiguous: needs ranks + 1 >= 2 "
                              "offsets starting at 0");
    for (std::size_t r = 1; r < offsets.size(); ++r)
      if (offsets[r] < offsets[r - 1])
        throw invalid_parameter("kobalt::distributed::Partition::contiguous: offset " +
                                std::to_string(r) + " (" + std::to_string(offsets[r]) +
                                ") is below offset " + std::to_string(r - 1) + " (" +
                                std::to_string(offsets[r - 1]) + ")");
    Partition p;
    p.offsets_ = std::move(offsets);
    return p;
  }

  /// Index i is owned by rank owners[i], among `ranks` ranks. Throws
  /// invalid_parameter for an owner outside [0, ranks) or ranks < 1.
  static Partition map(std::vector<int> owners, int ranks) {
    if (ranks < 1)
      throw invalid_parameter("kobalt::distributed::Partition::map: ranks = " +
                              std::to_string(ranks) + " must be >= 1");
    Partition p;
    p.offsets_.assign(static_cast<std::size_t>(ranks) + 1, 0);
    p.local_.resize(owners.size());
    for (std::size_t i = 0; i < owners.size(); ++i) {
      const int r = owners[i];
      if (r < 0 || r >= ranks)
        throw invalid_parameter("kobalt::distributed::Partition::map: index " + std::to_string(i) +
                                " is given to rank " + std::to_string(r) + ", outside [0, " +
                                std::to_string(ranks) + ")");
      p.local_[i] = p.offsets_[static_cast<std::size_t>(r) + 1]++;  // counts per rank for now
    }
    // offsets_ holds the counts; the map form keeps them as running totals.
    for (std::size_t r = 1; r < p.offsets_.size(); ++r) p.offsets_[r] += p.offsets_[r - 1];
    p.owners_ = std::move(owners);
    p.is_map_ = true;
    return p;
  }

  /// `size` indices in `ranks` contiguous ranges whose lengths differ by at
  /// most one (the default split of x for a rectangular matrix).
  static Partition uniform(std::int64_t size, int ranks) {
    if (size < 0 || ranks < 1)
      throw invalid_parameter("kobalt::distributed::Partition::uniform: size " +
                              std::to_string(size) + " over " + std::to_string(ranks) + " ranks");
    std::vector<std::int64_t> offsets(static_cast<std::size_t>(ranks) + 1);
    for (int r = 0; r <= ranks; ++r) offsets[r] = size / ranks * r + std::min<std::int64_t>(r, size % ranks);
    return contiguous(std::move(offsets));
  }

  /// Contiguous rows balanced by nonzeros: `row_ptr` is the global row
  /// pointer (rows + 1 offsets); rank r's range starts at the first row whose
  /// entries begin at or past r / ranks of the nonzeros, so each rank gets
  /// about nnz / ranks entries (a row longer than that stays whole, and a
  /// rank may get no rows).
  template <class Offset>
  static Partition balanced(const std::vector<Offset>& row_ptr, int ranks) {
    if (row_ptr.empty() || ranks < 1)
      throw invalid_parameter("kobalt::distributed::Partition::balanced: needs rows + 1 offsets "
                              "and ranks >= 1");
    const std::int64_t rows = static_cast<std::int64_t>(row_ptr.size()) - 1;
    const double nnz = static_cast<double>(row_ptr.back());
    std::vector<std::int64_t> offsets(static_cast<std::size_t>(ranks) + 1, rows);
    offsets[0] = 0;
    for (int r = 1; r < ranks; ++r) {
      const double target = nnz * r / ranks;
      const auto it = std::lower_bound(row_ptr.begin(), row_ptr.end(), target,
                                       [](Offset o, double t) { return static_cast<double>(o) < t; });
      offsets[r] = std::max(offsets[r - 1], std::min<std::int64_t>(rows, it - row_ptr.begin()));
    }
    return contiguous(std::move(offsets));
  }

  /// Contiguous ranges in rank order from each rank's count (collective over
  /// `comm`, one MPI_Allgather): what an application that already holds its
  /// rows gives. A negative count is an invalid_parameter on every rank.
  static Partition from_counts(MPI_Comm comm, std::int64_t local_count) {
    int size = 1;
    MPI_Comm_size(comm, &size);
    std::vector<std::int64_t> counts(static_cast<std::size_t>(size));
    MPI_Allgather(&local_count, 1, MPI_INT64_T, counts.data(), 1, MPI_INT64_T, comm);
    std::vector<std::int64_t> offsets(static_cast<std::size_t>(size) + 1, 0);
    for (int r = 0; r < size; ++r) {
      if (counts[r] < 0)
        throw invalid_parameter("kobalt::distributed::Partition::from_counts: rank " +
                                std::to_string(r) + " gave " + std::to_string(counts[r]) + " indices");
      offsets[r + 1] = offsets[r] + counts[r];
    }
    return contiguous(std::move(offsets));
  }

  /// The number of global indices.
  std::int64_t size() const { return offsets_.empty() ? 0 : offsets_.back(); }
  /// The number of ranks the indices are spread over.
  int ranks() const { return offsets_.empty() ? 0 : static_cast<int>(offsets_.size()) - 1; }
  /// True for contiguous ranges, false for a map.
  bool is_contiguous() const { return !is_map_; }
  /// The number of indices rank r owns.
  std::int64_t count(int r) const { return offsets_[r + 1] - offsets_[r]; }
  /// The rank that owns global index i.
  int owner(std::int64_t i) const {
    if (!is_contiguous()) return owners_[static_cast<std::size_t>(i)];
    // The last range starting at or before i that is not empty.
    const auto it = std::upper_bound(offsets_.begin(), offsets_.end(), i);
    return static_cast<int>(it - offsets_.begin()) - 1;
  }
  /// Global index i's position among its owner's indices (in increasing
  /// global order): where it sits in that rank's part of the vector.
  std::int64_t local_index(std::int64_t i) const {
    if (!is_contiguous()) return local_[static_cast<std::size_t>(i)];
    return i - offsets_[owner(i)];
  }
  /// The global indices rank r owns, increasing.
  std::vector<std::int64_t> owned(int r) const {
    std::vector<std::int64_t> out;
    out.reserve(static_cast<std::size_t>(count(r)));
    if (is_contiguous()) {
      for (std::int64_t i = offsets_[r]; i < offsets_[r + 1]; ++i) out.push_back(i);
    } else {
      for (std::size_t i = 0; i < owners_.size(); ++i)
        if (owners_[i] == r) out.push_back(static_cast<std::int64_t>(i));
    }
    return out;
  }
  /// A hash of the whole assignment, equal on ranks that hold the same one.
  std::uint64_t fingerprint() const {
    detail::Fingerprint f;
    f.add(is_map_ ? 1 : 0);
    for (auto o : offsets_) f.add(static_cast<std::uint64_t>(o));
    for (auto o : owners_) f.add(static_cast<std::uint64_t>(o));
    return f.value();
  }
  /// "contiguous over 4 ranks" or "map over 4 ranks", with the counts.
  std::string describe() const {
    std::string s = (is_contiguous() ? "contiguous over " : "map over ") + std::to_string(ranks()) +
                    " ranks, counts";
    for (int r = 0; r < ranks(); ++r) s += " " + std::to_string(count(r));
    return s;
  }

 private:
  std::vector<std::int64_t> offsets_;  // ranges; for a map, running totals of the counts
  std::vector<int> owners_;            // map only: the owner of each index
  std::vector<std::int64_t> local_;    // map only: each index's position at its owner
  bool is_map_ = false;
};

}  // namespace kobalt::distributed
