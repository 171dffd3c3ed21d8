// SPDX-License-Identifier: BSD-3-Clause
// SpmvHandle: setup once, apply many (in the spirit of KokkosSparse's
// SPMVHandle). Built from a matrix and an execution-space instance, it owns
// the row statistics, the device profile, the kernel strategy, the resolved
// policy and any workspace, and says what it chose (describe()).
#pragma once

#include "../compat.hpp"
#include "../errors.hpp"
#include "../formats/convert_op.hpp"
#include "../formats/format_arrays.hpp"
#include "../formats/mode.hpp"
#include "../formats/value_map.hpp"
#include "../kernels/x_rows.hpp"
#include "../scalar.hpp"
#include "../tuning/policy.hpp"
#include "../tuning/profile.hpp"
#include "../tuning/reproducible.hpp"
#include "../tuning/select.hpp"
#include "../tuning/stats.hpp"
#include "../tuning/strategy.hpp"
#include "../tuning/x_rows.hpp"
#include "dispatch.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>

namespace kobalt {

namespace detail {
/// How `a` relates to the matrix a handle holds, by shape and by the
/// addresses and lengths of its arrays (no pass over them).
enum class matrix_match { same, other_values, other_structure };
template <class Matrix>
matrix_match match_arrays(const Matrix& held, const Matrix& a) {
  if (held.rows() != a.rows() || held.cols() != a.cols() ||
      structure_arrays(held) != structure_arrays(a))
    return matrix_match::other_structure;
  const auto hv = value_arrays(held), av = value_arrays(a);
  bool same_values = true;
  for (std::size_t i = 0; i < hv.size(); ++i) {
    if (hv[i].extent(0) != av[i].extent(0)) return matrix_match::other_structure;
    same_values = same_values && hv[i].data() == av[i].data();
  }
  return same_values ? matrix_match::same : matrix_match::other_values;
}

/// Throws invalid_parameter unless `a` has `held`'s shape, its structure
/// arrays (the same storage) and value arrays of the same lengths.
template <class Matrix>
void check_same_structure(const Matrix& held, const Matrix& a, const std::string& who) {
  if (match_arrays(held, a) == matrix_match::other_structure)
    throw invalid_parameter(who + ": the handle was built for another matrix (" +
                            std::to_string(held.rows()) + " x " + std::to_string(held.cols()) +
                            ", " + std::to_string(held.nnz()) +
                            " entries): its structure arrays must be the handle's own");
}

/// The handle applies the matrix it holds, so `a` must be that matrix or a
/// copy sharing every array (values included); anything else would give
/// another product silently.
template <class Matrix>
void check_handle_matrix(const Matrix& held, const Matrix& a) {
  const matrix_match m = match_arrays(held, a);
  if (m == matrix_match::other_structure) check_same_structure(held, a, "kobalt::spmv");
  if (m == matrix_match::other_values)
    throw invalid_parameter(
        "kobalt::spmv: the matrix's values live in other storage than the handle's; "
        "switch the handle to them with update_values(exec, a)");
}

/// Throws invalid_parameter for an empty handle (default-constructed or
/// moved from), then checks `a` as check_handle_matrix does.
template <class Handle>
void check_handle(const Handle& handle, const typename Handle::matrix_type& a) {
  if (handle.empty())
    throw invalid_parameter("kobalt::spmv: the handle is empty (default-constructed or moved "
                            "from); make it with make_handle");
  check_handle_matrix(handle.matrix(), a);
}
}  // namespace detail

/// Setup of y = alpha*A*x + beta*y for one matrix on one kind of execution
/// space: statistics, profile, strategy, policy and workspace, reused by
/// every spmv(exec, handle, ...).
///
/// Values: the handle shares the matrix's arrays (Views, not copies), so an
/// apply in mode N reads the values the matrix holds at that moment. The
/// copies it makes are snapshots: op(A) for the modes T, C and H holds A's
/// values as of its first apply in that mode, until update_values(exec)
/// writes the current ones into it (one gather, no new analysis). The
/// structure (row pointers, columns, shape) is fixed at setup: another
/// structure needs another handle, and spmv refuses a matrix whose arrays
/// are not the handle's.
///
/// Ownership: a handle is moved, not copied (as KokkosSparse's SPMVHandle):
/// it owns its workspace and op(A) copies. A default-constructed or
/// moved-from handle is empty(); applying it is an invalid_parameter.
///
/// Sharing: apply (spmv with the handle) never changes the handle, except
/// that the first apply in mode T, C or H builds op(A) once (op_handle(),
/// thread-safe) and keeps it for later ones. Applies
/// through one handle may run at the same time on different execution-space
/// instances, except when the handle holds workspace (workspace_bytes() > 0:
/// a permuted CsrK gathers P x there; CSR load_balance and merge_path, COO
/// load_balance and the fixed-order Hybrid and ALIGNED_COO strategies combine
/// the partial sums of split rows there): such applies must be ordered, e.g.
/// one handle per instance (the matrix is shared by reference, not copied).
/// ALIGNED_COO seg_then_flat only reads its workspace (the rows outside its
/// seg part), so its applies may overlap. Rank-2 applies that gather x from
/// a row-major copy (stages_x_rows()) keep the copy in the handle too:
/// they must be ordered the same way. update_values runs on its `exec` and
/// must be ordered with the applies that read the copies.
template <class Matrix, class ExecutionSpace = typename Matrix::execution_space>
class SpmvHandle {
 public:
  using matrix_type = Matrix;                ///< the format the handle applies
  using execution_space = ExecutionSpace;    ///< where setup and applies run
  /// The format's kernel strategies (a std::variant, tuning/strategy.hpp).
  using strategy_type = typename tuning::format_strategy<Matrix>::type;
  /// Partitions and scratch the kernel keeps between applies: a variant
  /// indexed like strategy_type, holding the running strategy's record's.
  using workspace_type = detail::Workspace<Matrix>;
  /// The Csr that op(A) is held in for the modes T, C and H.
  using op_matrix_type = Csr<typename Matrix::value_type, typename Matrix::index_type,
                             typename Matrix::device_type>;
  /// The handle that applies op(A) (op_handle()).
  using op_handle_type = SpmvHandle<op_matrix_type, ExecutionSpace>;

