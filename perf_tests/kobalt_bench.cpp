// SPDX-License-Identifier: BSD-3-Clause
// kobalt-bench: runs y = A*x with every requested format on every input,
// checks each result against the sequential reference, and prints a table.
#include "format_registry.hpp"
#include "generators/laplacian.hpp"
#include "timing.hpp"
#if defined(KOBALT_BENCH_KOKKOSKERNELS)
#include "peers/kokkos_kernels.hpp"
#endif
#if defined(KOBALT_BENCH_CUSPARSE)
#include "peers/cusparse.hpp"
#endif

#include <kobalt/kobalt.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

namespace {

const char* usage = R"(usage: kobalt-bench [options] INPUT...

Runs y = A*x for every format on every input, checks y against a sequential
reference (double accumulation), and prints one table row per format.

INPUT
  FILE.mtx | FILE.mtx.gz   a Matrix Market file (coordinate or array; real,
                           integer or pattern; symmetric storage is expanded)
  DIRECTORY                every .mtx and .mtx.gz file in it, by name
  lap2d:N                  2-D 5-point Laplacian on an N x N grid
  lap3d:N                  3-D 7-point Laplacian on an N^3 grid

OPTIONS
  --format SPEC   a format to run; repeat for several (default: all built).
                  csr | csr:basic | csr:classical | coo
                  ell[:width=W,stride=S]      (0 = longest row / rows)
                  sellp[:b=B,t=T]             (default b=64, t=1)
                  hybrid[:automatic | :minimal_storage | :column_limit=N |
                         :imbalance_limit=X | :imbalance_bounded_limit=X,r=R]
                  csrk[:k=2|3,srs=N,ssrs=N,rcm=0|1]  (0 = the 002 size model)
                  aligned_coo[:automatic|hybrid|all_seg|all_flat,seg_size=N,flat_unit=U]
                  kk (Kokkos Kernels' KokkosSparse::spmv; needs
                  -DKOBALT_ENABLE_KOKKOSKERNELS=ON)
                  cusparse | cusparse:csr_alg2 (cusparseSpMV CSR; CUDA builds
                  with -DKOBALT_ENABLE_CUSPARSE=ON)
  --value T       float | double (default double)
  --index T       int32 | int64 (default int32)
  --warmup N      untimed runs before timing (default 3)
  --reps N        at most N timed runs (default 200); at least 5, and runs
                  stop once about --budget seconds were spent (default 1.0)
  --budget S      time budget per format and matrix in seconds
  --help          this text

Timing: the device is fenced before and after every timed call (warm L2: no
flush between runs); the median and minimum are reported. GFLOP/s = 2*nnz/t
(padding not counted). GB/s counts the format's stored bytes (padding
included), x read once and y written once (beta = 0). A result outside the
tolerance (n_i + 4) * eps * sum_j |a_ij x_j| in any row is reported as WRONG
and its time is not shown.
)";

struct Options {
  std::vector<std::string> inputs, formats;
  std::string value = "double", index = "int32";
  kobalt::bench::TimingOptions timing;
};

[[noreturn]] void fail(const std::string& message) {
  std::cerr << "kobalt-bench: " << message << "\n(run kobalt-bench --help)\n";
  std::exit(2);
}

Options parse(int argc, char** argv) {
  Options o;
  auto next = [&](int& i) -> std::string {
    if (i + 1 >= argc) fail(std::string("missing value after ") + argv[i]);
    return argv[++i];
  };
  auto integer = [&](const std::string& s, const std::string& what) {
    try {
      std::size_t used = 0;
      const int v = std::stoi(s, &used);
      if (used != s.size() || v < 0) throw std::invalid_argument(s);
      return v;
    } catch (const std::exception&) {
      fail(what + " needs a non-negative integer, got '" + s + "'");
    }
  };
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      std::cout << usage;
      std::exit(0);
    } else if (a == "--format") {
      o.formats.push_back(next(i));
    } else if (a == "--value") {
      o.value = next(i);
      if (o.value != "float" && o.value != "double") fail("--value must be float or double");
    } else if (a == "--index") {
      o.index = next(i);
      if (o.index != "int32" && o.index != "int64") fail("--index must be int32 or int64");
    } else if (a == "--warmup") {
      o.timing.warmup = integer(next(i), "--warmup");
    } else if (a == "--reps") {
      o.timing.max_reps = std::max(1, integer(next(i), "--reps"));
      o.timing.min_reps = std::min(o.timing.min_reps, o.timing.max_reps);
    } else if (a == "--budget") {
      o.timing.budget_seconds = std::stod(next(i));
    } else if (!a.empty() && a[0] == '-') {
      fail("unknown option " + a);
    } else {
      o.inputs.push_back(a);
    }
  }
  if (o.inputs.empty()) fail("no input matrix given");
  if (o.formats.empty()) o.formats = kobalt::bench::default_format_specs();
  return o;
}

/// Files and generator specs, directories expanded in name order.
std::vector<std::string> expand_inputs(const std::vector<std::string>& inputs) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  for (const auto& in : inputs) {
    if (fs::is_directory(in)) {
      std::vector<std::string> files;
      for (const auto& e : fs::directory_iterator(in)) {
        const std::string p = e.path().string();
        if (p.size() > 4 && (p.substr(p.size() - 4) == ".mtx" ||
                             (p.size() > 7 && p.substr(p.size() - 7) == ".mtx.gz")))
          files.push_back(p);
      }
      std::sort(files.begin(), files.end());
      out.insert(out.end(), files.begin(), files.end());
    } else {
      out.push_back(in);
    }
  }
  return out;
}

