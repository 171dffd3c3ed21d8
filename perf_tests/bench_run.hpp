// SPDX-License-Identifier: BSD-3-Clause
// One kobalt-bench run for one (value, index) type pair: triad probe, then
// every input with every format and peer. Instantiated once per type pair in
// run_<value>_<index>.cpp, so the four compile in parallel.
#pragma once

#include "device_info.hpp"
#include "format_registry.hpp"
#include "inputs.hpp"
#include "options.hpp"
#include "output_file.hpp"
#include "provenance.hpp"
#include "report.hpp"
#include "timing.hpp"
#include "triad.hpp"
#if defined(KOBALT_BENCH_KOKKOSKERNELS)
#include "peers/kokkos_kernels.hpp"
#endif
#if defined(KOBALT_BENCH_CUSPARSE)
#include "peers/cusparse.hpp"
#endif
#if defined(KOBALT_BENCH_ROCSPARSE)
#include "peers/rocsparse.hpp"
#endif
#if defined(KOBALT_BENCH_MKL)
#include "peers/mkl.hpp"
#endif

#include <kobalt/kobalt.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kobalt::bench {

inline const char* traffic_model =
    "bytes = format storage (values, indices, pointers, padding, permutation; a Kobalt format "
    "under mode T or H, or C for complex values: the Csr copy of op(A) it applies) + x read once "
    "(cols of op(A)*K*sizeof(value)) + y written once (rows of op(A)*K*sizeof(value)); beta = 0";

/// The triad probe, run once, when the first bandwidth fraction needs it (a
/// run whose inputs all fail never pays for it). Its line goes to stdout
/// before the first table row that uses it.
class LazyTriad {
 public:
  LazyTriad(std::int64_t bytes, DeviceClock& clock) : bytes_(bytes), clock_(clock) {}
  /// 0 when the probe's arrays do not fit beside this input's data: the
  /// bandwidth fractions stay unset and the next input tries again.
  double gb_per_s() {
    if (!result_) {
      std::cerr << "[kobalt-bench] triad probe, 3 x " << (bytes_ >> 20) << " MiB\n";
      Kokkos::Timer probe;
      try {
        result_ = measure_triad(bytes_, clock_);
      } catch (const format_too_large& e) {
        if (!refused_) std::cerr << "kobalt-bench: no bandwidth fractions for now: " << e.what() << "\n";
        refused_ = true;
        return 0;
      }
      seconds_ = probe.seconds();
      std::printf("# triad probe: 3 x %lld MiB, %.1f GB/s\n", static_cast<long long>(bytes_ >> 20),
                  result_->gb_per_s());
    }
    return result_->gb_per_s();
  }
  /// The next input may try the probe again (the last one's data is freed).
  void retry() { refused_ = false; }
  const std::optional<TriadResult>& result() const { return result_; }
  double seconds() const { return seconds_; }  ///< wall time of the probe, 0 before it

 private:
  double seconds_ = 0;
  bool refused_ = false;
  std::int64_t bytes_;
  DeviceClock& clock_;
  std::optional<TriadResult> result_;
};

/// Formats done out of all, and the time they took, for the estimate of
/// the time left on stderr (assumes the formats still to run cost what the
/// finished ones cost on average: rough across inputs of different sizes).
struct Progress {
  std::size_t done = 0, total = 0;
  Kokkos::Timer clock;
  /// `excluded`: seconds not spent on formats (the triad probe).
  std::string eta(double excluded) const {
    if (done == 0 || done >= total) return "";
    const double left = (clock.seconds() - excluded) / done * (total - done);
    char buf[48];
    if (left < 90) std::snprintf(buf, sizeof buf, ", about %.0f s left", left);
    else if (left < 5400) std::snprintf(buf, sizeof buf, ", about %.0f min left", left / 60);
    else std::snprintf(buf, sizeof buf, ", about %.1f h left", left / 3600);
    return buf;
  }
};

