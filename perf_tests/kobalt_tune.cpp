// SPDX-License-Identifier: BSD-3-Clause
// kobalt-tune: calibrates a device profile on the current device. It
// measures the stream bandwidth and the launch floor; on a training set it
// times CSR and the conversions the automatic handle's rules would make (ELL
// for regular matrices, Hybrid for irregular ones, SELL-P for regular ones
// that pad little) and fits the auto_* keys
// (tune/fit_auto.hpp); it sweeps CSR-k's sizes over seed 002's grid and
// fits them (tune/fit_csrk.hpp), and sweeps the launch keys: on GPUs
// merge_path's items per lane, threads per team, and the warp-chunk
// kernels' omega and warps per compute unit; on hosts the rows per thread
// (tune/fit_sweep.hpp). It writes a profile JSON that KOBALT_PROFILE=FILE
// applies. See --help.
#include "device_clock.hpp"
#include "device_info.hpp"
#include "inputs.hpp"
#include "options.hpp"
#include "output_file.hpp"
#include "timing.hpp"
#include "triad.hpp"
#include "tune/fit_auto.hpp"
#include "tune/fit_csrk.hpp"
#include "tune/fit_sweep.hpp"
#include "tune/training.hpp"

#include <kobalt/kobalt.hpp>
#include <kobalt/tuning/sellp_fill.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include <unistd.h>