template <class Value, class Index>
kobalt::Triplets<Value, Index> load(const std::string& input, std::string& name) {
  for (const auto& [prefix, dims] : {std::pair<std::string, int>{"lap2d:", 2}, {"lap3d:", 3}}) {
    if (input.rfind(prefix, 0) == 0) {
      name = input;
      try {
        return kobalt::bench::laplacian<Value, Index>(dims, std::stoll(input.substr(prefix.size())));
      } catch (const std::invalid_argument&) {
        fail("generator '" + input + "' needs a grid size, e.g. " + prefix + "100");
      }
    }
  }
  name = std::filesystem::path(input).filename().string();
  return kobalt::read_matrix_market<Value, Index>(input);
}

template <class Value, class Index>
int run(const Options& o) {
  using device = kobalt::default_device;
  using view = Kokkos::View<Value*, device>;
  int wrong = 0;
  std::printf("%-28s %10s %10s %11s  %-24s %-24s %10s %11s %9s %9s %10s\n", "matrix", "rows", "cols",
              "nnz", "format", "strategy", "setup_ms", "median_us", "GFLOP/s", "GB/s", "max_err");
  for (const auto& input : expand_inputs(o.inputs)) {
    std::string name;
    kobalt::Triplets<Value, Index> t;
    try {
      t = load<Value, Index>(input, name);
    } catch (const kobalt::error& e) {
      std::cerr << "kobalt-bench: skipping " << input << ": " << e.what() << "\n";
      ++wrong;
      continue;
    }
    std::cerr << "[kobalt-bench] " << name << ": " << t.rows << " x " << t.cols << ", "
              << t.nnz() << " entries\n";
    auto csr = kobalt::make_csr<device>(t);
    std::vector<Value> xh_vec(t.cols), y0(t.rows, Value(0));
    view x("x", t.cols), y("y", t.rows);
    auto xh = Kokkos::create_mirror_view(x);
    for (Index j = 0; j < t.cols; ++j) xh(j) = xh_vec[j] = Value(1) + Value(j % 7) / Value(8);
    Kokkos::deep_copy(x, xh);
    const auto ref = kobalt::reference_spmv(t, 1.0, xh_vec, 0.0, y0);
    std::vector<std::int64_t> row_len(t.rows, 0);
    for (auto r : t.row) ++row_len[r];

    for (const auto& text : o.formats) {
      std::printf("%-28s %10lld %10lld %11lld  %-24s ", name.c_str(), (long long)t.rows,
                  (long long)t.cols, (long long)t.nnz(), text.c_str());
      kobalt::bench::Operator<view> op;
      Kokkos::Timer setup;
      try {
        op = kobalt::bench::prepare<view>(kobalt::bench::FormatSpec::parse(text), csr);
      } catch (const std::exception& e) {
        std::printf("%-24s %s\n", "-", e.what());
        ++wrong;
        continue;
      }
      Kokkos::fence();
      const double setup_ms = setup.seconds() * 1e3;
      Kokkos::deep_copy(y, std::numeric_limits<Value>::quiet_NaN());
      op.apply(x, y);
      auto yh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
      double max_err = 0;
      bool ok = true;
      const double eps = std::numeric_limits<Value>::epsilon();
      for (Index i = 0; i < t.rows; ++i) {
        const double err = std::abs(static_cast<double>(yh(i)) - ref.y[i]);
        const double scale = ref.bound[i] > 0 ? ref.bound[i] : 1.0;
        max_err = std::max(max_err, std::isnan(err) ? INFINITY : err / scale);
        ok = ok && err <= (row_len[i] + 4) * eps * ref.bound[i] + std::numeric_limits<Value>::min();
      }
      if (!ok) {
        std::printf("%-24s %10.3f %11s %9s %9s %10.2e WRONG\n", op.strategy.c_str(), setup_ms, "-",
                    "-", "-", max_err);
        ++wrong;
        continue;
      }
      const auto timing = kobalt::bench::time_runs([&] { op.apply(x, y); }, o.timing);
      const double gflops = 2.0 * t.nnz() / timing.median * 1e-9;
      const double bytes = op.bytes + sizeof(Value) * (double(t.cols) + double(t.rows));
      std::printf("%-24s %10.3f %11.2f %9.2f %9.2f %10.2e\n", op.strategy.c_str(), setup_ms,
                  timing.median * 1e6, gflops, bytes / timing.median * 1e-9, max_err);
    }
  }
  return wrong == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  Kokkos::ScopeGuard kokkos(argc, argv);
  std::cerr << "[kobalt-bench] Kokkos " << KOKKOS_VERSION << ", execution space "
            << Kokkos::DefaultExecutionSpace::name() << "\n";
  try {
    if (o.value == "double")
      return o.index == "int32" ? run<double, std::int32_t>(o) : run<double, std::int64_t>(o);
    return o.index == "int32" ? run<float, std::int32_t>(o) : run<float, std::int64_t>(o);
  } catch (const std::exception& e) {
    std::cerr << "kobalt-bench: " << e.what() << "\n";
    return 1;
  }
}