  /// An empty handle (empty() is true), to be assigned a made one: solver
  /// classes hold a handle as a member before they see the matrix.
  SpmvHandle() = default;
  /// Takes `other`'s setup, workspace and copies; `other` is left empty().
  SpmvHandle(SpmvHandle&& other) noexcept = default;
  /// Takes `other`'s setup, workspace and copies; `other` is left empty().
  SpmvHandle& operator=(SpmvHandle&& other) noexcept = default;
  /// Not copyable: a copy would share the workspace and the op(A) copies,
  /// and applies through the two would race on them.
  SpmvHandle(const SpmvHandle&) = delete;
  SpmvHandle& operator=(const SpmvHandle&) = delete;

  /// Analyses `a` on `exec` (tuning::analyze), reads the device profile
  /// (tuning::profile_of), and resolves `strategy` (default: the format's
  /// first; csr::automatic becomes the kernel 003 Alg. 3 picks, which
  /// strategy() then names) to a policy with tuning::select.
  SpmvHandle(const ExecutionSpace& exec, const Matrix& a, const strategy_type& strategy = {})
      : SpmvHandle(exec, a, strategy, tuning::cached_profile_of(exec)) {}

  /// Same with an explicit device profile.
  SpmvHandle(const ExecutionSpace& exec, const Matrix& a, const strategy_type& strategy,
             const tuning::DeviceProfile& profile)
      : SpmvHandle(exec, a, strategy, profile, tuning::analyze(exec, a)) {}

  /// Same with statistics computed by the caller (tuning::analyze, or
  /// tuning::summary_stats where no decision needs the distribution).
  SpmvHandle(const ExecutionSpace& exec, const Matrix& a, const strategy_type& strategy,
             const tuning::DeviceProfile& profile, const tuning::MatrixStats& stats)
      : SpmvHandle(selected{}, exec, a, strategy, profile, stats,
                   detail::policy_for(stats, profile, a, strategy)) {}