namespace {

using namespace kobalt;
using value_t = double;
using index_t = std::int32_t;
using exec = Kokkos::DefaultExecutionSpace;
using view = Kokkos::View<value_t*>;
using namespace tune;  // the training set and the swept keys (tune/training.hpp)

const char* usage =
    "usage: kobalt-tune [--out FILE] [--start FILE] [--skip-csrk] [--budget S]\n"
    "                   [--sweep-budget S] [--batch N] [--triad-mib M] [INPUT...]\n"
    "\n"
    "Calibrates a device profile on this device. It measures the triad\n"
    "bandwidth and the launch floor (one CSR apply of a 1 x 1 matrix), then on\n"
    "each training matrix:\n"
    "- times CSR (csr::automatic) and the conversion kobalt::automatic's rules\n"
    "  make (ELL when the row-length variance is <= 10, Hybrid otherwise): its\n"
    "  apply and its setup in CSR applies; fits auto_min_convert_nnz,\n"
    "  auto_hybrid_min_nnz, auto_ell_speedup, auto_hybrid_speedup,\n"
    "  auto_ell_setup_spmvs and auto_hybrid_setup_spmvs; on regular matrices\n"
    "  also SELL-P with 4-, 8-, 16- and 32-row slices, each where it pads to\n"
    "  at most 1.25 slots per nonzero: fits auto_sellp_slice_size (as the\n"
    "  launch keys below), then auto_sellp_max_nnz, auto_sellp_speedup and\n"
    "  auto_sellp_setup_spmvs with that size (perf_tests/tune/fit_auto.hpp);\n"
    "- times CSR-k over seed 002's grid of sizes (GPUs: CSR-3, (SSRS, SRS) in\n"
    "  {4..48}^2; hosts: CSR-2, SRS in {8..3072}), then each candidate size\n"
    "  setting (002's Volta and Ampere models, 002 §4.1's log regression of\n"
    "  the best sizes against nonzeros per row, the grid's best constant;\n"
    "  hosts: §4.2's geometric mean of the best SRS) on every matrix, and keeps\n"
    "  the one closest to each matrix's grid best (perf_tests/tune/fit_csrk.hpp);\n"
    "- GPUs: times CSR merge_path with 4, 6, 8, 12 and 16 items per lane on\n"
    "  the matrices csr::automatic runs with merge_path (merge_path_items),\n"
    "  CSR (csr::automatic) with teams of 64 ... 1024 threads on every matrix\n"
    "  (team_threads), and both warp-chunk kernels, CSR load_balance and\n"
    "  Hybrid's COO part, with omega 0 (000's rule), 2, 4, 8, 16 and 32\n"
    "  (oversubscription) and with 1 ... 16 warps per compute unit\n"
    "  (warps_per_cu) on the irregular ones; hosts: CSR classical with 16 ...\n"
    "  4096 rows per thread and league entry (rows_per_team). Each key is\n"
    "  fitted alone (the others as the starting profile has them) to the\n"
    "  value with the best geometric-mean share of each matrix's best; the\n"
    "  starting value stays unless another gains 1.05x. oversubscription and\n"
    "  warps_per_cu scale the same launch: only the one that gains more moves.\n"
    "It writes the whole profile as JSON at the end, atomically: into a new\n"
    "private folder beside FILE (.FILE.XXXXXX), then renamed over FILE, so an\n"
    "interrupted run writes nothing and no other file is touched. Use it with\n"
    "KOBALT_PROFILE=FILE. fp64 values, int32 indices.\n"
    "\n"
    "INPUT           Matrix Market files, folders of them, or kobalt-bench's\n"
    "                generators (kobalt-bench --help); default: a training set\n"
    "                of 20 generators (lap3d:90 ... zipf:40000,10)\n"
    "--out FILE      the profile to write (default kobalt-profile.json). Refused\n"
    "                before anything runs: an empty name, an input or the\n"
    "                --start file, a matrix file's name (.mtx, .mtx.gz, .mm, in\n"
    "                any case), a folder, a link, a device, an existing file\n"
    "                that is not a JSON object, a folder that does not exist\n"
    "                or takes no new file\n"
    "--start FILE    start from this profile (as KOBALT_PROFILE applies it:\n"
    "                the device's built-in profile, then FILE's keys) instead of\n"
    "                the built-in one; the keys kobalt-tune fits are replaced,\n"
    "                the others kept. A profile for another device is an error\n"
    "--skip-csrk     skip the CSR-k sweep (on GPUs the longest pass: 64 sizes\n"
    "                per matrix) and keep the starting profile's CSR-k keys;\n"
    "                kobalt::automatic never chooses CSR-k, so its keys do not\n"
    "                depend on them\n"
    "--budget S      timed seconds per CSR and conversion measurement\n"
    "                (default 0.2)\n"
    "--sweep-budget S  timed seconds per point of the CSR-k, merge_path and\n"
    "                omega sweeps (default: a tenth of --budget)\n"
    "--batch N       time N applies back to back per sample, as kobalt-bench\n"
    "                --batch does (default 1: one apply between fences); a\n"
    "                profile for applies issued in a loop\n"
    "--triad-mib M   MiB per triad array (default: kobalt-bench's, 8x the\n"
    "                last-level cache, at most 1/8 of the free memory); 3\n"
    "                arrays larger than the free memory are refused\n"
    "--help          this text\n"
    "\n"
    "Progress goes to stderr, the fit's report to stdout. A key fitted from\n"
    "too few training matrices (tuning::fit_min_samples) is written with a\n"
    "warning on stderr and in the report. Exit status: 0 when\n"
    "the profile was written, 1 on a failure, 2 for a bad command line, found\n"
    "before anything runs: options, inputs (every file must start as a Matrix\n"
    "Market file, every generator spec must parse), --start (a readable\n"
    "file), --out (above), --triad-mib (must fit the free memory, the\n"
    "process's ulimits and cgroup memory limit included).\n";

struct Options {
  std::string out = "kobalt-profile.json";
  double budget = 0.2;
  double sweep_budget = 0;  ///< 0: budget / 10
  int batch = 1;  ///< applies timed back to back per sample (kobalt-bench --batch)
  std::int64_t triad_mib = 0;  ///< 0: bench::default_triad_bytes()
  std::string start;           ///< a profile to start from ("": the built-in one)
  bool skip_csrk = false;      ///< keep the starting profile's CSR-k keys
  std::vector<std::string> inputs;
};

/// A whole number in [1, max] for `option` (kobalt-bench's parser).
long long whole(const std::string& option, const std::string& text, long long max) {
  const auto n = bench::parse_whole(text, 1, max);
  if (!n)
    throw std::invalid_argument(option + " needs a whole number in [1, " + std::to_string(max) +
                                "], got '" + text + "'");
  return *n;
}

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
      if (o.out.empty()) throw std::invalid_argument("--out needs a file name, got an empty one");
    } else if (a == "--start") {
      o.start = value_of();
      if (o.start.empty()) throw std::invalid_argument("--start needs a file name, got an empty one");
    } else if (a == "--skip-csrk") {
      o.skip_csrk = true;
    } else if (a == "--budget" || a == "--sweep-budget") {
      const std::string v = value_of();
      char* end = nullptr;
      const double seconds = std::strtod(v.c_str(), &end);
      if (v.empty() || *end != '\0' || !(seconds > 0) || seconds > 3600)
        throw std::invalid_argument(a + " needs seconds in (0, 3600], got '" + v + "'");
      (a == "--budget" ? o.budget : o.sweep_budget) = seconds;
    } else if (a == "--batch") {
      o.batch = static_cast<int>(whole(a, value_of(), bench::max_batch));
    } else if (a == "--triad-mib") {
      o.triad_mib = whole(a, value_of(), bench::max_triad_mib);
    } else if (a.rfind("--", 0) == 0) {
      throw std::invalid_argument("unknown option " + a);
    } else {
      o.inputs.push_back(a);
    }
  }
  if (o.inputs.empty()) o.inputs = default_training;
  if (o.sweep_budget == 0) o.sweep_budget = o.budget / 10;
  return o;
}

