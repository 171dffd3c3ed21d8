// SPDX-License-Identifier: BSD-3-Clause
// read_matrix_market: Matrix Market (.mtx, .mtx.gz) -> assembled Triplets.
// The grammar (banner, size line, coordinate/array entries, symmetry
// expansion) lives here; the buffered gzip line source and the token parsers
// live in matrix_market_lines.hpp.
#pragma once

#include "../errors.hpp"
#include "matrix_market_lines.hpp"
#include "../formats/triplets.hpp"
#include "../scalar.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace kobalt {
namespace detail::mm {

enum class format { coordinate, array };
enum class field { real, integer, pattern, complex };
enum class symmetry { general, symmetric, skew_symmetric, hermitian };

struct header {
  format fmt = format::coordinate;
  field fld = field::real;
  symmetry sym = symmetry::general;
};

struct sizes {
  std::int64_t rows = 0, cols = 0;
  std::int64_t entries = 0;  // stored entries the body must hold (array: derived)
  std::int64_t line = 0;     // the size line's number, for messages
};

[[noreturn]] inline void fail(const line_source& src, std::int64_t line, const std::string& what) {
  throw io_error(src.path(), line, what);
}

[[noreturn]] inline void overflow(const line_source& src, std::int64_t line,
                                  const std::string& what) {
  throw index_overflow(src.path() + ":" + std::to_string(line) + ": " + what);
}

inline std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

inline std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

/// Banner: "%%MatrixMarket matrix <format> <field> <symmetry>", qualifiers
/// case-insensitive. Hermitian is only meaningful for complex data; for a
/// real field it means symmetric, so it is read as symmetric. A complex
/// field needs complex values (`complex_values`), else it is refused here.
inline header parse_banner(line_source& src, bool complex_values) {
  std::string_view line;
  if (!src.next(line)) fail(src, 1, "empty file: expected the %%MatrixMarket banner");
  std::string_view tok[6];
  const int n = split(line, tok, 6);
  if (n == 0 || lower(tok[0]) != "%%matrixmarket")
    fail(src, 1, "malformed banner: the first line must start with %%MatrixMarket");
  if (n != 5)
    fail(src, 1, "malformed banner: expected '%%MatrixMarket matrix <format> <field> "
                 "<symmetry>', found " + std::to_string(n) + " words");
  if (lower(tok[1]) != "matrix")
    fail(src, 1, "malformed banner: unsupported object " + quoted(tok[1]) + " (only 'matrix')");
  header h;
  const std::string f = lower(tok[2]), v = lower(tok[3]), s = lower(tok[4]);
  if (f == "coordinate") {
    h.fmt = format::coordinate;
  } else if (f == "array") {
    h.fmt = format::array;
  } else {
    fail(src, 1, "malformed banner: unknown format " + quoted(tok[2]) +
                     " (expected coordinate or array)");
  }
  if (v == "real" || v == "double") {
    h.fld = field::real;
  } else if (v == "integer") {
    h.fld = field::integer;
  } else if (v == "pattern") {
    h.fld = field::pattern;
  } else if (v == "complex") {
    if (!complex_values)
      fail(src, 1, "a complex matrix cannot be read into real values: read it as "
                   "Kokkos::complex<float> or Kokkos::complex<double>");
    h.fld = field::complex;
  } else {
    fail(src, 1, "unknown field " + quoted(tok[3]) +
                     " (expected real, double, integer, pattern or complex)");
  }
  if (s == "general") {
    h.sym = symmetry::general;
  } else if (s == "symmetric") {
    h.sym = symmetry::symmetric;
  } else if (s == "hermitian") {
    h.sym = h.fld == field::complex ? symmetry::hermitian : symmetry::symmetric;
  } else if (s == "skew-symmetric") {
    h.sym = symmetry::skew_symmetric;
  } else {
    fail(src, 1, "unknown symmetry " + quoted(tok[4]) +
                     " (expected general, symmetric, skew-symmetric or hermitian)");
  }
  if (h.fld == field::pattern && h.fmt == format::array)
    fail(src, 1, "the pattern field requires the coordinate format");
  if (h.fld == field::pattern && h.sym == symmetry::skew_symmetric)
    fail(src, 1, "a pattern matrix cannot be skew-symmetric (it has no values to negate)");
  return h;
}

/// Size line: "rows cols entries" (coordinate) or "rows cols" (array).
/// `limit` is the largest entry count the result may hold (the Index type's
/// maximum; a parameter only so that tests can reach it).
template <class Index>
sizes parse_size_line(line_source& src, const header& h, std::uint64_t limit) {
  std::string_view line;
  do {
    if (!src.next(line)) fail(src, src.line() + 1, "missing size line (end of file after the banner)");
  } while (is_skippable(line));
  sizes sz;
  sz.line = src.line();
  const bool coo = h.fmt == format::coordinate;
  const int want = coo ? 3 : 2;
  std::string_view tok[4];
  const int n = split(line, tok, 4);
  if (n != want)
    fail(src, sz.line, std::string("wrong size line: expected ") +
                           (coo ? "'rows cols entries'" : "'rows cols'") + ", found " +
                           std::to_string(n) + " tokens");
  const char* names[3] = {"rows", "cols", "entries"};
  std::int64_t value[3] = {0, 0, 0};
  for (int k = 0; k < want; ++k) {
    const parse_status st = parse_int(tok[k], value[k]);
    if (st == parse_status::out_of_range)
      overflow(src, sz.line, std::string(names[k]) + " = " + std::string(tok[k]) +
                                 " does not fit the index type " + index_type_name<Index>());
    if (st != parse_status::ok)
      fail(src, sz.line, std::string("wrong size line: ") + names[k] + " " + quoted(tok[k]) +
                             " is not an integer");
    if (value[k] < 0)
      fail(src, sz.line, std::string("wrong size line: ") + names[k] + " must not be negative, got " +
                             std::string(tok[k]));
  }
  const std::uint64_t index_max = static_cast<std::uint64_t>(std::numeric_limits<Index>::max());
  for (int k = 0; k < 2; ++k) {
    if (static_cast<std::uint64_t>(value[k]) > index_max)
      overflow(src, sz.line, std::string(names[k]) + " = " + std::to_string(value[k]) +
                                 " does not fit the index type " + index_type_name<Index>() +
                                 " (max " + std::to_string(index_max) + ")");
  }
  sz.rows = value[0];
  sz.cols = value[1];
  if (h.sym != symmetry::general && sz.rows != sz.cols)
    fail(src, sz.line, "a symmetric, skew-symmetric or hermitian matrix must be square, got " +
                           std::to_string(sz.rows) + " x " + std::to_string(sz.cols));
  // Entries the result will hold before duplicates are summed.
  std::uint64_t result_entries = 0;
  if (coo) {
    sz.entries = value[2];
    result_entries = static_cast<std::uint64_t>(sz.entries);  // symmetric: checked while reading
  } else {
    const auto m = static_cast<std::uint64_t>(sz.rows), c = static_cast<std::uint64_t>(sz.cols);
    if (c != 0 && m > limit / c)
      overflow(src, sz.line, "an array of " + std::to_string(m) + " x " + std::to_string(c) +
                                 " entries does not fit the index type " + index_type_name<Index>() +
                                 " (at most " + std::to_string(limit) + " entries)");
    result_entries = m * c;
    if (h.sym == symmetry::general) sz.entries = static_cast<std::int64_t>(m * c);
    if (h.sym == symmetry::symmetric || h.sym == symmetry::hermitian)
      sz.entries = static_cast<std::int64_t>(m * (m + 1) / 2);
    if (h.sym == symmetry::skew_symmetric) sz.entries = static_cast<std::int64_t>(m * (m - (m > 0)) / 2);
  }
  if (result_entries > limit)
    overflow(src, sz.line, "entries = " + std::to_string(result_entries) +
                               " does not fit the index type " + index_type_name<Index>() +
                               " (at most " + std::to_string(limit) + " entries)");
  return sz;
}

/// Parses a 1-based index token and returns it 0-based.
inline std::int64_t parse_index(const line_source& src, std::string_view tok, const char* what,
                                std::int64_t extent) {
  std::int64_t i = 0;
  const parse_status st = parse_int(tok, i);
  if (st == parse_status::invalid)
    fail(src, src.line(), std::string(what) + " index " + quoted(tok) + " is not an integer");
  if (st == parse_status::out_of_range || i < 1 || i > extent)
    fail(src, src.line(), std::string(what) + " index " + std::string(tok) + " out of range [1, " +
                              std::to_string(extent) + "]");
  return i - 1;
}

/// One number of a value (the value, or one part of a complex value) as Real.
template <class Real>
Real parse_number(const line_source& src, std::string_view tok, field fld) {
  if (fld == field::integer) {
    std::int64_t i = 0;
    const parse_status st = parse_int(tok, i);
    if (st == parse_status::invalid)
      fail(src, src.line(), "value " + quoted(tok) + " is not an integer (integer field)");
    if (st == parse_status::out_of_range)
      fail(src, src.line(), "integer value " + std::string(tok) + " is out of range");
    return static_cast<Real>(i);
  }
  Real v{};
  const parse_status st = parse_real(tok, v);
  if (st == parse_status::invalid) fail(src, src.line(), "value " + quoted(tok) + " is not a number");
  if (st == parse_status::out_of_range)
    fail(src, src.line(), "value " + std::string(tok) + " is out of range for " +
                              (std::is_same_v<Real, float> ? "float" : "double"));
  return v;
}

/// The value of an entry from its tokens (`tok[0]`, and `tok[1]` the
/// imaginary part in a complex field). Complex Value from a real, integer
/// or pattern file gets imaginary part 0.
template <class Value>
Value parse_value(const line_source& src, const std::string_view* tok, field fld) {
  using real = real_type_t<Value>;
  if constexpr (is_complex_v<Value>) {
    const real re = parse_number<real>(src, tok[0], fld);
    return Value(re, fld == field::complex ? parse_number<real>(src, tok[1], fld) : real(0));
  } else {
    return parse_number<real>(src, tok[0], fld);
  }
}

/// The mirror (j, i) of entry (i, j) = v in symmetric storage: v, -v
/// (skew-symmetric) or conj(v) (hermitian).
template <class Value>
Value mirrored(const header& h, const Value& v) {
  if (h.sym == symmetry::skew_symmetric) return -v;
  if (h.sym == symmetry::hermitian) return conjugate(v);
  return v;
}

/// A hermitian matrix has a real diagonal (a = conj(a)): a diagonal entry
/// with a nonzero imaginary part contradicts the banner.
template <class Value>
void check_hermitian_diagonal(const line_source& src, std::int64_t i, const Value& v) {
  if constexpr (is_complex_v<Value>) {
    if (v.imag() != 0)  // NaN counts as nonzero: not real either
      fail(src, src.line(), "diagonal entry (" + std::to_string(i + 1) + ", " +
                                std::to_string(i + 1) +
                                ") of a hermitian matrix has a nonzero imaginary part (its "
                                "diagonal is real by definition)");
  } else {
    (void)src, (void)i, (void)v;
  }
}

/// Appends entry (i, j, v) and, for symmetric storage, its mirror. Counts
/// the result's entries against `limit` (the index type's range).
template <class Value, class Index>
void emit(const line_source& src, const header& h, std::int64_t i, std::int64_t j, Value v,
          std::uint64_t limit, Triplets<Value, Index>& t) {
  if (h.sym == symmetry::skew_symmetric && i == j)
    fail(src, src.line(), "diagonal entry (" + std::to_string(i + 1) + ", " + std::to_string(j + 1) +
                              ") in a skew-symmetric matrix (its diagonal is zero by definition)");
  if (h.sym == symmetry::hermitian && i == j) check_hermitian_diagonal(src, i, v);
  const bool mirror = h.sym != symmetry::general && i != j;
  if (t.val.size() + (mirror ? 2 : 1) > limit)
    overflow(src, src.line(), "the matrix has more than " + std::to_string(limit) +
                                  " entries after symmetric expansion, which does not fit the "
                                  "index type " + index_type_name<Index>());
  t.push_back(static_cast<Index>(i), static_cast<Index>(j), v);
  if (mirror)
    t.push_back(static_cast<Index>(j), static_cast<Index>(i), mirrored(h, v));
}

/// An off-diagonal entry of a symmetric or skew-symmetric coordinate file:
/// its position folded into the lower triangle, which triangle the file put
/// it in, and its line.
struct folded_entry {
  std::int64_t row, col, line;
  bool upper;
};

/// A symmetric file stores one triangle: an entry and its mirror both stored
/// ((1,2) and (2,1)) would be expanded and summed into 2x the value on both
/// sides, silently. Finds such a pair (sorting the folded positions) and
/// fails naming both lines; the same position stored twice in one triangle
/// is a duplicate, summed like in a general file.
inline void check_one_triangle(const line_source& src, std::vector<folded_entry>& e) {
  std::sort(e.begin(), e.end(), [](const folded_entry& a, const folded_entry& b) {
    return a.row != b.row ? a.row < b.row : a.col != b.col ? a.col < b.col : a.line < b.line;
  });
  for (std::size_t k = 1; k < e.size(); ++k) {
    const folded_entry &a = e[k - 1], &b = e[k];
    if (a.row != b.row || a.col != b.col || a.upper == b.upper) continue;
    const folded_entry& later = a.line > b.line ? a : b;
    const folded_entry& earlier = a.line > b.line ? b : a;
    const auto at = [](const folded_entry& x) {
      const std::int64_t i = x.upper ? x.col : x.row, j = x.upper ? x.row : x.col;
      return "(" + std::to_string(i + 1) + ", " + std::to_string(j + 1) + ")";
    };
    fail(src, later.line,
         "entry " + at(later) + " mirrors entry " + at(earlier) + " on line " +
             std::to_string(earlier.line) +
             ": a symmetric file stores one triangle (both would be summed into each)");
  }
}

/// Coordinate body: one "row col [value [imaginary]]" per line, any order,
/// duplicates allowed.
/// Symmetric storage is mirrored whichever triangle an entry lies in, but not
/// both triangles for one position (check_one_triangle).
template <class Value, class Index>
void read_coordinate(line_source& src, const header& h, const sizes& sz, std::uint64_t limit,
                     Triplets<Value, Index>& t) {
  const int want = h.fld == field::pattern ? 2 : h.fld == field::complex ? 4 : 3;
  std::string_view line, tok[5];
  std::int64_t stored = 0;
  std::vector<folded_entry> folded;  // symmetric files only
  while (src.next(line)) {
    if (is_skippable(line)) continue;
    if (stored == sz.entries)
      fail(src, src.line(), "more entries than the " + std::to_string(sz.entries) +
                                " declared on the size line (line " + std::to_string(sz.line) + ")");
    const int n = split(line, tok, 5);
    if (n != want)
      fail(src, src.line(), std::string("expected ") +
                                (want == 2   ? "2 tokens 'row col' (pattern field)"
                                 : want == 4 ? "4 tokens 'row col real imaginary' (complex field)"
                                             : "3 tokens 'row col value'") +
                                ", found " + std::to_string(n));
    const std::int64_t i = parse_index(src, tok[0], "row", sz.rows);
    const std::int64_t j = parse_index(src, tok[1], "column", sz.cols);
    const Value v = h.fld == field::pattern ? Value(1) : parse_value<Value>(src, tok + 2, h.fld);
    emit(src, h, i, j, v, limit, t);
    if (h.sym != symmetry::general && i != j)
      folded.push_back({std::max(i, j), std::min(i, j), src.line(), i < j});
    ++stored;
  }
  if (stored < sz.entries)
    fail(src, src.line() + 1, "end of file after " + std::to_string(stored) + " of " +
                                  std::to_string(sz.entries) + " declared entries");
  check_one_triangle(src, folded);
}

/// Array body: one value per line (two numbers in a complex field),
/// column-major; symmetric and hermitian storage hold the lower triangle with
/// the diagonal, skew-symmetric the strict lower triangle.
/// Every value becomes an entry, zeros included: a dense array is a full
/// pattern (the symmetric mirror included).
template <class Value, class Index>
void read_array(line_source& src, const header& h, const sizes& sz, std::uint64_t limit,
                Triplets<Value, Index>& t) {
  const auto first_row = [&](std::int64_t col) {
    return h.sym == symmetry::general ? 0 : h.sym == symmetry::skew_symmetric ? col + 1 : col;
  };
  const int want = h.fld == field::complex ? 2 : 1;
  std::string_view line, tok[3];
  std::int64_t stored = 0, i = first_row(0), j = 0;
  while (src.next(line)) {
    if (is_skippable(line)) continue;
    if (stored == sz.entries)
      fail(src, src.line(), "more entries than the " + std::to_string(sz.entries) +
                                " the size line (line " + std::to_string(sz.line) +
                                ") declares for this array");
    const int n = split(line, tok, 3);
    if (n != want)
      fail(src, src.line(), std::string(want == 1 ? "expected 1 value per line (array format)"
                                                  : "expected 2 numbers 'real imaginary' per "
                                                    "line (complex array)") +
                                ", found " + std::to_string(n));
    emit(src, h, i, j, parse_value<Value>(src, tok, h.fld), limit, t);
    ++stored;
    ++i;
    while (i >= sz.rows && j < sz.cols) i = first_row(++j);  // next column's first stored row
  }
  if (stored < sz.entries)
    fail(src, src.line() + 1, "end of file after " + std::to_string(stored) + " of " +
                                  std::to_string(sz.entries) + " declared entries");
}

/// Sorts by (row, col) and sums duplicates in file order: the result of
/// Triplets::assemble(), computed with a stable counting sort by row and a
/// per-row stable sort by column, O(nnz + rows) instead of a comparison sort
/// of all entries (7M entries: the difference between 0.3 s and 3 s).
template <class Value, class Index>
void assemble_by_rows(Triplets<Value, Index>& t) {
  const std::size_t n = t.val.size();
  const auto rows = static_cast<std::size_t>(t.rows);
  if (rows > 4 * n + 4096) {  // very sparse rows: O(rows) counters would dominate
    t.assemble();
    return;
  }
  std::vector<std::size_t> start(rows + 1, 0);
  std::size_t* s = start.data();
  Index* r = t.row.data();
  for (std::size_t k = 0; k < n; ++k) ++s[static_cast<std::size_t>(r[k]) + 1];
  for (std::size_t i = 0; i < rows; ++i) s[i + 1] += s[i];
  std::vector<Index> col(n);
  std::vector<Value> val(n);
  {
    std::vector<std::size_t> fill(start.begin(), start.end() - 1);
    std::size_t* f = fill.data();
    const Index* c = t.col.data();
    const Value* v = t.val.data();
    Index* cc = col.data();
    Value* vv = val.data();
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t p = f[static_cast<std::size_t>(r[k])]++;
      cc[p] = c[k];
      vv[p] = v[k];
    }
  }
  Index* cc = col.data();
  Value* vv = val.data();
  std::vector<std::pair<Index, Value>> long_row;
  std::size_t out = 0;
  for (std::size_t i = 0; i < rows; ++i) {
    const std::size_t b = s[i], e = s[i + 1];
    if (e - b <= 32) {  // insertion sort: stable, and rows are short
      for (std::size_t k = b + 1; k < e; ++k) {
        const Index key = cc[k];
        const Value kv = vv[k];
        std::size_t p = k;
        for (; p > b && cc[p - 1] > key; --p) {
          cc[p] = cc[p - 1];
          vv[p] = vv[p - 1];
        }
        cc[p] = key;
        vv[p] = kv;
      }
    } else {
      long_row.clear();
      for (std::size_t k = b; k < e; ++k) long_row.emplace_back(cc[k], vv[k]);
      std::stable_sort(long_row.begin(), long_row.end(),
                       [](const auto& x, const auto& y) { return x.first < y.first; });
      for (std::size_t k = b; k < e; ++k) {
        cc[k] = long_row[k - b].first;
        vv[k] = long_row[k - b].second;
      }
    }
    const std::size_t row_begin = out;
    for (std::size_t k = b; k < e; ++k) {
      if (out > row_begin && cc[out - 1] == cc[k]) {
        vv[out - 1] += vv[k];
      } else {
        r[out] = static_cast<Index>(i);  // out <= k: r[k] was consumed by the scatter
        cc[out] = cc[k];
        vv[out] = vv[k];
        ++out;
      }
    }
  }
  t.row.resize(out);
  col.resize(out);
  val.resize(out);
  t.col.swap(col);
  t.val.swap(val);
}

