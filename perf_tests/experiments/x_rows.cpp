// SPDX-License-Identifier: BSD-3-Clause
// Issue 13, --rhs 8 on skewed matrices: the library's rank-2 kernels with x
// as given (LayoutLeft: the 8 columns of one row of x lie cols apart, one
// L2 sector each per gathered entry) against the same kernels on a
// row-major copy of x (the 8 values in one 64-byte run, 2 sectors), the
// copy timed with them. Hypothesis from ncu_coo_rhs8.txt: R-MAT at K = 8 is
// bound by the sector traffic of the x gathers.
#include <kobalt/kobalt.hpp>
#include "generators/generators.hpp"
#include "timing.hpp"
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <string>

using Exec = Kokkos::DefaultExecutionSpace;
using Dev = Exec::device_type;
constexpr int K = 8;
using Left = Kokkos::View<double**, Kokkos::LayoutLeft, Dev>;
using Right = Kokkos::View<double**, Kokkos::LayoutRight, Dev>;

// x_rows(c, j) = x(c, j), j fastest: a warp reads 4 rows x 8 columns (8
// full sectors) and writes 256 contiguous bytes.
void to_rows(const Left& x, const Right& xr) {
  const std::int64_t m = x.extent(0);
  Kokkos::parallel_for("x_rows", Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(0, m * K),
                       KOKKOS_LAMBDA(const std::int64_t e) { xr(e / K, e % K) = x(e / K, e % K); });
}

template <class Matrix>
void run(const char* spec, const char* name, const Matrix& a, const Left& x, const Right& xr,
         double nnz) {
  const std::int64_t n = a.rows();
  Left y("y", n, K), ref("ref", n, K);
  const auto h = kobalt::make_handle(Exec(), a);
  kobalt::spmv(Exec(), h, 1.0, a, x, 0.0, ref);
  auto err = [&]() {
    double mx = 0;
    Kokkos::parallel_reduce(
        Kokkos::MDRangePolicy<Exec, Kokkos::Rank<2>>({0, 0}, {n, std::int64_t(K)}),
        KOKKOS_LAMBDA(std::int64_t r, std::int64_t j, double& m) {
          const double d = y(r, j) - ref(r, j), v = ref(r, j);
          const double e = (d < 0 ? -d : d) / (1.0 + (v < 0 ? -v : v));
          if (e > m) m = e;
        },
        Kokkos::Max<double>(mx));
    return mx;
  };
  auto report = [&](const char* how, double us) {
    std::printf("%-30s %-8s %-22s %9.2f us %8.1f GFLOP/s err %.1e  %s\n", spec, name, how, us,
                2 * nnz * K / us * 1e-3, err(), h.summary().c_str());
  };
  report("x LayoutLeft", time_us([&] { kobalt::spmv(Exec(), h, 1.0, a, x, 0.0, y); }));
  // The kernels take any rank-2 layout (kernels/common.hpp XBlock); spmv's
  // check admits LayoutLeft only, so the experiment calls the dispatch.
  auto apply_rows = [&] {
    kobalt::detail::dispatch(Exec(), h.strategy(), h.policy(), h.workspace(), 1.0, a, xr, 0.0, y);
  };
  report("x rows (kernel only)", time_us(apply_rows));
  report("x rows + copy", time_us([&] { to_rows(x, xr); apply_rows(); }));
}

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  for (const char* spec : {"rmat:22,16", "zipf:5000000,10", "zipf:4000000,8,1.5", "arrow:2000000",
                           "circuit:16000000,20,200000", "lap3d:200", "uniform:6500000,8"}) {
    const auto csr = kobalt::bench::generate<double, int, Dev>(kobalt::bench::parse_generator(spec));
    const std::int64_t m = csr.cols();
    Left x("x", m, K);
    Right xr("xr", m, K);
    Kokkos::parallel_for(
        Kokkos::MDRangePolicy<Exec, Kokkos::Rank<2>>({0, 0}, {m, std::int64_t(K)}),
        KOKKOS_LAMBDA(std::int64_t r, std::int64_t j) { x(r, j) = 1.0 + ((r + 3 * j) % 7) * 0.25; });
    std::printf("%-30s copy alone %9.2f us\n", spec, time_us([&] { to_rows(x, xr); }));
    const double nnz = csr.nnz();
    run(spec, "csr", csr, x, xr, nnz);
    run(spec, "coo", kobalt::to_coo(csr), x, xr, nnz);
    run(spec, "hybrid", kobalt::to_hybrid(csr), x, xr, nnz);
    if (std::string(spec).rfind("lap3d", 0) == 0 || std::string(spec).rfind("uniform", 0) == 0)
      run(spec, "ell", kobalt::to_ell(csr), x, xr, nnz);
  }
  return 0;
}
