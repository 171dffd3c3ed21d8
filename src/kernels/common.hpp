// SPDX-License-Identifier: BSD-3-Clause
// Pieces every kernel shares: the column blocks of x and y (rank-2 x and y
// run one launch per block of columns, loading each matrix entry once for
// the whole block), the per-row sums of a block, the y epilogue, the beta
// scaling of y and the kernel labels.
#pragma once

#include "../range.hpp"
#include "../arch/arch.hpp"
#include "../compat.hpp"
#include "../errors.hpp"
#include "../scalar.hpp"
#include "../tuning/launch_limits.hpp"
#include "../tuning/policy.hpp"

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>

namespace kobalt::detail {

// Team scratch at a level chosen at run time: Kokkos picks its scratch
// pointer by reference from the level, which nvcc then keeps in local memory;
// asking for each level by a constant keeps it in registers
// (docs/sources.md: "team_scratch_aligned").
/// `bytes` of team scratch at `level` (0 or 1), aligned to `alignment`.
template <class Member>
KOKKOS_INLINE_FUNCTION void* team_scratch_aligned(const Member& team, int level, std::size_t bytes,
                                                  std::size_t alignment) {
  const auto a = static_cast<std::ptrdiff_t>(alignment);
  return level == 0 ? team.team_scratch(0).get_shmem_aligned(bytes, a)
                    : team.team_scratch(1).get_shmem_aligned(bytes, a);
}

// Right-hand sides one launch accumulates for rank-2 x and y: 8 partial
// sums per thread (8 fp64 registers pairs) keeps the row kernels' register
// count moderate; wider blocks were not measured. K > 8 columns run
// ceil(K / 8) launches, each loading A once.
inline constexpr int rhs_block = 8;

/// Columns per launch for a View: 1 for rank-1, rhs_block for rank-2.
template <class View>
inline constexpr int block_width = compat::rank_v<View> == 1 ? 1 : rhs_block;

/// N partial sums, one per right-hand side of a block.
template <class Scalar, int N>
struct Sums {
  Scalar v[N];
  KOKKOS_INLINE_FUNCTION Sums() {
    for (int j = 0; j < N; ++j) v[j] = Scalar(0);
  }
  KOKKOS_INLINE_FUNCTION Sums& operator+=(const Sums& o) {
    for (int j = 0; j < N; ++j) v[j] += o.v[j];
    return *this;
  }
};

/// *p through a volatile pointer: a partial sum another SM wrote during this
/// launch (no stale L1 line). A complex value is read as its two parts
/// (Kokkos::complex's volatile overloads are deprecated).
template <class T>
KOKKOS_INLINE_FUNCTION T read_volatile(const T* p) {
  if constexpr (is_complex_v<T>) {
    using R = real_type_t<T>;
    const volatile R* parts = reinterpret_cast<const volatile R*>(p);
    const R re = parts[0], im = parts[1];
    return T(re, im);
  } else {
    return *static_cast<const volatile T*>(p);
  }
}

/// Which columns of a rank-2 x/y a launch covers: [first, first + count),
/// count <= N. Rank-1 blocks (N = 1) store nothing: the functors stay as
/// small as before rank-2 blocks existed, below Kokkos' constant-memory
/// launch path (sizeof(driver) >= 512; docs/sources.md: "Large kernel objects").
template <int N>
struct Columns {
  int first = 0, count = N;
  KOKKOS_INLINE_FUNCTION Columns(int first_column, int columns)
      : first(first_column), count(columns) {}
};
template <>
struct Columns<1> {
  static constexpr int first = 0, count = 1;
  KOKKOS_INLINE_FUNCTION Columns(int, int) {}
};

/// A block of columns of x (rank-1: the View).
template <class XView, int N = block_width<XView>>
struct XBlock : Columns<N> {
  static constexpr int count_max = N;
  XView x;
  XBlock(const XView& view, int first_column, int columns)
      : Columns<N>(first_column, columns), x(view) {}
  /// s_j += a * x(c, first + j) for the block's columns.
  template <class Scalar, class A, class C>
  KOKKOS_INLINE_FUNCTION void fma(Sums<Scalar, N>& s, const A& a, const C& c) const {
    if constexpr (compat::rank_v<XView> == 1) {
      s.v[0] += Scalar(a) * Scalar(x(c));
    } else if (this->count == N) {  // a full block: no per-column test (loads issue together)
      for (int j = 0; j < N; ++j) s.v[j] += Scalar(a) * Scalar(x(c, this->first + j));
    } else {
      for (int j = 0; j < N; ++j)
        if (j < this->count) s.v[j] += Scalar(a) * Scalar(x(c, this->first + j));
    }
  }
};

/// A block of columns of y, with the epilogues.
template <class YView, int N = block_width<YView>>
struct YBlock : Columns<N> {
  using scalar = typename YView::non_const_value_type;
  static constexpr int count_max = N;
  YView y;
  YBlock(const YView& view, int first_column, int columns)
      : Columns<N>(first_column, columns), y(view) {}