  /// Same with a launch policy given instead of selected (experiments,
  /// kobalt-tune): it must have the strategy's launches; the kernels check
  /// their own invariants (CSR-k: team_size a multiple of row_threads) and
  /// throw invalid_parameter.
  SpmvHandle(const ExecutionSpace& exec, const Matrix& a, const strategy_type& strategy,
             const tuning::DeviceProfile& profile, const tuning::MatrixStats& stats,
             const tuning::SpmvPolicy& policy)
      : SpmvHandle(selected{}, exec, a, strategy, profile, stats,
                   checked(exec, policy, detail::policy_for(stats, profile, a, strategy))) {}

  /// Reproducible results: a fixed-order strategy (default: the format's
  /// first fixed-order one, tuning::reproducible_strategy) and one part per
  /// row, so every apply gives the same bits (same matrix, x, y, alpha,
  /// beta, device and profile). A strategy that adds with atomics (COO
  /// segmented, Hybrid ell_then_coo, ALIGNED_COO seg_then_flat) is an
  /// invalid_parameter naming the alternative.
  SpmvHandle(const ExecutionSpace& exec, const Matrix& a, reproducible_t)
      : SpmvHandle(exec, a, tuning::reproducible_strategy<strategy_type>(), reproducible_t{}) {}
  /// Reproducible with the given fixed-order strategy.
  SpmvHandle(const ExecutionSpace& exec, const Matrix& a, const strategy_type& strategy,
             reproducible_t)
      : SpmvHandle(exec, a, strategy, tuning::cached_profile_of(exec), reproducible_t{}) {}
  /// Reproducible with an explicit device profile.
  SpmvHandle(const ExecutionSpace& exec, const Matrix& a, const strategy_type& strategy,
             const tuning::DeviceProfile& profile, reproducible_t)
      : SpmvHandle(exec, a, strategy, profile, tuning::analyze(exec, a), reproducible_t{}) {}
  /// Reproducible with statistics computed by the caller.
  SpmvHandle(const ExecutionSpace& exec, const Matrix& a, const strategy_type& strategy,
             const tuning::DeviceProfile& profile, const tuning::MatrixStats& stats,
             reproducible_t)
      : SpmvHandle(selected{}, exec, a,
                   tuning::checked_fixed_order(strategy, tuning::format_strategy<Matrix>::format),
                   profile, stats,
                   tuning::one_part_per_row(detail::policy_for(stats, profile, a, strategy))) {}

  /// True for a default-constructed or moved-from handle, which applies
  /// nothing.
  bool empty() const { return !made_.value; }
  /// The matrix the handle was made for (shared, not copied).
  const Matrix& matrix() const { return matrix_; }
  /// The strategy that runs (csr::automatic resolved to a concrete kernel).
  const strategy_type& strategy() const { return strategy_; }
  /// The device profile the launch constants came from.
  const tuning::DeviceProfile& profile() const { return profile_; }
  /// The matrix statistics the choice was made from.
  const tuning::MatrixStats& stats() const { return stats_; }
  /// The launch policy: team size, vector length, parts, and the rule that set them.
  const tuning::SpmvPolicy& policy() const { return policy_; }
  /// Partitions and scratch kept between applies.
  const workspace_type& workspace() const { return workspace_; }
  /// Device bytes the workspace holds.
  std::size_t workspace_bytes() const { return detail::workspace_bytes(workspace_); }

