// SPDX-License-Identifier: BSD-3-Clause
// kobalt-bench's command line: every option, its default, and --help.
#pragma once

#include "timing.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <limits>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace kobalt::bench {

inline const char* usage_text = R"(usage: kobalt-bench [options] INPUT...

Runs y = op(A)*x (--mode; default y = A*x) with every requested format and
peer on every input, checks each y against a sequential reference (double or
complex<double> accumulation, on op(A)'s entries), and prints one table
row per format (stdout), a progress line per matrix (stderr) and, with --json,
one JSON object per matrix.

INPUT
  FILE.mtx | FILE.mtx.gz   a Matrix Market file (coordinate or array; real,
                           integer or pattern, or complex with --value
                           complex_*; symmetric and hermitian storage is
                           expanded; a real file read as complex has
                           imaginary parts 0)
  DIRECTORY                every .mtx and .mtx.gz file in it, by name
  GENERATOR                a generated matrix (built on the device):
%GENERATORS%
OPTIONS
  --format SPEC   a format or peer to run; repeat for several (default: every
                  Kobalt format and every peer that is built):
                  auto[:applies=N]            the automatic handle (make_handle
                         with kobalt::automatic{N}, default N = 1000): the
                         format it chose and why in the strategy and rule
                  csr[:automatic|basic|classical|load_balance|merge_path]
                  coo[:segmented|load_balance]
                  ell[:automatic|rows|column_groups,width=W,stride=S]
                                              (0 = longest row / rows)
                  sellp[:b=B,t=T,sigma=S]     (default b=64, t=1, sigma=1: no
                         row sort; S > 1 a multiple of B: SELL-C-sigma)
                  hybrid[:automatic | :minimal_storage | :column_limit=N |
                         :imbalance_limit=X | :imbalance_bounded_limit=X,r=R]
                  csrk[:k=2|3,srs=N,ssrs=N,rcm=0|1]  (0 = the 002 size model;
                         with rcm=1 the time includes permuting x and y)
                  aligned_coo[:automatic|hybrid|all_seg|all_flat,seg_size=N,flat_unit=U]
                  Every Kobalt format also takes reproducible=1: a handle made
                         with kobalt::reproducible (no atomics, the same bits
                         on every run, checked after the timed runs), e.g.
                         hybrid:reproducible=1 or coo:load_balance,reproducible=1
                  kk | kk:merge   Kokkos Kernels' KokkosSparse::spmv (own kernels,
                         no TPL); needs -DKOBALT_ENABLE_KOKKOSKERNELS=ON
                  cusparse | cusparse:csr_alg2 | cusparse:coo | cusparse:sell
                         cusparseSpMV (CSR default with preprocess, CSR ALG2,
                         COO, Sliced-ELL ALG1 on slices of 32; --rhs K > 1:
                         cusparseSpMM, no Sliced-ELL); CUDA builds with
                         -DKOBALT_ENABLE_CUSPARSE=ON
                  rocsparse | rocsparse:csr_stream | rocsparse:coo | rocsparse:ell
                         rocsparse_spmv (CSR adaptive, CSR stream, COO, ELL;
                         analysis in setup); HIP builds with
                         -DKOBALT_ENABLE_ROCSPARSE=ON, one right-hand side
                  mkl    Intel MKL's mkl_sparse_?_mv on the CSR arrays (hint and
                         mkl_sparse_optimize in setup; --rhs K > 1:
                         mkl_sparse_?_mm, column-major); host builds with
                         -DKOBALT_ENABLE_MKL=ON, --index int32 only (LP64)
  --value T       float | double | complex_float | complex_double (default
                  double): Kokkos::complex values and vectors for complex_*;
                  generated inputs then get imaginary parts (a hash of
                  row and column), files are read as they are; peers:
                  kk and cusparse (CUDA_C_32F / CUDA_C_64F); rocsparse and
                  mkl take real values only
  --index T       int32 | int64 (default int32)
  --rhs K         right-hand sides, 1..65536 (default 1; K > 1 uses rank-2
                  LayoutLeft). Per input, x, y, their copies and the
                  reference (about 2 x (rows + cols) x K values in all) are
                  checked against the free memory before they are allocated:
                  an input that does not fit is an error row
  --mode M        op(A) of y = op(A)*x, KokkosSparse's spelling: N (A, the
                  default), T (A^T), C (conj(A)) or H (A^H); for real values
                  C is N and H is T. x has op(A)'s columns (A's rows for T
                  and H), y op(A)'s rows. Kobalt formats apply a Csr copy of
                  op(A) that the handle builds once (SpmvHandle::op_handle,
                  counted in setup); peers get their own operation: kk the
                  same mode, cusparse and rocsparse opA/trans = TRANSPOSE or
                  CONJUGATE_TRANSPOSE (a variant the library refuses is an
                  error row), mkl SPARSE_OPERATION_(CONJUGATE_)TRANSPOSE
  --reorder rcm   give every format and peer the RCM-reordered matrix
                  (default: the input's own ordering, 002's caveat)
  --warmup N      untimed runs before timing, 0..1000000 (default 3)
  --reps N        at most N timed runs (default 200); at least 5, and runs
                  stop once about --budget seconds were timed
  --budget S      timed seconds per format and matrix, 0..86400 (default 1.0)
  --cold          rewrite a 512 MiB buffer before every timed run (cold
                  caches; the buffer must fit the free memory); default:
                  warm (repeated runs on the same data)
  --batch N       time N calls back to back per timed run and report the
                  time per call, 1..100000 (default 1: one call between
                  fences); a solver loop's cost per apply, without one
                  launch's issue jitter in each sample; not with --cold
  --triad-mib M   size of each triad array in MiB, 1..1048576 (default: 8x
                  the last-level cache, at least 64 MiB, at most 1/16 of the
                  device's memory and 1/8 of what is free; the probe runs
                  once, before the first bandwidth fraction); 3 arrays
                  larger than the free memory are refused before anything
                  runs
  --json FILE     write the JSON report to FILE, rewritten atomically after
                  every matrix (written into a new private folder beside
                  it, .FILE.XXXXXX, then renamed over it; no other file is
                  touched); inputs that fail to load are recorded with
                  their error. Refused before anything runs: an empty name,
                  an input, a matrix file's name (.mtx, .mtx.gz, .mm, in
                  any case), a folder, a link, a device or pipe, an
                  existing file that is not a kobalt-bench report, a folder
                  that does not exist or takes no new file. A failed write
                  makes the exit status 3
  --help          this text
  --version       Kobalt's version, the git commit, Kokkos, compiler, flags
                  and the peers built in

