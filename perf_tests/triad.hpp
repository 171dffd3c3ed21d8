// SPDX-License-Identifier: BSD-3-Clause
// The stream probe: a = b + s*c over arrays far larger than the last-level
// cache, timed like every SpMV. Its bytes (two reads, one write, no
// write-allocate counted) over its median time is the "measured bandwidth"
// every bandwidth fraction in the report divides by.
#pragma once

#include "timing.hpp"

#include <kobalt/formats/storage_limit.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

namespace kobalt::bench {

struct TriadResult {
  std::int64_t bytes = 0;
  double seconds = 0;  ///< median
  double gb_per_s() const { return seconds > 0 ? bytes / seconds * 1e-9 : 0; }
};

/// Throws format_too_large unless the probe's 3 arrays of `array_bytes`
/// fit what the device can allocate now; `what` names the setting.
inline void check_triad_fits(std::int64_t array_bytes, const std::string& what) {
  check_storage<Kokkos::DefaultExecutionSpace::memory_space>(
      what + ": the triad probe's 3 arrays of " + std::to_string(array_bytes >> 20) + " MiB",
      3 * static_cast<std::uint64_t>(array_bytes), 0);
}

namespace detail {

/// a(i) = b(i) + s * c(i): one entry of the stream triad.
struct TriadFunctor {
  Kokkos::View<double*> a, b, c;
  double s;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const { a(i) = b(i) + s * c(i); }
};

}  // namespace detail

inline TriadResult measure_triad(std::int64_t array_bytes, DeviceClock& clock) {
  check_triad_fits(array_bytes, "kobalt::bench");
  const std::int64_t n = array_bytes / 8;
  Kokkos::View<double*> a("kobalt::bench::triad_a", n), b("kobalt::bench::triad_b", n),
      c("kobalt::bench::triad_c", n);
  Kokkos::deep_copy(b, 1.0);
  Kokkos::deep_copy(c, 2.0);
  const double s = 0.5;
  auto run = [&] {
    Kokkos::parallel_for(
        "kobalt::bench::triad", Kokkos::RangePolicy<>(0, n),
        detail::TriadFunctor{a, b, c, s});
  };
  TimingOptions o;
  o.warmup = 3;
  o.min_reps = 20;
  o.max_reps = 50;
  o.budget_seconds = 0.5;
  const Timing t = time_runs(run, o, clock, CacheFlusher(TimingOptions{}));
  return {3 * n * 8, t.median};
}

}  // namespace kobalt::bench