  template <bool HasBeta, class Row>
  KOKKOS_INLINE_FUNCTION void store(const Row& i, scalar alpha, const Sums<scalar, N>& s,
                                    scalar beta) const {
    if constexpr (compat::rank_v<YView> == 1) {
      store_one<HasBeta>(y(i), alpha, s.v[0], beta);
    } else if (this->count == N) {
      for (int j = 0; j < N; ++j) store_one<HasBeta>(y(i, this->first + j), alpha, s.v[j], beta);
    } else {
      for (int j = 0; j < N; ++j)
        if (j < this->count) store_one<HasBeta>(y(i, this->first + j), alpha, s.v[j], beta);
    }
  }
  /// y_i += alpha*sum, atomically (several threads may share row i).
  template <class Row>
  KOKKOS_INLINE_FUNCTION void atomic_add(const Row& i, scalar alpha,
                                         const Sums<scalar, N>& s) const {
    if constexpr (compat::rank_v<YView> == 1) {
      arch::atomic_add(&y(i), alpha * s.v[0]);
    } else {
      for (int j = 0; j < N; ++j)
        if (j < this->count) arch::atomic_add(&y(i, this->first + j), alpha * s.v[j]);
    }
  }
  /// y_i += alpha*sum where row i belongs to this thread alone.
  template <class Row>
  KOKKOS_INLINE_FUNCTION void add(const Row& i, scalar alpha, const Sums<scalar, N>& s) const {
    if constexpr (compat::rank_v<YView> == 1) {
      y(i) += alpha * s.v[0];
    } else {
      for (int j = 0; j < N; ++j)
        if (j < this->count) y(i, this->first + j) += alpha * s.v[j];
    }
  }

 private:
  /// y_i = alpha*sum (HasBeta == false: y's old value, NaN included, is never
  /// read) or alpha*sum + beta*y_i. The only compile-time switch besides the
  /// vector width: the two that change the generated code.
  template <bool HasBeta>
  KOKKOS_INLINE_FUNCTION static void store_one(scalar& y_i, scalar alpha, scalar sum,
                                               scalar beta) {
    if constexpr (HasBeta) {
      y_i = alpha * sum + beta * y_i;
    } else {
      (void)beta;
      y_i = alpha * sum;
    }
  }
};

/// Calls launch(XBlock, YBlock) once per block of block_width columns of x
/// and y (once for rank-1 Views).
template <class XView, class YView, class Launch>
void for_each_column_block(const XView& x, const YView& y, Launch&& launch) {
  constexpr int n = block_width<YView>;
  const int columns = compat::rank_v<YView> == 1 ? 1 : static_cast<int>(y.extent(1));
  for (int first = 0; first < columns; first += n) {
    const int count = columns - first < n ? columns - first : n;
    launch(XBlock<XView, n>{x, first, count}, YBlock<YView, n>{y, first, count});
  }
}

/// Calls launch(std::bool_constant<beta != 0>{}): the kernels' one
/// compile-time switch on beta, picked at run time.
template <class Scalar, class Launch>
void dispatch_beta(Scalar beta, Launch&& launch) {
  if (beta == Scalar(0))
    launch(std::false_type{});
  else
    launch(std::true_type{});
}

/// y(i) = beta*y(i), or 0 when zero: one entry of a rank-1 y.
template <class YView>
struct ScaleYFunctor {
  using scalar = typename YView::non_const_value_type;
  YView y;
  scalar beta;
  bool zero;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    y(i) = zero ? scalar(0) : beta * y(i);
  }
};