/// The profile kobalt-tune writes: what --out may replace (output_file.hpp).
const bench::OutputKind profile_file{"--out", "a device profile (a JSON object)", nullptr};

/// Every file the run reads: the inputs as given and expanded, and --start.
std::vector<std::string> read_files(const Options& o, const std::vector<std::string>& inputs) {
  std::vector<std::string> files = o.inputs;
  files.insert(files.end(), inputs.begin(), inputs.end());
  if (!o.start.empty()) files.push_back(o.start);
  return files;
}

/// Checks everything the command line names before anything runs: --out
/// (bench::check_output), every input (bench::check_input), --start (a
/// readable file). Returns the expanded inputs; throws
/// invalid_argument.
std::vector<std::string> checked_inputs(const Options& o) {
  std::vector<std::string> inputs;
  try {
    inputs = bench::expand_inputs(o.inputs);
  } catch (const std::filesystem::filesystem_error& e) {
    throw std::invalid_argument(e.what());
  }
  bench::check_output(profile_file, o.out, read_files(o, inputs));
  for (const auto& in : inputs) bench::check_input<value_t, index_t>(in);
  if (!o.start.empty() &&
      (!std::filesystem::is_regular_file(o.start) || ::access(o.start.c_str(), R_OK) != 0))
    throw std::invalid_argument("--start " + o.start + " is not a readable file");
  return inputs;
}

/// kobalt-bench's timing with this budget and --batch.
bench::TimingOptions timing_of(double budget, int batch) {
  bench::TimingOptions t;
  t.budget_seconds = budget;
  t.batch = batch;
  return t;
}

/// Median seconds of one y = A*x through `handle`.
template <class Handle, class Matrix>
double apply_seconds(const Handle& handle, const Matrix& a, const view& x, const view& y,
                     const bench::TimingOptions& timing, bench::DeviceClock& clock) {
  return bench::time_runs([&] { spmv(exec(), handle, value_t(1), a, x, value_t(0), y); }, timing,
                          clock, bench::CacheFlusher(timing))
      .median;
}

/// The handle of `a` with its format's default strategy under `profile`:
/// the profile being fitted (the starting one), not KOBALT_PROFILE's.
template <class Matrix>
SpmvHandle<Matrix, exec> handle_for(const Matrix& a, const tuning::DeviceProfile& profile) {
  return SpmvHandle<Matrix, exec>(exec(), a, {}, profile);
}

/// A conversion's setup (conversion + handle) in CSR applies and its apply.
struct ConversionTime {
  double setup_spmvs = 0;
  double seconds = 0;
};

/// `convert` (Csr -> a format) with its handle, timed once, fenced before
/// and after, then the handle's apply; csr_seconds: one CSR apply.
template <class Convert>
ConversionTime time_conversion(Convert&& convert, const tuning::DeviceProfile& profile,
                               const view& x, const view& y, const bench::TimingOptions& timing,
                               bench::DeviceClock& clock, double csr_seconds) {
  Kokkos::fence();
  Kokkos::Timer timer;
  const auto a = convert();
  const auto handle = handle_for(a, profile);
  Kokkos::fence();
  ConversionTime t;
  t.setup_spmvs = timer.seconds() / csr_seconds;
  t.seconds = apply_seconds(handle, a, x, y, timing, clock);
  return t;
}

