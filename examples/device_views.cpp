// SPDX-License-Identifier: BSD-3-Clause
// Device Views to kobalt::Csr with no host copy: the matrix is assembled on
// the device (poisson3d.hpp), wrapped without copying, multiplied through a
// handle, and checked on the device. Usage: device_views [n] (grid n^3, 40).
#include "poisson3d.hpp"

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  const int n = argc > 1 ? std::atoi(argv[1]) : 40;
  if (n < 2) {
    std::fprintf(stderr, "usage: device_views [n >= 2]\n");
    return 2;
  }
  Kokkos::DefaultExecutionSpace exec;
  auto a = example::poisson3d<double, int>(exec, n);

  // The Csr shares the Views it was given: same pointers, no copy.
  Kokkos::View<double*> x("x", a.cols()), y("y", a.rows()), expected("expected", a.rows());
  Kokkos::deep_copy(exec, x, 1.0);
  auto h = kobalt::make_handle(exec, a);
  kobalt::spmv(exec, h, 1.0, a, x, 0.0, y);

  // A * ones = the number of missing neighbours at each grid point.
  Kokkos::parallel_for(
      "example::expected", Kokkos::RangePolicy<>(exec, 0, a.rows()), KOKKOS_LAMBDA(const int i) {
        double sum = 0;
        example::for_each_entry(n, i, [&](int, double v) { sum += v; });
        expected(i) = sum;
      });
  const double error = example::max_difference(exec, y, expected);
  std::printf("device_views: %d rows, %lld nonzeros on %s, max |y - A*1| = %g\n%s\n", a.rows(),
              static_cast<long long>(a.nnz()), Kokkos::DefaultExecutionSpace::name(), error,
              h.describe().c_str());
  return error == 0.0 ? 0 : 1;
}
