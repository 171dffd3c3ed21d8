// SPDX-License-Identifier: BSD-3-Clause
// Format specs by name ("csr:classical", "sellp:b=32,t=1", ...) -> a prepared
// operator: the converted matrix behind a type-erased apply. The spec grammar
// is NAME[:KEY=VALUE,...] or NAME:STRATEGY[,KEY=VALUE...]; every Kobalt
// format also takes reproducible=1 (a handle made with kobalt::reproducible).
#pragma once

#include "format_spec.hpp"
#include "options.hpp"

#include <kobalt/kobalt.hpp>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

namespace kobalt::bench {

/// A peer library lacks the operation asked for (cuSPARSE's Sliced-ELL with
/// several right-hand sides, a conjugate-only mode, ...): refused by design,
/// like format_too_large, so an error row with error_kind "refused" and no
/// effect on the exit status.
struct peer_lacks : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// error_kind of a format that threw: "refused" by design (the format would
/// not fit its memory, format_too_large, or its index type, index_overflow:
/// SELL-P of zipf:5000000,10 pads to 2.2e9 slots, past int32; a peer lacks
/// the operation, peer_lacks), else "failed".
inline const char* error_kind_of(const std::exception& e) {
  const bool by_design = dynamic_cast<const format_too_large*>(&e) != nullptr ||
                         dynamic_cast<const index_overflow*>(&e) != nullptr ||
                         dynamic_cast<const peer_lacks*>(&e) != nullptr;
  return by_design ? "refused" : "failed";
}

/// The converted matrix, ready to apply.
template <class View>
struct Operator {
  std::function<void(const View& x, const View& y)> apply;  ///< y = A*x
  std::string strategy;   ///< what actually runs: format parameters + the handle's policy
  std::string rule;       ///< why (the selector's rule); empty for peers
  /// Kobalt: whether an apply with this many right-hand sides gathers from
  /// a row-major copy of x (SpmvHandle::stages_x_rows); empty for peers
  std::function<bool(int columns)> copies_x_rows;
  std::uint64_t bytes = 0;     ///< storage of the format, padding included
  /// matrix bytes one apply reads when not `bytes`: a Kobalt format under
  /// --mode T/C/H applies the Csr copy of op(A) its handle keeps; 0: bytes
  std::uint64_t traffic_bytes = 0;
  std::int64_t stored = 0;     ///< stored entries, padding included
  std::optional<bool> reproducible;  ///< Kobalt: the handle adds in a fixed order
  /// auto: seconds of the analysis and the choice (AutoHandle::analysis_seconds),
  /// a part of the setup; unset for every other format
  std::optional<double> analysis_seconds;
  /// Kobalt: the handle's update_values on the default instance (a refresh
  /// of every value copy it holds); unset for peers
  std::function<void()> update_values;
};

/// The operation an apply with `mode` really needs for Value: for real
/// values C is N and H is T (as kobalt::spmv and KokkosSparse::spmv read them).
template <class Value>
Mode applied_mode(Mode mode) {
  if (is_complex_v<Value>) return mode;
  return transposes(mode) ? Mode::transpose : Mode::none;
}

/// What runs behind a Kobalt handle, into `op`: `layout` (the format's own
/// parameters, "t=12") and the handle's policy, the rule, whether it adds in
/// a fixed order, and under `mode` other than N the Csr copy of op(A) that
/// the handle builds here (SpmvHandle::op_handle), so in setup time.
template <class Handle, class View>
void describe_handle(Operator<View>& op, const std::shared_ptr<const Handle>& shared,
                     const std::string& layout, Mode mode) {
  using exec = typename Handle::execution_space;
  const Handle& handle = *shared;
  op.bytes = handle.matrix().bytes();
  op.stored = handle.matrix().stored();
  op.strategy = (layout.empty() ? "" : layout + " ") + handle.summary();
  op.rule = handle.policy().rule;
  op.reproducible = handle.reproducible();
  const Mode applied = applied_mode<typename Handle::matrix_type::value_type>(mode);
  if (applied != Mode::none) {
    // What runs is the handle's Csr copy of op(A): its kernel, its bits.
    const auto& op_handle = handle.op_handle(exec(), applied);
    op.strategy += std::string(" op(") + mode_name(applied) + "): Csr copy of " +
                   std::to_string(op_handle.matrix().bytes()) + " bytes, " + op_handle.summary();
    op.rule += std::string("; op(") + mode_name(applied) + "): " + op_handle.policy().rule;
    op.reproducible = op_handle.reproducible();
    op.traffic_bytes = op_handle.matrix().bytes();
  }
  op.copies_x_rows = [shared, applied](int columns) {
    constexpr auto bytes = static_cast<std::int64_t>(sizeof(typename View::non_const_value_type));
    return applied == Mode::none ? shared->stages_x_rows(columns, bytes)
                                 : shared->op_handle(exec(), applied).stages_x_rows(columns, bytes);
  };
}

/// y = op(A)*x through kobalt::spmv with `handle` (an SpmvHandle or an
/// AutoHandle made for `a`), on the default instance; the mode as given
/// ("C" and "H" too): the library maps them for real values.
template <class View, class Handle, class Matrix>
std::function<void(const View&, const View&)> apply_with(const std::shared_ptr<Handle>& handle,
                                                         const Matrix& a, Mode mode) {
  using exec = typename Handle::execution_space;
  using scalar = typename View::non_const_value_type;
  if (mode == Mode::none)
    return [a, handle](const View& x, const View& y) {
      kobalt::spmv(exec(), *handle, scalar(1), a, x, scalar(0), y);
    };
  return [a, handle, name = mode_name(mode)](const View& x, const View& y) {
    kobalt::spmv(exec(), *handle, name, scalar(1), a, x, scalar(0), y);
  };
}

/// A Kobalt operator: a handle built once (its setup counts as setup time),
/// applied on the default instance. `layout` names the format's own
/// parameters ("t=12"), the handle adds the kernel and launch shapes.
/// `strategy` unset: the format's default, or with `reproducible` its
/// fixed-order default (tuning::reproducible_strategy). `mode` other than
/// N: y = op(A)*x through kobalt::spmv(exec, handle, mode, ...).
template <class Matrix, class View>
Operator<View> wrap(Matrix a, const std::string& layout,
                    const std::optional<typename tuning::format_strategy<Matrix>::type>& strategy,
                    bool reproducible, Mode mode = Mode::none) {
  using exec = typename Matrix::execution_space;
  using strategy_type = typename tuning::format_strategy<Matrix>::type;
  using handle_type = SpmvHandle<Matrix, exec>;
  Operator<View> op;
  // Shared by the operator's functions: handles move, they do not copy.
  const auto handle = std::make_shared<handle_type>(
      reproducible ? make_handle(exec(), a,
                                 strategy.value_or(tuning::reproducible_strategy<strategy_type>()),
                                 kobalt::reproducible)
                   : make_handle(exec(), a, strategy.value_or(strategy_type{})));
  describe_handle(op, std::shared_ptr<const handle_type>(handle), layout, mode);
  op.apply = apply_with<View>(handle, a, mode);
  op.update_values = [handle] { handle->update_values(exec()); };
  return op;
}

/// The automatic handle (make_handle with kobalt::automatic) on a Csr: the
/// analysis, the choice and the conversion count as setup time; the
/// strategy names the chosen format, the rule says why.
template <class Csr, class View>
Operator<View> wrap_automatic(Csr a, const automatic& options, Mode mode) {
  using exec = typename Csr::execution_space;
  Operator<View> op;
  const auto handle = std::make_shared<AutoHandle<Csr, exec>>(make_handle(exec(), a, options));
  std::visit(
      [&](const auto& chosen) {
        // The chosen handle, kept alive by the automatic one it lives in.
        using chosen_type = std::decay_t<decltype(chosen)>;
        describe_handle(op, std::shared_ptr<const chosen_type>(handle, &chosen), "", mode);
      },
      handle->handle());
  op.strategy = std::string(tuning::format_name(handle->choice().format)) + " " + op.strategy;
  op.rule = "automatic: " + handle->choice().rule + "; " + op.rule;
  op.analysis_seconds = handle->analysis_seconds();
  op.apply = apply_with<View>(handle, a, mode);
  op.update_values = [handle] { handle->update_values(exec()); };
  return op;
}

/// Peers are other libraries' SpMV run on the same data.
inline bool is_peer(const std::string& name) {
  return name == "kk" || name == "cusparse" || name == "rocsparse" || name == "mkl";
}

/// Every format name this build knows, for --help and the default run; with
/// `complex_values`, the peers that take complex values (Kokkos Kernels,
/// cuSPARSE) only.
inline std::vector<std::string> default_format_specs([[maybe_unused]] bool complex_values = false) {
  std::vector<std::string> specs = {"auto",        "csr",         "csr:basic",        "csr:classical",
                                    "csr:load_balance", "csr:merge_path", "coo",
                                    "coo:load_balance",
                                    "ell",         "ell:column_groups", "sellp",
                                    "sellp:b=32,t=1", "sellp:b=8,t=8",  "hybrid",
                                    "csrk:k=2",    "csrk:k=3",         "aligned_coo",
                                    "hybrid:reproducible=1", "aligned_coo:reproducible=1"};
#if defined(KOBALT_BENCH_KOKKOSKERNELS)
  specs.push_back("kk");
#endif
#if defined(KOBALT_BENCH_KK_MERGE)
  specs.push_back("kk:merge");
#endif
#if defined(KOBALT_BENCH_CUSPARSE)
  for (const char* s : {"cusparse", "cusparse:csr_alg2", "cusparse:coo", "cusparse:sell"})
    specs.push_back(s);
#endif
#if defined(KOBALT_BENCH_ROCSPARSE)
  if (!complex_values)
    for (const char* s : {"rocsparse", "rocsparse:csr_stream", "rocsparse:coo", "rocsparse:ell"})
      specs.push_back(s);
#endif
#if defined(KOBALT_BENCH_MKL)
  if (!complex_values) specs.push_back("mkl");
#endif
  return specs;
}

template <class View, class Value, class Index, class Device>
Operator<View> prepare(const FormatSpec& spec, const Csr<Value, Index, Device>& csr,
                       int rhs_columns = 1, std::uint64_t max_bytes = 0,
                       Mode mode = Mode::none);

/// The storage a spec may take on check_format_specs' 2 x 2 identity. A
/// spec asking for more there (sellp:b=611111111 pads two rows to 611M:
/// 7 GB, found by fuzz/specs_fuzz) is left to each input's run, where the
/// matrix sets its size and the free memory its limit.
inline constexpr std::uint64_t spec_check_bytes = std::uint64_t{1} << 20;

/// Checks every spec once, before any input is loaded, by preparing it on a
/// 2 x 2 identity: a malformed spec, an unknown name, strategy or key, a
/// value that is not a number and a parameter the library refuses
/// (kobalt::invalid_parameter) throw invalid_argument naming the spec.
/// Failures that depend on the matrix (too large, wrong shape) are left to
/// each input's run, where they become error rows.
template <class View, class Value, class Index>
void check_format_specs(const std::vector<std::string>& specs, int rhs_columns,
                        Mode mode = Mode::none) {
  Triplets<Value, Index> t;
  t.rows = t.cols = 2;
  t.push_back(0, 0, Value(1));
  t.push_back(1, 1, Value(1));
  t.assemble();
  const auto identity = make_csr(t);
  for (const auto& text : specs) {
    try {
      (void)prepare<View>(FormatSpec::parse(text), identity, rhs_columns, spec_check_bytes, mode);
    } catch (const invalid_parameter& e) {
      throw std::invalid_argument("format spec '" + text + "': " + e.what());
    } catch (const std::invalid_argument&) {
      throw;
    } catch (const std::exception&) {
      // depends on the matrix: reported per input
    }
  }
}

template <class View, class Value, class Index, class Device>
Operator<View> prepare_cusparse(const FormatSpec& spec, const Csr<Value, Index, Device>& a,
                                int rhs_columns, Mode mode);

template <class View, class Value, class Index, class Device>
Operator<View> prepare_rocsparse(const FormatSpec& spec, const Csr<Value, Index, Device>& a,
                                 int rhs_columns, Mode mode);

template <class View, class Value, class Index, class Device>
Operator<View> prepare_mkl(const FormatSpec& spec, const Csr<Value, Index, Device>& a,
                           int rhs_columns, Mode mode);

template <class View, class Value, class Index, class Device>
Operator<View> prepare_kokkos_kernels(const FormatSpec& spec, const Csr<Value, Index, Device>& a,
                                      Mode mode);

/// Converts `csr` as `spec` says, for x and y of `rhs_columns` columns
/// (peers that plan per column count need it), into at most `max_bytes` of
/// storage (0: what the device holds; Kobalt formats only), to apply
/// y = op(A)*x with op given by `mode` (--mode). Unknown names and keys
/// throw invalid_argument.
template <class View, class Value, class Index, class Device>
Operator<View> prepare(const FormatSpec& given, const Csr<Value, Index, Device>& csr,
                       [[maybe_unused]] int rhs_columns, std::uint64_t max_bytes,
                       [[maybe_unused]] Mode mode) {
  // reproducible=1, on every Kobalt format: a handle made with kobalt::reproducible.
  FormatSpec spec = given;
  const bool reproducible = !is_peer(spec.name) && spec.take_flag("reproducible");
  if (spec.name == "csr") {
    spec.only({});
    std::optional<csr::strategy> strategy;
    if (spec.word == "basic") strategy = csr::basic{};
    else if (spec.word == "classical") strategy = csr::classical{};
    else if (spec.word == "load_balance") strategy = csr::load_balance{};
    else if (spec.word == "merge_path") strategy = csr::merge_path{};
    else if (!spec.word.empty() && spec.word != "automatic")
      throw std::invalid_argument(
          "csr strategy '" + spec.word +
          "' is not built (known: automatic, basic, classical, load_balance, merge_path)");
    auto a = to_csr(csr, convert_options{max_bytes});
    return wrap<decltype(a), View>(a, "", strategy, reproducible, mode);
  }
  if (spec.name == "auto") {
    spec.only({"applies"});
    if (!spec.word.empty()) throw std::invalid_argument("auto takes applies=N only");
    if (reproducible)
      throw std::invalid_argument("auto does not take reproducible=1 (it may choose a format "
                                  "that adds with atomics)");
    automatic options;
    options.expected_applies =
        spec.whole("applies", options.expected_applies, 1, std::numeric_limits<std::int64_t>::max());
    return wrap_automatic<Csr<Value, Index, Device>, View>(to_csr(csr, convert_options{max_bytes}),
                                                           options, mode);
  }
  if (spec.name == "coo") {
    spec.only({});
    std::optional<coo::strategy> strategy;
    if (spec.word == "segmented") strategy = coo::segmented{};
    else if (spec.word == "load_balance") strategy = coo::load_balance{};
    else if (!spec.word.empty())
      throw std::invalid_argument("coo strategy '" + spec.word +
                                  "' is not built (known: segmented, load_balance)");
    return wrap<Coo<Value, Index, Device>, View>(to_coo(csr, convert_options{max_bytes}), "", strategy, reproducible, mode);
  }
  if (spec.name == "ell") {
    spec.only({"width", "stride"});
    std::optional<ell::strategy> strategy;
    if (spec.word == "rows") strategy = ell::rows{};
    else if (spec.word == "column_groups") strategy = ell::column_groups{};
    else if (!spec.word.empty() && spec.word != "automatic")
      throw std::invalid_argument("ell strategy '" + spec.word +
                                  "' is not built (known: automatic, rows, column_groups)");
    ell_params p;
    p.stored_per_row = spec.whole("width", 0);
    p.stride = spec.whole("stride", 0);
    p.max_bytes = max_bytes;
    auto a = to_ell(csr, p);
    return wrap<decltype(a), View>(a, "width=" + std::to_string(a.stored_per_row()), strategy,
                                   reproducible, mode);
  }
  if (spec.name == "sellp") {
    spec.only({"b", "t", "sigma"});
    sellp_params p;
    p.slice_size = spec.whole("b", p.slice_size);
    p.stride_factor = spec.whole("t", p.stride_factor);
    p.sort_window = spec.whole("sigma", p.sort_window);
    p.max_bytes = max_bytes;
    auto a = to_sellp(csr, p);
    return wrap<decltype(a), View>(
        a, "b=" + std::to_string(p.slice_size) + ",t=" + std::to_string(p.stride_factor) +
               (p.sort_window > 1 ? ",sigma=" + std::to_string(p.sort_window) : "") +
               ",stored=" + std::to_string(a.stored()),
        std::nullopt, reproducible, mode);
  }
  if (spec.name == "hybrid") {
    hybrid::partition strategy = hybrid::automatic{};
    if (spec.word == "minimal_storage") {
      strategy = hybrid::minimal_storage{};
    } else if (!spec.word.empty() && spec.word != "automatic") {
      throw std::invalid_argument("hybrid strategy '" + spec.word + "' is unknown");
    } else if (spec.keys.count("column_limit")) {
      spec.only({"column_limit"});
      strategy = hybrid::column_limit{spec.whole("column_limit", 0)};
    } else if (spec.keys.count("imbalance_limit")) {
      spec.only({"imbalance_limit"});
      strategy = hybrid::imbalance_limit{spec.number("imbalance_limit", 0)};
    } else if (spec.keys.count("imbalance_bounded_limit")) {
      spec.only({"imbalance_bounded_limit", "r"});
      strategy = hybrid::imbalance_bounded_limit{spec.number("imbalance_bounded_limit", 0),
                                                 spec.number("r", hybrid::automatic_row_ratio)};
    } else {
      spec.only({});
    }
    auto a = to_hybrid(csr, strategy, convert_options{max_bytes});
    return wrap<decltype(a), View>(
        a, hybrid::describe(strategy) + ",t=" + std::to_string(a.ell_width()), std::nullopt,
        reproducible, mode);
  }
  if (spec.name == "csrk") {
    spec.only({"k", "srs", "ssrs", "rcm"});
    if (!spec.word.empty()) throw std::invalid_argument("csrk takes key=value options only");
    csrk::parameters p;
    p.k = static_cast<int>(spec.whole("k", 0, 0, std::numeric_limits<int>::max()));
    p.super_row_size = spec.whole("srs", 0);
    p.super_super_row_size = spec.whole("ssrs", 0);
    p.order = spec.whole("rcm", 0, 0, 1) != 0 ? csrk::reordering::rcm : csrk::reordering::none;
    p.max_bytes = max_bytes;
    auto a = to_csrk(csr, p);
    std::string what = "k=" + std::to_string(a.k()) + ",srs=" + std::to_string(a.super_row_size());
    if (a.k() == 3) what += ",ssrs=" + std::to_string(a.super_super_row_size());
    if (a.is_permuted()) what += ",rcm";
    return wrap<decltype(a), View>(a, what, std::nullopt, reproducible, mode);
  }
  if (spec.name == "aligned_coo") {
    spec.only({"seg_size", "flat_unit"});
    aligned_coo::params p;
    if (spec.word == "hybrid") p.choice = aligned_coo::split::hybrid;
    else if (spec.word == "all_seg") p.choice = aligned_coo::split::all_seg;
    else if (spec.word == "all_flat") p.choice = aligned_coo::split::all_flat;
    else if (!spec.word.empty() && spec.word != "automatic")
      throw std::invalid_argument("aligned_coo split '" + spec.word + "' is unknown");
    p.seg_size = spec.whole("seg_size", 0);
    p.flat_unit = static_cast<int>(spec.whole("flat_unit", p.flat_unit, 0, std::numeric_limits<int>::max()));
    p.max_bytes = max_bytes;
    auto a = to_aligned_coo(csr, p);
    return wrap<decltype(a), View>(a, std::string(aligned_coo::name(a.split())) +
                                          ",seg_size=" + std::to_string(a.seg_size()) +
                                          ",num_seg=" + std::to_string(a.num_segments()) +
                                          ",flat_nnz=" + std::to_string(a.flat().nnz()),
                                   std::nullopt, reproducible, mode);
  }
  // The rocSPARSE and MKL peers are wired for real values only.
  if (is_complex_v<Value> && (spec.name == "rocsparse" || spec.name == "mkl"))
    throw std::invalid_argument("peer '" + spec.name +
                                "' takes real values only in kobalt-bench (--value float or "
                                "double); for complex values the peers are kk and cusparse");
  if (spec.name == "kk") {
#if defined(KOBALT_BENCH_KOKKOSKERNELS)
    return prepare_kokkos_kernels<View>(spec, csr, mode);
#else
    throw std::invalid_argument("peer 'kk' is not built: configure with -DKOBALT_ENABLE_KOKKOSKERNELS=ON");
#endif
  }
  if (spec.name == "cusparse") {
#if defined(KOBALT_BENCH_CUSPARSE)
    return prepare_cusparse<View>(spec, csr, rhs_columns, mode);
#else
    throw std::invalid_argument("peer 'cusparse' is not built: configure a CUDA build with -DKOBALT_ENABLE_CUSPARSE=ON");
#endif
  }
  if (spec.name == "rocsparse") {
#if defined(KOBALT_BENCH_ROCSPARSE)
    if constexpr (!is_complex_v<Value>) return prepare_rocsparse<View>(spec, csr, rhs_columns, mode);
#else
    throw std::invalid_argument("peer 'rocsparse' is not built: configure a HIP build with -DKOBALT_ENABLE_ROCSPARSE=ON");
#endif
  }
  if (spec.name == "mkl") {
#if defined(KOBALT_BENCH_MKL)
    if constexpr (!is_complex_v<Value>) return prepare_mkl<View>(spec, csr, rhs_columns, mode);
#else
    throw std::invalid_argument("peer 'mkl' is not built: configure a host (OpenMP or Serial) build with -DKOBALT_ENABLE_MKL=ON");
#endif
  }
  throw std::invalid_argument("format '" + spec.name + "' is not built in this kobalt-bench");
}

}  // namespace kobalt::bench