/// SELL-P on one regular training matrix with each of sellp_slice_sweep's sizes:
/// the fill, and the conversion and apply where the fill suits rule 0
/// (tuning::sellp_shape_fits; otherwise a zero ConversionTime).
struct SellpTimes {
  std::vector<double> fill;
  std::vector<ConversionTime> time;
};

/// The training sample of one matrix: CSR, then ELL or Hybrid, then on
/// regular matrices SELL-P with every slice size that pads little (the
/// automatic handle's rule 0) into `sellp`; the sample's SELL-P fields are
/// set once the slice size is chosen (with_sellp_slice).
tuning::AutoSample measure(const std::string& name, const Csr<value_t, index_t>& csr,
                           const tuning::MatrixStats& stats,
                           const tuning::DeviceProfile& profile, const view& x, const view& y,
                           const bench::TimingOptions& timing, bench::DeviceClock& clock,
                           SellpTimes& sellp, std::string& line) {
  const exec space;
  tuning::AutoSample s;
  s.name = name;
  s.nnz = csr.nnz();
  s.regular = stats.regular();
  s.csr_seconds = apply_seconds(handle_for(csr, profile), csr, x, y, timing, clock);
  // The nonzeros and the class say where the sample sits in the fit (the
  // thresholds are nonzero counts, one per class).
  line = std::to_string(s.nnz) + " nonzeros, " + (s.regular ? "regular" : "irregular") +
         ", csr " + std::to_string(s.csr_seconds * 1e6) + " us";
  const auto timed = [&](const char* format, auto&& convert) -> ConversionTime {
    try {
      const ConversionTime t =
          time_conversion(convert, profile, x, y, timing, clock, s.csr_seconds);
      line += std::string(", ") + format + " " + std::to_string(t.seconds * 1e6) + " us (" +
              std::to_string(s.csr_seconds / t.seconds) + "x, setup " +
              std::to_string(t.setup_spmvs) + " CSR applies)";
      return t;
    } catch (const format_too_large& e) {
      line += std::string(", no ") + format + ": " + e.what();  // too large here: not a sample
      return {};
    }
  };
  // Irregular matrices whose COO part would hold most entries never take
  // Hybrid (tuning/choose.hpp), so they are no sample of its threshold.
  const double coo_share = s.regular ? 0 : tuning::hybrid_coo_share(tuning::analyze(space, csr));
  ConversionTime format;
  if (s.regular)
    format = timed("ell", [&] { return to_ell(space, csr); });
  else if (tuning::hybrid_coo_share_allowed(coo_share))
    format = timed(("hybrid (COO part " + std::to_string(coo_share) + ")").c_str(),
                   [&] { return to_hybrid(space, csr); });
  else
    line += ", no hybrid: its COO part would hold " + std::to_string(coo_share) + " > " +
            std::to_string(tuning::auto_hybrid_max_coo_share) + " of the nonzeros";
  s.format_setup_spmvs = format.setup_spmvs;
  s.format_seconds = format.seconds;
  sellp = {};
  if (s.regular) {
    for (const int b : sellp_slice_sweep.values) {
      const double fill = tuning::sellp_fill(space, csr, b);
      const std::string label = "sellp b=" + std::to_string(b);
      line += ", " + label + " fill " + std::to_string(fill);
      sellp_params p;
      p.slice_size = b;
      sellp.fill.push_back(fill);
      sellp.time.push_back(tuning::sellp_shape_fits(s.regular, fill)
                               ? timed(label.c_str(), [&] { return to_sellp(space, csr, p); })
                               : ConversionTime{});
    }
  }
  return s;
}

/// `s` with the SELL-P measurement of slice-size candidate `c` (none when
/// the matrix was not timed with it).
tuning::AutoSample with_sellp_slice(tuning::AutoSample s, const SellpTimes& sellp, std::size_t c) {
  if (c < sellp.time.size()) {
    s.sellp_fill = sellp.fill[c];
    s.sellp_seconds = sellp.time[c].seconds;
    s.sellp_setup_spmvs = sellp.time[c].setup_spmvs;
  }
  return s;
}

/// Nonzeros per row, 002 §4.1's rdensity: the mean tuning::select reads.
double rdensity(const Csr<value_t, index_t>& csr) {
  return tuning::summary_stats(csr).mean_row_nnz;
}

