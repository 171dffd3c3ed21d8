// SPDX-License-Identifier: BSD-3-Clause
// The text layer of the Matrix Market reader: a buffered line source over
// file_stream.hpp's input file (plain and gzip files alike), a whitespace
// tokenizer and full-token number parsing. Nothing here knows the Matrix Market grammar.
#pragma once

#include "../errors.hpp"
#include "file_stream.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace kobalt::detail::mm {

/// Reads a file line by line through one large buffer. With zlib, plain
/// files are read transparently, so `.mtx` and `.mtx.gz` share this path (see
/// file_stream.hpp for a build without zlib). A gzip stream that ends early
/// (cut inside the data or before its 8-byte trailer) is an io_error
/// "truncated gzip stream", never a silently short matrix.
class line_source {
 public:
  explicit line_source(const std::string& path) : path_(path), file_(path) {
    buf_.resize(initial_capacity + 1);
    buf_[0] = '\0';
  }

  /// The next line without its '\n' (a trailing '\r' stays: the tokenizer
  /// treats it as blank). Returns false at the end of the file. The view lives
  /// until the next call; the character after it is '\n' or '\0'.
  bool next(std::string_view& out) {
    for (;;) {
      const char* b = buf_.data() + begin_;
      const auto* nl = static_cast<const char*>(std::memchr(b, '\n', end_ - begin_));
      if (nl != nullptr) {
        out = std::string_view(b, static_cast<std::size_t>(nl - b));
        begin_ = static_cast<std::size_t>(nl - buf_.data()) + 1;
        ++line_;
        return true;
      }
      if (eof_) {
        if (begin_ == end_) return false;
        out = std::string_view(b, end_ - begin_);  // last line without '\n'
        begin_ = end_;
        ++line_;
        return true;
      }
      refill();
    }
  }

  /// Number of the line last returned by next() (1-based; 0 before the first).
  std::int64_t line() const noexcept { return line_; }
  const std::string& path() const noexcept { return path_; }

 private:
  // Bytes read per gzread (the buffer grows only for a longer line): as fast
  // as a larger buffer, and cheaper to zero per file (docs/sources.md:
  // "initial_capacity").
  static constexpr std::size_t initial_capacity = std::size_t{1} << 16;
  // A Matrix Market line is a few dozen characters; a longer "line" means a
  // binary or corrupt file, and growing without bound would exhaust memory.
  static constexpr std::size_t max_line = std::size_t{64} << 20;

  std::int64_t complete_lines_buffered() const {
    std::int64_t n = 0;
    for (std::size_t k = begin_; k < end_; ++k) n += buf_[k] == '\n';
    return n;
  }

  void refill() {
    const std::size_t rest = end_ - begin_;
    if (begin_ > 0) {
      std::memmove(buf_.data(), buf_.data() + begin_, rest);
      begin_ = 0;
      end_ = rest;
    }
    std::size_t capacity = buf_.size() - 1;
    if (end_ == capacity) {
      if (capacity >= max_line)
        throw io_error(path_, line_ + 1, "line longer than " + std::to_string(max_line) +
                                             " bytes (not a Matrix Market text file?)");
      buf_.resize(2 * capacity + 1);
      capacity = buf_.size() - 1;
    }
    const unsigned want = static_cast<unsigned>(
        std::min<std::size_t>(capacity - end_, std::numeric_limits<int>::max()));
    const read_result got = file_.read(buf_.data() + end_, want);
    end_ += got.bytes;
    buf_[end_] = '\0';
    const std::int64_t line = line_ + complete_lines_buffered() + 1;
    if (got.status == read_status::truncated)
      throw io_error(path_, line,
                     "truncated gzip stream (the file ends inside compressed data or "
                     "before the gzip trailer)");
    if (got.status == read_status::io) throw io_error(path_, line, "read error: " + got.message);
    // Anything else (bad CRC, invalid deflate data): zlib drops
    // the output of the failing read, so the line is where unreadable data starts.
    if (got.status == read_status::corrupt)
      throw io_error(path_, line, "corrupt gzip stream (unreadable from this line on): " + got.message);
    if (got.bytes == 0) eof_ = true;
  }

