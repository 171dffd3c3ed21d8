// SPDX-License-Identifier: BSD-3-Clause
// Where the per-call floor of a small-matrix apply goes (issue 14 item 6):
// the library's ELL apply beside the same functor launched by a bare
// Kokkos parallel_for and by a plain CUDA launch on Kokkos' stream, and
// empty kernels both ways. Timed like kobalt-bench (CUDA events on Kokkos'
// stream, fenced) and back to back (100 calls between two events).
// Usage: launch_floor MATRIX.mtx[.gz]...
#include <kobalt/kobalt.hpp>
#include "device_clock.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

using V = double;
using I = int;
using Exec = Kokkos::DefaultExecutionSpace;
using Dev = Exec::device_type;
using XV = Kokkos::View<V*, Dev>;

#if defined(KOKKOS_ENABLE_CUDA)
template <class F>
__global__ void __launch_bounds__(128) plain_range(F f, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) f(i);
}
struct Empty {
  __device__ void operator()(int) const {}
};
template <class F>
void plain_launch(const F& f, int n) {
  plain_range<<<(n + 127) / 128, 128, 0, Exec().cuda_stream()>>>(f, n);
}
#endif

template <class F>
double median_us(F&& f, kobalt::bench::DeviceClock& clock) {
  for (int w = 0; w < 5; ++w) f();
  std::vector<double> t;
  for (int r = 0; r < 200; ++r) t.push_back(clock.time(f) * 1e6);
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  {
    kobalt::bench::DeviceClock clock;
    for (int m = 1; m < argc; ++m) {
      const auto a = kobalt::make_csr<Dev>(kobalt::read_matrix_market<V, I>(argv[m]));
      const auto e = kobalt::to_ell(a);
      const int rows = a.rows();
      XV x("x", a.cols()), y("y", a.rows());
      Kokkos::deep_copy(x, 1.0);
      const auto handle = kobalt::make_handle(Exec(), e);
      using functor =
          kobalt::detail::ThreadPerRowFunctor<Exec, int, kobalt::detail::EllRowSlots<int>, I, V,
                                         kobalt::detail::XBlock<XV>, kobalt::detail::YBlock<XV>,
                                         false>;
      const functor f{e.col_indices().data(),
                      e.values().data(),
                      kobalt::detail::XBlock<XV>(x, 0, 1),
                      kobalt::detail::YBlock<XV>(y, 0, 1),
                      kobalt::detail::EllRowSlots<int>{int(e.stride()), int(e.stored_per_row())},
                      1.0,
                      0.0};
      const auto report = [&](const char* what, double us) {
        std::printf("%-28s %-34s %8.2f us\n", argv[m] + std::string(argv[m]).rfind('/') + 1, what,
                    us);
      };
      const auto library = [&] { kobalt::spmv(Exec(), handle, 1.0, e, x, 0.0, y); };
      const auto kokkos_range = [&] {
        Kokkos::parallel_for("floor::ell", Kokkos::RangePolicy<Exec, Kokkos::IndexType<int>>(0, rows), f);
      };
      const auto kokkos_empty = [&] {
        Kokkos::parallel_for("floor::empty", Kokkos::RangePolicy<Exec, Kokkos::IndexType<int>>(0, rows),
                             KOKKOS_LAMBDA(int) {});
      };
      report("library spmv (ell)", median_us(library, clock));
      report("kokkos range, same functor", median_us(kokkos_range, clock));
      report("kokkos range, empty", median_us(kokkos_empty, clock));
#if defined(KOKKOS_ENABLE_CUDA)
      const auto plain = [&] { plain_launch(f, rows); };
      const auto plain_empty = [&] { plain_launch(Empty{}, rows); };
      report("plain cuda, same functor", median_us(plain, clock));
      report("plain cuda, empty", median_us(plain_empty, clock));
#endif
      const auto hundred = [&](auto g) { return [g] { for (int k = 0; k < 100; ++k) g(); }; };
      report("library x100 / 100", median_us(hundred(library), clock) / 100);
      report("kokkos range x100 / 100", median_us(hundred(kokkos_range), clock) / 100);
#if defined(KOKKOS_ENABLE_CUDA)
      report("plain cuda x100 / 100", median_us(hundred(plain), clock) / 100);
#endif
    }
  }
  return 0;
}
