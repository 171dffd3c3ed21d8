// SPDX-License-Identifier: BSD-3-Clause
// Row lengths of zipf:N,MEAN,s: the row of rank r (1 = longest) holds
//   L(r) = min(N, round(C r^-s)),
// with C chosen on the host so that the lengths sum to round(MEAN * N) as
// closely as the rounding allows. pow() runs only on the host, once per
// table entry, so the device never evaluates a transcendental function and
// every backend sees the same lengths:
//   - head: L(r) for r <= H, H = C^(1 / (1 + s)), one entry per rank;
//   - tail: for each length l in [1, L(H + 1)] the number of ranks with
//     C r^-s >= l - 1/2, i.e. R(l) = floor((C / (l - 1/2))^(1/s)); a rank
//     r > H has length #{l : R(l) >= r} (a binary search on the device).
// Both tables have about C^(1 / (1 + s)) entries (a few thousand for
// N = 10^8), so the plan costs nothing next to the matrix.
#pragma once

#include "spec.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace kobalt::bench::gen {

/// Largest head or tail table a zipf plan may need (2^24 entries, 128 MiB);
/// realistic specs stay far below (sqrt(MEAN N / ln N) for s = 1).
inline constexpr std::int64_t zipf_table_limit = std::int64_t(1) << 24;

struct ZipfPlan {
  double c = 0;
  std::vector<std::int64_t> head, tail;  // head[r - 1] = L(r); tail[l - 1] = R(l)
  std::int64_t nnz = 0;
};

/// Lengths for scale C (see the file comment); throws invalid_argument when
/// a table would exceed zipf_table_limit.
inline ZipfPlan zipf_tables(std::int64_t n, double s, double c, const std::string& what) {
  ZipfPlan p;
  p.c = c;
  const double nd = static_cast<double>(n);
  auto rounded = [&](std::int64_t rank) -> std::int64_t {
    const double raw = c * std::pow(static_cast<double>(rank), -s) + 0.5;
    return raw >= nd ? n : static_cast<std::int64_t>(raw);
  };
  const double h = std::ceil(std::pow(c, 1.0 / (1.0 + s)));
  const std::int64_t head = std::max<std::int64_t>(1, h >= nd ? n : static_cast<std::int64_t>(h));
  const std::int64_t longest_tail = head < n ? rounded(head + 1) : 0;
  if (head > zipf_table_limit || longest_tail > zipf_table_limit)
    throw std::invalid_argument(what + ": the row-length tables would need more than 2^24 entries");
  p.head.resize(head);
  for (std::int64_t r = 1; r <= head; ++r) {
    p.head[r - 1] = rounded(r);
    p.nnz += p.head[r - 1];
  }
  p.tail.resize(longest_tail);
  std::int64_t previous = n;
  for (std::int64_t l = 1; l <= longest_tail; ++l) {
    // pow(x, +inf) is inf, 0 or 1 for s = 0: every rank or none.
    const double ranks = std::floor(std::pow(c / (static_cast<double>(l) - 0.5), 1.0 / s));
    std::int64_t r = ranks >= nd ? n : (ranks <= static_cast<double>(head) ? head : static_cast<std::int64_t>(ranks));
    r = std::min(r, previous);  // non-increasing in l, whatever pow's rounding
    p.tail[l - 1] = previous = r;
    p.nnz += r - head;
  }
  return p;
}

/// The plan whose lengths sum closest to round(MEAN * N): C by doubling then
/// bisection (the sum is non-decreasing in C up to pow's rounding).
inline ZipfPlan zipf_plan(const spec::zipf& z, const std::string& what) {
  const std::int64_t target = static_cast<std::int64_t>(std::llround(z.mean * static_cast<double>(z.n)));
  double lo = 0, hi = std::max(1.0, z.mean);
  ZipfPlan best = zipf_tables(z.n, z.exponent, hi, what);
  for (int k = 0; k < 2100 && best.nnz < target; ++k) {
    lo = hi;
    hi *= 2;
    best = zipf_tables(z.n, z.exponent, hi, what);
  }
  if (best.nnz < target)
    throw std::invalid_argument(what + ": no scale C reaches the mean");
  for (int k = 0; k < 100 && hi - lo > 1e-12 * hi; ++k) {
    const double mid = 0.5 * (lo + hi);
    ZipfPlan p = zipf_tables(z.n, z.exponent, mid, what);
    if (p.nnz >= target) {
      hi = mid;
      best = std::move(p);
    } else {
      lo = mid;
    }
  }
  ZipfPlan below = zipf_tables(z.n, z.exponent, lo, what);
  if (target - below.nnz < best.nnz - target) return below;
  return best;
}

/// Device lookup of the plan's lengths by rank (1-based).
template <class Device>
struct ZipfLengths {
  Kokkos::View<const std::int64_t*, Device> head, tail;
  std::int64_t head_ranks = 0, tail_lengths = 0;

  KOKKOS_INLINE_FUNCTION std::int64_t operator()(std::int64_t rank) const {
    if (rank <= head_ranks) return head(rank - 1);
    // Largest l with tail(l - 1) >= rank; tail is non-increasing.
    std::int64_t lo = 0, hi = tail_lengths;
    while (lo < hi) {
      const std::int64_t mid = (lo + hi + 1) / 2;
      if (tail(mid - 1) >= rank)
        lo = mid;
      else
        hi = mid - 1;
    }
    return lo;
  }
};

template <class Device>
ZipfLengths<Device> to_device(const ZipfPlan& p) {
  auto copy = [](const std::vector<std::int64_t>& v, const std::string& label) {
    Kokkos::View<std::int64_t*, Device> d(label, v.size());
    Kokkos::deep_copy(d, Kokkos::View<const std::int64_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                             v.data(), v.size()));
    return d;
  };
  ZipfLengths<Device> z;
  z.head = copy(p.head, "kobalt::bench::zipf::head");
  z.tail = copy(p.tail, "kobalt::bench::zipf::tail");
  z.head_ranks = static_cast<std::int64_t>(p.head.size());
  z.tail_lengths = static_cast<std::int64_t>(p.tail.size());
  return z;
}

}  // namespace kobalt::bench::gen
