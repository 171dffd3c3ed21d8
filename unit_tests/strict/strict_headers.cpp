// SPDX-License-Identifier: BSD-3-Clause
// The public headers under an application's strict warnings: built by the
// test strict_headers with -Wall -Wextra -Wpedantic -Wshadow -Wconversion
// -Werror and Kobalt's include directory given with -I, not as a system
// directory. Templates warn only where instantiated, so this instantiates
// what an application calls: every format and its handle, the four modes,
// rank-1 and rank-2 vectors, the automatic and reproducible handles, Matrix
// Market I/O and, where Kokkos Kernels is found, the KokkosSparse interop.
// It is compiled, never run.
#include <kobalt/kobalt.hpp>
#include <kobalt/version.hpp>
#ifdef KOBALT_STRICT_INTEROP
#include <kobalt/interop/kokkos_sparse.hpp>
#endif

#include <cstdint>
#include <string>

namespace {

using exec_type = Kokkos::DefaultExecutionSpace;

template <class Matrix, class X, class Y, class Value>
void apply_every_mode(const exec_type& exec, const Matrix& m, const X& x, const Y& y, Value one) {
  kobalt::spmv(one, m, x, one, y);
  for (const char* mode : {"N", "T", "C", "H"}) kobalt::spmv(exec, mode, one, m, x, one, y);
  auto h = kobalt::make_handle(exec, m);
  kobalt::spmv(exec, h, one, m, x, one, y);
  kobalt::spmv(exec, h, "T", one, m, x, one, y);
  auto r = kobalt::make_handle(exec, m, kobalt::reproducible);
  kobalt::spmv(exec, r, one, m, x, one, y);
  (void)h.describe();
}

template <class Matrix, class Value>
void every_vector(const exec_type& exec, const Matrix& m, std::int64_t n, Value one) {
  using layout = Kokkos::LayoutLeft;
  Kokkos::View<Value*> x("x", n), y("y", n);
  Kokkos::View<Value**, layout> xs("xs", n, 2), ys("ys", n, 2);
  apply_every_mode(exec, m, x, y, one);
  apply_every_mode(exec, m, xs, ys, one);
}

template <class Value, class Index>
void every_format(const std::string& path) {
  const exec_type exec;
  kobalt::Triplets<Value, Index> t = kobalt::read_matrix_market<Value, Index>(path);
  kobalt::write_matrix_market(path + ".out.mtx", t);
  const auto a = kobalt::make_csr(t);
  const std::int64_t n = static_cast<std::int64_t>(a.rows());
  const Value one(1);
  every_vector(exec, a, n, one);
  every_vector(exec, kobalt::to_coo(a), n, one);
  every_vector(exec, kobalt::to_ell(a), n, one);
  every_vector(exec, kobalt::to_sellp(a), n, one);
  every_vector(exec, kobalt::to_hybrid(a), n, one);
  every_vector(exec, kobalt::to_csrk(a), n, one);
  every_vector(exec, kobalt::to_aligned_coo(a), n, one);
  auto h = kobalt::make_handle(exec, a, kobalt::automatic{100});
  Kokkos::View<Value*> x("x", n), y("y", n);
  kobalt::spmv(exec, h, one, a, x, one, y);
  (void)h.describe();
  (void)kobalt::to_triplets(kobalt::to_csr(kobalt::to_coo(a)));
#ifdef KOBALT_STRICT_INTEROP
  const auto k = kobalt::to_kokkos_crs(a);
  const auto back = kobalt::from_kokkos_crs(k);
  kobalt::spmv(one, back, x, one, y);
#endif
}

}  // namespace

// Called from nowhere: the test only compiles and links this file.
int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  const std::string path = argc > 1 ? argv[1] : "A.mtx";
  every_format<double, int>(path);
  every_format<float, std::int64_t>(path);
  every_format<Kokkos::complex<float>, int>(path);
  return KOBALT_VERSION > 0 ? 0 : 1;
}
