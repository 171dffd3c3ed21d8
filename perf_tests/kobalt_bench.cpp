// SPDX-License-Identifier: BSD-3-Clause
// kobalt-bench: runs y = A*x with every requested format and peer on every
// input, checks each result against the sequential reference, and reports a
// table (stdout), progress (stderr) and JSON (--json). See --help.
#include "bench_run.hpp"

#include <iostream>
#include <string>

namespace {

/// run<Value, Index> where kobalt-bench was built for the pair (Built: its
/// KOBALT_BENCH_HAS_* flag from CMake's KOBALT_BENCH_TYPES), a usage error
/// naming the CMake list otherwise.
template <bool Built, class Value, class Index>
int run_pair(const char* pair, const kobalt::bench::Options& o,
             const kobalt::bench::Provenance& p) {
  if constexpr (Built) {
    (void)pair;
    return kobalt::bench::run<Value, Index>(o, p);
  } else {
    (void)p;
    throw kobalt::bench::usage_error(std::string("this kobalt-bench was built without --value ") +
                                     o.value + " --index " + o.index + " (add " + pair +
                                     " to the CMake list KOBALT_BENCH_TYPES)");
  }
}

}  // namespace

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
    using std::int32_t, std::int64_t;
    if (o.value == "double")
      return i32 ? run_pair<KOBALT_BENCH_HAS_DOUBLE_INT32, double, int32_t>("double_int32", o, p)
                 : run_pair<KOBALT_BENCH_HAS_DOUBLE_INT64, double, int64_t>("double_int64", o, p);
    if (o.value == "complex_double")
      return i32 ? run_pair<KOBALT_BENCH_HAS_COMPLEX_DOUBLE_INT32, cdouble, int32_t>(
                       "complex_double_int32", o, p)
                 : run_pair<KOBALT_BENCH_HAS_COMPLEX_DOUBLE_INT64, cdouble, int64_t>(
                       "complex_double_int64", o, p);
    if (o.value == "complex_float")
      return i32 ? run_pair<KOBALT_BENCH_HAS_COMPLEX_FLOAT_INT32, cfloat, int32_t>(
                       "complex_float_int32", o, p)
                 : run_pair<KOBALT_BENCH_HAS_COMPLEX_FLOAT_INT64, cfloat, int64_t>(
                       "complex_float_int64", o, p);
    return i32 ? run_pair<KOBALT_BENCH_HAS_FLOAT_INT32, float, int32_t>("float_int32", o, p)
               : run_pair<KOBALT_BENCH_HAS_FLOAT_INT64, float, int64_t>("float_int64", o, p);
  } catch (const kobalt::bench::usage_error& e) {
    std::cerr << "kobalt-bench: " << e.what() << "\n(run kobalt-bench --help)\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "kobalt-bench: " << e.what() << "\n";
    return 1;
  }
}
