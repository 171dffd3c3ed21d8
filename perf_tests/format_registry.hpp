// SPDX-License-Identifier: BSD-3-Clause
// Format specs by name ("csr:classical", "sellp:b=32,t=1", ...) -> a prepared
// operator: the converted matrix behind a type-erased apply. The spec grammar
// is NAME[:KEY=VALUE,...] or NAME:STRATEGY.
#pragma once

#include <kobalt/kobalt.hpp>

#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace kobalt::bench {

/// A parsed spec: name, and either a bare strategy word or key=value pairs.
struct FormatSpec {
  std::string text, name, word;
  std::map<std::string, std::string> keys;

  static FormatSpec parse(const std::string& text) {
    FormatSpec s;
    s.text = text;
    const auto colon = text.find(':');
    s.name = text.substr(0, colon);
    if (colon == std::string::npos) return s;
    std::string rest = text.substr(colon + 1);
    std::size_t pos = 0;
    while (pos <= rest.size()) {
      const auto comma = rest.find(',', pos);
      const std::string item = rest.substr(pos, comma == std::string::npos ? comma : comma - pos);
      const auto eq = item.find('=');
      if (eq == std::string::npos) {
        if (!s.word.empty() || item.empty())
          throw std::invalid_argument("format spec '" + text + "': expected KEY=VALUE, got '" + item + "'");
        s.word = item;
      } else {
        s.keys[item.substr(0, eq)] = item.substr(eq + 1);
      }
      if (comma == std::string::npos) break;
      pos = comma + 1;
    }
    return s;
  }
  double number(const std::string& key, double fallback) const {
    auto it = keys.find(key);
    return it == keys.end() ? fallback : std::stod(it->second);
  }
  /// Throws if a key other than `allowed` was given (no silent ignoring).
  void only(const std::vector<std::string>& allowed) const {
    for (const auto& [k, v] : keys) {
      bool ok = false;
      for (const auto& a : allowed) ok = ok || a == k;
      if (!ok) throw std::invalid_argument("format spec '" + text + "': unknown key '" + k + "'");
    }
  }
};

/// The converted matrix, ready to apply.
template <class View>
struct Operator {
  std::function<void(const View& x, const View& y)> apply;  ///< y = A*x
  std::string strategy;   ///< what actually runs, e.g. "classical" or "t=12"
  std::uint64_t bytes = 0;     ///< storage of the format, padding included
  std::int64_t stored = 0;     ///< stored entries, padding included
};

template <class Matrix, class View>
Operator<View> wrap(Matrix a, std::string strategy) {
  Operator<View> op;
  op.bytes = a.bytes();
  op.stored = a.stored();
  op.strategy = std::move(strategy);
  op.apply = [a](const View& x, const View& y) {
    using scalar = typename View::non_const_value_type;
    kobalt::spmv(scalar(1), a, x, scalar(0), y);
  };
  return op;
}

/// Every format name this build knows, for --help and the default run.
inline std::vector<std::string> default_format_specs() {
  std::vector<std::string> specs = {"csr:basic", "csr:classical", "coo"};
#if defined(KOBALT_BENCH_KOKKOSKERNELS)
  specs.push_back("kk");
#endif
#if defined(KOBALT_BENCH_CUSPARSE)
  specs.push_back("cusparse");
#endif
  return specs;
}

template <class View, class Value, class Index, class Device>
Operator<View> prepare_cusparse(const FormatSpec& spec, const Csr<Value, Index, Device>& a);

template <class View, class Value, class Index, class Device>
Operator<View> prepare_kokkos_kernels(const FormatSpec& spec, const Csr<Value, Index, Device>& a);

/// Converts `csr` as `spec` says. Unknown names and keys throw invalid_argument.
template <class View, class Value, class Index, class Device>
Operator<View> prepare(const FormatSpec& spec, const Csr<Value, Index, Device>& csr) {
  if (spec.name == "csr") {
    spec.only({});
    auto a = to_csr(csr);
    if (spec.word.empty() || spec.word == "classical") a.set_strategy(csr::classical{});
    else if (spec.word == "basic") a.set_strategy(csr::basic{});
    else throw std::invalid_argument("csr strategy '" + spec.word + "' is not built (known: basic, classical)");
    return wrap<decltype(a), View>(a, csr::name(a.strategy()));
  }
  if (spec.name == "coo") {
    spec.only({});
    if (!spec.word.empty()) throw std::invalid_argument("coo takes no strategy");
    return wrap<Coo<Value, Index, Device>, View>(to_coo(csr), "chunks");
  }
  if (spec.name == "kk") {
#if defined(KOBALT_BENCH_KOKKOSKERNELS)
    return prepare_kokkos_kernels<View>(spec, csr);
#else
    throw std::invalid_argument("peer 'kk' is not built: configure with -DKOBALT_ENABLE_KOKKOSKERNELS=ON");
#endif
  }
  if (spec.name == "cusparse") {
#if defined(KOBALT_BENCH_CUSPARSE)
    return prepare_cusparse<View>(spec, csr);
#else
    throw std::invalid_argument("peer 'cusparse' is not built: configure a CUDA build with -DKOBALT_ENABLE_CUSPARSE=ON");
#endif
  }
  throw std::invalid_argument("format '" + spec.name + "' is not built in this kobalt-bench");
}

}  // namespace kobalt::bench
