// SPDX-License-Identifier: BSD-3-Clause
// Throwaway rank-2 (K = 8, LayoutLeft) and fp32 thread-per-row ELL variants
// beside the library kernel (issue 14; perf_tests/results/h200/rhs_variants.txt).
#include <kobalt/kobalt.hpp>
#include "generators/generators.hpp"
#include "timing.hpp"
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

using Exec = Kokkos::DefaultExecutionSpace;
using Dev = Exec::device_type;


// K columns, B slots per batch; x, y LayoutLeft with leading dimension ldx / ldy;
// Bounds: Kokkos::LaunchBounds (a register cap for higher occupancy).
template <int K, int B, bool StreamY, class V, class Bounds = Kokkos::LaunchBounds<>>
void ell_rank2(const kobalt::Ell<V, int, Dev>& a, const V* x, int ldx, V* y, int ldy) {
  const int* col = a.col_indices().data(); const V* val = a.values().data();
  const int step = a.stride(), width = a.stored_per_row();
  Kokkos::parallel_for("rank2", Kokkos::RangePolicy<Exec, Kokkos::IndexType<int>, Bounds>(0, a.rows()), KOKKOS_LAMBDA(const int i) {
    V sum[K];
    for (int j = 0; j < K; ++j) sum[j] = 0;
    for (int k = 0; k < width; k += B) {
      int c[B]; V v[B];
      for (int u = 0; u < B; ++u) c[u] = k + u < width ? kobalt::arch::loads<Exec>::streaming(col + (k + u) * step + i) : -1;
      for (int u = 0; u < B; ++u) v[u] = c[u] >= 0 ? kobalt::arch::loads<Exec>::streaming(val + (k + u) * step + i) : V(0);
      for (int u = 0; u < B; ++u)
        if (c[u] >= 0)
          for (int j = 0; j < K; ++j) sum[j] += v[u] * x[c[u] + j * ldx];
      if (c[B - 1] < 0) break;
    }
    for (int j = 0; j < K; ++j) {
#if defined(__CUDA_ARCH__)
      if (StreamY) __stcs(y + i + j * ldy, sum[j]); else y[i + j * ldy] = sum[j];
#else
      y[i + j * ldy] = sum[j];
#endif
    }
  });
}

template <int B, class V>
void ell_rank1(const kobalt::Ell<V, int, Dev>& a, const V* x, V* y) {
  const int* col = a.col_indices().data(); const V* val = a.values().data();
  const int step = a.stride(), width = a.stored_per_row();
  Kokkos::parallel_for("rank1", Kokkos::RangePolicy<Exec, Kokkos::IndexType<int>>(0, a.rows()), KOKKOS_LAMBDA(const int i) {
    V sum = 0;
    for (int k = 0; k < width; k += B) {
      int c[B]; V v[B], xv[B];
      for (int u = 0; u < B; ++u) c[u] = k + u < width ? kobalt::arch::loads<Exec>::streaming(col + (k + u) * step + i) : -1;
      for (int u = 0; u < B; ++u) v[u] = c[u] >= 0 ? kobalt::arch::loads<Exec>::streaming(val + (k + u) * step + i) : V(0);
      for (int u = 0; u < B; ++u) xv[u] = c[u] >= 0 ? x[c[u]] : V(0);
      for (int u = 0; u < B; ++u) sum += v[u] * xv[u];
      if (c[B - 1] < 0) break;
    }
    y[i] = sum;
  });
}