Timing: device fenced before and after every timed call (or batch of --batch
calls); CUDA events on CUDA,
a host timer elsewhere; minimum, median and maximum reported (the spread of
the repetitions: min_us, median_us, max_us in the table, time_ms_min,
time_ms_median, time_ms_max in the JSON). GFLOP/s = 2*nnz*K/t
(8*nnz*K/t for complex values: a complex multiply-add is 4 real multiplies
and 4 real adds; padding not counted). GB/s uses the traffic model: the format's stored
bytes (padding, pointers and permutations included; a Kobalt format applying
a Csr copy of op(A) under --mode: that copy's bytes) + x read once + y
written once (beta = 0). of_bw = GB/s over the triad probe's GB/s from the
same process, marked * when x, y and the matrix fit the last-level cache
(warm runs then measure the cache; the JSON says cache_resident). Setup is the conversion time (with --mode, building op(A)
included), also in units of one CSR (classical) SpMV of A. A y outside the tolerance (n_i + 4) * eps * sum_j |a_ij x_j|
(n_i + 7 for complex values) in any row is reported as an error and its time is not counted; a row whose
reference is NaN or Inf, or whose terms overflow the value type, may come
out NaN or Inf.

Free memory is what the device can allocate now: free GPU memory, or on the
host the node's MemAvailable within the process's ulimit -v and -d and its
cgroup's memory limit (a batch job's), as the library's conversions count
it (format_too_large).

