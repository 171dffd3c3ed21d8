// SPDX-License-Identifier: BSD-3-Clause
// kobalt-bench: runs y = A*x with every requested format and peer on every
// input, checks each result against the sequential reference, and reports a
// table (stdout), progress (stderr) and JSON (--json). See --help.
#include "bench_run.hpp"

#include <iostream>
#include <string>

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--version") {
      std::cout << kobalt::bench::version_text();
      return 0;
    }
  const auto o = kobalt::bench::parse_options(argc, argv, kobalt::bench::generator_help());
  // The command line as given, before Kokkos removes its --kokkos-* options.
  std::string command_line;
  for (int i = 0; i < argc; ++i) command_line += (i ? " " : "") + std::string(argv[i]);
  Kokkos::ScopeGuard kokkos(argc, argv);
  try {
    using namespace kobalt::bench;
    const Provenance p = provenance(command_line);
    const bool i32 = o.index == "int32";
    using cdouble = Kokkos::complex<double>;
    using cfloat = Kokkos::complex<float>;
    if (o.value == "double")
      return i32 ? run<double, std::int32_t>(o, p) : run<double, std::int64_t>(o, p);
    if (o.value == "complex_double")
      return i32 ? run<cdouble, std::int32_t>(o, p) : run<cdouble, std::int64_t>(o, p);
    if (o.value == "complex_float")
      return i32 ? run<cfloat, std::int32_t>(o, p) : run<cfloat, std::int64_t>(o, p);
    return i32 ? run<float, std::int32_t>(o, p) : run<float, std::int64_t>(o, p);
  } catch (const kobalt::bench::usage_error& e) {
    std::cerr << "kobalt-bench: " << e.what() << "\n(run kobalt-bench --help)\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "kobalt-bench: " << e.what() << "\n";
    return 1;
  }
}
