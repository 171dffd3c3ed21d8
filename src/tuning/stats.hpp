// SPDX-License-Identifier: BSD-3-Clause
// Row statistics of a matrix, computed once on the device; every strategy
// decision reads these numbers, never the matrix again (docs/contributing.md, "Architecture").
// They include the row-length distribution, so the quantile Q_R(x) of seed
// 000 §4, eq. (6)-(7), that the hybrid split t = Q_R(x) is built on, is read
// off the statistics.
#pragma once

#include "../range.hpp"
#include "../compat.hpp"
#include "../errors.hpp"
#include "../formats/row_lengths.hpp"
#include "../formats/storage_limit.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <ostream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace kobalt::tuning {

/// Row-length variance at or below which a matrix counts as regular: 002 §5.3
/// (sigma^2 of nonzeros per row <= 10).
inline constexpr double regular_variance_limit = 10.0;

/// Row statistics of a sparse matrix. Row lengths are stored entries per row
/// (explicit zeros count). variance is the population variance
/// (1/rows) * sum_i (n_i - mean)^2; 002 §5.3 does not say which variance it
/// uses, Kobalt takes the population one. All fields are 0 for a matrix
/// without rows.
struct MatrixStats {
  std::int64_t rows = 0;  ///< Number of rows.
  std::int64_t cols = 0;  ///< Number of columns.
  std::int64_t nnz = 0;  ///< Stored entries.
  std::int64_t min_row_nnz = 0;  ///< Shortest row.
  std::int64_t max_row_nnz = 0;  ///< Longest row.
  double mean_row_nnz = 0.0;  ///< Mean row length.
  double variance_row_nnz = 0.0;  ///< Population variance of the row lengths.
  std::int64_t empty_rows = 0;  ///< Rows without entries.
  /// The row-length distribution: the distinct row lengths in increasing
  /// order, and in rows_up_to for each the number of rows at most that long
  /// (cumulative). quantile() reads Q_R(x) off it.
  std::vector<std::int64_t> row_lengths;
  std::vector<std::int64_t> rows_up_to;  ///< rows at most row_lengths[i] long

  /// 002 §5.3: regular when the row-length variance is at most 10.
  bool regular() const { return variance_row_nnz <= regular_variance_limit; }

  /// Prints the scalar fields as "{rows=..., cols=..., ...}".
  friend std::ostream& operator<<(std::ostream& os, const MatrixStats& s) {
    return os << "{rows=" << s.rows << ", cols=" << s.cols << ", nnz=" << s.nnz
              << ", min_row_nnz=" << s.min_row_nnz << ", max_row_nnz=" << s.max_row_nnz
              << ", mean_row_nnz=" << s.mean_row_nnz
              << ", variance_row_nnz=" << s.variance_row_nnz
              << ", empty_rows=" << s.empty_rows << "}";
  }
};

namespace detail {
/// One team's rows of the row-length histogram: their short lengths counted
/// in team scratch and added to `count` once per bin, the longer ones added
/// to `count` directly.
template <class ExecutionSpace, class RowLength, class CountView>
struct RowLengthHistogramFunctor {
  using member = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  int local_bins;
  std::int64_t rows_per_team;
  std::int64_t rows;
  RowLength length;
  CountView count;

  KOKKOS_INLINE_FUNCTION void operator()(const member& team) const {
    int* local = static_cast<int*>(team.team_scratch(0).get_shmem(local_bins * sizeof(int)));
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, local_bins),
                         [&](const int b) { local[b] = 0; });
    team.team_barrier();
    const std::int64_t first = team.league_rank() * rows_per_team;
    const std::int64_t last = first + rows_per_team < rows ? first + rows_per_team : rows;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, first, last), [&](const std::int64_t i) {
      const std::int64_t len = static_cast<std::int64_t>(length(i));
      if (len < local_bins)
        Kokkos::atomic_add(&local[len], 1);
      else
        Kokkos::atomic_add(&count(len), std::int64_t(1));
    });
    team.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, local_bins), [&](const int b) {
      if (local[b] != 0) Kokkos::atomic_add(&count(b), std::int64_t(local[b]));
    });
  }
};

/// Bin t of the histogram, if non-empty, as the pair (t, count(t)) at its
/// place among the non-empty bins; the scan's total counts them.
template <class CountView, class PairView>
struct CompactBinFunctor {
  using value_type = std::int64_t;
  CountView count;
  PairView pairs;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t t, std::int64_t& slot,
                                         const bool final) const {
    if (count(t) == 0) return;
    if (final) {
      pairs(2 * slot) = t;
      pairs(2 * slot + 1) = count(t);
    }
    ++slot;
  }
};

