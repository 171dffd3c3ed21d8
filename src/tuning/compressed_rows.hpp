// SPDX-License-Identifier: BSD-3-Clause
// When a distributed product's off-diagonal block keeps only the rows that
// touch a ghost: its product then writes a short vector that one more kernel
// adds into y, instead of reading and writing all of y.
#pragma once

#include <cstdint>

namespace kobalt::tuning {

/// Compressed rows where at least this fraction of the rows is empty (the
/// ratio PETSc's AIJ matrices use; docs/sources.md).
inline constexpr double compressed_rows_empty_fraction = 0.6;

/// True where an off-diagonal block of `rows` rows, `touching` of which hold
/// an entry, keeps only those.
inline bool compress_off_diagonal_rows(std::int64_t touching, std::int64_t rows) {
  return static_cast<double>(rows - touching) >=
         compressed_rows_empty_fraction * static_cast<double>(rows) && rows > 0;
}

}  // namespace kobalt::tuning
