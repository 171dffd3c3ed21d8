// SPDX-License-Identifier: BSD-3-Clause
// kobalt-tune: calibrates the automatic handle (kobalt::automatic) on the
// current device. It measures the stream bandwidth and the launch floor,
// times CSR and the conversion the rules would make (ELL for regular
// matrices, Hybrid for irregular ones) on a training set, fits the profile's
// auto_* keys (tuning/fit_auto.hpp) and writes a profile JSON that
// KOBALT_PROFILE=FILE applies. See --help.
#include "device_clock.hpp"
#include "device_info.hpp"
#include "inputs.hpp"
#include "timing.hpp"
#include "triad.hpp"

#include <kobalt/kobalt.hpp>
#include <kobalt/tuning/fit_auto.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using namespace kobalt;
using value_t = double;
using index_t = std::int32_t;
using exec = Kokkos::DefaultExecutionSpace;
using view = Kokkos::View<value_t*>;

/// The training set when no input is given: the suite's generators at a
/// size that fits every device (0.6e6-1e7 nonzeros), regular and irregular.
const std::vector<std::string> default_training = {
    "lap3d:100",   "stencil27:60",       "fem:5000,16,2",           "uniform:1000000,8",
    "tall:2000000,200000,6", "rmat:18,16", "zipf:1000000,10", "circuit:2000000,20,50000",
    "arrow:200000", "lap2d:300",         "uniform:100000,8",        "rmat:14,16"};

const char* usage =
    "usage: kobalt-tune [--out FILE] [--budget S] [--triad-mib M] [INPUT...]\n"
    "\n"
    "Calibrates kobalt::automatic on this device: measures the triad bandwidth\n"
    "and the launch floor (one CSR apply of a 1 x 1 matrix), then on each\n"
    "training matrix times CSR (csr::automatic) and the conversion the rules\n"
    "make (ELL when the row-length variance is <= 10, Hybrid otherwise): its\n"
    "apply and its setup in CSR applies. From those it fits the profile keys\n"
    "auto_min_convert_nnz, auto_hybrid_min_nnz, auto_ell_speedup,\n"
    "auto_hybrid_speedup, auto_ell_setup_spmvs and auto_hybrid_setup_spmvs\n"
    "(tuning/fit_auto.hpp) and writes the whole profile as JSON, atomically\n"
    "(FILE.tmp renamed over FILE at the end: an interrupted run writes nothing).\n"
    "Use it with KOBALT_PROFILE=FILE. fp64 values, int32 indices.\n"
    "\n"
    "INPUT           Matrix Market files, folders of them, or kobalt-bench's\n"
    "                generators (kobalt-bench --help); default: a training set\n"
    "                of 12 generators (lap3d:100 ... rmat:14,16)\n"
    "--out FILE      the profile to write (default kobalt-profile.json)\n"
    "--budget S      timed seconds per measurement (default 0.2)\n"
    "--triad-mib M   MiB per triad array (default: kobalt-bench's, 8x the\n"
    "                last-level cache)\n"
    "--help          this text\n"
    "\n"
    "Progress goes to stderr, the fit's report to stdout. Exit status: 0 when\n"
    "the profile was written, 1 on a failure, 2 for a bad command line.\n";

struct Options {
  std::string out = "kobalt-profile.json";
  double budget = 0.2;
  std::int64_t triad_mib = 0;  ///< 0: bench::default_triad_bytes()
  std::vector<std::string> inputs;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto value_of = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
      return argv[++i];
    };
    if (a == "--help") {
      std::cout << usage;
      std::exit(0);
    } else if (a == "--out") {
      o.out = value_of();
    } else if (a == "--budget") {
      const std::string v = value_of();
      char* end = nullptr;
      o.budget = std::strtod(v.c_str(), &end);
      if (v.empty() || *end != '\0' || !(o.budget > 0) || o.budget > 3600)
        throw std::invalid_argument("--budget needs seconds in (0, 3600], got '" + v + "'");
    } else if (a == "--triad-mib") {
      const std::string v = value_of();
      char* end = nullptr;
      o.triad_mib = std::strtoll(v.c_str(), &end, 10);
      if (v.empty() || *end != '\0' || o.triad_mib < 1 || o.triad_mib > 1048576)
        throw std::invalid_argument("--triad-mib needs a whole number in [1, 1048576], got '" + v + "'");
    } else if (a.rfind("--", 0) == 0) {
      throw std::invalid_argument("unknown option " + a);
    } else {
      o.inputs.push_back(a);
    }
  }
  if (o.inputs.empty()) o.inputs = default_training;
  return o;
}

