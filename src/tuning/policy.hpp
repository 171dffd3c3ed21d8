// SPDX-License-Identifier: BSD-3-Clause
// SpmvPolicy: the launch shape a kernel runs with. Chosen in src/tuning/,
// handed to the kernel, printable so benchmarks can report what ran.
#pragma once

#include <ostream>
#include <sstream>
#include <string>

namespace kobalt {

struct SpmvPolicy {
  int team_size = 1;       ///< team threads; each works on its own rows
  int vector_length = 1;   ///< vector lanes that share one row
  int rows_per_team = 1;   ///< rows a team (league entry) covers
  int entries_per_thread = 0;  ///< nonzeros a thread walks (COO-style kernels); 0 if unused

  std::string str() const {
    std::ostringstream s;
    s << *this;
    return s.str();
  }
  friend std::ostream& operator<<(std::ostream& os, const SpmvPolicy& p) {
    return os << "{team_size=" << p.team_size << ", vector_length=" << p.vector_length
              << ", rows_per_team=" << p.rows_per_team
              << ", entries_per_thread=" << p.entries_per_thread << "}";
  }
};

}  // namespace kobalt