  std::string path_;
  input_file file_;
  std::vector<char> buf_;
  std::size_t begin_ = 0, end_ = 0;
  bool eof_ = false;
  std::int64_t line_ = 0;
};

inline bool is_blank_char(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/// Comment ('%' as the first non-blank character) or blank line.
inline bool is_skippable(std::string_view line) {
  for (char c : line) {
    if (c == '%') return true;
    if (!is_blank_char(c)) return false;
  }
  return true;
}

/// Splits at blanks; stores at most `max` tokens and returns how many there
/// are in all (so callers can report "found 4 tokens").
inline int split(std::string_view line, std::string_view* out, int max) {
  int count = 0;
  const char* p = line.data();
  const char* const e = p + line.size();
  while (p != e) {
    while (p != e && is_blank_char(*p)) ++p;
    if (p == e) break;
    const char* b = p;
    while (p != e && !is_blank_char(*p)) ++p;
    if (count < max) out[count] = std::string_view(b, static_cast<std::size_t>(p - b));
    ++count;
  }
  return count;
}

enum class parse_status { ok, invalid, out_of_range };

/// Parses a whole token as a decimal integer (an optional sign, then digits).
/// "12x", "1.0" and "" are invalid.
inline parse_status parse_int(std::string_view tok, std::int64_t& out) {
  const char* b = tok.data();
  const char* e = b + tok.size();
  if (b != e && *b == '+') ++b;  // from_chars rejects '+', Matrix Market allows it
  if (b == e || *b == '+') return parse_status::invalid;
  const auto r = std::from_chars(b, e, out);
  if (r.ec == std::errc::result_out_of_range) return parse_status::out_of_range;
  if (r.ec != std::errc() || r.ptr != e) return parse_status::invalid;
  return parse_status::ok;
}

/// Parses a whole token as a floating-point number of type Value directly
/// (float is not parsed through double: no double rounding). "1.5abc" is
/// invalid; a finite value beyond Value's range is out_of_range. A value
/// too small for Value rounds to (signed) zero, as any rounding does. nan and
/// inf are accepted (write_matrix_market writes them).
/// The token must be followed by a blank, '\n' or '\0' (line_source
/// guarantees it), so strtod never reads past it.
template <class Value>
parse_status parse_real(std::string_view tok, Value& out) {
  static_assert(std::is_same_v<Value, float> || std::is_same_v<Value, double>,
                "Matrix Market values are read as float or double");
  const char* b = tok.data();
  const char* e = b + tok.size();
  if (b != e && *b == '+') ++b;
  if (b == e || *b == '+') return parse_status::invalid;
#if defined(__cpp_lib_to_chars) && __cpp_lib_to_chars >= 201611L
  const auto r = std::from_chars(b, e, out);
  if (r.ec == std::errc()) return r.ptr == e ? parse_status::ok : parse_status::invalid;
  if (r.ec != std::errc::result_out_of_range || r.ptr != e) return parse_status::invalid;
  // from_chars reports underflow and overflow alike; strtold tells them apart.
  const long double wide = std::strtold(b, nullptr);
  if (wide > 1 || wide < -1) return parse_status::out_of_range;
  out = std::signbit(wide) ? -Value(0) : Value(0);
  return parse_status::ok;
#else
  // Note: strtod honours LC_NUMERIC; this fallback assumes the "C" locale.
  char* end = nullptr;
  errno = 0;
  if constexpr (std::is_same_v<Value, float>) {
    out = std::strtof(b, &end);
  } else {
    out = std::strtod(b, &end);
  }
  if (end != e) return parse_status::invalid;
  if (errno == ERANGE && (out > 1 || out < -1)) return parse_status::out_of_range;
  return parse_status::ok;
#endif
}

/// "int32" / "int64" for messages.
template <class Index>
std::string index_type_name() {
  return "int" + std::to_string(8 * sizeof(Index));
}

}  // namespace kobalt::detail::mm