/// Median seconds of one y = A*x through `handle`.
template <class Handle, class Matrix>
double apply_seconds(const Handle& handle, const Matrix& a, const view& x, const view& y,
                     double budget, bench::DeviceClock& clock) {
  bench::TimingOptions t;
  t.budget_seconds = budget;
  return bench::time_runs([&] { spmv(exec(), handle, value_t(1), a, x, value_t(0), y); }, t, clock,
                          bench::CacheFlusher(t))
      .median;
}

/// `convert` (Csr -> a format) with its handle, timed once, fenced before
/// and after, then the handle's apply: into s's format time and setup.
template <class Convert>
void time_conversion(Convert&& convert, const view& x, const view& y, double budget,
                     bench::DeviceClock& clock, tuning::AutoSample& s) {
  Kokkos::fence();
  Kokkos::Timer timer;
  const auto a = convert();
  const auto handle = make_handle(exec(), a);
  Kokkos::fence();
  s.format_setup_spmvs = timer.seconds() / s.csr_seconds;
  s.format_seconds = apply_seconds(handle, a, x, y, budget, clock);
}

/// The training sample of one matrix: CSR, then ELL or Hybrid.
tuning::AutoSample measure(const std::string& name, const Csr<value_t, index_t>& csr,
                           double budget, bench::DeviceClock& clock, std::string& line) {
  const exec space;
  tuning::AutoSample s;
  s.name = name;
  s.nnz = csr.nnz();
  const auto stats = tuning::analyze(space, csr);
  s.regular = stats.regular();
  view x("kobalt-tune::x", csr.cols()), y("kobalt-tune::y", csr.rows());
  Kokkos::deep_copy(x, value_t(1));
  s.csr_seconds = apply_seconds(make_handle(space, csr), csr, x, y, budget, clock);
  line = "csr " + std::to_string(s.csr_seconds * 1e6) + " us";
  try {
    if (s.regular)
      time_conversion([&] { return to_ell(space, csr); }, x, y, budget, clock, s);
    else
      time_conversion([&] { return to_hybrid(space, csr); }, x, y, budget, clock, s);
    line += s.regular ? ", ell " : ", hybrid ";
    line += std::to_string(s.format_seconds * 1e6) + " us (" + std::to_string(s.speedup()) +
            "x, setup " + std::to_string(s.format_setup_spmvs) + " CSR applies)";
  } catch (const format_too_large& e) {
    line += std::string(", no conversion: ") + e.what();  // too large here: not a sample
  }
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  try {
    o = parse(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "kobalt-tune: " << e.what() << "\n(run kobalt-tune --help)\n";
    return 2;
  }
  Kokkos::ScopeGuard kokkos(argc, argv);
  try {
    const exec space;
    tuning::DeviceProfile base = tuning::builtin_profile(arch::device_info(space));
    std::cout << "device: " << base << "\n";
    bench::DeviceClock clock;
    const std::int64_t triad_bytes =
        o.triad_mib > 0 ? o.triad_mib << 20 : bench::default_triad_bytes();
    const double triad = bench::measure_triad(triad_bytes, clock).gb_per_s();
    base.bandwidth_gbs = triad;
    std::cout << "triad bandwidth: " << triad << " GB/s\n";
    {
      Triplets<value_t, index_t> one;
      one.rows = one.cols = 1;
      one.push_back(0, 0, value_t(1));
      one.assemble();
      const auto a = make_csr(one);
      view x("x", 1), y("y", 1);
      std::cout << "launch floor (CSR apply of a 1 x 1 matrix): "
                << apply_seconds(make_handle(space, a), a, x, y, o.budget, clock) * 1e6
                << " us\n";
    }
    const auto inputs = bench::expand_inputs(o.inputs);
    std::vector<tuning::AutoSample> samples;
    Kokkos::Timer elapsed;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      const auto in = bench::load_input<value_t, index_t>(inputs[i]);
      std::string line;
      samples.push_back(measure(in.name, in.csr, o.budget, clock, line));
      const double left = elapsed.seconds() / static_cast<double>(i + 1) *
                          static_cast<double>(inputs.size() - i - 1);
      std::cerr << "[kobalt-tune] " << i + 1 << "/" << inputs.size() << " " << in.name << " ("
                << in.csr.nnz() << " nonzeros, " << (samples.back().regular ? "regular" : "irregular")
                << "): " << line << "; about " << static_cast<long>(left + 0.5) << " s left\n";
    }
    const auto fit = tuning::fit_auto(samples, base);
    std::cout << fit.report;
    tuning::write_profile_file(fit.profile, o.out);
    std::cout << "wrote " << o.out << " (use it with KOBALT_PROFILE=" << o.out << ")\n";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "kobalt-tune: " << e.what() << "\n";
    return 1;
  }
}