/// Flat entry e of a rank-2 y of n rows (row e % n, column e / n) times
/// beta, or 0 when zero.
template <class YView>
struct ScaleYBlockFunctor {
  using scalar = typename YView::non_const_value_type;
  YView y;
  scalar beta;
  bool zero;
  std::int64_t n;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t e) const {
    auto& v = y(e % n, e / n);
    v = zero ? scalar(0) : beta * v;
  }
};

/// y = beta*y (every column of a rank-2 y), with beta == 0 writing zeros
/// (NaN in y does not survive). Used before kernels that accumulate into y.
template <class ExecutionSpace, class YView>
void scale(const ExecutionSpace& exec, typename YView::non_const_value_type beta,
           const YView& y) {
  using scalar = typename YView::non_const_value_type;
  const std::int64_t n = static_cast<std::int64_t>(y.extent(0));
  const std::int64_t k = compat::rank_v<YView> == 1 ? 1 : static_cast<std::int64_t>(y.extent(1));
  if (beta == scalar(1) || n == 0 || k == 0) return;
  const bool zero = beta == scalar(0);
  const char* label = zero ? "kobalt::scale<zero>" : "kobalt::scale";
  if constexpr (compat::rank_v<YView> == 1) {
    Kokkos::parallel_for(
        label, range_policy<ExecutionSpace>(exec, 0, n),
        ScaleYFunctor<YView>{y, beta, zero});
  } else {
    Kokkos::parallel_for(
        label, range_policy<ExecutionSpace>(exec, 0, n * k),
        ScaleYBlockFunctor<YView>{y, beta, zero, n});
  }
}

/// Counts the rows r with mark(r) == 0 (a mark per row: rows with entries
/// in a part, or in the matrix).
template <class MarkView>
struct CountUnmarkedRowsFunctor {
  using value_type = std::int64_t;
  MarkView mark;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t r, std::int64_t& n) const {
    n += mark(r) == 0 ? 1 : 0;
  }
};

/// Writes the rows r with mark(r) == 0, increasing, into list.
template <class Index, class MarkView, class ListView>
struct ListUnmarkedRowsFunctor {
  using value_type = std::int64_t;
  MarkView mark;
  ListView list;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t r, std::int64_t& at,
                                         const bool final) const {
    if (mark(r) != 0) return;
    if (final) list(at) = static_cast<Index>(r);
    ++at;
  }
};

/// Kernels whose handle holds a partition into pieces of `per_warp` items
/// (CSR chunks, merge-path tiles) need a launch of W-lane warps walking
/// exactly that: s.vector_length == W and s.entries_per_thread * W ==
/// per_warp. Throws invalid_parameter naming both otherwise.
inline void check_warp_partition(const std::string& label, const tuning::LaunchShape& s, int w,
                                 std::int64_t per_warp, const char* pieces) {
  if (s.vector_length != w || s.entries_per_thread * w != per_warp)
    throw invalid_parameter("kobalt: " + label + " needs vector_length = the warp width " +
                            std::to_string(w) + " and the handle's " + pieces + " of " +
                            std::to_string(per_warp) + " items, got " +
                            std::to_string(s.vector_length) + " lanes x " +
                            std::to_string(s.entries_per_thread));
}

/// The team policy of a launch of `label`: `league` teams of `team_size`
/// threads with `vector_length` lanes, checked first against what the
/// backend runs (arch::cached_team_limits). Kokkos aborts on a host team
/// too large, throws on a GPU one and shortens a vector it cannot run;
/// here each is an invalid_parameter naming the limit.
template <class Policy, class ExecutionSpace>
Policy checked_team_policy(const ExecutionSpace& exec, const std::string& label,
                           std::int64_t league, int team_size, int vector_length) {
  if (league < 0 || league > std::numeric_limits<int>::max())
    throw invalid_parameter("kobalt: " + label + ": " + std::to_string(league) +
                            " teams; a Kokkos league holds at most " +
                            std::to_string(std::numeric_limits<int>::max()));
  const std::string why =
      tuning::team_excess(team_size, vector_length, arch::cached_team_limits(exec));
  if (!why.empty()) throw invalid_parameter("kobalt: " + label + ": " + why);
  return Policy(exec, static_cast<int>(league), team_size, vector_length);
}

