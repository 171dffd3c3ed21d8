// SPDX-License-Identifier: BSD-3-Clause
// Typed exceptions thrown by Kobalt. Every message names what was wrong and,
// for file input, the file and line.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace kobalt {

/// Base of every Kobalt exception; catch this to catch them all.
class error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Malformed, truncated or unsupported input file. what() reads
/// "<file>:<line>: <problem>" (line 0 when the problem has no line).
class io_error : public error {
 public:
  /// The problem `problem` found at line `line` of `file`.
  io_error(const std::string& file, std::int64_t line, const std::string& problem)
      : error(file + ":" + std::to_string(line) + ": " + problem),
        file_(file),
        line_(line) {}
  const std::string& file() const noexcept { return file_; }  ///< The file that was being read.
  /// The line of the problem, 1-based; 0 when it has no line.
  std::int64_t line() const noexcept { return line_; }

 private:
  std::string file_;
  std::int64_t line_;
};

/// A size, index or entry count that does not fit the chosen index type.
/// Thrown by the reader (with file and line) and by conversions.
class index_overflow : public error {
 public:
  using error::error;
};

/// Operand extents that do not fit together (A is m x n, x has k rows, ...).
class dimension_mismatch : public error {
 public:
  using error::error;
};

/// A conversion whose storage (including padding) would exceed the limit the
/// caller set, or by default what the device can hold. Thrown before any
/// allocation.
class format_too_large : public error {
 public:
  /// `what` (the conversion) would need `needed_bytes`; the limit is `limit_bytes`.
  format_too_large(const std::string& what, std::uint64_t needed_bytes,
                   std::uint64_t limit_bytes)
      : error(what + ": needs " + std::to_string(needed_bytes) +
              " bytes, limit is " + std::to_string(limit_bytes) + " bytes"),
        needed_(needed_bytes),
        limit_(limit_bytes) {}
  std::uint64_t needed_bytes() const noexcept { return needed_; }  ///< Bytes the result would take.
  std::uint64_t limit_bytes() const noexcept { return limit_; }  ///< Bytes it was allowed.

 private:
  std::uint64_t needed_, limit_;
};

/// A format or strategy parameter outside its documented range
/// (an ELL width below the longest row, slice size 0, k not in {2, 3}, ...).
class invalid_parameter : public error {
 public:
  using error::error;
};

/// Input data that breaks a format's invariant (unsorted COO handed to a
/// constructor that requires sorted entries, a column index out of range, ...).
class invalid_matrix : public error {
 public:
  using error::error;
};

}  // namespace kobalt
