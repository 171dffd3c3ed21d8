// SPDX-License-Identifier: BSD-3-Clause
// Where a kobalt-bench result came from: the build (Kobalt version, git
// commit, compiler, flags; generated at build time by provenance.cmake) and
// the run (Kokkos' configuration, host, date, command line, paging). Printed by
// --version and written into the JSON report.
#pragma once

#include "kobalt_bench_provenance.hpp"

#include <kobalt/version.hpp>

#include <Kokkos_Core.hpp>

#include <unistd.h>

#include <cstdlib>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>

namespace kobalt::bench {

struct Provenance {
  std::string kobalt_version = KOBALT_VERSION_STRING;
  std::string commit = KOBALT_BENCH_COMMIT;
  std::string compiler = KOBALT_BENCH_COMPILER;
  std::string flags = KOBALT_BENCH_FLAGS;
  std::string build_type = KOBALT_BENCH_BUILD_TYPE;
  std::string kokkos_configuration;  ///< Kokkos::print_configuration (after initialize)
  std::string host, date_utc, command_line;
  /// How host memory is paged (host_pages()): random gathers of x on CPUs
  /// run faster on 2 MiB pages (docs/tuning.md).
  std::string pages;
};

/// The kernel's transparent-huge-page mode and glibc's malloc.hugetlb
/// tunable, e.g. "THP always [madvise] never; GLIBC_TUNABLES=glibc.malloc.hugetlb=1".
inline std::string host_pages() {
  std::string mode = "unknown";
  if (std::ifstream f("/sys/kernel/mm/transparent_hugepage/enabled"); f) std::getline(f, mode);
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  return "THP " + mode + "; GLIBC_TUNABLES=" + (tunables ? tunables : "");
}

/// The peers this binary was built with, as --format names them.
inline std::string built_peers() {
  std::string peers;
#if defined(KOBALT_BENCH_KOKKOSKERNELS)
  peers += " kk";
#endif
#if defined(KOBALT_BENCH_CUSPARSE)
  peers += " cusparse";
#endif
#if defined(KOBALT_BENCH_ROCSPARSE)
  peers += " rocsparse";
#endif
#if defined(KOBALT_BENCH_MKL)
  peers += " mkl";
#endif
  return peers.empty() ? " none" : peers;
}

/// The build's part, readable before Kokkos starts (--version).
inline std::string version_text() {
  std::ostringstream s;
  s << "kobalt-bench " << KOBALT_VERSION_STRING << " (commit " << KOBALT_BENCH_COMMIT << ")\n"
    << "Kokkos " << KOKKOS_VERSION / 10000 << "." << KOKKOS_VERSION / 100 % 100 << "."
    << KOKKOS_VERSION % 100 << ", default execution space "
    << Kokkos::DefaultExecutionSpace::name() << "\n"
    << "compiler " << KOBALT_BENCH_COMPILER << ", " << KOBALT_BENCH_BUILD_TYPE << " build, flags '"
    << KOBALT_BENCH_FLAGS << "'\n"
    << "peers:" << built_peers() << "\n";
  return s.str();
}

/// The whole record, for a run that has initialised Kokkos.
inline Provenance provenance(const std::string& command_line) {
  Provenance p;
  std::ostringstream config;
  Kokkos::print_configuration(config);
  p.kokkos_configuration = config.str();
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) == 0) p.host = host;
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &utc);
  p.date_utc = date;
  p.command_line = command_line;
  p.pages = host_pages();
  return p;
}

}  // namespace kobalt::bench