/// The reference's result type for values (and vectors) of Value.
template <class Value>
using reference_of = BasicReferenceResult<reference_scalar_t<Value, Value, Value>>;

/// y from one apply, compared row by row (and column by column) with the
/// reference; returns the largest |y - ref| / bound over the finite rows, and
/// whether every entry is accepted (ReferenceResult::accepts: within
/// tolerance, or NaN/Inf where the reference is NaN/Inf or overflows).
template <class View, class Value>
std::pair<double, bool> check(const View& y, const std::vector<reference_of<Value>>& ref) {
  using acc = reference_scalar_t<Value, Value, Value>;
  auto yh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  double worst = 0;
  bool ok = true;
  for (std::size_t j = 0; j < ref.size(); ++j) {
    for (std::size_t i = 0; i < ref[j].y.size(); ++i) {
      acc got;
      if constexpr (View::rank == 1) got = static_cast<acc>(yh(i));
      else got = static_cast<acc>(yh(i, j));
      const bool accepted = ref[j].template accepts<Value>(i, got);
      ok = ok && accepted;
      // NaN/Inf where the reference allows it
      if (accepted && !kobalt::detail::finite(got)) continue;
      const double err = kobalt::detail::magnitude(got - ref[j].y[i]);
      const double bound = ref[j].bound[i];
      worst = std::max(worst, std::isnan(err) ? INFINITY : err / (bound > 0 ? bound : 1.0));
    }
  }
  return {worst, ok};
}

/// op(A)'s entries on the host, for the reference: A's triplets transposed
/// for T and H, conjugated for C and H (conjugate() is the identity for
/// real values).
template <class Value, class Index>
Triplets<Value, Index> op_triplets(const Triplets<Value, Index>& a, Mode mode) {
  Triplets<Value, Index> t = a;
  if (transposes(mode)) {
    std::swap(t.rows, t.cols);
    std::swap(t.row, t.col);
  }
  if (conjugates(mode))
    for (auto& v : t.val) v = conjugate(v);
  return t;
}

/// Entries of device View `y` whose bits differ from host copy `before`.
template <class HostView, class View>
std::size_t differing_bits(const HostView& before, const View& y) {
  const auto now = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  using value = typename View::non_const_value_type;
  std::size_t differ = 0;
  for (std::size_t i = 0; i < before.span(); ++i)  // both contiguous, same layout
    differ += std::memcmp(before.data() + i, now.data() + i, sizeof(value)) != 0 ? 1 : 0;
  return differ;
}

/// Throws format_too_large unless what run_matrix allocates for one input
/// besides the matrix and its formats fits what is free now: on the device
/// x and y (op(A)'s extents, k columns), A's x and y again for the setup
/// unit under a transposing mode, a row-major copy of x for k > 1
/// (tuning/x_rows.hpp); on the host op(A)'s triplets (two copies while they
/// are made), the reference (per column its y, bound and entry counts, and
/// while one is computed its sums, x and y), the copy of y the
/// reproducibility check keeps and, where the device's memory is not the
/// host's, the mirrors of x and of y (two at once in that check).
template <class View, class Value, class Index>
void check_vector_memory(std::uint64_t op_rows, std::uint64_t op_cols, std::uint64_t nnz,
                         int rhs, bool transposes) {
  using kobalt::detail::saturating_add;
  using kobalt::detail::saturating_mul;
  using acc = reference_scalar_t<Value, Value, Value>;
  const auto k = static_cast<std::uint64_t>(rhs);
  const std::uint64_t triplets = saturating_mul(nnz, 2 * (2 * sizeof(Index) + sizeof(Value)));
  const std::uint64_t x = saturating_mul(saturating_mul(op_cols, k), sizeof(Value));
  const std::uint64_t y = saturating_mul(saturating_mul(op_rows, k), sizeof(Value));
  std::uint64_t device = saturating_add(x, y);
  if (transposes) device = saturating_add(device, saturating_add(x, y));
  if (k > 1) device = saturating_add(device, x);
  const std::uint64_t reference = saturating_add(
      saturating_mul(saturating_mul(op_rows, k), sizeof(acc) + 2 * sizeof(std::int64_t)),
      saturating_add(saturating_mul(op_rows, sizeof(acc) + sizeof(double) + sizeof(Value)),
                     saturating_mul(op_cols, sizeof(Value))));
  std::uint64_t host = saturating_add(saturating_add(reference, y), triplets);
  using memory = typename View::memory_space;
  const std::string what = "x, y, their copies and the reference for " +
                           std::to_string(rhs) + " right-hand side" + (rhs > 1 ? "s" : "");
  if (Kokkos::SpaceAccessibility<Kokkos::HostSpace, memory>::accessible) {
    check_storage<Kokkos::HostSpace>(what, saturating_add(device, host), 0);
  } else {
    host = saturating_add(host, saturating_add(x, saturating_mul(y, 2)));
    check_storage<memory>(what + " (device)", device, 0);
    check_storage<Kokkos::HostSpace>(what + " (host)", host, 0);
  }
}

