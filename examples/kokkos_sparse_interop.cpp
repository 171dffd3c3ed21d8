// SPDX-License-Identifier: BSD-3-Clause
// KokkosSparse interop: an application's KokkosSparse::CrsMatrix (here with
// size_t row offsets, Kokkos Kernels' default) wrapped as a kobalt::Csr
// without copying, converted to SELL-P, multiplied by both libraries, and
// handed back as a CrsMatrix over the same arrays. Usage:
// kokkos_sparse_interop [n] (grid n^3, 24).
#include "poisson3d.hpp"

#include <kobalt/interop/kokkos_sparse.hpp>

#include <KokkosSparse_CrsMatrix.hpp>
#include <KokkosSparse_spmv.hpp>

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  const int n = argc > 1 ? std::atoi(argv[1]) : 24;
  if (n < 2) {
    std::fprintf(stderr, "usage: kokkos_sparse_interop [n >= 2]\n");
    return 2;
  }
  using Device = Kokkos::DefaultExecutionSpace::device_type;
  using Crs = KokkosSparse::CrsMatrix<double, int, Device, void, std::size_t>;
  Kokkos::DefaultExecutionSpace exec;

  // The application's matrix: built here from the example's Poisson arrays,
  // with the row pointer copied into size_t offsets as KokkosSparse keeps it.
  const auto p = example::poisson3d<double, int>(exec, n);
  Kokkos::View<std::size_t*, Device> row_map("row_map", p.rows() + 1);
  const auto p_row_ptr = p.row_ptr();
  Kokkos::parallel_for(
      "example::row_map", Kokkos::RangePolicy<>(exec, 0, p.rows() + 1),
      KOKKOS_LAMBDA(const int i) { row_map(i) = static_cast<std::size_t>(p_row_ptr(i)); });
  Kokkos::View<int*, Device> entries("entries", p.nnz());
  Kokkos::View<double*, Device> values("values", p.nnz());
  Kokkos::deep_copy(exec, entries, p.col_indices());
  Kokkos::deep_copy(exec, values, p.values());
  exec.fence();
  const Crs A("A", p.rows(), p.cols(), p.nnz(), values, row_map, entries);

  // Wrap: the Csr shares A's three arrays (checked like kobalt::Csr's constructor).
  const auto a = kobalt::from_kokkos_crs(exec, A);
  const bool shared = a.row_ptr().data() == A.graph.row_map.data() &&
                      a.col_indices().data() == A.graph.entries.data() &&
                      a.values().data() == A.values.data();

  Kokkos::View<double*> x("x", a.cols()), y_kobalt("y_kobalt", a.rows()),
      y_kokkos("y_kokkos", a.rows());
  Kokkos::deep_copy(exec, x, 1.0);
  const auto s = kobalt::to_sellp(a);  // any format converts from the wrapped Csr
  auto h = kobalt::make_handle(exec, s);
  kobalt::spmv(exec, h, 1.0, s, x, 0.0, y_kobalt);
  exec.fence();
  KokkosSparse::spmv("N", 1.0, A, x, 0.0, y_kokkos);
  // And back: a CrsMatrix over Kobalt's arrays, for any KokkosSparse routine.
  const auto B = kobalt::to_kokkos_crs(a);
  const bool shared_back = B.values.data() == A.values.data();

  // Both sums are exact here: small integers in double.
  const double difference = example::max_difference(exec, y_kobalt, y_kokkos);
  std::printf("kokkos_sparse_interop: %d rows, %lld nonzeros, storage shared both ways: %s, "
              "max |y_kobalt - y_kokkos| = %g\n",
              a.rows(), static_cast<long long>(a.nnz()), shared && shared_back ? "yes" : "NO",
              difference);
  return shared && shared_back && difference == 0.0 ? 0 : 1;
}