template <class V>
void run(const char* spec, bool rank2) {
  const auto csr = kobalt::bench::generate<V, int, Dev>(kobalt::bench::parse_generator(spec));
  const auto e = kobalt::to_ell(csr);
  const double nnz = csr.nnz();
  const int n = csr.rows(), m = csr.cols();
  if (rank2) {
    constexpr int K = 8;
    Kokkos::View<V**, Kokkos::LayoutLeft> x("x", m, K), y("y", n, K), ref("ref", n, K);
    Kokkos::parallel_for(Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {m, K}), KOKKOS_LAMBDA(int r, int j) { x(r, j) = 1.0 + ((r + 3 * j) % 7) * 0.25; });
    const auto h = kobalt::make_handle(Exec(), e);
    auto err = [&]() {
      double mx = 0;
      Kokkos::parallel_reduce(Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {n, K}), KOKKOS_LAMBDA(int r, int j, double& a) { a = Kokkos::max(a, double(Kokkos::abs(y(r, j) - ref(r, j)))); }, Kokkos::Max<double>(mx));
      return mx;
    };
    auto report = [&](const char* name, double us) { std::printf("%-20s K=8 %-5s %-24s %9.2f us %8.1f GFLOP/s err %.1e\n", spec, sizeof(V) == 4 ? "fp32" : "fp64", name, us, 2 * nnz * K / us * 1e-3, err()); };
    kobalt::spmv(Exec(), h, V(1), e, x, V(0), ref);
    report("library ell", time_us([&] { kobalt::spmv(Exec(), h, V(1), e, x, V(0), y); }));
    report("B1", time_us([&] { ell_rank2<K, 1, false>(e, x.data(), m, y.data(), n); }));
    report("B2", time_us([&] { ell_rank2<K, 2, false>(e, x.data(), m, y.data(), n); }));
    report("B4", time_us([&] { ell_rank2<K, 4, false>(e, x.data(), m, y.data(), n); }));
    report("B2 stream-y", time_us([&] { ell_rank2<K, 2, true>(e, x.data(), m, y.data(), n); }));
    report("B4 stream-y", time_us([&] { ell_rank2<K, 4, true>(e, x.data(), m, y.data(), n); }));
    // 2026-11-23: ncu put the library's K = 8 kernel at 40 registers, 75%
    // theoretical occupancy, DRAM 66% on lap3d (ncu_rhs8_b5ed826.txt).
    using cap32 = Kokkos::LaunchBounds<128, 16>;  // 2048 threads per SM: <= 32 registers
    using cap36 = Kokkos::LaunchBounds<128, 14>;
    report("B2 bounds 128x16", time_us([&] { ell_rank2<K, 2, false, V, cap32>(e, x.data(), m, y.data(), n); }));
    report("B2 bounds 128x14", time_us([&] { ell_rank2<K, 2, false, V, cap36>(e, x.data(), m, y.data(), n); }));
    report("B1 bounds 128x16", time_us([&] { ell_rank2<K, 1, false, V, cap32>(e, x.data(), m, y.data(), n); }));
    report("B4 bounds 128x16", time_us([&] { ell_rank2<K, 4, false, V, cap32>(e, x.data(), m, y.data(), n); }));
  } else {
    Kokkos::View<V*> x("x", m), y("y", n), ref("ref", n);
    Kokkos::parallel_for(m, KOKKOS_LAMBDA(int r) { x(r) = 1.0 + (r % 7) * 0.25; });
    const auto h = kobalt::make_handle(Exec(), e);
    kobalt::spmv(Exec(), h, V(1), e, x, V(0), ref);
    auto err = [&]() {
      double mx = 0;
      Kokkos::parallel_reduce(n, KOKKOS_LAMBDA(int r, double& a) { a = Kokkos::max(a, double(Kokkos::abs(y(r) - ref(r)))); }, Kokkos::Max<double>(mx));
      return mx;
    };
    auto report = [&](const char* name, double us) { std::printf("%-20s K=1 %-5s %-24s %9.2f us %8.1f GFLOP/s err %.1e\n", spec, sizeof(V) == 4 ? "fp32" : "fp64", name, us, 2 * nnz / us * 1e-3, err()); };
    report("library ell", time_us([&] { kobalt::spmv(Exec(), h, V(1), e, x, V(0), y); }));
    report("B2", time_us([&] { ell_rank1<2>(e, x.data(), y.data()); }));
    report("B4", time_us([&] { ell_rank1<4>(e, x.data(), y.data()); }));
    report("B8", time_us([&] { ell_rank1<8>(e, x.data(), y.data()); }));
  }
}

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  for (const char* m : {"lap3d:200", "stencil27:128", "fem:40000,16,2"}) run<double>(m, true);
  for (const char* m : {"lap3d:200", "stencil27:128", "fem:40000,16,2", "uniform:4000000,8"}) run<float>(m, false);
  return 0;
}