template <class Value, class Index, class View>
MatrixReport run_matrix(const Options& o, const Input<Value, Index>& in, LazyTriad& triad,
                        std::uint64_t cache_bytes, Progress& progress, DeviceClock& clock,
                        const CacheFlusher& flusher) {
  auto csr = in.csr;
  MatrixReport m;
  m.name = in.name;
  m.source = in.source;
  if (o.reorder == "rcm") {
    if (csr.rows() != csr.cols()) throw invalid_parameter("--reorder rcm needs a square matrix");
    csrk::layout p;
    p.k = 2;
    p.super_row_size = 1;
    p.order = csrk::reordering::rcm;
    csr = to_csr(to_csrk(csr, p).matrix());
    m.ordering = "rcm";
  }
  const auto stats = tuning::analyze(csr);
  m.rows = csr.rows();
  m.cols = csr.cols();
  m.nnz = csr.nnz();
  m.min_row_nnz = stats.min_row_nnz;
  m.max_row_nnz = stats.max_row_nnz;
  m.mean_row_nnz = stats.mean_row_nnz;
  m.variance_row_nnz = stats.variance_row_nnz;
  m.empty_rows = stats.empty_rows;
  m.row_class = stats.regular() ? "regular" : "irregular";

  // Inputs and the reference, once per matrix: x has op(A)'s columns, y
  // its rows (A's rows and columns swapped for T and H).
  const int k = o.rhs;
  const Mode mode = parse_mode(o.mode.c_str());
  const Index op_rows = transposes(mode) ? csr.cols() : csr.rows();
  const Index op_cols = transposes(mode) ? csr.rows() : csr.cols();
  check_vector_memory<View, Value, Index>(
      static_cast<std::uint64_t>(op_rows), static_cast<std::uint64_t>(op_cols),
      static_cast<std::uint64_t>(csr.nnz()), k, transposes(mode));
  const auto host = op_triplets(to_triplets(csr), mode);
  View x, y;
  if constexpr (View::rank == 1) {
    x = View("x", op_cols);
    y = View("y", op_rows);
  } else {
    x = View("x", op_cols, k);
    y = View("y", op_rows, k);
  }
  auto xh = Kokkos::create_mirror_view(x);
  std::vector<reference_of<Value>> ref;
  for (int j = 0; j < k; ++j) {
    std::vector<Value> xj(op_cols);
    for (Index c = 0; c < op_cols; ++c) {
      // Multiples of 1/8 (exact in float); complex x gets imaginary parts too.
      using real = real_type_t<Value>;
      const real re = real(1) + real((c + 3 * j) % 7) / real(8);
      if constexpr (is_complex_v<Value>)
        xj[c] = Value(re, real((c + 5 * j) % 5) / real(4) - real(0.5));
      else
        xj[c] = re;
      if constexpr (View::rank == 1) xh(c) = xj[c];
      else xh(c, j) = xj[c];
    }
    ref.push_back(reference_spmv(host, 1.0, xj, 0.0, std::vector<Value>(op_rows, Value(0))));
  }
  Kokkos::deep_copy(x, xh);

  // One CSR SpMV of A (mode N, whatever --mode says) is the unit of setup
  // cost (000 §5.3); its own x and y where op(A) has other extents.
  double csr_seconds = 0;
  {
    auto unit = prepare<View>(FormatSpec::parse("csr:classical"), csr);
    TimingOptions quick = o.timing;
    quick.budget_seconds = std::min(quick.budget_seconds, 0.2);
    View ux = x, uy = y;
    if (transposes(mode)) {
      if constexpr (View::rank == 1) {
        ux = View("unit x", csr.cols());
        uy = View("unit y", csr.rows());
      } else {
        ux = View("unit x", csr.cols(), k);
        uy = View("unit y", csr.rows(), k);
      }
      Kokkos::deep_copy(ux, Value(1));
    }
    csr_seconds = time_runs([&] { unit.apply(ux, uy); }, quick, clock, flusher).median;
  }

  // A complex multiply-add is 4 real multiplies and 4 real adds.
  const double flops = (is_complex_v<Value> ? 8.0 : 2.0) * static_cast<double>(m.nnz) * k;
  const std::vector<std::string> specs =
      o.formats.empty() ? default_format_specs(is_complex_v<Value>) : o.formats;
  for (std::size_t f = 0; f < specs.size(); ++f) {
    const std::string& text = specs[f];
    Kokkos::Timer format_time;
    ResultRow r;
    r.format = text;
    // One stderr line per format, written when it ends, whatever way it ends.
    struct Report {
      const std::string& text;
      const ResultRow& r;
      Progress& progress;
      const LazyTriad& triad;
      Kokkos::Timer& time;
      std::size_t f, count;
      ~Report() {
        ++progress.done;
        char took[32];
        std::snprintf(took, sizeof took, "%.2f s", time.seconds());
        std::cerr << "[kobalt-bench]   " << f + 1 << "/" << count << " " << text << ": "
                  << (r.error ? *r.error : "ok") << " (" << took << progress.eta(triad.seconds())
                  << ")\n";
      }
    } report{text, r, progress, triad, format_time, f, specs.size()};
    const FormatSpec spec = FormatSpec::parse(text);
    r.kind = is_peer(spec.name) ? "peer" : "kobalt";
    Operator<View> op;
    try {
      Kokkos::fence();
      Kokkos::Timer setup;
      op = prepare<View>(spec, csr, k, 0, mode);
      Kokkos::fence();
      r.setup_ms = setup.seconds() * 1e3;
    } catch (const std::exception& e) {
      r.error = e.what();
      r.error_kind = error_kind_of(e);
      m.results.push_back(r);
      continue;
    }
    r.strategy = op.strategy;
    r.rule = op.rule;
    if (k > 1 && op.copies_x_rows && op.copies_x_rows(k)) {
      r.strategy += " x_rows";
      r.rule += "; x copied row-major before each apply (tuning/x_rows.hpp)";
    }
    r.storage_bytes = op.bytes;
    r.stored_entries = op.stored;
    if (csr_seconds > 0) r.setup_csr_spmvs = r.setup_ms * 1e-3 / csr_seconds;
    if (op.analysis_seconds) {
      r.analysis_ms = *op.analysis_seconds * 1e3;
      if (csr_seconds > 0) r.analysis_csr_spmvs = *op.analysis_seconds / csr_seconds;
    }
    const real_type_t<Value> nan = std::numeric_limits<real_type_t<Value>>::quiet_NaN();
    if constexpr (is_complex_v<Value>) Kokkos::deep_copy(y, Value(nan, nan));
    else Kokkos::deep_copy(y, nan);
    try {
      op.apply(x, y);
      Kokkos::fence();
    } catch (const std::exception& e) {
      // A peer refusing at its first call (cuSPARSE or rocSPARSE and an
      // operation one of their algorithms lacks) or anything else failing
      // there: an error row, not the input's end.
      r.error = e.what();
      r.error_kind = error_kind_of(e);
      m.results.push_back(r);
      continue;
    }
    const auto [worst, ok] = check<View, Value>(y, ref);
    r.max_relative_error = worst;
    if (!ok) {
      r.error = "wrong result: max relative error " + std::to_string(worst);
      r.error_kind = "wrong_result";
      m.results.push_back(r);
      continue;
    }
    // A fixed-order handle must give the same bits after the timed applies
    // (each is y = A*x with the same x) as on the first.
    std::optional<typename View::HostMirror> first;
    if (op.reproducible.value_or(false)) {
      // A copy also on host backends, where a mirror view would be y itself.
      first = Kokkos::create_mirror(y);
      Kokkos::deep_copy(*first, y);
    }
    const Timing t = time_runs([&] { op.apply(x, y); }, o.timing, clock, flusher);
    r.reproducible = op.reproducible;
    if (first) {
      const std::size_t differ = differing_bits(*first, y);
      if (differ > 0) {
        r.reproducible = false;
        r.error = "not reproducible: " + std::to_string(differ) +
                  " entries of y changed their bits between applies";
        r.error_kind = "wrong_result";
        m.results.push_back(r);
        continue;
      }
    }
    r.time_ms_median = t.median * 1e3;
    r.time_ms_min = t.min * 1e3;
    r.time_ms_max = t.max * 1e3;
    r.reps = t.reps;
    if (op.update_values) {
      // What a solver step with new values pays instead of a new setup; the
      // values are unchanged here, so the product must stay right after it.
      TimingOptions quick = o.timing;
      quick.budget_seconds = std::min(quick.budget_seconds, 0.2);
      const Timing u = time_runs([&] { op.update_values(); }, quick, clock, flusher);
      r.update_values_ms = u.median * 1e3;
      if (csr_seconds > 0) r.update_values_csr_spmvs = u.median / csr_seconds;
      op.apply(x, y);
      Kokkos::fence();
      const auto [after, still_ok] = check<View, Value>(y, ref);
      if (!still_ok) {
        r.error = "wrong result after update_values: max relative error " + std::to_string(after);
        r.error_kind = "wrong_result";
        m.results.push_back(r);
        continue;
      }
    }
    r.gflops = flops / t.median * 1e-9;
    // x read once and y written once: rows + cols of op(A) = of A.
    const double bytes = static_cast<double>(op.traffic_bytes > 0 ? op.traffic_bytes : op.bytes) +
                         sizeof(Value) * k * (static_cast<double>(m.cols) + m.rows);
    r.gb_per_s = bytes / t.median * 1e-9;
    const double triad_gbs = triad.gb_per_s();
    if (triad_gbs > 0) r.bandwidth_fraction = *r.gb_per_s / triad_gbs;
    // x, y and the matrix all fit the last-level cache: warm runs then
    // measure the cache, not memory (use --cold for memory).
    if (cache_bytes > 0)
      r.cache_resident = !o.timing.cold && bytes <= static_cast<double>(cache_bytes);
    m.results.push_back(r);
  }
  return m;
}