/// The row-length distribution of 000 eq. (6): a device histogram of the
/// lengths (team-scratch counts of the short lengths, atomic increments of
/// the rest) and a compaction of the non-empty bins, copied to the host and
/// cumulated there. O(rows + max_len) work, no sort.
template <class ExecutionSpace, class RowLength>
void row_length_distribution(const ExecutionSpace& exec, std::int64_t rows,
                             std::int64_t max_len, const RowLength& length, MatrixStats& s) {
  using count_view = Kokkos::View<std::int64_t*, typename ExecutionSpace::memory_space>;
  const std::int64_t bins = max_len + 1;
  // One zeroed device buffer: the histogram's bins, then room for a
  // (length, rows of that length) pair per bin. One allocation instead of
  // three and one copy to the host instead of two: launches and waits, not
  // work, decide the analysis's time (docs/sources.md: "analyze_moments").
  count_view work(Kokkos::view_alloc(exec, std::string("kobalt::tuning::row_length_histogram")),
                  3 * bins);
  const auto count = Kokkos::subview(work, std::make_pair(std::int64_t(0), bins));
  const auto pairs = Kokkos::subview(work, std::make_pair(bins, 3 * bins));
  // Each team counts its rows' short lengths in team scratch and adds its
  // non-empty bins once: a global atomic per row piles millions of
  // increments onto the few bins of a regular matrix (all rows of a 7-point
  // Laplacian have 4 to 7 entries). Lengths from local_bins on go straight
  // to the global bins (few rows share them).
  using policy_type = Kokkos::TeamPolicy<ExecutionSpace>;
  // Chosen, not swept: 4 KB of int counters per team, and 977 teams for 8e6
  // rows (docs/sources.md: "row-length histogram").
  constexpr std::int64_t local_bins_max = 1024;
  constexpr std::int64_t rows_per_team = 8192;
  const int local_bins = static_cast<int>(bins < local_bins_max ? bins : local_bins_max);
  const std::int64_t league = (rows + rows_per_team - 1) / rows_per_team;
  policy_type policy(exec, static_cast<int>(league), Kokkos::AUTO);
  policy.set_scratch_size(0, compat::per_team(local_bins * sizeof(int)));
  Kokkos::parallel_for(
      "kobalt::tuning::analyze::histogram", policy,
      RowLengthHistogramFunctor<ExecutionSpace, RowLength, std::decay_t<decltype(count)>>{
          local_bins, rows_per_team, rows, length, count});
  // The non-empty bins compacted into (length, rows of that length) pairs;
  // the scan's total is their number, and the host cumulates the counts
  // (distinct lengths only). Against a device scan of the counts and a
  // counting pass before the compaction, two launches and one
  // device-to-host wait fewer, each about a launch floor (docs/sources.md:
  // "Launch cost").
  std::int64_t distinct = 0;
  Kokkos::parallel_scan(
      "kobalt::tuning::analyze::compact", range_policy<ExecutionSpace>(exec, 0, bins),
      CompactBinFunctor<std::decay_t<decltype(count)>, std::decay_t<decltype(pairs)>>{count, pairs},
      distinct);
  Kokkos::View<std::int64_t*, Kokkos::HostSpace> pairs_h(
      compat::uninitialized("kobalt::tuning::distinct_lengths"), 2 * distinct);
  Kokkos::deep_copy(pairs_h, Kokkos::subview(pairs, std::make_pair(std::int64_t(0), 2 * distinct)));
  s.row_lengths.resize(static_cast<std::size_t>(distinct));
  s.rows_up_to.resize(static_cast<std::size_t>(distinct));
  std::int64_t rows_so_far = 0;
  for (std::int64_t d = 0; d < distinct; ++d) {
    rows_so_far += pairs_h(2 * d + 1);
    s.row_lengths[d] = pairs_h(2 * d);
    s.rows_up_to[d] = rows_so_far;
  }
}
}  // namespace detail

