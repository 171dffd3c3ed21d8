// SPDX-License-Identifier: BSD-3-Clause
// SpmvPolicy: the one resolved policy of every (format, strategy): which
// kernel runs and each launch's shape, with the rule that chose them.
// Chosen by tuning::select, held by the handle, handed to the kernels
// (which select nothing), printed by describe() and kobalt-bench.
#pragma once

#include <cstdint>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

namespace kobalt::tuning {

/// Which body a kernel with several runs; the selector names it and the
/// kernel follows it (a form the kernel cannot run is an error, not a cue
/// to pick another). `single`: the kernel has one body.
enum class LaunchForm {
  single,
  thread_per_row,  ///< SELL-P: one thread walks a row (t = 1)
  column_groups,   ///< SELL-P: t threads per row, summed in team scratch
  host_simd,       ///< SELL-P on hosts: a slice's rows are one SIMD vector
  one_launch,      ///< GPU merge_path: rows split between tiles finish in the tile kernel
  with_fixup,      ///< GPU merge_path: a second launch finishes the split rows
  team_tiles,      ///< GPU COO load_balance: a team per tile, a run of entries per thread
};

/// How a kernel loads the matrix's values: through L1 as usual, or past L1
/// into L2 only (arch::loads::cached_in_l2), which ran GPU merge_path team
/// tiles faster on matrices that nearly fill the L2.
enum class ValueLoads { cached, l2_only };

/// Entries per thread of a team_tiles launch: a run of 8 is a multiple of
/// 16 bytes in every index and value array, read with 16-byte loads, and
/// spreads a tile's fixed work (scans, borders, split rows) over more entries.
inline constexpr int team_tile_run = 8;

/// The form's name as policies print it.
inline const char* form_name(LaunchForm f) {
  switch (f) {
    case LaunchForm::single: return "single";
    case LaunchForm::thread_per_row: return "thread_per_row";
    case LaunchForm::column_groups: return "column_groups";
    case LaunchForm::host_simd: return "host_simd";
    case LaunchForm::one_launch: return "one_launch";
    case LaunchForm::with_fixup: return "with_fixup";
    case LaunchForm::team_tiles: return "team_tiles";
  }
  return "unknown";
}

/// The shape of one kernel launch.
struct LaunchShape {
  std::string part = "main";         ///< which launch of the apply ("rows", "ell", "coo", "seg", ...)
  int team_size = 1;                 ///< team threads
  int vector_length = 1;             ///< vector lanes that share one row
  std::int64_t rows_per_team = 1;    ///< rows (ALIGNED_COO: lanes) one league entry covers
  std::int64_t entries_per_thread = 0;  ///< nonzeros a thread walks in chunked kernels; 0 if unused
  int row_threads = 1;               ///< CSR-k: team threads that share one super-row's rows;
                                     ///< SELL-P, ELL column groups: team threads per row (t);
                                     ///< GPU CSR merge_path: warps that walk one tile
  int row_parts = 1;                 ///< ELL: subwarps / teams per row, > 1 adds into y atomically
  LaunchForm form = LaunchForm::single;  ///< the body that runs, where the kernel has several
  ValueLoads value_loads = ValueLoads::cached;  ///< GPU merge_path team tiles: how values load

  /// CSR-k: super-rows of a super-super-row processed side by side.
  int super_row_threads() const { return team_size / row_threads; }

  /// The shape as operator<< prints it.
  std::string str() const {
    std::ostringstream os;
    os << *this;
    return os.str();
  }
  /// Prints "part{team_size=..., vector_length=..., ..., form=...}".
  friend std::ostream& operator<<(std::ostream& os, const LaunchShape& s) {
    os << s.part << "{team_size=" << s.team_size << ", vector_length=" << s.vector_length;
    if (s.entries_per_thread > 0) os << ", entries_per_thread=" << s.entries_per_thread;
    else os << ", rows_per_team=" << s.rows_per_team;
    if (s.row_threads != 1) os << ", row_threads=" << s.row_threads;
    if (s.row_parts != 1) os << ", row_parts=" << s.row_parts;
    if (s.form != LaunchForm::single) os << ", form=" << form_name(s.form);
    if (s.value_loads == ValueLoads::l2_only) os << ", values=l2_only";
    return os << "}";
  }
};

/// What tuning::select resolved a kernel strategy to: the kernel that runs,
/// its launches and the rule that chose them. SpmvHandle::policy() returns it.
struct SpmvPolicy {
  std::string format;                ///< "csr", "ell", ...
  std::string kernel;                ///< the strategy that runs: "classical", "rows", ...
  std::vector<LaunchShape> launches; ///< in launch order
  std::string rule;                  ///< why: the rule that fired, with its source
  /// What the selector changed so the backend runs the launches (a team or
  /// vector the device profile asked for beyond its limits); "" = nothing.
  std::string notes;

  /// "classical rows{team_size=16, vector_length=8, rows_per_team=16}".
  std::string str() const {
    std::ostringstream s;
    s << *this;
    return s.str();
  }
  /// Prints the kernel, then each launch, then the notes if any.
  friend std::ostream& operator<<(std::ostream& os, const SpmvPolicy& p) {
    os << p.kernel;
    for (const auto& l : p.launches) os << " " << l;
    if (!p.notes.empty()) os << " (note: " << p.notes << ")";
    return os;
  }
};

/// GPU merge_path finishes the rows split between tiles in the tile kernel
/// (one launch) while no run of tiles ending inside one row is longer than
/// this many warp widths (the selector decides from the longest row, the
/// workspace builder checks the runs it measures): the finishing warp then reads one part per lane,
/// as the fixup's one-lane path does; the fixup's whole-team path (a second
/// launch) takes longer runs, which one warp sums too slowly (see
/// CsrMergeFixupFunctor, kernels/csr_merge_path.hpp).
inline constexpr std::int64_t merge_path_one_launch_runs = 1;

/// SELL-P slice sizes the host SIMD kernel is compiled for (one slice = one
/// vector of 4, 8 or 16 lanes; kernels/sellp_slices_host.hpp): the selector gives
/// such slices LaunchForm::host_simd and vector_length = b on hosts.
inline constexpr bool host_simd_slice(std::int64_t b) {
  return b == 4 || b == 8 || b == 16;
}

}  // namespace kobalt::tuning