/// The --json report: what kobalt-bench may replace (output_file.hpp).
inline const OutputKind json_report{"--json", "a kobalt-bench report", "\"kobalt_bench\""};

/// The inputs as given and as expanded (a folder's files): what --json
/// must not name.
inline std::vector<std::string> named_inputs(const Options& o,
                                             const std::vector<std::string>& expanded) {
  std::vector<std::string> named = o.inputs;
  named.insert(named.end(), expanded.begin(), expanded.end());
  return named;
}

/// Checks what the command line names before anything runs: every format
/// spec (check_format_specs); the --json path (check_output); every input
/// (check_input: files that start as matrices, generator specs that parse,
/// folders that hold matrices); and the buffers the options size
/// (--triad-mib, --cold's) against free memory. Throws usage_error.
template <class Value, class Index>
std::vector<std::string> checked_inputs(const Options& o) {
  try {
    const std::vector<std::string> specs =
        o.formats.empty() ? default_format_specs(is_complex_v<Value>) : o.formats;
    const Mode mode = parse_mode(o.mode.c_str());
    if (o.rhs == 1)
      check_format_specs<Kokkos::View<Value*>, Value, Index>(specs, o.rhs, mode);
    else
      check_format_specs<Kokkos::View<Value**, Kokkos::LayoutLeft>, Value, Index>(specs, o.rhs,
                                                                                 mode);
    const std::vector<std::string> inputs = expand_inputs(o.inputs);
    if (!o.json.empty()) check_output(json_report, o.json, named_inputs(o, inputs));
    for (const auto& in : inputs) check_input<Value, Index>(in);
    if (o.triad_bytes > 0) check_triad_fits(o.triad_bytes, "--triad-mib");
    if (o.timing.cold) CacheFlusher::check_fits(o.timing);
    return inputs;
  } catch (const std::invalid_argument& e) {
    throw usage_error(e.what());
  } catch (const std::filesystem::filesystem_error& e) {
    throw usage_error(e.what());
  } catch (const format_too_large& e) {
    throw usage_error(e.what());
  }
}

