// SPDX-License-Identifier: BSD-3-Clause
// Timing discipline: warm-up, then repetitions until a time budget or a count,
// the device fenced before AND after every timed call; median and minimum.
#pragma once

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <functional>
#include <vector>

namespace kobalt::bench {

struct TimingOptions {
  int warmup = 3;            ///< untimed runs first (module load, caches)
  int min_reps = 5;          ///< at least this many timed runs
  int max_reps = 200;        ///< at most this many
  double budget_seconds = 1.0;  ///< stop after min_reps once this much was spent
};

struct Timing {
  double median = 0, min = 0;  ///< seconds
  int reps = 0;
};

inline Timing time_runs(const std::function<void()>& run, const TimingOptions& o) {
  for (int i = 0; i < o.warmup; ++i) run();
  Kokkos::fence();
  std::vector<double> t;
  double spent = 0;
  while (static_cast<int>(t.size()) < o.max_reps &&
         (static_cast<int>(t.size()) < o.min_reps || spent < o.budget_seconds)) {
    Kokkos::fence();
    Kokkos::Timer timer;
    run();
    Kokkos::fence();
    t.push_back(timer.seconds());
    spent += t.back();
  }
  std::sort(t.begin(), t.end());
  Timing r;
  r.reps = static_cast<int>(t.size());
  r.min = t.front();
  r.median = t.size() % 2 ? t[t.size() / 2] : 0.5 * (t[t.size() / 2 - 1] + t[t.size() / 2]);
  return r;
}

}  // namespace kobalt::bench