  /// True when a rank-2 apply with `columns` right-hand sides of
  /// `value_bytes`-byte values gathers x from a row-major copy
  /// (tuning::stage_x_rows on this handle's statistics and profile; device
  /// execution spaces only, kernels/x_rows.hpp).
  bool stages_x_rows(std::int64_t columns, std::int64_t value_bytes) const {
    if constexpr (detail::may_stage_x_rows<ExecutionSpace>)
      return tuning::stage_x_rows(stats_, profile_, columns, value_bytes);
    else
      return false;
  }
  /// Device bytes held for the row-major copy of x: 0 until the first
  /// apply that makes one, then the largest copy made so far.
  std::size_t x_rows_bytes() const {
    if (!x_rows_) return 0;
    const std::lock_guard<std::mutex> lock(x_rows_->mutex);
    return x_rows_->storage.extent(0);
  }
  /// x copied row-major on `exec` (kernels/x_rows.hpp) into memory the
  /// handle keeps: allocated at the first staged apply, grown when a later
  /// one needs more, and shared by copies of this handle. spmv calls it
  /// where stages_x_rows() says so.
  template <class XView>
  detail::x_rows_view<ExecutionSpace, XView> x_rows(const ExecutionSpace& exec,
                                                    const XView& x) const {
    const std::size_t bytes = detail::x_rows_bytes(x);
    const std::lock_guard<std::mutex> lock(x_rows_->mutex);
    if (x_rows_->storage.extent(0) < bytes)
      x_rows_->storage = decltype(x_rows_->storage)(compat::uninitialized(exec, "kobalt::x_rows"),
                                                    bytes);
    return detail::copy_x_rows(exec, x, x_rows_->storage.data());
  }

  /// The handle that applies op(A) for `mode` T, C or H (spmv with a mode):
  /// built at the first call for that mode, on `exec` (to_csr(exec, A,
  /// mode): A^T and A^H are sorted copies, so they cost a conversion and
  /// A's storage once more), then kept and shared by copies of this handle.
  /// Its strategy is the one this handle was asked for when A is a Csr
  /// (csr::automatic is resolved again, on op(A)'s statistics), csr::automatic
  /// for the other formats (every CSR strategy adds in a fixed order; when
  /// this handle is reproducible(), op(A)'s is made with kobalt::reproducible
  /// too); its profile is this handle's. For real values
  /// H is T and C is invalid_parameter like N (apply A itself). Safe to call
  /// from several threads: the first call builds, the others wait for it.
  const op_handle_type& op_handle(const ExecutionSpace& exec, Mode mode) const {
    if (!is_complex_v<typename Matrix::value_type> && mode == Mode::conjugate_transpose)
      mode = Mode::transpose;
    if (mode == Mode::none || (!is_complex_v<typename Matrix::value_type> && mode == Mode::conjugate))
      throw invalid_parameter(std::string("kobalt::SpmvHandle::op_handle: mode ") +
                              mode_name(mode) + " applies the matrix itself; use spmv without a mode");
    check_made("kobalt::SpmvHandle::op_handle");
    const std::lock_guard<std::mutex> lock(ops_->mutex);
    auto& slot = ops_->copies[static_cast<int>(mode) - 1];
    if (!slot.handle) {
      // The copy keeps a map of where each value came from (update_values).
      auto copy = op_map_type::convert(
          exec, matrix_, [mode](const auto& e, const auto& m) { return to_csr(e, m, mode); },
          conjugates(mode) && is_complex_v<typename Matrix::value_type>);
      slot.handle = reproducible() ? std::make_unique<op_handle_type>(
                                         exec, copy.matrix, op_strategy_, profile_,
                                         reproducible_t{})
                                   : std::make_unique<op_handle_type>(exec, copy.matrix,
                                                                      op_strategy_, profile_);
      slot.map = std::move(copy.map);
    }
    return *slot.handle;
  }

  /// Writes the matrix's current values into every copy the handle holds
  /// (the op(A) copies built so far), on `exec`: one gather per copy through
  /// the map its conversion kept, no new analysis or choice. A handle that
  /// holds no copy (holds_value_copy() false) reads the matrix at every
  /// apply and does nothing here.
  void update_values(const ExecutionSpace& exec) {
    check_made("kobalt::SpmvHandle::update_values");
    const std::lock_guard<std::mutex> lock(ops_->mutex);
    for (auto& slot : ops_->copies)
      if (slot.handle) {
        slot.map.gather(exec, detail::value_arrays(matrix_));
        slot.handle->update_values(exec);
      }
  }
  /// The same after switching to the values of `a`: a matrix with this
  /// handle's structure (the same row pointer and column arrays, not equal
  /// copies of them) whose values may live in other storage; later applies
  /// take `a`. Throws invalid_parameter for another structure.
  void update_values(const ExecutionSpace& exec, const Matrix& a) {
    check_made("kobalt::SpmvHandle::update_values");
    detail::check_same_structure(matrix_, a, "kobalt::SpmvHandle::update_values");
    matrix_ = a;
    update_values(exec);
  }
  /// True when the handle holds values of its own (op(A) copies), which
  /// update_values refreshes; false when every apply reads the matrix.
  bool holds_value_copy() const {
    if (!ops_) return false;
    const std::lock_guard<std::mutex> lock(ops_->mutex);
    for (const auto& slot : ops_->copies)
      if (slot.handle) return true;
    return false;
  }