namespace detail {
/// row_moments, and the sum over slices of `slice` consecutive rows of each
/// slice's longest row (the last slice may be shorter; nnz when slice = 1).
struct MomentsAndSliceWidths {
  MatrixStats stats;
  std::int64_t slice_widths = 0;  ///< sum of the slices' longest rows
};

/// Adds one row of length `len` to the moments' partial results.
KOKKOS_INLINE_FUNCTION void add_row(std::int64_t len, double mean, std::int64_t& lo,
                                    std::int64_t& hi, std::int64_t& empty, double& squares) {
  if (len < lo) lo = len;
  if (len > hi) hi = len;
  if (len == 0) ++empty;
  const double d = static_cast<double>(len) - mean;
  squares += d * d;
}

/// Row i's length added to the moments' partial results.
template <class RowLength>
struct RowMomentsFunctor {
  RowLength length;
  double mean;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, std::int64_t& lo, std::int64_t& hi,
                                         std::int64_t& e, double& acc) const {
    add_row(static_cast<std::int64_t>(length(i)), mean, lo, hi, e, acc);
  }
};

/// Slice k's rows added to the moments' partial results, and its longest
/// row to the sum of the slice widths.
template <class RowLength>
struct SliceMomentsFunctor {
  std::int64_t slice;
  std::int64_t rows;
  RowLength length;
  double mean;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t k, std::int64_t& lo, std::int64_t& hi,
                                         std::int64_t& e, double& acc, std::int64_t& w) const {
    const std::int64_t first = k * slice;
    const std::int64_t last = rows - first > slice ? first + slice : rows;
    std::int64_t longest = 0;
    for (std::int64_t i = first; i < last; ++i) {
      const std::int64_t len = static_cast<std::int64_t>(length(i));
      add_row(len, mean, lo, hi, e, acc);
      longest = len > longest ? len : longest;
    }
    w += longest;
  }
};

/// row_moments; with `slice` > 1 the same reduction also sums, over slices
/// of `slice` consecutive rows (one work item each), each slice's longest
/// row: SELL-P's slots per slice row (tuning/sellp_fill.hpp). slice = 1
/// keeps one row per work item and four reducers (the widths are then nnz):
/// the sliced loop with a fifth reducer slowed the plain moments
/// (docs/sources.md: "One reduction for the moments").
template <class ExecutionSpace, class RowLength>
MomentsAndSliceWidths row_moments_by_slice(const ExecutionSpace& exec, std::int64_t rows,
                                           std::int64_t cols, std::int64_t nnz,
                                           const RowLength& length, std::int64_t slice) {
  MomentsAndSliceWidths r;
  MatrixStats& s = r.stats;
  s.rows = rows;
  s.cols = cols;
  s.nnz = nnz;
  if (s.rows == 0) return r;
  compat::ScopedRegion region("kobalt::tuning::analyze");
  // One pass: the mean is nnz / rows before any row is read, so the
  // extrema, the empty rows, the squares around the mean and the slice
  // widths share a launch.
  s.mean_row_nnz = static_cast<double>(s.nnz) / static_cast<double>(s.rows);
  const double mean = s.mean_row_nnz;
  std::int64_t min_len = 0, max_len = 0, empty = 0;
  double squares = 0.0;
  if (slice == 1) {
    Kokkos::parallel_reduce(
        "kobalt::tuning::analyze::rows", range_policy<ExecutionSpace>(exec, 0, rows),
        RowMomentsFunctor<RowLength>{length, mean},
        Kokkos::Min<std::int64_t>(min_len), Kokkos::Max<std::int64_t>(max_len),
        Kokkos::Sum<std::int64_t>(empty), Kokkos::Sum<double>(squares));
    r.slice_widths = nnz;
  } else {
    const std::int64_t slices = kobalt::detail::ceil_div(rows, slice);
    std::int64_t widths = 0;
    Kokkos::parallel_reduce(
        "kobalt::tuning::analyze::slices", range_policy<ExecutionSpace>(exec, 0, slices),
        SliceMomentsFunctor<RowLength>{slice, rows, length, mean},
        Kokkos::Min<std::int64_t>(min_len), Kokkos::Max<std::int64_t>(max_len),
        Kokkos::Sum<std::int64_t>(empty), Kokkos::Sum<double>(squares),
        Kokkos::Sum<std::int64_t>(widths));
    r.slice_widths = widths;
  }
  s.min_row_nnz = min_len;
  s.max_row_nnz = max_len;
  s.empty_rows = empty;
  s.variance_row_nnz = squares / static_cast<double>(s.rows);
  return r;
}
}  // namespace detail

/// Row moments from a device-callable `length(i)` (entries of row i), on
/// `exec`, in one reduction: min/max/empty rows and the variance around the
/// mean (numerically safer than a sum of squares). No row-length
/// distribution (analyze_rows adds it).
template <class ExecutionSpace, class RowLength>
MatrixStats row_moments(const ExecutionSpace& exec, std::int64_t rows, std::int64_t cols,
                        std::int64_t nnz, const RowLength& length) {
  return detail::row_moments_by_slice(exec, rows, cols, nnz, length, 1).stats;
}

