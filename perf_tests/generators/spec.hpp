// SPDX-License-Identifier: BSD-3-Clause
// Generator specs: the NAME:ARGS grammar of kobalt-bench inputs, parsed into
// one value type (a variant of named parameter structs) and printed back.
// The grammar and each generator's meaning are documented in generators.hpp
// and in generator_help().
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

namespace kobalt::bench {

namespace spec {
/// Seed of the random generators when the spec gives none.
inline constexpr std::uint64_t default_seed = 1;

/// lap2d:N - 2-D 5-point Laplacian on an N x N grid.
struct lap2d { std::int64_t n = 0; };
/// lap3d:N - 3-D 7-point Laplacian on an N^3 grid.
struct lap3d { std::int64_t n = 0; };
/// stencil27:N - 3-D 27-point stencil on an N^3 grid.
struct stencil27 { std::int64_t n = 0; };
/// fem:N,B,W - N block rows of dense B x B blocks, block bandwidth W.
struct fem { std::int64_t blocks = 0, block_size = 0, bandwidth = 0; };
/// uniform:N,K[,seed] - N x N, K distinct random columns per row.
struct uniform { std::int64_t n = 0, per_row = 0; std::uint64_t seed = default_seed; };
/// tall:M,N,K[,seed] - M x N (M > N), K distinct random columns per row.
struct tall { std::int64_t rows = 0, cols = 0, per_row = 0; std::uint64_t seed = default_seed; };
/// wide:M,N,K[,seed] - M x N (M < N), K distinct random columns per row.
struct wide { std::int64_t rows = 0, cols = 0, per_row = 0; std::uint64_t seed = default_seed; };
/// zipf:N,MEAN[,s,seed] - N x N, Zipf row lengths C / rank^s, mean MEAN.
struct zipf {
  std::int64_t n = 0;
  double mean = 0;
  double exponent = 1.0;  // Zipf's law proper (rank exponent 1, degree exponent 2)
  std::uint64_t seed = default_seed;
};
/// rmat:SCALE,EF[,a,b,c,seed] - R-MAT with 2^SCALE rows and EF * 2^SCALE edges.
struct rmat {
  int scale = 0;
  std::int64_t edge_factor = 0;
  // Graph500 specification 3.0, section 4 (Kronecker initiator A, B, C).
  double a = 0.57, b = 0.19, c = 0.19;
  std::uint64_t seed = default_seed;
};
/// circuit:N,R,L[,seed] - tridiagonal N x N plus R rows of L entries.
struct circuit {
  std::int64_t n = 0, dense_rows = 0, dense_length = 0;
  std::uint64_t seed = default_seed;
};
/// arrow:N - full first row, full first column, diagonal.
struct arrow { std::int64_t n = 0; };
}  // namespace spec

/// A parsed generator spec.
using GeneratorSpec = std::variant<spec::lap2d, spec::lap3d, spec::stencil27, spec::fem,
                                   spec::uniform, spec::tall, spec::wide, spec::zipf, spec::rmat,
                                   spec::circuit, spec::arrow>;

/// The text kobalt-bench --help prints under GENERATOR (one generator per
/// entry, continuation lines aligned).
inline std::string generator_help() {
  return R"(    lap2d:N                2-D 5-point Laplacian, N x N grid (4, -1)
    lap3d:N                3-D 7-point Laplacian, N^3 grid (6, -1)
    stencil27:N            3-D 27-point stencil, N^3 grid (26, -1)
    fem:N,B,W              N block rows of dense B x B blocks; block row I
                           couples to block columns J with |I - J| <= W
    uniform:N,K[,S]        N x N, K distinct random columns in every row
    tall:M,N,K[,S]         M x N with M > N, K distinct random columns per row
    wide:M,N,K[,S]         M x N with M < N, K distinct random columns per row
    zipf:N,MEAN[,s,S]      N x N, row lengths C / rank^s (default s = 1) with
                           C set for mean MEAN, capped at N, ranks shuffled
                           over the rows; random distinct columns
    rmat:SCALE,EF[,a,b,c,S]
                           R-MAT power-law graph, 2^SCALE rows, EF * 2^SCALE
                           edges, duplicates summed, self-loops kept (Graph500
                           a = 0.57, b = 0.19, c = 0.19)
    circuit:N,R,L[,S]      tridiagonal N x N plus R evenly spaced rows with L
                           entries each, e.g. circuit:4000000,20,200000
    arrow:N                full first row, full first column, diagonal
                           S = seed (default 1). Random values are multiples
                           of 2^-20 in [-1, -1/8] u [1/8, 1]. Integers may be
                           written 1000000, 1e6 or 2^20.
)";
}

