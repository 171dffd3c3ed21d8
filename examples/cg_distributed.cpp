// SPDX-License-Identifier: BSD-3-Clause
// Conjugate gradients on the 3-D Poisson matrix over MPI ranks. Each rank
// assembles its own z-planes of the grid as a kobalt::Csr with global column
// indices, kobalt::distributed makes one handle for the product, and CG's
// inner products are summed over the ranks with MPI_Allreduce. Without a
// preconditioner: the diagonal is constant, so Jacobi would only rescale.
//
//   mpiexec -n 4 cg_distributed [--n 40] [--tol 1e-8] [--max-iters 2000] [--describe]
//
// Every rank knows x* and b = A x* of its rows from the stencil itself (no
// product, no communication), so a wrong halo shows as a wrong x. The run
// fails (exit 1) when CG does not converge or max |x - x*| exceeds
// ||b - A x|| / lambda_min(A); bad options exit 2.
#include "cg.hpp"
#include "poisson3d.hpp"

#include <kobalt/distributed/distributed.hpp>

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace {

namespace kd = kobalt::distributed;
using example::Vector;

struct Options {
  int n = 40, max_iters = 2000;
  double tol = 1e-8;
  bool describe = false;
};

const char* const usage =
    "usage: mpiexec -n RANKS cg_distributed [--n 40] [--tol 1e-8] [--max-iters 2000] [--describe]";

/// The whole of `text` as a number, or invalid_argument naming the option.
template <class T>
T number(const std::string& option, const std::string& text) {
  std::size_t used = 0;
  T value{};
  try {
    if constexpr (std::is_same_v<T, int>) value = std::stoi(text, &used);
    else value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size())
    throw std::invalid_argument(option + " takes a number, got '" + text + "'");
  return value;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--describe") {
      o.describe = true;
      continue;
    }
    if (arg != "--n" && arg != "--tol" && arg != "--max-iters")
      throw std::invalid_argument("unknown option " + arg);
    if (i + 1 == argc) throw std::invalid_argument(arg + " needs a value");
    const std::string value = argv[++i];
    if (arg == "--n") o.n = number<int>(arg, value);
    else if (arg == "--tol") o.tol = number<double>(arg, value);
    else o.max_iters = number<int>(arg, value);
  }
  // The example's indices are ints: all of the entries on one rank must fit.
  const std::int64_t most = std::numeric_limits<int>::max();
  if (o.n < 2 || 7 * std::int64_t(o.n) * o.n * o.n > most)
    throw std::invalid_argument("--n " + std::to_string(o.n) + ": needs 2 <= n <= 668");
  if (o.max_iters < 1) throw std::invalid_argument("--max-iters needs a value >= 1");
  if (!(o.tol > 0 && o.tol < 1)) throw std::invalid_argument("--tol needs a value in (0, 1)");
  return o;
}

/// The exact solution: neighbouring points get different values, so an x
/// entry sent to the wrong place changes the answer.
KOKKOS_INLINE_FUNCTION double exact(int i) { return 1.0 + 0.1 * (i % 10); }

/// x* and b = A x* on rows first .. first + x.extent(0) - 1.
void exact_problem(int n, int first, const Vector& x, const Vector& b) {
  Kokkos::parallel_for(
      "cg_distributed::exact_problem", static_cast<int>(x.extent(0)), KOKKOS_LAMBDA(const int k) {
        double sum = 0;
        example::for_each_entry(n, first + k, [&](int c, double v) { sum += v * exact(c); });
        x(k) = exact(first + k);
        b(k) = sum;
      });
}

double sum_over_ranks(double local, MPI_Op op = MPI_SUM) {
  double global = 0;
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, op, MPI_COMM_WORLD);
  return global;
}

