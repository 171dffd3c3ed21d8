// SPDX-License-Identifier: BSD-3-Clause
// write_matrix_market: Triplets -> "%%MatrixMarket matrix coordinate real
// general" ("complex general" for complex values), with enough digits that
// read_matrix_market gives back the same values bit for bit.
#pragma once

#include "../errors.hpp"
#include "../formats/triplets.hpp"
#include "../scalar.hpp"
#include "file_stream.hpp"

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>

namespace kobalt {
namespace detail::mm {

/// Buffered writer over file_stream.hpp's output file: gzip for a name
/// ending in ".gz", plain text otherwise.
class text_sink {
 public:
  explicit text_sink(const std::string& path) : file_(path) { buf_.reserve(chunk + 256); }

  void put(std::string_view s) {
    buf_.append(s.data(), s.size());
    if (buf_.size() >= chunk) flush();
  }
  void put(char c) { buf_.push_back(c); }

  template <class Int>
  void put_int(Int i) {
    char tmp[32];
    const auto r = std::to_chars(tmp, tmp + sizeof tmp, i);
    buf_.append(tmp, r.ptr);
  }

  /// max_digits10 significant digits: a write/read round trip is exact.
  template <class Value>
  void put_real(Value v) {
    constexpr int digits = std::numeric_limits<Value>::max_digits10;
    char tmp[64];
#if defined(__cpp_lib_to_chars) && __cpp_lib_to_chars >= 201611L
    const auto r = std::to_chars(tmp, tmp + sizeof tmp, v, std::chars_format::general, digits);
    buf_.append(tmp, r.ptr);
#else
    const int n = std::snprintf(tmp, sizeof tmp, "%.*g", digits, static_cast<double>(v));
    buf_.append(tmp, static_cast<std::size_t>(n));
#endif
  }

  void close() {
    flush();
    file_.close();
  }

 private:
  static constexpr std::size_t chunk = std::size_t{1} << 20;

  void flush() {
    file_.write(buf_.data(), buf_.size());
    buf_.clear();
  }

  output_file file_;
  std::string buf_;
};

}  // namespace detail::mm

/// Writes `a` as "%%MatrixMarket matrix coordinate real general", or
/// "complex general" with "real imaginary" per entry for complex values
/// (1-based indices, entries in their stored order, duplicates and explicit
/// zeros as they are), gzip-compressed when `path` ends in ".gz". Numbers
/// carry max_digits10 significant digits, so read_matrix_market<Value,
/// Index> gives back exactly the same values (nan and inf included). `comment`, if not
/// empty, is written after the banner, each of its lines prefixed by "% ".
/// Throws invalid_matrix if `a` fails Triplets::validate(), io_error (line 0)
/// if the file cannot be opened or written.
template <class Value, class Index>
void write_matrix_market(const std::string& path, const Triplets<Value, Index>& a,
                         const std::string& comment = std::string()) {
  static_assert(is_scalar_v<Value>,
                "write_matrix_market writes float, double or their Kokkos::complex");
  a.validate();
  detail::mm::text_sink out(path);
  out.put(is_complex_v<Value> ? "%%MatrixMarket matrix coordinate complex general\n"
                              : "%%MatrixMarket matrix coordinate real general\n");
  if (!comment.empty()) {
    std::size_t b = 0;
    for (;;) {
      const std::size_t e = comment.find('\n', b);
      out.put("% ");
      out.put(std::string_view(comment).substr(b, e == std::string::npos ? e : e - b));
      out.put('\n');
      if (e == std::string::npos) break;
      b = e + 1;
    }
  }
  out.put_int(static_cast<std::int64_t>(a.rows));
  out.put(' ');
  out.put_int(static_cast<std::int64_t>(a.cols));
  out.put(' ');
  out.put_int(a.nnz());
  out.put('\n');
  for (std::size_t k = 0; k < a.val.size(); ++k) {
    out.put_int(static_cast<std::int64_t>(a.row[k]) + 1);
    out.put(' ');
    out.put_int(static_cast<std::int64_t>(a.col[k]) + 1);
    out.put(' ');
    if constexpr (is_complex_v<Value>) {
      out.put_real(a.val[k].real());
      out.put(' ');
      out.put_real(a.val[k].imag());
    } else {
      out.put_real(a.val[k]);
    }
    out.put("\n");
  }
  out.close();
}

}  // namespace kobalt