/// Throws invalid_parameter naming the limit unless `bytes` of team scratch
/// at `level` fit what the backend allows (Kokkos' scratch_size_max).
template <class ExecutionSpace>
void check_team_scratch(const ExecutionSpace& exec, const std::string& label, int level,
                        std::size_t bytes) {
  const std::string why = tuning::scratch_excess(level, bytes, arch::cached_team_limits(exec));
  if (!why.empty()) throw invalid_parameter("kobalt: " + label + ": " + why);
}

/// Kokkos' team_size_max of functor `f` under `policy` (its lanes and
/// level-0 scratch): on GPUs the kernel's registers and scratch can lower
/// the backend's limit. Asked once per functor type, lanes and scratch.
template <class Policy, class Functor>
int functor_team_size_max(const Policy& policy, const Functor& f) {
  static std::mutex lock;
  static std::map<std::pair<int, std::size_t>, int> known;
  const std::pair<int, std::size_t> key{policy.impl_vector_length(),
                                        static_cast<std::size_t>(policy.scratch_size(0))};
  const std::lock_guard<std::mutex> guard(lock);
  auto it = known.find(key);
  if (it == known.end())
    it = known.emplace(key, policy.team_size_max(f, Kokkos::ParallelForTag())).first;
  return it->second;
}

/// Kokkos::parallel_for(label, policy, f), once the backend is known to run
/// `f` with the policy's team (functor_team_size_max); otherwise an
/// invalid_parameter naming the limit.
template <class Policy, class Functor>
void team_parallel_for(const std::string& label, const Policy& policy, const Functor& f) {
  const int most = functor_team_size_max(policy, f);
  if (policy.team_size() > most)
    throw invalid_parameter("kobalt: " + label + ": team_size " +
                            std::to_string(policy.team_size()) + ": the backend runs this kernel " +
                            "with at most " + std::to_string(most) +
                            " team threads (Kokkos team_size_max)");
  Kokkos::parallel_for(label, policy, f);
}

/// Kokkos::parallel_for of `f` over league_of(team) teams of `team_size`
/// threads of `vector_length` lanes, or of Kokkos' team_size_max of f where
/// that is lower: on GPUs a kernel's registers cap its team per value type
/// and block of right-hand sides, which no profile or given policy can know.
/// Only for kernels whose teams walk their share with any number of threads
/// (team.team_size(), TeamThreadRange): the result is the same bits.
template <class ExecutionSpace, class LeagueOf, class Functor>
void team_parallel_for_fitted(const ExecutionSpace& exec, const std::string& label, int team_size,
                              int vector_length, const LeagueOf& league_of, const Functor& f) {
  using policy_type = Kokkos::TeamPolicy<ExecutionSpace>;
  // One policy per launch; a second only where the registers lower the team.
  auto policy = checked_team_policy<policy_type>(exec, label, league_of(team_size), team_size,
                                                 vector_length);
  const int most = functor_team_size_max(policy, f);
  if (most < 1)
    throw invalid_parameter("kobalt: " + label + ": the backend runs no team of " +
                            std::to_string(vector_length) + " lanes for this kernel");
  if (team_size > most)
    policy = checked_team_policy<policy_type>(exec, label, league_of(most), most, vector_length);
  Kokkos::parallel_for(label, policy, f);
}

/// Fewer threads than the device runs at once: one partial wave, where
/// every warp is resident and waits on its load chain, so longer batches of
/// loads (row_reduce.hpp's short_wave_slot_batch) shorten the kernel.
template <class ExecutionSpace>
bool below_one_wave(const ExecutionSpace& exec, std::int64_t threads) {
  return threads < static_cast<std::int64_t>(exec.concurrency());
}

/// "kobalt::spmv<format,strategy>": the label every kernel launches under.
/// Callers keep it in a static: built per apply, it was host time that the
/// launch floor pays (docs/sources.md, "host time of an apply").
inline std::string kernel_label(const std::string& format, const std::string& strategy) {
  return "kobalt::spmv<" + format + "," + strategy + ">";
}

}  // namespace kobalt::detail

namespace Kokkos {
/// Identity of the Sum reduction over a block's partial sums (Kokkos'
/// documented way to reduce a custom type).
template <class Scalar, int N>
struct reduction_identity<kobalt::detail::Sums<Scalar, N>> {
  KOKKOS_FORCEINLINE_FUNCTION static kobalt::detail::Sums<Scalar, N> sum() {
    return kobalt::detail::Sums<Scalar, N>();
  }
};
}  // namespace Kokkos