int run(const Options& o, int rank, int ranks) {
  Kokkos::DefaultExecutionSpace exec;
  const int n = o.n, plane = n * n;

  // Contiguous z-planes per rank (a rank may get none when ranks > n).
  const auto planes = kd::Partition::uniform(n, ranks);
  int first_plane = 0;
  for (int r = 0; r < rank; ++r) first_plane += static_cast<int>(planes.count(r));
  const int first = first_plane * plane, count = static_cast<int>(planes.count(rank)) * plane;

  // This rank's rows, global columns; the ranks agree on the layout.
  const auto rows = kd::Partition::from_counts(MPI_COMM_WORLD, count);
  kd::DistributedMatrix<double, int> a(MPI_COMM_WORLD,
                                       example::poisson3d_rows<double>(exec, n, first, count), rows);
  auto h = kd::make_handle(exec, a);  // collective: blocks, halo plan, handles
  const auto apply = [&](const Vector& p, const Vector& q) { kd::spmv(exec, h, 1.0, a, p, 0.0, q); };
  const auto dot = [](const Vector& u, const Vector& v) {
    return sum_over_ranks(example::local_dot(u, v));
  };

  Vector exact_x("x*", a.local_cols()), b("b", a.local_rows()), x("x", a.local_cols());
  exact_problem(n, first, exact_x, b);
  const auto r = example::cg(apply, dot, b, x, o.tol, o.max_iters);

  // ||x - x*||_2 <= ||b - A x||_2 / lambda_min, lambda_min = 6 (1 - cos(pi / (n + 1))).
  Vector residual("b - A x", a.local_rows());
  Kokkos::deep_copy(residual, b);
  kd::spmv(exec, h, -1.0, a, x, 1.0, residual);
  const double residual_norm = std::sqrt(dot(residual, residual));
  const double pi = std::acos(-1.0);
  const double bound = residual_norm / (6 * (1 - std::cos(pi / (n + 1))));
  const double b_norm = std::sqrt(dot(b, b));
  const double error = sum_over_ranks(example::max_difference(exec, x, exact_x), MPI_MAX);
  const double seconds = sum_over_ranks(r.seconds, MPI_MAX);
  const double spmv_seconds = sum_over_ranks(r.spmv_seconds, MPI_MAX);
  const double nnz = sum_over_ranks(static_cast<double>(a.local().nnz()));

  const bool converged = r.relative_residual <= o.tol;
  const bool accurate = error <= 2 * bound;  // twice: room for the rounding of b - A x
  if (rank == 0) {
    std::printf("cg_distributed: %d^3 grid (%lld rows, %.0f nonzeros) over %d rank%s on %s\n", n,
                static_cast<long long>(a.rows()), nnz, ranks, ranks == 1 ? "" : "s",
                Kokkos::DefaultExecutionSpace::name());
    if (o.describe) std::printf("%s\n", h.describe().c_str());
    std::printf("iterations %d, relative residual %.3g (b - A x: %.3g), max |x - x*| %.3g "
                "(bound %.3g)\n",
                r.iterations, r.relative_residual, residual_norm / b_norm, error, bound);
    std::printf("time per iteration %.3f ms (SpMV %.3f ms), slowest rank\n",
                1e3 * seconds / std::max(r.iterations, 1),
                1e3 * spmv_seconds / std::max(r.iterations, 1));
    if (!converged)
      std::fprintf(stderr, "cg_distributed: no convergence to %g in %d iterations\n", o.tol,
                   o.max_iters);
    if (!accurate)
      std::fprintf(stderr, "cg_distributed: the error %.3g exceeds the bound %.3g\n", error, bound);
  }
  return converged && accurate ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1, status = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    // Every rank parses the same arguments, and kobalt::distributed throws
    // the same error on every rank, so all of them leave here together.
    try {
      status = run(parse(argc, argv), rank, ranks);
    } catch (const std::invalid_argument& e) {
      if (rank == 0) std::fprintf(stderr, "cg_distributed: %s\n%s\n", e.what(), usage);
      status = 2;
    } catch (const kobalt::error& e) {
      if (rank == 0) std::fprintf(stderr, "cg_distributed: %s\n", e.what());
      status = 2;
    }
  }  // the handle and Kokkos are gone before MPI
  MPI_Finalize();
  return status;
}
