// SPDX-License-Identifier: BSD-3-Clause
// Launch shapes against what the backend runs (arch::TeamLimits, Kokkos' own
// answers): tuning::select clamps what a device profile (or a selector
// constant) asks beyond them and records a note that describe() shows; a
// shape given by the caller that asks for more is an invalid_parameter
// naming the limit, and the kernels check each launch before Kokkos sees it.
#pragma once

#include "policy.hpp"
#include "profile.hpp"
#include "../arch/arch.hpp"
#include "../errors.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

namespace kobalt::tuning {

/// Why a team of `team_size` threads with `vector_length` lanes each asks
/// for more than `limits` allow, naming the limit; "" when it fits (or the
/// limits are unknown).
inline std::string team_excess(int team_size, int vector_length,
                               const arch::TeamLimits& limits) {
  if (team_size < 1 || vector_length < 1)
    return "team_size " + std::to_string(team_size) + " x vector_length " +
           std::to_string(vector_length) + ": both must be at least one";
  if (!limits.known()) return {};
  if (!limits.vector_length_ok(vector_length))
    return "vector_length " + std::to_string(vector_length) + ": the backend runs " +
           (limits.vector_length_power_of_two ? "a power of two of at most " : "at most ") +
           std::to_string(limits.vector_length_max) + " lanes (Kokkos vector_length_max)";
  const int most = limits.team_size_for(vector_length);
  if (most > 0 && team_size > most)
    return "team_size " + std::to_string(team_size) + " with " + std::to_string(vector_length) +
           (vector_length == 1 ? " lane" : " lanes") + ": the backend runs at most " +
           std::to_string(most) + (most == 1 ? " team thread" : " team threads") +
           " (Kokkos team_size_max)";
  return {};
}

/// Why `bytes` of team scratch at `level` are more than `limits` allow,
/// naming the limit; "" when they fit (or the limit is unknown).
inline std::string scratch_excess(int level, std::uint64_t bytes, const arch::TeamLimits& limits) {
  const std::uint64_t most = limits.scratch_max[level == 0 ? 0 : 1];
  if (most == 0 || bytes <= most) return {};
  return std::to_string(bytes) + " bytes of level-" + std::to_string(level) +
         " team scratch: the backend allows at most " + std::to_string(most) +
         " (Kokkos scratch_size_max)";
}

/// Why launch `s` asks for more than `limits` allow; "" when it fits.
inline std::string launch_excess(const LaunchShape& s, const arch::TeamLimits& limits) {
  return team_excess(s.team_size, s.vector_length, limits);
}

/// Throws invalid_parameter, naming the launch and the limit, when a launch
/// of `policy` asks for more than `limits` allow: for policies the caller
/// gave, which are not clamped. `who` starts the message.
inline void check_launches(const SpmvPolicy& policy, const arch::TeamLimits& limits,
                           const std::string& who) {
  for (const auto& l : policy.launches) {
    const std::string why = launch_excess(l, limits);
    if (!why.empty()) throw invalid_parameter(who + ": launch " + l.str() + ": " + why);
  }
}

/// Throws invalid_parameter when the profile's own launch keys ask for more
/// than its device's backend allows (profile.team_limits): for tools that
/// take a profile as given and write it back (kobalt-tune's start profile).
/// Handles clamp instead (fit_to_backend).
inline void check_profile_launch_keys(const DeviceProfile& profile, const std::string& who) {
  const int most = profile.team_limits.team_size_for(1);
  if (profile.team_limits.known() && most > 0 && profile.team_threads > most)
    throw invalid_parameter(who + ": team_threads = " + std::to_string(profile.team_threads) +
                            ": the backend runs at most " + std::to_string(most) +
                            (most == 1 ? " team thread" : " team threads") +
                            " (Kokkos team_size_max)");
}

namespace detail {
/// The largest power of two <= n (n >= 1).
inline int floor_pow2(int n) {
  int p = 1;
  while (p <= n / 2) p *= 2;
  return p;
}
}  // namespace detail

/// `s` shrunk to what `limits` allow, with a note of each change appended
/// to `notes`: the vector to the longest allowed power of two, then the
/// team to the most threads with that many lanes, kept a multiple of
/// row_threads (fewer threads per row where even one row's threads do not
/// fit). Row launches on GPUs (one row per team thread) keep that. Every
/// kernel is correct with any such team (kernels/ check each launch again).
inline LaunchShape fit_launch(LaunchShape s, const arch::TeamLimits& limits, bool gpu,
                              std::string& notes) {
  if (!limits.known()) return s;
  const LaunchShape asked = s;
  if (!limits.vector_length_ok(s.vector_length))
    s.vector_length = detail::floor_pow2(
        std::max(1, std::min(s.vector_length, limits.vector_length_max)));
  const int most = limits.team_size_for(s.vector_length);
  if (most > 0 && s.team_size > most) {
    const int old_groups = std::max(1, s.team_size / std::max(s.row_threads, 1));
    s.row_threads = std::min(std::max(s.row_threads, 1), most);
    s.team_size = s.row_threads * (most / s.row_threads);
    const int groups = s.team_size / s.row_threads;
    if (gpu && asked.row_threads == 1 && s.entries_per_thread == 0 &&
        s.rows_per_team == asked.team_size)
      s.rows_per_team = s.team_size;
    else if (asked.row_threads > 1 && s.rows_per_team % old_groups == 0)
      s.rows_per_team = s.rows_per_team / old_groups * groups;
  }
  if (s.vector_length != asked.vector_length || s.team_size != asked.team_size) {
    if (!notes.empty()) notes += "; ";
    notes += s.part + " clamped: " + launch_excess(asked, limits) + ", runs team_size " +
             std::to_string(s.team_size) + " x vector_length " + std::to_string(s.vector_length);
  }
  return s;
}

/// `p` with every launch within the backend of `profile` (its team_limits;
/// unknown limits change nothing), notes appended to p.notes.
inline SpmvPolicy fit_to_backend(SpmvPolicy p, const DeviceProfile& profile) {
  for (auto& l : p.launches) l = fit_launch(l, profile.team_limits, profile.gpu, p.notes);
  return p;
}

}  // namespace kobalt::tuning