/// One CSR-k apply with k levels and these sizes (k = 2: the SRS only)
/// under `profile`; 0 when the conversion is refused (format_too_large: not
/// a sample).
double csrk_seconds(const Csr<value_t, index_t>& csr, int k, const tuning::CsrkSizes& sizes,
                    const tuning::DeviceProfile& profile, const view& x, const view& y,
                    const bench::TimingOptions& timing, bench::DeviceClock& clock) {
  csrk::parameters p;
  p.k = k;
  p.super_row_size = sizes.super_row_size;
  if (k == 3) p.super_super_row_size = sizes.super_super_row_size;
  try {
    const auto a = to_csrk(exec(), csr, p);
    return apply_seconds(handle_for(a, profile), a, x, y, timing, clock);
  } catch (const format_too_large&) {
    return 0;
  }
}

/// CSR-k on one matrix at every size of `grid` (first pass of the CSR-k fit).
tuning::SweepSample csrk_grid_sample(const std::string& name, const Csr<value_t, index_t>& csr,
                                     int k, const std::vector<tuning::CsrkSizes>& grid,
                                     const tuning::DeviceProfile& profile, const view& x,
                                     const view& y,
                                     const bench::TimingOptions& timing,
                                     bench::DeviceClock& clock, std::string& line) {
  tuning::SweepSample s{name, rdensity(csr), {}};
  for (const auto& sizes : grid)
    s.seconds.push_back(csrk_seconds(csr, k, sizes, profile, x, y, timing, clock));
  const std::size_t best = tuning::best_candidate(s);
  if (best < grid.size())
    line += "; csrk best " + (k == 3 ? "SSRS " + std::to_string(grid[best].super_super_row_size) + ", " : std::string()) +
            "SRS " + std::to_string(grid[best].super_row_size);
  return s;
}

/// The profile with the swept key set to `value`.
tuning::DeviceProfile with_key(tuning::DeviceProfile p, const KeySweep& sweep, int value) {
  p.*sweep.field = value;
  return p;
}

/// One matrix timed with each value of `sweep`: apply_with(profile) builds
/// the handle with that profile and returns the seconds of one apply.
template <class ApplyWith>
tuning::SweepSample key_sample(const std::string& name, const Csr<value_t, index_t>& csr,
                               const tuning::DeviceProfile& base, const KeySweep& sweep,
                               ApplyWith&& apply_with) {
  tuning::SweepSample s{name, rdensity(csr), {}};
  for (const int v : sweep.values) s.seconds.push_back(apply_with(with_key(base, sweep, v)));
  return s;
}

/// The index of the profile's own value of the swept key among its
/// candidates (the count of candidates when it is none of them).
std::size_t starting_candidate(const KeySweep& sweep, const tuning::DeviceProfile& profile) {
  return static_cast<std::size_t>(
      std::find(sweep.values.begin(), sweep.values.end(), profile.*sweep.field) -
      sweep.values.begin());
}

/// What the sweep's choice gains over the profile's own value
/// (tuning::gain_from).
double key_gain(const KeySweep& sweep, const std::vector<tuning::SweepSample>& samples,
                const tuning::DeviceProfile& profile) {
  return tuning::gain_from(samples, sweep.values.size(), starting_candidate(sweep, profile));
}

/// The sweep's key from its samples: the value with the highest share of
/// each matrix's best, where it beats the profile's own value by
/// tuning::sweep_min_gain (tuning::best_constant_from); the report lists
/// every value's share. No samples, or `held` (why the key may not move):
/// the key stays.
void fit_key(const KeySweep& sweep, const std::vector<tuning::SweepSample>& samples,
             tuning::DeviceProfile& profile, std::ostream& report,
             std::vector<std::string>& warnings, const char* held = nullptr) {
  if (samples.empty()) {
    report << sweep.key << " kept: no training matrix where " << sweep.on << "\n";
    return;
  }
  report << sweep.key << ", apply time as a share of each matrix's best over " << samples.size()
         << " matrices where " << sweep.on << " (geometric mean):";
  for (std::size_t c = 0; c < sweep.values.size(); ++c)
    report << " " << sweep.values[c] << ": " << std::fixed << std::setprecision(3)
           << tuning::candidate_share(samples, c) << std::defaultfloat;
  const std::size_t current = starting_candidate(sweep, profile);
  const std::size_t best = tuning::best_constant(samples, sweep.values.size());
  const int chosen =
      held ? profile.*sweep.field
           : sweep.values[tuning::best_constant_from(samples, sweep.values.size(), current)];
  profile = with_key(profile, sweep, chosen);
  report << "\n" << sweep.key << " = " << chosen;
  if (held)
    report << " (kept: " << held << ")";
  else if (chosen != sweep.values[best])
    report << " (kept: " << sweep.values[best] << " gains less than " << tuning::sweep_min_gain
           << "x over it)";
  report << "\n";
  if (!held)
    tuning::note_warning(tuning::few_samples_warning(sweep.key, samples.size(), "matrices"),
                         warnings, report);
}

