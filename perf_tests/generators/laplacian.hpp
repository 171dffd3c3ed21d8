// SPDX-License-Identifier: BSD-3-Clause
// Finite-difference Laplacians: 2-D 5-point (lap2d:n, n x n grid) and 3-D
// 7-point (lap3d:n, n^3 grid), rows in lexicographic grid order.
#pragma once

#include <kobalt/formats/storage_limit.hpp>
#include <kobalt/formats/triplets.hpp>

#include <cstdint>

namespace kobalt::bench {

template <class Value, class Index>
Triplets<Value, Index> laplacian(int dims, std::int64_t n) {
  Triplets<Value, Index> t;
  const std::int64_t nz = dims == 3 ? n : 1;
  const std::int64_t rows = n * n * nz;
  t.rows = checked_index<Index>(static_cast<std::uint64_t>(rows), "laplacian rows");
  t.cols = t.rows;
  t.row.reserve(rows * (2 * dims + 1));
  t.col.reserve(rows * (2 * dims + 1));
  t.val.reserve(rows * (2 * dims + 1));
  for (std::int64_t k = 0; k < nz; ++k)
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < n; ++i) {
        const std::int64_t r = (k * n + j) * n + i;
        auto add = [&](std::int64_t c, Value v) {
          t.push_back(static_cast<Index>(r), static_cast<Index>(c), v);
        };
        // Columns in increasing order, so the triplets are already assembled.
        if (dims == 3 && k > 0) add(r - n * n, Value(-1));
        if (j > 0) add(r - n, Value(-1));
        if (i > 0) add(r - 1, Value(-1));
        add(r, Value(2 * dims));
        if (i + 1 < n) add(r + 1, Value(-1));
        if (j + 1 < n) add(r + n, Value(-1));
        if (dims == 3 && k + 1 < nz) add(r + n * n, Value(-1));
      }
  return t;
}

}  // namespace kobalt::bench
