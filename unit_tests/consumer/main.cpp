// SPDX-License-Identifier: BSD-3-Clause
// Consumer check: builds a 1-D Laplacian, multiplies, checks, exits non-zero
// on a wrong result.
#include <kobalt/kobalt.hpp>

#include <cstdio>
#include <cstring>

int main(int argc, char** argv) {
#ifdef KOBALT_PACKAGE_VERSION
  if (std::strcmp(KOBALT_VERSION_STRING, KOBALT_PACKAGE_VERSION) != 0) {
    std::printf("consumer: kobalt/version.hpp says %s, the package %s\n", KOBALT_VERSION_STRING,
                KOBALT_PACKAGE_VERSION);
    return 1;
  }
#endif
  Kokkos::ScopeGuard kokkos(argc, argv);
  const int n = 100;
  kobalt::Triplets<double, int> t;
  t.rows = t.cols = n;
  for (int i = 0; i < n; ++i) {
    if (i > 0) t.push_back(i, i - 1, -1.0);
    t.push_back(i, i, 2.0);
    if (i + 1 < n) t.push_back(i, i + 1, -1.0);
  }
  auto a = kobalt::make_csr(t);
  Kokkos::View<double*> x("x", n), y("y", n);
  Kokkos::deep_copy(x, 1.0);
  kobalt::spmv(1.0, a, x, 0.0, y);
  auto yh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  // A * ones = (1, 0, ..., 0, 1)
  for (int i = 0; i < n; ++i) {
    const double expected = (i == 0 || i == n - 1) ? 1.0 : 0.0;
    if (yh(i) != expected) {
      std::printf("consumer: y(%d) = %g, expected %g\n", i, yh(i), expected);
      return 1;
    }
  }
  std::printf("consumer: Kobalt %s spmv on %s is correct\n", KOBALT_VERSION_STRING,
              Kokkos::DefaultExecutionSpace::name());
  return 0;
}
