// SPDX-License-Identifier: BSD-3-Clause
// kobalt-bench: runs y = A*x with every requested format and peer on every
// input, checks each result against the sequential reference, and reports a
// table (stdout), progress (stderr) and JSON (--json). See --help.
#include "bench_run.hpp"

int main(int argc, char** argv) {
  const auto o = kobalt::bench::parse_options(argc, argv, kobalt::bench::generator_help());
  Kokkos::ScopeGuard kokkos(argc, argv);
  try {
    using namespace kobalt::bench;
    if (o.value == "double")
      return o.index == "int32" ? run<double, std::int32_t>(o) : run<double, std::int64_t>(o);
    return o.index == "int32" ? run<float, std::int32_t>(o) : run<float, std::int64_t>(o);
  } catch (const kobalt::bench::usage_error& e) {
    std::cerr << "kobalt-bench: " << e.what() << "\n(run kobalt-bench --help)\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "kobalt-bench: " << e.what() << "\n";
    return 1;
  }
}
