// SPDX-License-Identifier: BSD-3-Clause
// Throwaway ELL / SELL thread-per-row variants beside the library kernel on
// one GPU (issue 14; results in perf_tests/results/h200/ell_variants.txt).
// Usage: ell_variants GENERATOR... (kobalt-bench generator specs).
#include <kobalt/kobalt.hpp>
#include "generators/generators.hpp"
#include "timing.hpp"
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

using V = double; using I = int;
using Dev = Kokkos::DefaultExecutionSpace::device_type;
using Exec = Kokkos::DefaultExecutionSpace;


template <int B, class Off, bool Stream, bool Early>
KOKKOS_FORCEINLINE_FUNCTION V row_sum(const I* col, const V* val, const V* x, Off i, Off step, Off width) {
  V sum = 0;
  for (Off k = 0; k < width; k += B) {
    I c[B];
    for (int u = 0; u < B; ++u) {
      const Off s = k + u;
      c[u] = s < width ? (Stream ? kobalt::arch::loads<Exec>::streaming(col + s * step + i) : col[s * step + i]) : I(-1);
    }
    V v[B], xv[B];
    for (int u = 0; u < B; ++u) v[u] = c[u] >= 0 ? (Stream ? kobalt::arch::loads<Exec>::streaming(val + (k + u) * step + i) : val[(k + u) * step + i]) : V(0);
    for (int u = 0; u < B; ++u) xv[u] = c[u] >= 0 ? x[c[u]] : V(0);
    for (int u = 0; u < B; ++u) sum += v[u] * xv[u];
    if (Early && c[B - 1] < 0) break;
  }
  return sum;
}

template <int B, class Off, bool Stream, bool Early>
void ell_range(const kobalt::Ell<V, I, Dev>& a, const V* x, V* y) {
  const I* col = a.col_indices().data(); const V* val = a.values().data();
  const Off step = a.stride(), width = a.stored_per_row();
  Kokkos::parallel_for("ell_range", Kokkos::RangePolicy<Exec, Kokkos::IndexType<Off>>(0, a.rows()), KOKKOS_LAMBDA(const Off i) {
    y[i] = row_sum<B, Off, Stream, Early>(col, val, x, i, step, width);
  });
}

template <int B, class Off>
void ell_team(const kobalt::Ell<V, I, Dev>& a, const V* x, V* y, int team) {
  const I* col = a.col_indices().data(); const V* val = a.values().data();
  const Off step = a.stride(), width = a.stored_per_row(), rows = a.rows();
  const int league = (rows + team - 1) / team;
  Kokkos::parallel_for("ell_team", Kokkos::TeamPolicy<Exec>(league, team, 1), KOKKOS_LAMBDA(const Kokkos::TeamPolicy<Exec>::member_type& m) {
    const Off first = Off(m.league_rank()) * team;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(m, team), [&](const int r) {
      const Off i = first + r;
      if (i < rows) y[i] = row_sum<B, Off, false, true>(col, val, x, i, step, width);
    });
  });
}

template <int B, class Off, bool Stream>
void sell_range(const kobalt::Sellp<V, I, Dev>& a, const V* x, V* y) {
  const I* col = a.col_indices().data(); const V* val = a.values().data();
  const I* sets = a.slice_sets().data(); const I* lens = a.slice_lengths().data();
  const Off b = a.slice_size();
  Kokkos::parallel_for("sell_range", Kokkos::RangePolicy<Exec, Kokkos::IndexType<Off>>(0, a.rows()), KOKKOS_LAMBDA(const Off i) {
    const Off s = i / b;
    y[i] = row_sum<B, Off, Stream, true>(col + sets[s], val + sets[s], x, i - s * b, b, Off(lens[s]));
  });
}


int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  const double triad = 4307;  // GB/s, H200 (perf_tests/results/h200)
  for (int m = 1; m < argc; ++m) {
    const auto a = kobalt::bench::generate<V, I, Dev>(kobalt::bench::parse_generator(argv[m]));
    const auto e = kobalt::to_ell(a);
    const auto s32 = kobalt::to_sellp(a, kobalt::sellp_params{32, 1, 0});
    const double nnz = a.nnz(), rows = a.rows(), cols = a.cols();
    const double limit = 2 * nnz / ((12 * nnz + 12 * rows + 8 * cols) / (triad * 1e3));  // GFLOP/s
    Kokkos::View<V*> x("x", a.cols()), y("y", a.rows()), ref("ref", a.rows());
    Kokkos::parallel_for(a.cols(), KOKKOS_LAMBDA(int j) { x(j) = 1.0 + (j % 7) * 0.25; });
    kobalt::spmv(Exec(), 1.0, a, x, 0.0, ref);
    auto check = [&]() {
      double err = 0;
      Kokkos::parallel_reduce(a.rows(), KOKKOS_LAMBDA(int i, double& e2) { e2 = Kokkos::max(e2, Kokkos::abs(y(i) - ref(i))); }, Kokkos::Max<double>(err));
      return err;
    };
    auto report = [&](const char* name, double us) {
      const double gf = 2 * nnz / us * 1e-3;
      std::printf("%-26s %-34s %9.2f us %7.1f GFLOP/s %5.1f%% of limit  err %.1e\n", argv[m], name, us, gf, 100 * gf / limit, check());
    };
    const V* xp = x.data(); V* yp = y.data();
    const auto handle = kobalt::make_handle(Exec(), e);
    report("library ell (rows, batch 4)", time_us([&] { kobalt::spmv(Exec(), handle, 1.0, e, x, 0.0, y); }));
    report("range i32 B1", time_us([&] { ell_range<1, int, false, true>(e, xp, yp); }));
    report("range i32 B2", time_us([&] { ell_range<2, int, false, true>(e, xp, yp); }));
    report("range i32 B4", time_us([&] { ell_range<4, int, false, true>(e, xp, yp); }));
    report("range i32 B8", time_us([&] { ell_range<8, int, false, true>(e, xp, yp); }));
    report("range i64 B4", time_us([&] { ell_range<4, long, false, true>(e, xp, yp); }));
    report("range i64 B1", time_us([&] { ell_range<1, long, false, true>(e, xp, yp); }));
    report("range i32 B4 stream", time_us([&] { ell_range<4, int, true, true>(e, xp, yp); }));
    report("range i32 B8 stream", time_us([&] { ell_range<8, int, true, true>(e, xp, yp); }));
    report("range i32 B4 no-early", time_us([&] { ell_range<4, int, false, false>(e, xp, yp); }));
    report("team128 i32 B4", time_us([&] { ell_team<4, int>(e, xp, yp, 128); }));
    report("team128 i64 B4", time_us([&] { ell_team<4, long>(e, xp, yp, 128); }));
    report("team256 i32 B4", time_us([&] { ell_team<4, int>(e, xp, yp, 256); }));
    report("team128 i32 B1", time_us([&] { ell_team<1, int>(e, xp, yp, 128); }));
    report("sell32 range i32 B4", time_us([&] { sell_range<4, int, false>(s32, xp, yp); }));
    report("sell32 range i32 B4 stream", time_us([&] { sell_range<4, int, true>(s32, xp, yp); }));
    report("sell32 range i64 B4", time_us([&] { sell_range<4, long, false>(s32, xp, yp); }));
  }
  return 0;
}