/// read_matrix_market with an explicit entry limit (tests reach the
/// symmetric-expansion overflow through it without a 2^31-entry file).
template <class Value, class Index>
Triplets<Value, Index> read(const std::string& path, std::uint64_t limit) {
  line_source src(path);
  const header h = parse_banner(src, is_complex_v<Value>);
  const sizes sz = parse_size_line<Index>(src, h, limit);
  Triplets<Value, Index> t;
  t.rows = static_cast<Index>(sz.rows);
  t.cols = static_cast<Index>(sz.cols);
  // Reserve what the size line promises, capped so that a lying size line
  // cannot allocate gigabytes; the vectors grow beyond the cap if needed.
  const std::uint64_t promised =
      static_cast<std::uint64_t>(sz.entries) * (h.sym == symmetry::general ? 1 : 2);
  const auto reserve = static_cast<std::size_t>(std::min<std::uint64_t>(promised, 1u << 22));
  t.row.reserve(reserve);
  t.col.reserve(reserve);
  t.val.reserve(reserve);
  if (h.fmt == format::coordinate) {
    read_coordinate(src, h, sz, limit, t);
  } else {
    read_array(src, h, sz, limit, t);
  }
  assemble_by_rows(t);
  t.assemble();  // a no-op check now; keeps Triplets' own invariant authoritative
  return t;
}

}  // namespace detail::mm