/// Row statistics from a device-callable `length(i)`, on `exec`:
/// row_moments and the row-length distribution.
template <class ExecutionSpace, class RowLength>
MatrixStats analyze_rows(const ExecutionSpace& exec, std::int64_t rows, std::int64_t cols,
                         std::int64_t nnz, const RowLength& length) {
  MatrixStats s = row_moments(exec, rows, cols, nnz, length);
  if (s.rows == 0) return s;
  compat::ScopedRegion region("kobalt::tuning::analyze");
  detail::row_length_distribution(exec, s.rows, s.max_row_nnz, length, s);
  return s;
}

namespace detail {
/// Row i's length from a row-pointer view.
template <class IndexView>
struct pointer_row_length {
  IndexView ptr;
  KOKKOS_INLINE_FUNCTION std::int64_t operator()(const std::int64_t i) const {
    return static_cast<std::int64_t>(ptr(i + 1) - ptr(i));
  }
};
/// Row i's length from a view of lengths.
template <class LengthView>
struct stored_row_length {
  LengthView len;
  KOKKOS_INLINE_FUNCTION std::int64_t operator()(const std::int64_t i) const {
    return static_cast<std::int64_t>(len(i));
  }
};
template <class T>
struct has_row_ptr {
  template <class U>
  static auto test(int) -> decltype(std::declval<const U&>().row_ptr(), std::true_type{});
  template <class>
  static std::false_type test(...);
  static constexpr bool value = decltype(test<T>(0))::value;
};

/// analyze_rows (with_distribution) or row_moments of any Kobalt format:
/// a Csr's lengths come from its row pointer, the others' are counted first
/// (formats/row_lengths.hpp).
template <class ExecutionSpace, class Matrix>
MatrixStats stats_of(const ExecutionSpace& exec, const Matrix& a, bool with_distribution) {
  const auto run = [&](const auto& length) {
    return with_distribution ? analyze_rows(exec, a.rows(), a.cols(), a.nnz(), length)
                             : row_moments(exec, a.rows(), a.cols(), a.nnz(), length);
  };
  if constexpr (has_row_ptr<Matrix>::value) {
    using view = std::decay_t<decltype(a.row_ptr())>;
    return run(pointer_row_length<view>{a.row_ptr()});
  } else {
    const auto len = kobalt::row_lengths(exec, a);
    return run(stored_row_length<std::decay_t<decltype(len)>>{len});
  }
}
}  // namespace detail

/// Row statistics of any Kobalt format on `exec` (a Csr reads its row
/// pointer; the others count their rows first, formats/row_lengths.hpp).
/// Entries per row count explicit zeros and never padding.
template <class ExecutionSpace, class Matrix>
MatrixStats analyze(const ExecutionSpace& exec, const Matrix& a) {
  static_assert(Kokkos::is_execution_space<ExecutionSpace>::value,
                "kobalt::tuning::analyze: the first argument must be an execution space instance");
  return detail::stats_of(exec, a, true);
}

/// The statistics of analyze without the row-length distribution (so
/// quantile() has nothing to read): one reduction on `exec`, one wait for
/// its result. Enough for every decision but Hybrid's partition; the
/// automatic handle chooses from it (plan/auto_handle.hpp).
template <class ExecutionSpace, class Matrix>
MatrixStats analyze_moments(const ExecutionSpace& exec, const Matrix& a) {
  static_assert(Kokkos::is_execution_space<ExecutionSpace>::value,
                "kobalt::tuning::analyze_moments: the first argument must be an execution space "
                "instance");
  return detail::stats_of(exec, a, false);
}

/// analyze on the default instance of the matrix's execution space.
template <class Matrix>
MatrixStats analyze(const Matrix& a) {
  return analyze(typename Matrix::execution_space(), a);
}

namespace detail {
template <class T>
struct has_max_row_nnz {
  template <class U>
  static auto test(int) -> decltype(std::declval<const U&>().max_row_nnz(), std::true_type{});
  template <class>
  static std::false_type test(...);
  static constexpr bool value = decltype(test<T>(0))::value;
};
}  // namespace detail