/// Runs every input. Exit status: 4 when any result was wrong (outside the
/// tolerance, or a fixed-order handle changing its bits); else 3 when the
/// JSON report could not be written; else 1 when a format or an input
/// failed; else 0, also when formats were refused by design
/// (error_kind_of: the format would not fit, or a peer lacks the operation).
template <class Value, class Index>
int run(const Options& o, const Provenance& provenance) {
  const auto inputs = checked_inputs<Value, Index>(o);
  DeviceClock clock;
  const CacheFlusher flusher(o.timing);
  LazyTriad triad(o.triad_bytes > 0 ? o.triad_bytes : default_triad_bytes(), clock);
  RunInfo info;
  info.provenance = provenance;
  info.kokkos_version = KOKKOS_VERSION;
  info.execution_space = Kokkos::DefaultExecutionSpace::name();
  info.device = device_name();
  info.last_level_cache_bytes = last_level_cache_bytes();
  info.value_type = o.value;
  info.index_type = o.index;
  info.rhs = o.rhs;
  info.mode = o.mode;
  info.clock = DeviceClock::name();
  info.cache = o.timing.cold ? "cold" : "warm";
  info.warmup = o.timing.warmup;
  info.min_reps = o.timing.min_reps;
  info.max_reps = o.timing.max_reps;
  info.batch = o.timing.batch;
  info.budget_seconds = o.timing.budget_seconds;
  info.traffic_model = traffic_model;
  std::printf("# %s on %s, Kokkos %d, %s/%s, %d rhs, mode %s (y = %s*x), %s caches, clock %s%s\n",
              info.execution_space.c_str(), info.device.c_str(), info.kokkos_version,
              o.value.c_str(), o.index.c_str(), o.rhs, o.mode.c_str(),
              o.mode == "T" ? "A^T" : o.mode == "C" ? "conj(A)" : o.mode == "H" ? "A^H" : "A",
              info.cache.c_str(), info.clock.c_str(),
              o.timing.batch > 1
                  ? (", batches of " + std::to_string(o.timing.batch) + " calls").c_str()
                  : "");
  if (info.last_level_cache_bytes > 0 && !o.timing.cold)
    std::printf("# of_bw marked *: x, y and the matrix fit the %llu MiB last-level cache (warm "
                "runs measure the cache; --cold for memory)\n",
                static_cast<unsigned long long>(info.last_level_cache_bytes >> 20));
  // Host kernels gather x through the TLB: say how the pages were set up.
  if (!arch::device_info(Kokkos::DefaultExecutionSpace()).gpu)
    std::printf("# pages: %s\n", provenance.pages.c_str());
  print_table_header(stdout);

  const std::size_t formats =
      o.formats.empty() ? default_format_specs(is_complex_v<Value>).size() : o.formats.size();
  Progress progress;
  progress.total = formats * inputs.size();
  std::vector<MatrixReport> reports;
  int failures = 0, wrong = 0;
  bool json_failed = false;
  for (std::size_t n = 0; n < inputs.size(); ++n) {
    std::cerr << "[kobalt-bench] " << n + 1 << "/" << inputs.size() << " " << inputs[n] << "\n";
    const std::size_t done_before = progress.done;
    triad.retry();
    try {
      Kokkos::Timer load_timer;
      const Input<Value, Index> in = load_input<Value, Index>(inputs[n]);
      std::cerr << "[kobalt-bench]   " << in.csr.rows() << " x " << in.csr.cols() << ", "
                << in.csr.nnz() << " entries, loaded in " << load_timer.seconds() << " s\n";
      MatrixReport m =
          o.rhs == 1
              ? run_matrix<Value, Index, Kokkos::View<Value*>>(
                    o, in, triad, info.last_level_cache_bytes, progress, clock, flusher)
              : run_matrix<Value, Index, Kokkos::View<Value**, Kokkos::LayoutLeft>>(
                    o, in, triad, info.last_level_cache_bytes, progress, clock, flusher);
      for (const auto& r : m.results) {
        print_table_row(stdout, m, r);
        if (r.error_kind == std::optional<std::string>("wrong_result")) ++wrong;
        else if (r.error_kind == std::optional<std::string>("failed")) ++failures;
      }
      std::fflush(stdout);
      reports.push_back(std::move(m));
    } catch (const std::exception& e) {
      // The input stays in the report, with its error and no results.
      std::cerr << "kobalt-bench: " << inputs[n] << ": " << e.what() << "\n";
      MatrixReport m;
      m.name = inputs[n];
      m.source = inputs[n];
      m.error = e.what();
      std::printf("%-28s %s\n", m.name.c_str(), e.what());
      reports.push_back(std::move(m));
      ++failures;
    }
    progress.done = done_before + formats;  // an input that failed skips its formats
    if (triad.result()) {
      info.triad_bytes = triad.result()->bytes;
      info.triad_seconds = triad.result()->seconds;
      info.triad_gb_per_s = triad.result()->gb_per_s();
    }
    std::string json_error;
    if (!o.json.empty() &&
        !write_json_file(json_report, o.json, named_inputs(o, inputs), info, reports, json_error)) {
      std::cerr << "kobalt-bench: cannot write the JSON report " << o.json << ": " << json_error
                << " (the previous version, if any, is left as it was)\n";
      json_failed = true;
    }
  }
  if (wrong > 0) return 4;
  if (json_failed) return 3;
  return failures == 0 ? 0 : 1;
}

}  // namespace kobalt::bench


namespace kobalt::bench {
extern template int run<double, std::int32_t>(const Options&, const Provenance&);
extern template int run<double, std::int64_t>(const Options&, const Provenance&);
extern template int run<float, std::int32_t>(const Options&, const Provenance&);
extern template int run<float, std::int64_t>(const Options&, const Provenance&);
extern template int run<Kokkos::complex<double>, std::int32_t>(const Options&, const Provenance&);
extern template int run<Kokkos::complex<double>, std::int64_t>(const Options&, const Provenance&);
extern template int run<Kokkos::complex<float>, std::int32_t>(const Options&, const Provenance&);
extern template int run<Kokkos::complex<float>, std::int64_t>(const Options&, const Provenance&);
}  // namespace kobalt::bench