Progress goes to stderr: a line per input and, per format, its outcome, its
time and an estimate of the time left.

The JSON report also records where it came from: Kobalt's version and git
commit, compiler, flags, Kokkos' configuration, host, date and command line
(schema: perf_tests/kobalt-bench.schema.json).

Exit status: 0 when every format ran and was correct on every input, or was
refused by design (error_kind "refused": the format would not fit the
memory or the index type, or a peer lacks the operation, such as
cuSPARSE's Sliced-ELL with --rhs > 1); 1 when a format or an input failed
otherwise (error_kind "failed"; an input whose vectors do not fit the
free memory); 2 for a bad command line (options, format specs, a --json
path refused above, inputs that are missing, unreadable, not starting as a
Matrix Market file or not a generator spec that parses, a --triad-mib or
--cold buffer larger than the free memory), all found before anything
runs; 3 when the JSON report could not be written; 4 when any result was
wrong (error_kind "wrong_result": outside the tolerance, or a fixed-order
handle changing its bits), whatever else happened.
)";

struct Options {
  std::vector<std::string> inputs, formats;
  std::string value = "double", index = "int32", reorder = "file", json;
  std::string mode = "N";  ///< op(A): "N", "T", "C" or "H" (upper case)
  int rhs = 1;
  std::int64_t triad_bytes = 0;  ///< 0: default_triad_bytes() (device_info.hpp)
  TimingOptions timing;
};