  /// Device bytes of the op(A) copies built so far (op_handle()), with
  /// their workspace.
  std::uint64_t op_bytes() const {
    if (!ops_) return 0;
    const std::lock_guard<std::mutex> lock(ops_->mutex);
    std::uint64_t bytes = 0;
    for (const auto& slot : ops_->copies)
      if (slot.handle)
        bytes += slot.handle->matrix().bytes() + slot.handle->workspace_bytes() + slot.map.bytes();
    return bytes;
  }

  /// True when every apply adds in a fixed order (no atomics on y): the
  /// same bits on every run. Handles made with kobalt::reproducible always
  /// are; others are when their kernel happens to be (CSR, SELL-P, CSR-k,
  /// ELL with one part per row, COO load_balance, ...).
  bool reproducible() const {
    return tuning::fixed_order(strategy_) && !tuning::splits_rows(policy_);
  }

  /// One line for tables: the kernel and its launches, e.g.
  /// "classical rows{team_size=16, vector_length=8, rows_per_team=16}".
  std::string summary() const { return policy_.str(); }

  /// What was chosen and why: format, kernel, launches, the rule that fired,
  /// the statistics it read and the device profile.
  std::string describe() const {
    if (empty()) return "empty handle (default-constructed or moved from)";
    std::ostringstream os;
    os << tuning::format_strategy<Matrix>::format << " " << policy_ << "; rule: " << policy_.rule
       << "; stats: rows=" << stats_.rows << " nnz=" << stats_.nnz
       << " max_row_nnz=" << stats_.max_row_nnz << " mean_row_nnz=" << stats_.mean_row_nnz
       << "; device: " << profile_;
    os << (reproducible() ? "; summation: fixed order (the same bits on every run)"
                          : "; summation: atomics (the last bits may change from run to run)");
    if (workspace_bytes() > 0) os << "; workspace " << workspace_bytes() << " bytes";
    if (x_rows_bytes() > 0) os << "; row-major copy of x " << x_rows_bytes() << " bytes";
    os << "; values: read from the matrix at every apply";
    {
      const std::lock_guard<std::mutex> lock(ops_->mutex);
      for (int m = 0; m < 3; ++m)
        if (const auto& h = ops_->copies[m].handle)
          os << "; mode " << mode_name(static_cast<Mode>(m + 1)) << ": Csr copy of "
             << h->matrix().bytes() << " bytes (values as of its setup or the last "
             << "update_values), " << h->summary();
    }
    return os.str();
  }

 private:
  /// Throws invalid_parameter for an empty handle.
  void check_made(const char* who) const {
    if (empty())
      throw invalid_parameter(std::string(who) +
                              ": the handle is empty (default-constructed or moved from); "
                              "make it with make_handle");
  }