namespace detail {

[[noreturn]] inline void bad_spec(const std::string& text, const std::string& problem) {
  throw std::invalid_argument("generator '" + text + "': " + problem);
}

/// a * b, or invalid_argument when it exceeds int64.
inline std::int64_t checked_mul(std::int64_t a, std::int64_t b, const std::string& text,
                                const char* what) {
  if (a != 0 && b > std::numeric_limits<std::int64_t>::max() / a)
    bad_spec(text, std::string(what) + " exceeds 2^63 - 1");
  return a * b;
}

inline std::uint64_t parse_unsigned(const std::string& text, const std::string& arg,
                                    const char* name) {
  auto fail = [&]() -> std::uint64_t {
    bad_spec(text, std::string(name) + " must be a non-negative integer (digits, 1e6 or 2^20), got '" +
                       arg + "'");
  };
  auto digits = [&](const std::string& s) -> std::uint64_t {
    if (s.empty() || s.size() > 19) fail();
    std::uint64_t v = 0;
    for (char ch : s) {
      if (ch < '0' || ch > '9') fail();
      v = v * 10 + static_cast<std::uint64_t>(ch - '0');
    }
    return v;
  };
  auto power = [&](std::uint64_t base, std::uint64_t exponent) {
    // 0 and 1 first: the loop below divides by base and, for them, would
    // run up to 10^19 times (both found by fuzz/specs_fuzz).
    if (base <= 1) return exponent == 0 ? std::uint64_t(1) : base;
    std::uint64_t v = 1;
    for (std::uint64_t k = 0; k < exponent; ++k) {
      if (v > std::numeric_limits<std::uint64_t>::max() / base) fail();
      v *= base;
    }
    return v;
  };
  const auto e = arg.find_first_of("eE");
  const auto caret = arg.find('^');
  if (e != std::string::npos) {
    const std::uint64_t mantissa = digits(arg.substr(0, e)), scale = power(10, digits(arg.substr(e + 1)));
    if (mantissa != 0 && scale > std::numeric_limits<std::uint64_t>::max() / mantissa) fail();
    return mantissa * scale;
  }
  if (caret != std::string::npos) return power(digits(arg.substr(0, caret)), digits(arg.substr(caret + 1)));
  return digits(arg);
}

/// An integer argument in [min, 2^63 - 1].
inline std::int64_t parse_integer(const std::string& text, const std::string& arg, const char* name,
                                  std::int64_t min) {
  const std::uint64_t v = parse_unsigned(text, arg, name);
  if (v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
    bad_spec(text, std::string(name) + " exceeds 2^63 - 1");
  if (static_cast<std::int64_t>(v) < min)
    bad_spec(text, std::string(name) + " must be at least " + std::to_string(min) + ", got " + arg);
  return static_cast<std::int64_t>(v);
}

inline double parse_real(const std::string& text, const std::string& arg, const char* name) {
  char* end = nullptr;
  const double v = arg.empty() ? 0.0 : std::strtod(arg.c_str(), &end);
  if (arg.empty() || end != arg.c_str() + arg.size() || !std::isfinite(v))
    bad_spec(text, std::string(name) + " must be a finite number, got '" + arg + "'");
  return v;
}

inline std::vector<std::string> split_arguments(const std::string& args) {
  std::vector<std::string> out;
  std::string::size_type start = 0;
  while (true) {
    const auto comma = args.find(',', start);
    out.push_back(args.substr(start, comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

inline const std::vector<std::string>& generator_names() {
  static const std::vector<std::string> names = {"lap2d", "lap3d",   "stencil27", "fem",
                                                 "uniform", "tall",  "wide",      "zipf",
                                                 "rmat",  "circuit", "arrow"};
  return names;
}

/// Shortest %g text that reads back as exactly v.
inline std::string real_text(double v) {
  char buf[32] = {};
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

}  // namespace detail

/// True when the text before the first ':' names a generator (kobalt-bench
/// asks this before treating an input as a file).
inline bool is_generator_spec(const std::string& text) {
  const auto colon = text.find(':');
  if (colon == std::string::npos) return false;
  const std::string name = text.substr(0, colon);
  for (const auto& known : detail::generator_names())
    if (name == known) return true;
  return false;
}

/// Parses NAME:ARG,ARG,... (see generator_help()). Throws std::invalid_argument
/// naming the spec and the problem: unknown name, wrong argument count, a
/// malformed or out-of-range argument, or a size whose row or entry count
/// exceeds 2^63 - 1.
inline GeneratorSpec parse_generator(const std::string& text) {
  using detail::bad_spec;
  const auto colon = text.find(':');
  if (colon == std::string::npos || !is_generator_spec(text)) {
    std::string known;
    for (const auto& n : detail::generator_names()) known += (known.empty() ? "" : ", ") + n;
    bad_spec(text, "unknown generator (expected NAME:ARGS with NAME one of " + known + ")");
  }
  const std::string name = text.substr(0, colon);
  const std::vector<std::string> a = detail::split_arguments(text.substr(colon + 1));
  auto arity = [&](const char* usage, std::size_t required, std::size_t optional) {
    if (a.size() < required || a.size() > required + optional)
      bad_spec(text, std::string("expected ") + usage + " (" + std::to_string(a.size()) +
                         " argument" + (a.size() == 1 ? "" : "s") + " given)");
  };
  auto integer = [&](std::size_t k, const char* arg_name, std::int64_t min) {
    return detail::parse_integer(text, a[k], arg_name, min);
  };
  auto seed = [&](std::size_t k) {
    return a.size() > k ? detail::parse_unsigned(text, a[k], "seed") : spec::default_seed;
  };
  auto mul = [&](std::int64_t x, std::int64_t y, const char* what) {
    return detail::checked_mul(x, y, text, what);
  };
  auto add = [&](std::int64_t x, std::int64_t y, const char* what) {  // x, y >= 0
    if (x > std::numeric_limits<std::int64_t>::max() - y) bad_spec(text, std::string(what) + " exceeds 2^63 - 1");
    return x + y;
  };

  if (name == "lap2d" || name == "lap3d" || name == "stencil27" || name == "arrow") {
    arity((name + ":N").c_str(), 1, 0);
    const std::int64_t n = integer(0, "N", 1);
    if (name == "lap2d") {
      mul(mul(n, n, "rows"), 5, "nnz");
      return spec::lap2d{n};
    }
    if (name == "arrow") {
      mul(n, 3, "nnz");
      return spec::arrow{n};
    }
    const std::int64_t rows = mul(mul(n, n, "rows"), n, "rows");
    mul(rows, 27, "nnz");
    if (name == "lap3d") return spec::lap3d{n};
    return spec::stencil27{n};
  }
  if (name == "fem") {
    arity("fem:N,B,W", 3, 0);
    spec::fem f{integer(0, "N", 1), integer(1, "B", 1), integer(2, "W", 0)};
    // Block columns per block row, at most: min(2W + 1, N).
    const std::int64_t coupled = f.bandwidth >= (f.blocks - 1) / 2 ? f.blocks : 2 * f.bandwidth + 1;
    mul(mul(mul(f.blocks, f.block_size, "nnz"), f.block_size, "nnz"), coupled, "nnz");
    return f;
  }
  if (name == "uniform") {
    arity("uniform:N,K[,seed]", 2, 1);
    spec::uniform u{integer(0, "N", 1), integer(1, "K", 1), seed(2)};
    if (u.per_row > u.n) bad_spec(text, "K must be at most N (distinct columns)");
    add(mul(u.n, u.per_row, "nnz"), u.n, "nnz + N");  // samples + gaps
    return u;
  }
  if (name == "tall" || name == "wide") {
    arity((name + ":M,N,K[,seed]").c_str(), 3, 1);
    const std::int64_t m = integer(0, "M", 1), n = integer(1, "N", 1), k = integer(2, "K", 1);
    if (name == "tall" && m <= n) bad_spec(text, "tall needs M > N (use wide or uniform)");
    if (name == "wide" && m >= n) bad_spec(text, "wide needs M < N (use tall or uniform)");
    if (k > n) bad_spec(text, "K must be at most N (distinct columns)");
    add(mul(m, k, "nnz"), m, "nnz + M");
    if (name == "tall") return spec::tall{m, n, k, seed(3)};
    return spec::wide{m, n, k, seed(3)};
  }
  if (name == "zipf") {
    arity("zipf:N,MEAN[,s,seed]", 2, 2);
    spec::zipf z;
    z.n = integer(0, "N", 1);
    z.mean = detail::parse_real(text, a[1], "MEAN");
    if (a.size() > 2) z.exponent = detail::parse_real(text, a[2], "s");
    z.seed = seed(3);
    if (!(z.mean > 0) || z.mean > static_cast<double>(z.n))
      bad_spec(text, "MEAN must lie in (0, N]");
    if (z.exponent < 0 || z.exponent > 16) bad_spec(text, "s must lie in [0, 16]");
    if ((z.mean + 2) * static_cast<double>(z.n) > 9e18) bad_spec(text, "N * (MEAN + 2) exceeds 9e18");
    return z;
  }
  if (name == "rmat") {
    arity("rmat:SCALE,EF[,a,b,c,seed]", 2, 4);
    if (a.size() == 3 || a.size() == 4)
      bad_spec(text, "give all three of a, b, c or none (expected rmat:SCALE,EF[,a,b,c,seed])");
    spec::rmat r;
    const std::int64_t scale = integer(0, "SCALE", 0);  // range-checked before the cast
    if (scale > 40) bad_spec(text, "SCALE must be at most 40");
    r.scale = static_cast<int>(scale);
    r.edge_factor = integer(1, "EF", 1);
    if (a.size() >= 5) {
      r.a = detail::parse_real(text, a[2], "a");
      r.b = detail::parse_real(text, a[3], "b");
      r.c = detail::parse_real(text, a[4], "c");
    }
    r.seed = seed(5);
    if (r.a < 0 || r.b < 0 || r.c < 0 || r.a + r.b + r.c > 1 || !(r.a + r.b > 0) ||
        !(r.a + r.b < 1))
      bad_spec(text, "need a, b, c >= 0 with a + b + c <= 1 and 0 < a + b < 1 (d = 1 - a - b - c)");
    const std::int64_t rows = std::int64_t(1) << r.scale;
    add(mul(rows, r.edge_factor, "edges"), 2 * rows + 2, "edges + 2^(SCALE+1)");
    return r;
  }
  if (name == "circuit") {
    arity("circuit:N,R,L[,seed]", 3, 1);
    spec::circuit c{integer(0, "N", 3), integer(1, "R", 0), integer(2, "L", 3), seed(3)};
    if (c.dense_rows > c.n) bad_spec(text, "R must be at most N");
    if (c.dense_length > c.n) bad_spec(text, "L must be at most N");
    mul(c.n, 3, "nnz");
    mul(mul(2, c.n, "2 N (R + 1)"), c.dense_rows + 1, "2 N (R + 1)");  // dense-row placement
    mul(c.dense_rows + 3, c.dense_length, "nnz");
    return c;
  }
  bad_spec(text, "internal error: no parser for a known name");
}

namespace detail {
inline std::string spec_text(const spec::lap2d& s) { return "lap2d:" + std::to_string(s.n); }
inline std::string spec_text(const spec::lap3d& s) { return "lap3d:" + std::to_string(s.n); }
inline std::string spec_text(const spec::stencil27& s) { return "stencil27:" + std::to_string(s.n); }
inline std::string spec_text(const spec::arrow& s) { return "arrow:" + std::to_string(s.n); }
inline std::string spec_text(const spec::fem& s) {
  return "fem:" + std::to_string(s.blocks) + "," + std::to_string(s.block_size) + "," +
         std::to_string(s.bandwidth);
}
inline std::string spec_text(const spec::uniform& s) {
  return "uniform:" + std::to_string(s.n) + "," + std::to_string(s.per_row) + "," +
         std::to_string(s.seed);
}
inline std::string spec_text(const spec::tall& s) {
  return "tall:" + std::to_string(s.rows) + "," + std::to_string(s.cols) + "," +
         std::to_string(s.per_row) + "," + std::to_string(s.seed);
}
inline std::string spec_text(const spec::wide& s) {
  return "wide:" + std::to_string(s.rows) + "," + std::to_string(s.cols) + "," +
         std::to_string(s.per_row) + "," + std::to_string(s.seed);
}
inline std::string spec_text(const spec::zipf& s) {
  return "zipf:" + std::to_string(s.n) + "," + real_text(s.mean) + "," + real_text(s.exponent) +
         "," + std::to_string(s.seed);
}
inline std::string spec_text(const spec::rmat& s) {
  return "rmat:" + std::to_string(s.scale) + "," + std::to_string(s.edge_factor) + "," +
         real_text(s.a) + "," + real_text(s.b) + "," + real_text(s.c) + "," +
         std::to_string(s.seed);
}
inline std::string spec_text(const spec::circuit& s) {
  return "circuit:" + std::to_string(s.n) + "," + std::to_string(s.dense_rows) + "," +
         std::to_string(s.dense_length) + "," + std::to_string(s.seed);
}
}  // namespace detail

/// The canonical spec text with every default written out; parse_generator
/// of it gives the same value.
inline std::string to_string(const GeneratorSpec& g) {
  return std::visit([](const auto& s) { return detail::spec_text(s); }, g);
}

}  // namespace kobalt::bench
