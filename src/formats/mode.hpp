// SPDX-License-Identifier: BSD-3-Clause
// Which operator an apply uses: A, its transpose, its conjugate or its
// conjugate transpose, spelled as KokkosSparse::spmv spells its mode ("N",
// "T", "C", "H") and cuSPARSE its opA.
#pragma once

#include "../errors.hpp"

#include <string>

namespace kobalt {

/// op(A) of y = alpha*op(A)*x + beta*y.
enum class Mode {
  none,                 ///< "N": A
  transpose,            ///< "T": A^T
  conjugate,            ///< "C": conj(A) (A itself for real values)
  conjugate_transpose,  ///< "H": A^H = conj(A)^T (A^T for real values)
};

/// The mode KokkosSparse writes as `mode` ("N", "T", "C", "H", one
/// character, upper or lower case); anything else is invalid_parameter.
inline Mode parse_mode(const char* mode) {
  const std::string m = mode == nullptr ? std::string("(null)") : std::string(mode);
  if (m == "N" || m == "n") return Mode::none;
  if (m == "T" || m == "t") return Mode::transpose;
  if (m == "C" || m == "c") return Mode::conjugate;
  if (m == "H" || m == "h") return Mode::conjugate_transpose;
  throw invalid_parameter("kobalt: mode '" + m +
                          "' is not one of N (A), T (A^T), C (conj(A)) or H (A^H)");
}

/// The mode's one-letter name ("T").
inline const char* mode_name(Mode mode) {
  switch (mode) {
    case Mode::none: return "N";
    case Mode::transpose: return "T";
    case Mode::conjugate: return "C";
    case Mode::conjugate_transpose: return "H";
  }
  return "?";
}

/// Whether op(A) has A's columns as rows (T and H).
constexpr bool transposes(Mode mode) {
  return mode == Mode::transpose || mode == Mode::conjugate_transpose;
}

/// Whether op(A) conjugates A's values (C and H).
constexpr bool conjugates(Mode mode) {
  return mode == Mode::conjugate || mode == Mode::conjugate_transpose;
}

}  // namespace kobalt