/// The statistics a format knows without a pass over its rows: rows, cols,
/// nnz, the mean row length and, where the format keeps it (Csr), the
/// longest row; no distribution. What the handle-less spmv selects from.
template <class Matrix>
MatrixStats summary_stats(const Matrix& a) {
  MatrixStats s;
  s.rows = static_cast<std::int64_t>(a.rows());
  s.cols = static_cast<std::int64_t>(a.cols());
  s.nnz = a.nnz();
  s.mean_row_nnz = s.rows > 0 ? static_cast<double>(s.nnz) / static_cast<double>(s.rows) : 0.0;
  if constexpr (detail::has_max_row_nnz<Matrix>::value)
    s.max_row_nnz = static_cast<std::int64_t>(a.max_row_nnz());
  return s;
}

/// floor(x * n), exactly, for 0 <= x <= 1 and 0 <= n <= 2^53 (the product is
/// split into its rounded value and its exact error with one fma, so no
/// rounding of x * n can move the result across an integer).
inline std::int64_t floor_product(double x, std::int64_t n) {
  const double nd = static_cast<double>(n);
  const double p = x * nd;
  const double error = std::fma(x, nd, -p);  // x * n - p, exact
  double f = std::floor(p);
  if (f == p && error < 0.0) f -= 1.0;
  return static_cast<std::int64_t>(f);
}

/// Q_R(x) of 000 eq. (6)-(7): the smallest t in N = {0, 1, 2, ...} with
/// x < F_R(t), where F_R(t) = |{rows of length <= t}| / rows. Equivalently
/// the (floor(x * rows) + 1)-th smallest row length, read off the
/// distribution that analyze() computed by selection (no sort).
///
/// Ends of the range (000 Table 1):
/// - x < 0: every t satisfies x < F_R(t) (F_R >= 0), so Q_R(x) = 0: no ELL
///   columns, the whole matrix in COO. (Not the shortest row: t = 0 exactly.)
/// - 1 - 1/rows <= x < 1: Q_R(x) = the longest row, the whole matrix in ELL.
/// - x >= 1: no t satisfies x < F_R(t) <= 1; Kobalt defines Q_R(x) = the
///   longest row, the limit of the x -> 1 end (whole matrix in ELL).
/// - a matrix without rows: 0.
/// Throws invalid_parameter if x is NaN or infinite.
inline std::int64_t quantile(const MatrixStats& s, double x) {
  if (!std::isfinite(x))
    throw invalid_parameter("kobalt::tuning::row_length_quantile: x = " + std::to_string(x) +
                            " must be finite (000 eq. 6 takes a real x)");
  if (s.rows == 0 || x < 0.0) return 0;
  if (x >= 1.0) return s.max_row_nnz;
  const std::int64_t rank = floor_product(x, s.rows);  // in [0, rows - 1]
  if (rank >= s.rows - 1) return s.max_row_nnz;
  // First distinct length with more than `rank` rows at or below it.
  const auto it = std::upper_bound(s.rows_up_to.begin(), s.rows_up_to.end(), rank);
  return it == s.rows_up_to.end() ? s.max_row_nnz
                                  : s.row_lengths[static_cast<std::size_t>(it - s.rows_up_to.begin())];
}

/// Entries past the first t of each row (t >= 0): the COO part of a Hybrid
/// whose ELL part is t wide (000 §4), read off the row-length distribution.
/// Throws invalid_parameter if t is negative or the statistics hold no
/// distribution (analyze_moments) for a matrix with entries.
inline std::int64_t entries_beyond(const MatrixStats& s, std::int64_t t) {
  if (t < 0)
    throw invalid_parameter("kobalt::tuning::entries_beyond: t = " + std::to_string(t) +
                            " is negative");
  if (s.nnz == 0) return 0;
  if (s.row_lengths.empty())
    throw invalid_parameter(
        "kobalt::tuning::entries_beyond: the statistics hold no row-length distribution "
        "(tuning::analyze computes it, analyze_moments does not)");
  std::int64_t beyond = 0, below = 0;  // below: rows counted before length i
  for (std::size_t i = 0; i < s.row_lengths.size(); ++i) {
    const std::int64_t rows = s.rows_up_to[i] - below;
    below = s.rows_up_to[i];
    if (s.row_lengths[i] > t) beyond += (s.row_lengths[i] - t) * rows;
  }
  return beyond;
}

/// Q_R(x) of a matrix: quantile(analyze(a), x).
template <class Matrix>
std::int64_t row_length_quantile(const Matrix& a, double x) {
  if (!std::isfinite(x)) return quantile(MatrixStats{}, x);  // throws
  return quantile(analyze(a), x);
}

}  // namespace kobalt::tuning