/// Reads a Matrix Market file (`.mtx`, or gzip-compressed `.mtx.gz`; the
/// content decides, not the name) into host triplets.
///
/// Supported: `matrix coordinate|array` with field `real|double|integer|
/// pattern|complex` and symmetry `general|symmetric|skew-symmetric|
/// hermitian`. Value is float, double, Kokkos::complex<float> or
/// Kokkos::complex<double>; a complex file needs a complex Value, and any
/// other file read as complex gets imaginary parts 0.
/// The result is assembled: sorted by (row, col) with duplicates summed (in
/// file order). Symmetric storage is expanded (the diagonal once),
/// skew-symmetric mirrors with negated values, hermitian with conjugated
/// values (on real data it is symmetric). Pattern entries get the value 1. Explicit zeros are kept; in
/// the array format every stored value is an entry, so a dense array gives a
/// full pattern. Values are parsed directly as Value (float is not rounded
/// through double).
///
/// Throws io_error "<file>:<line>: <problem>" for a missing file (line 0),
/// malformed banner or size line, complex data for a real Value, bad tokens
/// ("1.5abc"), an index outside the declared size, too few or too many
/// entries, a diagonal entry in a skew-symmetric matrix, a diagonal entry
/// with a nonzero imaginary part in a hermitian one, a non-square
/// symmetric, skew-symmetric or hermitian matrix, or a
/// truncated gzip stream; index_overflow (same message form) when the sizes
/// or the entry count after symmetric expansion do not fit Index.
template <class Value, class Index>
Triplets<Value, Index> read_matrix_market(const std::string& path) {
  return detail::mm::read<Value, Index>(
      path, static_cast<std::uint64_t>(std::numeric_limits<Index>::max()));
}

}  // namespace kobalt