/// `text` as a whole decimal integer in [min, max] ("64", not "64abc", "2.5"
/// or "1e30"); nullopt otherwise. Shared by the options and the format specs.
inline std::optional<long long> parse_whole(const std::string& text, long long min,
                                            long long max) {
  std::size_t used = 0;
  long long v = 0;
  try {
    v = std::stoll(text, &used, 10);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  if (used != text.size() || v < min || v > max) return std::nullopt;
  return v;
}

/// `text` as a whole finite number ("2.5", "1e-3"; not "nan" or "1abc").
inline std::optional<double> parse_number(const std::string& text) {
  std::size_t used = 0;
  double v = 0;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  if (used != text.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

/// A bad command line found after Kokkos started (a format spec, an input
/// folder without matrices): main reports it like fail_usage, exit code 2.
struct usage_error : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

[[noreturn]] inline void fail_usage(const std::string& message) {
  std::cerr << "kobalt-bench: " << message << "\n(run kobalt-bench --help)\n";
  std::exit(2);
}

/// Whether `path` names a Matrix Market file by its extension.
inline bool is_matrix_file_name(const std::string& path) {
  auto ends = [&](const std::string& s) {
    return path.size() >= s.size() && path.compare(path.size() - s.size(), s.size(), s) == 0;
  };
  return ends(".mtx") || ends(".mtx.gz");
}

// The ranges of the integer options: wide enough for any real run, narrow
// enough that nothing derived from them overflows (x and y of rhs columns,
// the triad's 3 arrays of triad-mib MiB in bytes).
inline constexpr long long max_rhs = 1 << 16;
inline constexpr long long max_warmup = 1000000;
inline constexpr long long max_batch = 100000;
inline constexpr long long max_reps = std::numeric_limits<int>::max();
inline constexpr long long max_triad_mib = 1 << 20;  // 1 TiB per array
inline constexpr double max_budget_seconds = 86400;  // the message below says so

/// --warmup, --reps, --budget or --batch (`option`) with `value` into `t`;
/// throws usage_error for a value out of range, or another option.
inline void parse_timing_option(const std::string& option, const std::string& value,
                                TimingOptions& t) {
  auto integer = [&](long long min, long long max) {
    const auto v = parse_whole(value, min, max);
    if (!v)
      throw usage_error(option + " needs an integer in [" + std::to_string(min) + ", " +
                        std::to_string(max) + "], got '" + value + "'");
    return static_cast<int>(*v);
  };
  if (option == "--warmup") {
    t.warmup = integer(0, max_warmup);
  } else if (option == "--reps") {
    t.max_reps = integer(1, max_reps);
    t.min_reps = std::min(t.min_reps, t.max_reps);
  } else if (option == "--budget") {
    const auto seconds = parse_number(value);
    if (!seconds || *seconds < 0 || *seconds > max_budget_seconds)
      throw usage_error("--budget needs seconds in [0, 86400], got '" + value + "'");
    t.budget_seconds = *seconds;
  } else if (option == "--batch") {
    t.batch = integer(1, max_batch);
  } else {
    throw usage_error(option + " is not a timing option");
  }
}

inline Options parse_options(int argc, char** argv, const std::string& generator_help) {
  Options o;
  auto next = [&](int& i) -> std::string {
    if (i + 1 >= argc) fail_usage(std::string("missing value after ") + argv[i]);
    return argv[++i];
  };
  auto integer = [&](const std::string& s, const std::string& what, long long min,
                     long long max) {
    const auto v = parse_whole(s, min, max);
    if (!v)
      fail_usage(what + " needs an integer in [" + std::to_string(min) + ", " +
                 std::to_string(max) + "], got '" + s + "'");
    return *v;
  };
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      std::string text = usage_text;
      text.replace(text.find("%GENERATORS%\n"), 13, generator_help);
      std::cout << text;
      std::exit(0);
    } else if (a == "--format") {
      o.formats.push_back(next(i));
    } else if (a == "--value") {
      o.value = next(i);
      if (o.value != "float" && o.value != "double" && o.value != "complex_float" &&
          o.value != "complex_double")
        fail_usage("--value must be float, double, complex_float or complex_double");
    } else if (a == "--index") {
      o.index = next(i);
      if (o.index != "int32" && o.index != "int64") fail_usage("--index must be int32 or int64");
    } else if (a == "--rhs") {
      o.rhs = static_cast<int>(integer(next(i), "--rhs", 1, max_rhs));
    } else if (a == "--mode") {
      o.mode = next(i);
      if (o.mode.size() == 1) o.mode[0] = static_cast<char>(std::toupper(o.mode[0]));
      if (o.mode != "N" && o.mode != "T" && o.mode != "C" && o.mode != "H")
        fail_usage("--mode must be N, T, C or H (A, A^T, conj(A), A^H), got '" + o.mode + "'");
    } else if (a == "--reorder") {
      o.reorder = next(i);
      if (o.reorder != "rcm") fail_usage("--reorder takes rcm");
    } else if (a == "--warmup" || a == "--reps" || a == "--budget" || a == "--batch") {
      try {
        parse_timing_option(a, next(i), o.timing);
      } catch (const usage_error& e) {
        fail_usage(e.what());
      }
    } else if (a == "--cold") {
      o.timing.cold = true;
    } else if (a == "--triad-mib") {
      o.triad_bytes = integer(next(i), "--triad-mib", 1, max_triad_mib) << 20;
    } else if (a == "--json") {
      o.json = next(i);
      if (o.json.empty()) fail_usage("--json needs a file name, got an empty one");
    } else if (!a.empty() && a[0] == '-') {
      fail_usage("unknown option " + a);
    } else {
      o.inputs.push_back(a);
    }
  }
  if (o.inputs.empty()) fail_usage("no input matrix given");
  if (o.timing.cold && o.timing.batch > 1)
    fail_usage("--cold times one call per flush; it cannot be combined with --batch > 1");
  return o;
}

}  // namespace kobalt::bench