/// One training matrix's conversion sample and its SELL-P times with each
/// slice size; fit_sellp_slice gives the sample the chosen size's times.
struct Measured {
  tuning::AutoSample sample;
  SellpTimes sellp;
};

/// Rule 0's slice size from SELL-P's apply with each size on the regular
/// training matrices where some size pads little (fit_key); returns the
/// samples with the chosen size's times.
std::vector<tuning::AutoSample> fit_sellp_slice(const std::vector<Measured>& measured,
                                                tuning::DeviceProfile& profile,
                                                std::ostream& report,
                                                std::vector<std::string>& warnings) {
  std::vector<tuning::SweepSample> sweep;
  for (const Measured& m : measured) {
    tuning::SweepSample s{m.sample.name, 0, {}};
    for (const auto& t : m.sellp.time) s.seconds.push_back(t.seconds);
    if (tuning::best_candidate(s) < s.seconds.size()) sweep.push_back(s);
  }
  fit_key(sellp_slice_sweep, sweep, profile, report, warnings);
  const auto& sizes = sellp_slice_sweep.values;
  const auto chosen = static_cast<std::size_t>(
      std::find(sizes.begin(), sizes.end(), profile.auto_sellp_slice_size) - sizes.begin());
  std::vector<tuning::AutoSample> samples;
  for (const Measured& m : measured) samples.push_back(with_sellp_slice(m.sample, m.sellp, chosen));
  return samples;
}

/// x = 1 and y of the matrix's shape (format_too_large where they do not fit).
std::pair<view, view> vectors_for(const Csr<value_t, index_t>& csr) {
  check_storage<view::memory_space>(
      "kobalt-tune: x and y",
      (static_cast<std::uint64_t>(csr.rows()) + static_cast<std::uint64_t>(csr.cols())) *
          sizeof(value_t),
      0);
  view x("kobalt-tune::x", csr.cols()), y("kobalt-tune::y", csr.rows());
  Kokkos::deep_copy(x, value_t(1));
  return {x, y};
}

/// One stderr line per matrix and pass, with an estimate of the pass's time left.
void progress(const char* pass, std::size_t i, std::size_t n, const std::string& name,
              const std::string& line, const Kokkos::Timer& elapsed) {
  const double left =
      elapsed.seconds() / static_cast<double>(i + 1) * static_cast<double>(n - i - 1);
  std::cerr << "[kobalt-tune] " << pass << " " << i + 1 << "/" << n << " " << name << ": " << line
            << "; about " << static_cast<long>(left + 0.5) << " s left in this pass\n";
}

