// SPDX-License-Identifier: BSD-3-Clause
// Timing discipline: warm-up, then repetitions until a time budget or a count,
// each timed by DeviceClock (fenced before and after); median, minimum and
// maximum.
// With `cold`, a buffer larger than the last-level cache is rewritten before
// every timed call, outside the timed region. With `batch` > 1 a repetition
// is that many calls back to back, timed together and divided by the count:
// the cost of one apply in a loop (a solver's), without one launch's issue
// jitter in every sample.
#pragma once

#include "device_clock.hpp"

#include <kobalt/formats/storage_limit.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace kobalt::bench {

struct TimingOptions {
  int warmup = 3;               ///< untimed runs first (module load, caches)
  int min_reps = 5;             ///< at least this many timed runs
  int max_reps = 200;           ///< at most this many
  double budget_seconds = 1.0;  ///< stop after min_reps once this much was timed
  bool cold = false;            ///< flush caches between runs (default: warm)
  int batch = 1;                ///< calls per timed repetition (warm only), time per call reported
  std::int64_t flush_bytes = std::int64_t(512) << 20;  ///< larger than the GPUs' last-level caches
};

struct Timing {
  double median = 0, min = 0, max = 0;  ///< seconds, over the timed repetitions
  int reps = 0;
};

namespace detail {

/// b(i) = b(i) * 0.5 + 1.0: rewrites one entry of the flush buffer.
struct CacheFlushFunctor {
  Kokkos::View<double*> b;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const { b(i) = b(i) * 0.5 + 1.0; }
};

}  // namespace detail

/// Rewrites a buffer of o.flush_bytes so the next run starts with cold caches.
class CacheFlusher {
 public:
  explicit CacheFlusher(const TimingOptions& o)
      : buffer_(o.cold ? allocate(o) : Kokkos::View<double*>()) {}
  /// Throws format_too_large unless the flush buffer fits what is free.
  static void check_fits(const TimingOptions& o) {
    check_storage<Kokkos::DefaultExecutionSpace::memory_space>(
        "--cold: the cache flush buffer", static_cast<std::uint64_t>(o.flush_bytes), 0);
  }
  void flush() const {
    if (buffer_.extent(0) == 0) return;
    auto b = buffer_;
    Kokkos::parallel_for(
        "kobalt::bench::flush", Kokkos::RangePolicy<>(0, b.extent(0)),
        detail::CacheFlushFunctor{b});
    Kokkos::fence();
  }

 private:
  static Kokkos::View<double*> allocate(const TimingOptions& o) {
    check_fits(o);
    return Kokkos::View<double*>("kobalt::bench::flush", o.flush_bytes / 8);
  }
  Kokkos::View<double*> buffer_;
};

/// Median, minimum and maximum of repetitions' times (at least one).
inline Timing summarize(std::vector<double> t) {
  std::sort(t.begin(), t.end());
  Timing r;
  r.reps = static_cast<int>(t.size());
  r.min = t.front();
  r.max = t.back();
  r.median = t.size() % 2 ? t[t.size() / 2] : 0.5 * (t[t.size() / 2 - 1] + t[t.size() / 2]);
  return r;
}

/// Whether another repetition is due after `done` of them took `spent` seconds.
inline bool more_reps(const TimingOptions& o, std::size_t done, double spent) {
  const int n = static_cast<int>(done);
  return n < o.max_reps && (n < o.min_reps || spent < o.budget_seconds);
}

inline Timing time_runs(const std::function<void()>& run, const TimingOptions& o,
                        DeviceClock& clock, const CacheFlusher& flusher) {
  for (int i = 0; i < o.warmup; ++i) run();
  Kokkos::fence();
  std::vector<double> t;
  double spent = 0;
  const int calls = std::max(o.batch, 1);
  while (more_reps(o, t.size(), spent)) {
    flusher.flush();
    const double seconds = calls == 1 ? clock.time(run) : clock.time([&] {
      for (int c = 0; c < calls; ++c) run();
    });
    t.push_back(seconds / calls);
    spent += seconds;
  }
  return summarize(std::move(t));
}

}  // namespace kobalt::bench
