// SPDX-License-Identifier: BSD-3-Clause
// Conjugate gradients on the 3-D Poisson matrix, with the SpMV switched by a
// flag between KokkosSparse::spmv and a Kobalt handle on the same matrix
// (the same device arrays: nothing is copied between the two). Prints the
// iterations to convergence and the time per iteration.
//
//   cg_poisson [--spmv kobalt|kokkos-sparse] [--format csr|ell|sellp|hybrid]
//              [--n 40] [--tol 1e-8] [--max-iters 2000]
//
// b = A * ones, so the solution is all ones; the run fails (exit 1) when CG
// does not converge or the solution is off by more than 1e3 * tol.
#include "cg.hpp"
#include "poisson3d.hpp"

#include <kobalt/interop/kokkos_sparse.hpp>

#include <KokkosSparse_spmv.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace {

using example::CgResult;
using example::Vector;

struct Options {
  std::string spmv = "kobalt", format = "csr";
  int n = 40, max_iters = 2000;
  double tol = 1e-8;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const char* value = i + 1 < argc ? argv[i + 1] : nullptr;
    if (value == nullptr) throw std::invalid_argument(arg + " needs a value");
    if (arg == "--spmv") o.spmv = value;
    else if (arg == "--format") o.format = value;
    else if (arg == "--n") o.n = std::atoi(value);
    else if (arg == "--tol") o.tol = std::atof(value);
    else if (arg == "--max-iters") o.max_iters = std::atoi(value);
    else throw std::invalid_argument("unknown option " + arg);
    ++i;
  }
  if (o.spmv != "kobalt" && o.spmv != "kokkos-sparse")
    throw std::invalid_argument("--spmv takes kobalt or kokkos-sparse");
  if (o.n < 2 || o.max_iters < 1 || !(o.tol > 0))
    throw std::invalid_argument("--n >= 2, --max-iters >= 1 and --tol > 0 are required");
  return o;
}

/// CG with Kobalt's handle on `a` converted to the format named in `o`.
template <class Csr>
CgResult solve_with_kobalt(const Csr& a, const Options& o, const Vector& b, const Vector& x,
                           std::string& chosen) {
  Kokkos::DefaultExecutionSpace exec;
  auto run = [&](const auto& m) {
    auto h = kobalt::make_handle(exec, m);  // setup once, applied every iteration
    chosen = h.describe();
    return example::cg(
        [&](const Vector& p, const Vector& q) { kobalt::spmv(exec, h, 1.0, m, p, 0.0, q); },
        example::local_dot, b, x, o.tol, o.max_iters);
  };
  if (o.format == "csr") return run(a);
  if (o.format == "ell") return run(kobalt::to_ell(a));
  if (o.format == "sellp") return run(kobalt::to_sellp(a));
  if (o.format == "hybrid") return run(kobalt::to_hybrid(a));
  throw std::invalid_argument("--format takes csr, ell, sellp or hybrid");
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  Options o;
  try {
    o = parse(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cg_poisson: %s\n", e.what());
    return 2;
  }
  Kokkos::DefaultExecutionSpace exec;
  const auto a = example::poisson3d<double, int>(exec, o.n);
  Vector ones("ones", a.cols()), b("b", a.rows()), x("x", a.cols());
  Kokkos::deep_copy(ones, 1.0);
  kobalt::spmv(1.0, a, ones, 0.0, b);

  CgResult r;
  std::string chosen;
  try {
    if (o.spmv == "kokkos-sparse") {
      const auto crs = kobalt::to_kokkos_crs(a);  // the same arrays, not a copy
      r = example::cg(
          [&](const Vector& p, const Vector& q) { KokkosSparse::spmv("N", 1.0, crs, p, 0.0, q); },
          example::local_dot, b, x, o.tol, o.max_iters);
      chosen = "KokkosSparse::spmv";
    } else {
      r = solve_with_kobalt(a, o, b, x, chosen);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cg_poisson: %s\n", e.what());
    return 2;
  }
  const double error = example::max_difference(exec, x, ones);
  std::printf("cg_poisson: %s, %d^3 grid (%d rows, %lld nonzeros) on %s\n", o.spmv.c_str(), o.n,
              a.rows(), static_cast<long long>(a.nnz()), Kokkos::DefaultExecutionSpace::name());
  std::printf("%s\n", chosen.c_str());
  std::printf("iterations %d, relative residual %.3g, max |x - 1| %.3g\n", r.iterations,
              r.relative_residual, error);
  std::printf("time per iteration %.3f ms (SpMV %.3f ms)\n",
              1e3 * r.seconds / std::max(r.iterations, 1),
              1e3 * r.spmv_seconds / std::max(r.iterations, 1));
  const bool ok = r.relative_residual <= o.tol && error <= 1e3 * o.tol;
  return ok ? 0 : 1;
}
