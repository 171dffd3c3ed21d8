// SPDX-License-Identifier: BSD-3-Clause
// Shared by the experiment programs: median wall time of a fenced apply.
#pragma once

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <vector>

/// Median of 30 fence-timed calls of f after 3 warm-ups, in microseconds.
template <class F>
double time_us(F&& f) {
  for (int w = 0; w < 3; ++w) f();
  Kokkos::fence();
  std::vector<double> t;
  for (int r = 0; r < 30; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    Kokkos::fence();
    t.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}
