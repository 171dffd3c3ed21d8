// SPDX-License-Identifier: BSD-3-Clause
// kobalt-bench-distributed: the distributed mode of kobalt-bench, run under
// mpiexec. MPI around Kokkos around the run; see --help.
#include "bench_run.hpp"

#include <mpi.h>

#include <iostream>
#include <string>

namespace {

/// run<Value, Index> where this binary was built for the pair (CMake's
/// KOBALT_BENCH_TYPES), a usage error naming the list otherwise.
template <bool Built, class Value, class Index>
int run_pair(const char* pair, const kobalt::bench::distributed::Options& o,
             const kobalt::bench::Provenance& p) {
  if constexpr (Built) {
    (void)pair;
    return kobalt::bench::distributed::run<Value, Index>(o, p);
  } else {
    (void)p;
    throw kobalt::bench::usage_error(
        std::string("this kobalt-bench-distributed was built without --value ") + o.value +
        " --index " + o.index + " (add " + pair + " to the CMake list KOBALT_BENCH_TYPES)");
  }
}

int run_with_mpi(int argc, char** argv, int rank) {
  namespace bench = kobalt::bench;
  std::string command_line;
  for (int i = 0; i < argc; ++i) command_line += (i ? " " : "") + std::string(argv[i]);
  try {
    const auto o = bench::distributed::parse_options(argc, argv, rank);
    if (!o) return 0;
    Kokkos::ScopeGuard kokkos(argc, argv);
    const bench::Provenance p = bench::provenance(command_line);
    const bool i32 = o->index == "int32";
    using std::int32_t, std::int64_t;
    if (o->value == "double")
      return i32 ? run_pair<KOBALT_BENCH_HAS_DOUBLE_INT32, double, int32_t>("double_int32", *o, p)
                 : run_pair<KOBALT_BENCH_HAS_DOUBLE_INT64, double, int64_t>("double_int64", *o, p);
    return i32 ? run_pair<KOBALT_BENCH_HAS_FLOAT_INT32, float, int32_t>("float_int32", *o, p)
               : run_pair<KOBALT_BENCH_HAS_FLOAT_INT64, float, int64_t>("float_int64", *o, p);
  } catch (const bench::usage_error& e) {
    if (rank == 0)
      std::cerr << "kobalt-bench-distributed: " << e.what()
                << "\n(run kobalt-bench-distributed --help)\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "kobalt-bench-distributed: rank " << rank << ": " << e.what() << "\n";
    return 1;
  }
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--version") {
      std::cout << kobalt::bench::version_text();
      return 0;
    }
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int status = run_with_mpi(argc, argv, rank);
  MPI_Finalize();
  return status;
}