/// Pass 2 of the CSR-k fit: each candidate size setting the grid suggests,
/// on every matrix, then tuning::fit_csrk; returns `fitted` with the chosen
/// CSR-k keys and prints the fit's report. The inputs are loaded again
/// rather than kept: a training folder may not fit the device at once.
tuning::DeviceProfile csrk_pass2(const std::vector<std::string>& inputs,
                                 const std::vector<tuning::SweepSample>& grid_samples,
                                 const std::vector<tuning::CsrkSizes>& grid, int k,
                                 const tuning::DeviceProfile& fitted,
                                 const bench::TimingOptions& timing, bench::DeviceClock& clock,
                                 std::vector<std::string>& warnings) {
  const auto candidates = tuning::csrk_candidates(grid_samples, grid, k, fitted);
  std::vector<std::vector<double>> candidate_seconds(candidates.size());
  Kokkos::Timer elapsed;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const auto in = bench::load_input<value_t, index_t>(inputs[i]);
    const auto [x, y] = vectors_for(in.csr);
    std::ostringstream line;
    line << "csrk candidates";
    for (std::size_t c = 0; c < candidates.size(); ++c) {
      const auto sizes = tuning::csrk_default_sizes(candidates[c].profile, k, rdensity(in.csr));
      candidate_seconds[c].push_back(
          csrk_seconds(in.csr, k, sizes, candidates[c].profile, x, y, timing, clock));
      line << " " << candidate_seconds[c].back() * 1e6 << " us";
    }
    progress("pass 2 of 2", i, inputs.size(), in.name, line.str(), elapsed);
  }
  const auto fit = tuning::fit_csrk(grid_samples, grid, k, candidates, candidate_seconds, fitted);
  std::cout << fit.report;
  warnings.insert(warnings.end(), fit.warnings.begin(), fit.warnings.end());
  return fit.profile;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  std::vector<std::string> inputs;
  const auto usage_failure = [](const std::exception& e) {
    std::cerr << "kobalt-tune: " << e.what() << "\n(run kobalt-tune --help)\n";
    return 2;
  };
  try {
    o = parse(argc, argv);
    inputs = checked_inputs(o);
  } catch (const std::exception& e) {
    return usage_failure(e);
  }
  Kokkos::ScopeGuard kokkos(argc, argv);
  std::int64_t triad_bytes = 0;
  try {
    triad_bytes = o.triad_mib > 0 ? o.triad_mib << 20 : bench::default_triad_bytes();
    if (o.triad_mib > 0) bench::check_triad_fits(triad_bytes, "--triad-mib");
  } catch (const format_too_large& e) {
    return usage_failure(e);
  }
  try {
    const exec space;
    tuning::DeviceProfile base = tuning::builtin_profile(arch::device_info(space));
    if (!o.start.empty()) {
      tuning::apply_profile(base, o.start);
      // Written back unless fitted: a key the backend cannot run is refused, not clamped.
      tuning::check_profile_launch_keys(base, o.start);
      std::cout << "starting from " << o.start << "\n";
    }
    std::cout << "device: " << base << "\n";
    bench::DeviceClock clock;
    const double triad = bench::measure_triad(triad_bytes, clock).gb_per_s();
    const auto timing = timing_of(o.budget, o.batch);
    const auto sweep_timing = timing_of(o.sweep_budget, o.batch);
    if (o.batch > 1) std::cout << "timing: " << o.batch << " applies back to back per sample\n";
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
                << apply_seconds(handle_for(a, base), a, x, y, timing, clock) * 1e6
                << " us\n";
    }
    const int k = base.csrk_k;
    const auto grid = tuning::csrk_sweep_grid(k);
    std::vector<Measured> measured;
    std::vector<tuning::SweepSample> csrk_samples, merge_samples, omega_samples, team_samples,
        warps_samples, rows_samples;
    // Pass 1: CSR, the rules' conversion, CSR-k's grid, merge_path's items
    // and omega. Every decision here reads only the row moments.
    const char* pass1 = o.skip_csrk ? "pass 1 of 1" : "pass 1 of 2";
    Kokkos::Timer elapsed;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      const auto in = bench::load_input<value_t, index_t>(inputs[i]);
      // Named views, not a structured binding: the sweeps' lambdas capture
      // them (capturing a binding is C++20; nvcc warns).
      const auto xy = vectors_for(in.csr);
      const view& x = xy.first;
      const view& y = xy.second;
      const auto stats = tuning::analyze_moments(space, in.csr);
      std::string line = std::to_string(in.csr.nnz()) + " nonzeros, " +
                         (stats.regular() ? "regular" : "irregular") + ": ";
      Measured& m = measured.emplace_back();
      m.sample = measure(in.name, in.csr, stats, base, x, y, timing, clock, m.sellp, line);
      if (!o.skip_csrk)
        csrk_samples.push_back(
            csrk_grid_sample(in.name, in.csr, k, grid, base, x, y, sweep_timing, clock, line));
      // One apply of CSR with `strategy` under a profile (the key sweeps).
      const auto csr_with = [&](auto strategy) {
        return [&, strategy](const tuning::DeviceProfile& p) {
          const SpmvHandle<Csr<value_t, index_t>, exec> h(space, in.csr, strategy, p);
          return apply_seconds(h, in.csr, x, y, sweep_timing, clock);
        };
      };
      const auto sweep = [&](const KeySweep& key, auto&& apply_with,
                             std::vector<tuning::SweepSample>& into) {
        into.push_back(key_sample(in.name, in.csr, base, key, apply_with));
      };
      if (base.gpu && std::holds_alternative<csr::merge_path>(tuning::resolve_csr(stats, base).first))
        sweep(merge_path_items_sweep, csr_with(csr::merge_path{}), merge_samples);
      if (base.gpu) sweep(team_threads_sweep, csr_with(csr::automatic{}), team_samples);
      else sweep(rows_per_team_sweep, csr_with(csr::classical{}), rows_samples);
      if (base.gpu && !stats.regular()) {
        // Both keys size every warp-chunk launch (tuning/launch_shapes.hpp), so each
        // is timed on both kernels the automatic handle runs with them: fitted
        // on one, they slowed the other (docs/sources.md, "the warp-chunk sweeps").
        sweep(oversubscription_sweep, csr_with(csr::load_balance{}), omega_samples);
        sweep(warps_per_cu_sweep, csr_with(csr::load_balance{}), warps_samples);
        try {
          const auto hybrid = to_hybrid(space, in.csr);
          const auto hybrid_with = [&](const tuning::DeviceProfile& p) {
            const SpmvHandle<std::decay_t<decltype(hybrid)>, exec> h(space, hybrid, {}, p);
            return apply_seconds(h, hybrid, x, y, sweep_timing, clock);
          };
          sweep(oversubscription_sweep, hybrid_with, omega_samples);
          sweep(warps_per_cu_sweep, hybrid_with, warps_samples);
        } catch (const format_too_large&) {
          // too large here: not a sample
        }
      }
      progress(pass1, i, inputs.size(), in.name, line, elapsed);
    }
    std::vector<std::string> warnings;  // keys fitted from too few matrices
    const auto fit =
        tuning::fit_auto(fit_sellp_slice(measured, base, std::cout, warnings), base);
    std::cout << fit.report;
    warnings.insert(warnings.end(), fit.warnings.begin(), fit.warnings.end());
    tuning::DeviceProfile profile =
        o.skip_csrk ? fit.profile
                    : csrk_pass2(inputs, csrk_samples, grid, k, fit.profile, sweep_timing, clock,
                                 warnings);
    if (o.skip_csrk)
      std::cout << "CSR-k keys kept (--skip-csrk): k " << profile.csrk_k << ", model "
                << profile.csrk_model << ", SRS " << profile.csrk_super_row_size << ", SSRS "
                << profile.csrk_super_super_row_size << "\n";
    // Each key is fitted alone, the others at the starting profile's values
    // (the samples were all timed under it). oversubscription and
    // warps_per_cu multiply into the same warp count, so only the one that
    // gains more moves (docs/sources.md, "one of oversubscription and warps_per_cu").
    if (base.gpu) {
      fit_key(merge_path_items_sweep, merge_samples, profile, std::cout, warnings);
      const double omega_gain = key_gain(oversubscription_sweep, omega_samples, profile);
      const double warps_gain = key_gain(warps_per_cu_sweep, warps_samples, profile);
      fit_key(oversubscription_sweep, omega_samples, profile, std::cout, warnings,
              warps_gain > omega_gain ? "warps_per_cu, which scales the same launch, gains more"
                                      : nullptr);
      fit_key(team_threads_sweep, team_samples, profile, std::cout, warnings);
      fit_key(warps_per_cu_sweep, warps_samples, profile, std::cout, warnings,
              omega_gain > 1 && omega_gain >= warps_gain
                  ? "oversubscription, which scales the same launch, gains more"
                  : nullptr);
    } else {
      fit_key(rows_per_team_sweep, rows_samples, profile, std::cout, warnings);
    }
    std::string error;
    if (!bench::replace_file(profile_file, o.out, read_files(o, inputs),
                             [&](const std::string& file) {
                               tuning::write_profile_file(profile, file);
                               return true;
                             },
                             error))
      throw std::runtime_error("cannot write the device profile " + o.out + ": " + error);
    std::cout << "wrote " << o.out << " (use it with KOBALT_PROFILE=" << o.out << ")\n";
    for (const auto& w : warnings) std::cerr << "kobalt-tune: " << w << "\n";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "kobalt-tune: " << e.what() << "\n";
    return 1;
  }
}
