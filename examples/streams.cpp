// SPDX-License-Identifier: BSD-3-Clause
// One execution-space instance per stream: two matrices, each with its own
// handle bound to its own instance, multiplied concurrently (two CUDA/HIP
// streams; on hosts the instances may run one after the other). Each spmv is
// ordered on its instance only, so the two products overlap; a fence per
// instance waits for each. Usage: streams [n] (grids n^3 and (n/2)^3, 32).
#include "poisson3d.hpp"

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

/// One matrix and its vectors, multiplied on its own instance.
struct Job {
  kobalt::Csr<double, int> a;
  Kokkos::View<double*> x, y;
};

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  const int n = argc > 1 ? std::atoi(argv[1]) : 32;
  if (n < 4) {
    std::fprintf(stderr, "usage: streams [n >= 4]\n");
    return 2;
  }
  const auto instances = kobalt::compat::partition_in_two(Kokkos::DefaultExecutionSpace());
  const int sizes[2] = {n, n / 2};
  Job jobs[2];
  for (int k = 0; k < 2; ++k) {
    jobs[k].a = example::poisson3d<double, int>(instances[k], sizes[k]);
    jobs[k].x = Kokkos::View<double*>("x", jobs[k].a.cols());
    jobs[k].y = Kokkos::View<double*>("y", jobs[k].a.rows());
    Kokkos::deep_copy(instances[k], jobs[k].x, 1.0);
  }
  // Setup once per instance: the handle keeps the instance's workspace.
  auto h0 = kobalt::make_handle(instances[0], jobs[0].a);
  auto h1 = kobalt::make_handle(instances[1], jobs[1].a);
  for (int it = 0; it < 10; ++it) {  // both streams busy at once
    kobalt::spmv(instances[0], h0, 1.0, jobs[0].a, jobs[0].x, 0.0, jobs[0].y);
    kobalt::spmv(instances[1], h1, 1.0, jobs[1].a, jobs[1].x, 0.0, jobs[1].y);
  }
  int failures = 0;
  for (int k = 0; k < 2; ++k) {
    instances[k].fence();
    // Kobalt's sequential reference on the host, with its derived tolerance.
    const auto t = kobalt::to_triplets(jobs[k].a);
    const auto ref = kobalt::reference_spmv(t, 1.0, std::vector<double>(t.cols, 1.0), 0.0,
                                            std::vector<double>(t.rows, 0.0));
    const auto y = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), jobs[k].y);
    int wrong = 0;
    for (int i = 0; i < t.rows; ++i) wrong += !ref.accepts<double>(i, y(i));
    std::printf("streams: instance %d, %d rows, %d wrong\n", k, t.rows, wrong);
    failures += wrong;
  }
  return failures == 0 ? 0 : 1;
}