  /// `policy` if it has the launches `expected` has, each with positive
  /// sizes; throws invalid_parameter otherwise (before anything is allocated).
  static const tuning::SpmvPolicy& checked(const ExecutionSpace& exec,
                                           const tuning::SpmvPolicy& policy,
                                           const tuning::SpmvPolicy& expected) {
    if (policy.launches.size() != expected.launches.size())
      throw invalid_parameter("kobalt::SpmvHandle: policy '" + policy.str() + "' has " +
                              std::to_string(policy.launches.size()) + " launches, " +
                              expected.kernel + " needs " +
                              std::to_string(expected.launches.size()));
    for (std::size_t n = 0; n < policy.launches.size(); ++n) {
      const auto& l = policy.launches[n];
      // Chunked launches walk entries_per_thread entries; row launches none.
      const bool chunked = expected.launches[n].entries_per_thread > 0;
      if (l.team_size < 1 || l.vector_length < 1 || l.rows_per_team < 1 || l.row_threads < 1 ||
          (chunked ? l.entries_per_thread < 1 : l.entries_per_thread != 0))
        throw invalid_parameter("kobalt::SpmvHandle: launch " + policy.str() +
                                " needs positive sizes (entries_per_thread >= 1 for chunked "
                                "launches, 0 for row launches)");
    }
    // A forced policy is refused, not clamped, where the backend cannot run it.
    tuning::check_launches(policy, arch::cached_team_limits(exec), "kobalt::SpmvHandle");
    return policy;
  }

  /// Tag of the constructor that every other one ends in: the policy is
  /// taken as it is (selected, or checked by the caller).
  struct selected {};
  SpmvHandle(selected, const ExecutionSpace& exec, const Matrix& a, const strategy_type& strategy,
             const tuning::DeviceProfile& profile, const tuning::MatrixStats& stats,
             const tuning::SpmvPolicy& policy)
      : matrix_(a),
        strategy_(tuning::resolve(stats, profile, strategy)),
        op_strategy_(op_strategy_for(strategy)),
        profile_(profile),
        stats_(stats),
        policy_(policy),
        made_(true) {
    workspace_ = detail::make_workspace(exec, a, strategy_, policy_);
  }

  /// The strategy op(A)'s Csr runs: a Csr handle's own, as asked for (before
  /// csr::automatic is resolved: op(A) has other row lengths), else
  /// csr::automatic.
  static csr::strategy op_strategy_for(const strategy_type& asked) {
    if constexpr (std::is_same_v<strategy_type, csr::strategy>) return asked;
    else return csr::automatic{};
  }

  /// Slot numbers of op(A)'s values in A's value arrays.
  using op_map_type =
      ValueMap<typename Matrix::value_type, typename Matrix::index_type, typename Matrix::device_type>;
  /// op(A) handles of the modes T, C, H (index mode - 1), built on first
  /// use, each with the map that refreshes its values.
  struct OpCopy {
    std::unique_ptr<op_handle_type> handle;
    op_map_type map;
  };
  struct OpHandles {
    std::mutex mutex;
    OpCopy copies[3];
  };

  /// True once made; a move leaves the source false (empty()).
  struct made_flag {
    bool value = false;
    made_flag() = default;
    explicit made_flag(bool v) : value(v) {}
    made_flag(made_flag&& o) noexcept : value(std::exchange(o.value, false)) {}
    made_flag& operator=(made_flag&& o) noexcept {
      value = std::exchange(o.value, false);
      return *this;
    }
  };

  /// The row-major copy of x (x_rows()), made on first use.
  struct XRows {
    std::mutex mutex;
    Kokkos::View<char*, typename ExecutionSpace::memory_space> storage;
  };

  Matrix matrix_;
  std::shared_ptr<OpHandles> ops_ = std::make_shared<OpHandles>();
  std::shared_ptr<XRows> x_rows_ = std::make_shared<XRows>();
  strategy_type strategy_;
  csr::strategy op_strategy_;
  tuning::DeviceProfile profile_;
  tuning::MatrixStats stats_;
  tuning::SpmvPolicy policy_;
  made_flag made_;
  workspace_type workspace_;
};

/// make_handle(exec, A[, strategy]): SpmvHandle with the types deduced.
template <class ExecutionSpace, class Matrix, class... Rest>
SpmvHandle<Matrix, ExecutionSpace> make_handle(const ExecutionSpace& exec, const Matrix& a,
                                               const Rest&... rest) {
  static_assert(Kokkos::is_execution_space<ExecutionSpace>::value,
                "kobalt::make_handle: the first argument must be an execution space instance");
  return SpmvHandle<Matrix, ExecutionSpace>(exec, a, rest...);
}

}  // namespace kobalt
