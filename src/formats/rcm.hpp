// SPDX-License-Identifier: BSD-3-Clause
// Reverse Cuthill-McKee ordering (Cuthill & McKee 1969; George & Liu 1981,
// "Computer Solution of Large Sparse Positive Definite Systems", §4.3) of
// the graph of A + A^T. A host algorithm: the breadth-first search is
// sequential, and it reads only the pattern (row pointer and columns).
#pragma once

#include "../errors.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace kobalt::detail {

/// The undirected graph of A + A^T without self loops, as sorted adjacency
/// lists (offsets in int64: A + A^T holds up to 2 nnz entries).
template <class Index>
struct SymmetricPattern {
  std::vector<std::int64_t> offset;  // n + 1
  std::vector<Index> adjacent;
  std::int64_t degree(Index v) const { return offset[v + 1] - offset[v]; }
};

/// Rows of a Csr hold distinct columns in increasing order, so the
/// transpose built row by row is sorted too, and row i of A + A^T is the
/// merge of two sorted lists: O(nnz), no sort.
template <class Index>
SymmetricPattern<Index> symmetric_pattern(Index n, const Index* row_ptr, const Index* col) {
  const std::size_t un = static_cast<std::size_t>(n);
  // Transpose of the off-diagonal pattern (counting sort by column).
  std::vector<std::int64_t> t_offset(un + 1, 0);
  for (Index i = 0; i < n; ++i) {
    for (Index k = row_ptr[i]; k < row_ptr[i + 1]; ++k) {
      if (col[k] < 0 || col[k] >= n)
        throw invalid_matrix("kobalt::rcm_ordering: row " + std::to_string(i) + " has column " +
                             std::to_string(col[k]) + " outside [0, " + std::to_string(n) + ")");
      if (col[k] != i) ++t_offset[col[k] + 1];
    }
  }
  for (std::size_t i = 0; i < un; ++i) t_offset[i + 1] += t_offset[i];
  std::vector<Index> t_adjacent(static_cast<std::size_t>(t_offset[un]));
  {
    std::vector<std::int64_t> fill(t_offset.begin(), t_offset.end() - 1);
    for (Index i = 0; i < n; ++i)
      for (Index k = row_ptr[i]; k < row_ptr[i + 1]; ++k)
        if (col[k] != i) t_adjacent[fill[col[k]]++] = i;
  }
  // Merge row i of A with row i of A^T, dropping the diagonal and repeats.
  SymmetricPattern<Index> g;
  g.offset.assign(un + 1, 0);
  g.adjacent.reserve(t_adjacent.size() * 2);
  for (Index i = 0; i < n; ++i) {
    Index a = row_ptr[i];
    const Index a_end = row_ptr[i + 1];
    std::int64_t b = t_offset[i];
    const std::int64_t b_end = t_offset[i + 1];
    while (a < a_end || b < b_end) {
      Index next;
      if (b == b_end || (a < a_end && col[a] <= t_adjacent[b]))
        next = col[a++];
      else
        next = t_adjacent[b++];
      if (next == i) continue;
      if (g.adjacent.size() > static_cast<std::size_t>(g.offset[i]) && g.adjacent.back() == next)
        continue;
      g.adjacent.push_back(next);
    }
    g.offset[i + 1] = static_cast<std::int64_t>(g.adjacent.size());
  }
  return g;
}

/// Level structure rooted at `root` (breadth-first search over root's
/// connected component). `order` receives the nodes level by level, and the
/// result is the number of levels. `stamp`/`generation` mark visited nodes
/// without clearing an n-long array per search.
template <class Index>
std::int64_t level_structure(const SymmetricPattern<Index>& g, Index root,
                             std::vector<std::int64_t>& stamp, std::int64_t generation,
                             std::vector<Index>& order, std::vector<std::int64_t>& level_start) {
  order.clear();
  level_start.clear();
  order.push_back(root);
  stamp[root] = generation;
  std::size_t begin = 0;
  while (begin < order.size()) {
    const std::size_t end = order.size();
    level_start.push_back(static_cast<std::int64_t>(begin));
    for (std::size_t q = begin; q < end; ++q) {
      const Index v = order[q];
      for (std::int64_t e = g.offset[v]; e < g.offset[v + 1]; ++e) {
        const Index w = g.adjacent[e];
        if (stamp[w] != generation) {
          stamp[w] = generation;
          order.push_back(w);
        }
      }
    }
    begin = end;
  }
  level_start.push_back(static_cast<std::int64_t>(order.size()));
  return static_cast<std::int64_t>(level_start.size()) - 1;
}

/// Pseudo-peripheral node of start's component (George & Liu's algorithm):
/// repeatedly root the level structure at a minimum-degree node of the last
/// level while that increases the eccentricity (the number of levels).
template <class Index>
Index pseudo_peripheral_node(const SymmetricPattern<Index>& g, Index start,
                             std::vector<std::int64_t>& stamp, std::int64_t& generation,
                             std::vector<Index>& order, std::vector<std::int64_t>& level_start) {
  Index root = start;
  std::int64_t levels = level_structure(g, root, stamp, ++generation, order, level_start);
  for (;;) {
    // Minimum degree in the last level; ties go to the smallest index.
    Index candidate = order[level_start[levels - 1]];
    for (std::int64_t q = level_start[levels - 1]; q < level_start[levels]; ++q) {
      const Index v = order[q];
      if (g.degree(v) < g.degree(candidate) ||
          (g.degree(v) == g.degree(candidate) && v < candidate))
        candidate = v;
    }
    const std::int64_t candidate_levels =
        level_structure(g, candidate, stamp, ++generation, order, level_start);
    if (candidate_levels <= levels) return root;
    root = candidate;
    levels = candidate_levels;
  }
}

/// Reverse Cuthill-McKee ordering of the n x n pattern (row_ptr, col) on
/// the graph of A + A^T: result[new] = old. Each connected component, taken
/// in order of its smallest node, starts at a pseudo-peripheral node; a
/// visited node's unvisited neighbours are appended by increasing degree
/// (ties by index); the whole Cuthill-McKee sequence is then reversed.
template <class Index>
std::vector<Index> rcm_ordering(Index n, const Index* row_ptr, const Index* col) {
  const SymmetricPattern<Index> g = symmetric_pattern(n, row_ptr, col);
  std::vector<Index> cm;
  cm.reserve(static_cast<std::size_t>(n));
  std::vector<char> placed(static_cast<std::size_t>(n), 0);
  std::vector<std::int64_t> stamp(static_cast<std::size_t>(n), 0);
  std::int64_t generation = 0;
  std::vector<Index> order, neighbours;
  std::vector<std::int64_t> level_start;
  for (Index s = 0; s < n; ++s) {
    if (placed[s]) continue;
    const Index root = pseudo_peripheral_node(g, s, stamp, generation, order, level_start);
    std::size_t head = cm.size();
    cm.push_back(root);
    placed[root] = 1;
    while (head < cm.size()) {
      const Index v = cm[head++];
      neighbours.clear();
      for (std::int64_t e = g.offset[v]; e < g.offset[v + 1]; ++e) {
        const Index w = g.adjacent[e];
        if (!placed[w]) {
          placed[w] = 1;
          neighbours.push_back(w);
        }
      }
      std::sort(neighbours.begin(), neighbours.end(), [&](Index a, Index b) {
        return g.degree(a) < g.degree(b) || (g.degree(a) == g.degree(b) && a < b);
      });
      cm.insert(cm.end(), neighbours.begin(), neighbours.end());
    }
  }
  std::reverse(cm.begin(), cm.end());
  return cm;
}

}  // namespace kobalt::detail
