// SPDX-License-Identifier: BSD-3-Clause
// DeviceProfile: what the selector knows about the device an execution-space
// instance runs on. The hardware facts come from arch::device_info (read at
// run time); the tuning constants from a built-in table (one row per
// measured device, one default per kind of device) and, optionally, from a
// JSON profile file (written by kobalt-tune; KOBALT_PROFILE names one).
// Unknown devices get the default of their kind, and source says so. Each
// key of a profile file is declared once, in profile_keys: the reader, the
// writer and the tests of the committed profiles and the docs walk it.
#pragma once

#include "../arch/arch.hpp"
#include "../errors.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <mutex>
#include <ostream>
#include <sstream>
#include <string>
#include <system_error>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace kobalt::tuning {

/// What Kobalt knows of a device: hardware facts read at run time and the
/// tuning constants (built-in table or a KOBALT_PROFILE file);
/// tuning::profile_of(exec) returns it. Each constant's source is listed in
/// docs/sources.md.
struct DeviceProfile {
  // --- hardware (arch::device_info) ---
  arch::Backend kind = arch::Backend::host;  ///< what decisions compare (arch::backend_of)
  std::string backend;              ///< Kokkos execution space name, for reports ("Cuda", "HIP", ...)
  std::string name;                 ///< device name or CPU model
  bool gpu = false;                 ///< lanes of a vector range run in lockstep
  int compute_units = 1;            ///< SMs / CUs / host threads
  int warp_width = 1;               ///< lanes per warp / wavefront (1 on hosts)
  std::uint64_t l2_bytes = 0;       ///< last-level cache (GPUs: L2; hosts: usually L3); 0 = unknown
  std::uint64_t memory_bytes = 0;   ///< 0 = unknown
  double bandwidth_gbs = 0;         ///< measured stream (triad) bandwidth class; 0 = unknown
  /// The largest team, vector and team scratch the backend runs (Kokkos'
  /// answers); the selector clamps launches to them. Unknown: no clamping.
  arch::TeamLimits team_limits;

  // --- tuning constants (table row or profile file) ---
  int team_threads = 1;             ///< threads per team of the row kernels (GPUs)
  int rows_per_team = 1;            ///< rows per league entry of the host row kernels
  std::int64_t entries_per_thread = 0;  ///< hosts: nonzeros per chunk of the chunk kernels (COO, Hybrid, CSR load_balance); 0 = an equal share per thread
  int warps_per_cu = 1;             ///< warps per compute unit in 000 §3.2.2's launch size (FP32 cores / 32)
  int oversubscription = 0;         ///< omega of the warp-chunk kernels; 0 = 000 §3.2.2's rule by nonzeros
  int merge_path_items = 8;         ///< CSR merge_path: merge-path items (rows + nonzeros) per lane of a tile; hosts: 0 = the rule of select_csr.hpp (host_tiles_per_thread)
  int merge_path_team_resident = 0; ///< GPUs: team tiles of CSR merge_path resident per compute unit (fp64); > 0 fits their items per lane to whole waves (select_csr.hpp), 0 = merge_path_items
  int csrk_k = 2;                   ///< CSR-k levels when the caller leaves k = 0
  std::string csrk_model = "none";  ///< 002 §4.1 size model ("hopper", "ampere", "volta", "fitted": the csrk_*_constant/log keys) or "none" = fixed sizes
  // csrk_model "fitted": kobalt-tune's size model SSRS = round(a - b ln r),
  // SRS = round(c - d ln r) (perf_tests/tune/fit_csrk.hpp), without 002's
  // case rules.
  double csrk_ssrs_constant = 0;  ///< a of a fitted model
  double csrk_ssrs_log = 0;       ///< b of a fitted model (may be negative)
  double csrk_srs_constant = 0;   ///< c of a fitted model
  double csrk_srs_log = 0;        ///< d of a fitted model (may be negative)
  std::int64_t csrk_super_row_size = 96;       ///< SRS when csrk_model is "none"
  std::int64_t csrk_super_super_row_size = 8;  ///< SSRS when csrk_model is "none"
  int x_rows_min_rhs = 0;           ///< GPUs: rank-2 applies with at least this many right-hand sides may gather x from a row-major copy (tuning/x_rows.hpp); 0 = never
  std::int64_t auto_min_convert_nnz = 0;  ///< kobalt::automatic: the fewest nonzeros at which the handle may convert from Csr (tuning/choose.hpp); 0 = never, stay in Csr
  /// kobalt::automatic: irregular matrices convert to Hybrid from this many
  /// nonzeros (fewer stay in Csr): below it Hybrid no longer ran near the best
  /// format (docs/sources.md: "auto_hybrid_min_nnz").
  std::int64_t auto_hybrid_min_nnz = 1000000;
  // kobalt::automatic: CSR time over ELL's on the regular matrices and over
  // Hybrid's on the irregular ones it converts, and their setup in CSR
  // SpMVs; a conversion must pay off within the expected applies
  // (tuning/choose.hpp). Measured means of a benchmark suite
  // (docs/sources.md: "auto_ell_speedup"); kobalt-tune refits them.
  double auto_ell_speedup = 1.47;         ///< CSR time over ELL's (regular matrices)
  double auto_hybrid_speedup = 1.24;      ///< CSR time over Hybrid's (irregular matrices)
  double auto_ell_setup_spmvs = 22.5;     ///< Csr -> ELL plus its handle, in CSR applies
  double auto_hybrid_setup_spmvs = 34.0;  ///< Csr -> Hybrid plus its handle, in CSR applies
  // kobalt::automatic: regular matrices under auto_sellp_max_nnz nonzeros
  // that SELL-P pads little convert to SELL-P (tuning/choose.hpp), where its
  // speedup over CSR pays its setup. 0 = never, the kinds' default: only a
  // fit shows where SELL-P pays; kobalt-tune fits the three keys together
  // (perf_tests/tune/fit_auto.hpp).
  std::int64_t auto_sellp_max_nnz = 0;  ///< SELL-P below this many nonzeros; 0 = never
  double auto_sellp_speedup = 1.0;      ///< CSR time over SELL-P's (1 = never pays)
  double auto_sellp_setup_spmvs = 0;    ///< Csr -> SELL-P plus its handle, in CSR applies
  // Rows per SELL-P slice of that rule (t = 1). 8 doubles fill an AVX-512
  // register, the host SIMD lanes of the SELL-P kernel (tuning/select_ell_sellp.hpp);
  // SELL-P's default b = 64 lost to CSR where 8 beat it (docs/sources.md).
  // kobalt-tune sweeps it (4, 8, 16, 32) before it fits the three keys.
  int auto_sellp_slice_size = 8;  ///< rows per SELL-P slice of rule 0 (t = 1)
  /// kobalt::automatic: irregular matrices of at most this many nonzeros (and
  /// at least auto_min_convert_nnz) convert to COO load_balance (tuning/choose.hpp);
  /// 0 = never, the hosts' default.
  std::int64_t auto_coo_max_nnz = 0;

  /// Where the constants came from ("built-in: " and a measured device, "built-in
  /// default for GPUs: device 'X' is not in the table", "file: p.json").
  std::string source;
  /// What was ignored on the way (profiles for other devices in a
  /// KOBALT_PROFILE folder); "" = nothing.
  std::string notes;

  /// The profile as operator<< prints it.
  std::string str() const {
    std::ostringstream s;
    s << *this;
    return s.str();
  }
  /// Prints backend, name, compute units, warp width, cache, bandwidth and source.
  friend std::ostream& operator<<(std::ostream& os, const DeviceProfile& p) {
    return os << p.backend << " '" << p.name << "' (" << p.compute_units
              << (p.gpu ? " compute units" : " threads") << ", warp " << p.warp_width
              << (p.gpu ? ", L2 " : ", last-level cache ") << (p.l2_bytes >> 20) << " MiB"
              << (p.bandwidth_gbs > 0 ? ", " + std::to_string(static_cast<long>(p.bandwidth_gbs)) +
                                            " GB/s"
                                      : std::string())
              << "; " << p.source << (p.notes.empty() ? "" : "; " + p.notes) << ")";
  }
};

/// The largest CSR-k size (SSRS or SRS) a profile may give or a size model
/// return (tuning/csrk_sizes.hpp saturates at it): a team walks a
/// super-row, so larger sizes are never a tuning choice, and the product of
/// two stays far inside a signed 64-bit count.
inline constexpr std::int64_t csrk_size_max = std::numeric_limits<int>::max();

namespace detail {

// Bounds of the key table: the int fields' range, and for counts and
// measured numbers a bound far beyond any matrix that keeps the arithmetic
// they feed exact in double.
inline constexpr double profile_int_max = std::numeric_limits<int>::max();
inline constexpr double profile_count_max = 1e15;
inline constexpr double profile_size_max = static_cast<double>(csrk_size_max);
// The size models csrk_model names (tuning/csrk_sizes.hpp), ended by nullptr.
inline constexpr const char* csrk_model_names[] = {"hopper", "ampere", "volta", "fitted", "none",
                                                   nullptr};

}  // namespace detail

/// One key of a profile file: its name, the DeviceProfile field it sets and
/// the values it takes (a value outside them is an io_error where the file
/// is read).
struct ProfileKey {
  /// The field a key sets: a whole number (int or 64-bit), a real number or a name.
  using Field = std::variant<int DeviceProfile::*, std::int64_t DeviceProfile::*,
                             double DeviceProfile::*, std::string DeviceProfile::*>;
  const char* name;  ///< the key in a profile file, the field's own name
  Field field;       ///< the field of DeviceProfile it sets
  double least = 0;  ///< numbers: the smallest value taken
  double most = 0;   ///< numbers: the largest value taken
  const char* const* choices = nullptr;  ///< names: the values taken, ended by nullptr
};

/// Every key of a profile file but "name" (which must occur in the device's
/// name, apply_profile_file), in the order write_profile_file writes them.
/// The ranges keep each value inside the arithmetic it feeds.
inline constexpr ProfileKey profile_keys[] = {
    {"bandwidth_gbs", &DeviceProfile::bandwidth_gbs, 0, detail::profile_count_max},
    {"team_threads", &DeviceProfile::team_threads, 1, detail::profile_int_max},
    {"rows_per_team", &DeviceProfile::rows_per_team, 1, detail::profile_int_max},
    {"entries_per_thread", &DeviceProfile::entries_per_thread, 0, detail::profile_count_max},
    {"warps_per_cu", &DeviceProfile::warps_per_cu, 1, 1024},
    {"oversubscription", &DeviceProfile::oversubscription, 0, 1 << 20},
    {"merge_path_items", &DeviceProfile::merge_path_items, 0, 1 << 20},
    {"merge_path_team_resident", &DeviceProfile::merge_path_team_resident, 0, 1024},
    {"csrk_k", &DeviceProfile::csrk_k, 2, 3},
    {"csrk_model", &DeviceProfile::csrk_model, 0, 0, detail::csrk_model_names},
    {"csrk_ssrs_constant", &DeviceProfile::csrk_ssrs_constant, -detail::profile_size_max,
     detail::profile_size_max},
    {"csrk_ssrs_log", &DeviceProfile::csrk_ssrs_log, -detail::profile_size_max,
     detail::profile_size_max},
    {"csrk_srs_constant", &DeviceProfile::csrk_srs_constant, -detail::profile_size_max,
     detail::profile_size_max},
    {"csrk_srs_log", &DeviceProfile::csrk_srs_log, -detail::profile_size_max,
     detail::profile_size_max},
    {"csrk_super_row_size", &DeviceProfile::csrk_super_row_size, 1, detail::profile_size_max},
    {"csrk_super_super_row_size", &DeviceProfile::csrk_super_super_row_size, 1,
     detail::profile_size_max},
    {"x_rows_min_rhs", &DeviceProfile::x_rows_min_rhs, 0, detail::profile_int_max},
    {"auto_min_convert_nnz", &DeviceProfile::auto_min_convert_nnz, 0, detail::profile_count_max},
    {"auto_hybrid_min_nnz", &DeviceProfile::auto_hybrid_min_nnz, 0, detail::profile_count_max},
    {"auto_ell_speedup", &DeviceProfile::auto_ell_speedup, 0, detail::profile_count_max},
    {"auto_hybrid_speedup", &DeviceProfile::auto_hybrid_speedup, 0, detail::profile_count_max},
    {"auto_ell_setup_spmvs", &DeviceProfile::auto_ell_setup_spmvs, 0, detail::profile_count_max},
    {"auto_hybrid_setup_spmvs", &DeviceProfile::auto_hybrid_setup_spmvs, 0,
     detail::profile_count_max},
    {"auto_sellp_max_nnz", &DeviceProfile::auto_sellp_max_nnz, 0, detail::profile_count_max},
    {"auto_sellp_speedup", &DeviceProfile::auto_sellp_speedup, 0, detail::profile_count_max},
    {"auto_sellp_setup_spmvs", &DeviceProfile::auto_sellp_setup_spmvs, 0,
     detail::profile_count_max},
    // A slice's rows are a team's threads: 1024 at most.
    {"auto_sellp_slice_size", &DeviceProfile::auto_sellp_slice_size, 1, 1024},
    {"auto_coo_max_nnz", &DeviceProfile::auto_coo_max_nnz, 0, detail::profile_count_max},
};

/// The entry of profile_keys named `name`, or nullptr.
inline const ProfileKey* find_profile_key(const std::string& name) {
  for (const ProfileKey& k : profile_keys)
    if (name == k.name) return &k;
  return nullptr;
}

namespace detail {

/// The defaults of one kind of device (the table's fallback rows).
inline void kind_defaults(DeviceProfile& p) {
  if (p.gpu) {
    // 128-thread teams: the best plain-Kokkos row kernels measured
    // (docs/sources.md: "team_threads").
    p.team_threads = 128;
    p.rows_per_team = 128;
    // GPUs size the warp-chunk kernels by 000 §3.2.2's oversubscription
    // (tuning/launch_shapes.hpp); this host chunk is unused there.
    p.entries_per_thread = 16;
    // docs/sources.md: warps_per_SM = FP32 cores per SM / 32: 4 on Hopper (128
    // cores), 2 on Volta and Ampere's data-centre GPU (64); 4 SIMDs per CU on AMD.
    p.warps_per_cu = 4;
    // CSR merge_path: 8 items per lane, tiles of 256 items per warp: best on
    // the power-law matrices; smaller tiles fill more of the GPU but ran longer
    // (docs/sources.md: "merge_path_items").
    p.merge_path_items = 8;
    p.csrk_k = 3;             // 002 §6.2: CSR-3 on GPUs
    p.csrk_model = "ampere";  // 002 §4.1, its newest architecture (the table sets measured ones)
    // The row-major copy of x (tuning/x_rows.hpp) was measured at K = 8
    // only (docs/sources.md: "x_rows_min_rhs").
    p.x_rows_min_rhs = 8;
    // kobalt::automatic converts from 1e5 nonzeros: below, the H200 timed on the
    // legacy stream ran every format near one floor (docs/sources.md: "auto_min_convert_nnz").
    p.auto_min_convert_nnz = 100000;
    // Small irregular matrices take COO load_balance: it ran the graphs of
    // 1e5-4e5 nonzeros faster than CSR's kernels, larger ones slower
    // (docs/sources.md: "auto_coo").
    p.auto_coo_max_nnz = 500000;
  } else {
    p.team_threads = 1;
    // Rows a host thread walks per league entry of the row kernels: a first
    // cut, confirmed by kobalt-tune's sweep (docs/sources.md: "rows_per_team").
    p.rows_per_team = 256;
    // Static partitions: the chunk kernels (COO, Hybrid's COO
    // part, CSR load_balance) and CSR merge_path cut the nonzeros (merge
    // path: rows + nonzeros) into one equal part per host thread, once, in
    // the handle; the static schedule gives part t to thread t, so each
    // thread reads the same part on every apply (and, where it converted
    // the arrays itself, the memory it touched first).
    p.entries_per_thread = 0;
    p.merge_path_items = 0;
    p.csrk_k = 2;                 // 002 §6.2: CSR-2 on CPUs
    p.csrk_model = "none";
    p.csrk_super_row_size = 96;   // 002 §4.2: geometric mean of the per-matrix optima
    // 002 gives no CPU SSRS (§4.2 tunes CSR-2 only); 8 x 96 = 768 rows per
    // league entry keeps host teams coarse. Not measured.
    p.csrk_super_super_row_size = 8;
    p.x_rows_min_rhs = 0;  // hosts gather x as given (the copy is compiled for GPUs only)
    // kobalt::automatic stays in Csr on hosts: CSR (merge path) was the best
    // format or close to it, within the host's spread, so no conversion is
    // known to pay there (docs/sources.md: "auto_min_convert_nnz").
    p.auto_min_convert_nnz = 0;
  }
}

/// Measured devices: a name fragment, the kind of device, where the values
/// come from and a function that sets what differs from the kind's defaults.
struct TableRow {
  const char* name_contains;
  bool gpu;
  const char* evidence;
  void (*measured)(DeviceProfile&);  ///< sets what kobalt-tune fitted there
};

// Each row is kobalt-tune's profile of its device, committed in profiles/;
// a unit test holds the two equal, key for key. docs/sources.md
// ("measured_devices") names the run that wrote each.
inline void h200_row(DeviceProfile& p) {
  p.bandwidth_gbs = 4255.9682878165704;
  p.csrk_model = "fitted";
  p.csrk_ssrs_constant = 4;
  p.csrk_srs_constant = 8;
  p.auto_min_convert_nnz = 4380;
  p.auto_hybrid_min_nnz = 2049378;
  p.auto_ell_speedup = 1.3114143907043847;
  p.auto_hybrid_speedup = 1.5422992488139611;
  p.auto_ell_setup_spmvs = 26.436135742431627;
  p.auto_hybrid_setup_spmvs = 21.689434469737417;
  p.auto_sellp_slice_size = 32;
  p.merge_path_team_resident = 12;
}

inline void h100_row(DeviceProfile& p) {
  p.bandwidth_gbs = 3042.6432385681046;
  p.auto_min_convert_nnz = 4380;
  p.auto_hybrid_min_nnz = 2049378;
  p.auto_ell_speedup = 1.274732517354491;
  p.auto_hybrid_speedup = 1.4088127824309471;
  p.auto_ell_setup_spmvs = 18.193489641848061;
  p.auto_hybrid_setup_spmvs = 14.4833835969817;
  p.auto_sellp_slice_size = 32;
  p.merge_path_team_resident = 12;  // the H200's occupancy limit: the same SM (sm_90)
}

inline void h200_host_row(DeviceProfile& p) {
  p.bandwidth_gbs = 84.919916768496179;
  p.csrk_super_row_size = 95;
  p.auto_sellp_max_nnz = 89084;
  p.auto_sellp_speedup = 1.1978270322226292;
  p.auto_sellp_setup_spmvs = 25.882948591189383;
  p.auto_sellp_slice_size = 16;
}

inline constexpr TableRow measured_devices[] = {
    {"H200", true, "built-in: NVIDIA H200 (measured, docs/sources.md)", h200_row},
    {"H100 80GB HBM3", true, "built-in: NVIDIA H100 80GB HBM3 (measured, docs/sources.md)",
     h100_row},
    {"Intel(R) Xeon(R) Processor", false,
     "built-in: Intel(R) Xeon(R) Processor (measured, docs/sources.md)",
     h200_host_row},
};

inline std::string trim(const std::string& s) {
  const auto a = s.find_first_not_of(" \t\r\n");
  const auto b = s.find_last_not_of(" \t\r\n");
  return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

/// One "key": value pair of a profile file, where it stands.
struct ProfileEntry {
  std::string key;
  std::string value;     ///< a string's text without quotes, or a number's
  bool quoted = false;   ///< a JSON string
  std::int64_t key_line = 0, value_line = 0;
};

/// A profile file read as JSON: one flat object of "key": value pairs.
struct ProfileText {
  std::string path;
  std::vector<ProfileEntry> entries;
  /// The entry of `key`, or nullptr.
  const ProfileEntry* find(const std::string& key) const {
    for (const auto& e : entries)
      if (e.key == key) return &e;
    return nullptr;
  }
};

/// True when `s` is a JSON number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
inline bool json_number(const std::string& s) {
  std::size_t i = 0;
  const auto digits = [&]() {
    const std::size_t from = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    return i > from;
  };
  if (i < s.size() && s[i] == '-') ++i;
  if (i < s.size() && s[i] == '0') {
    ++i;
  } else if (!digits()) {
    return false;
  }
  if (i < s.size() && s[i] == '.' && (++i, !digits())) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == s.size();
}

/// Reads `path` as one flat JSON object of "key": value pairs (values are
/// strings or numbers), strictly: a trailing comma, a missing comma, a key
/// given twice or any text after the closing brace is an io_error naming
/// the file and the line.
inline ProfileText read_profile_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw io_error(path, 0, "cannot open the device profile");
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  const auto line_of = [&](std::size_t at) {
    return static_cast<std::int64_t>(
        std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(std::min(at, text.size())),
                   '\n') +
        1);
  };
  const auto fail = [&](std::size_t at, const std::string& what) {
    throw io_error(path, line_of(at), what);
  };
  const auto skip_space = [&](std::size_t at) {
    const std::size_t next = text.find_first_not_of(" \t\r\n", at);
    return next == std::string::npos ? text.size() : next;
  };
  // A string from the quote at `at`: its text, and the position after it.
  const auto string_at = [&](std::size_t at) {
    const std::size_t end = text.find_first_of("\"\\\n", at + 1);
    if (end == std::string::npos || text[end] == '\n') fail(at, "unterminated string");
    if (text[end] == '\\') fail(end, "escapes are not supported in a profile");
    return std::make_pair(text.substr(at + 1, end - at - 1), end + 1);
  };
  ProfileText t;
  t.path = path;
  std::size_t pos = skip_space(0);
  if (pos == text.size() || text[pos] != '{') {
    if (text.find('{') == std::string::npos) fail(0, "a profile is one JSON object");
    fail(pos, "text before the profile's '{'");
  }
  pos = skip_space(pos + 1);
  if (pos < text.size() && text[pos] == '}') {
    ++pos;
  } else {
    while (true) {
      if (pos == text.size()) fail(pos, "missing '}'");
      if (text[pos] != '"') fail(pos, "expected a \"key\"");
      ProfileEntry e;
      e.key_line = line_of(pos);
      std::tie(e.key, pos) = string_at(pos);
      for (const auto& other : t.entries)
        if (other.key == e.key)
          fail(pos - 1, "\"" + e.key + "\" is given twice (first on line " +
                            std::to_string(other.key_line) + ")");
      pos = skip_space(pos);
      if (pos == text.size() || text[pos] != ':') fail(pos, "expected ':' after \"" + e.key + "\"");
      pos = skip_space(pos + 1);
      if (pos == text.size() || text[pos] == ',' || text[pos] == '}')
        fail(pos, "missing value of \"" + e.key + "\"");
      e.value_line = line_of(pos);
      if (text[pos] == '"') {
        e.quoted = true;
        std::tie(e.value, pos) = string_at(pos);
      } else {
        std::size_t end = text.find_first_of(" \t\r\n,}", pos);
        if (end == std::string::npos) end = text.size();
        e.value = text.substr(pos, end - pos);
        pos = end;
      }
      t.entries.push_back(std::move(e));
      pos = skip_space(pos);
      if (pos == text.size()) fail(pos, "missing '}'");
      if (text[pos] == '}') {
        ++pos;
        break;
      }
      if (text[pos] != ',') fail(pos, "expected ',' or '}' after the value of \"" +
                                          t.entries.back().key + "\"");
      const std::size_t comma = pos;
      pos = skip_space(pos + 1);
      if (pos < text.size() && text[pos] == '}') fail(comma, "trailing comma before '}'");
    }
  }
  pos = skip_space(pos);
  if (pos != text.size()) fail(pos, "text after the profile's closing '}'");
  return t;
}

/// `k`'s values as an error names them: "\"hopper\", ... or \"none\"".
inline std::string choices_text(const ProfileKey& k) {
  std::string text;
  for (const char* const* c = k.choices; *c != nullptr; ++c)
    text += std::string(c == k.choices ? "" : c[1] == nullptr ? " or " : ", ") + "\"" + *c + "\"";
  return text;
}

/// Sets `k`'s field of `p` to the value of `e`, a line of the profile file
/// `path`; a value `k` does not take is an io_error at that line.
inline void apply_profile_key(DeviceProfile& p, const ProfileKey& k, const ProfileEntry& e,
                              const std::string& path) {
  const std::string key = k.name;
  const std::string& value = e.value;
  const auto fail = [&](const std::string& what) { throw io_error(path, e.value_line, what); };
  const auto whole_text = [](double v) { return std::to_string(static_cast<std::int64_t>(v)); };
  std::visit(
      [&](auto member) {
        using T = std::decay_t<decltype(p.*member)>;
        if constexpr (std::is_same_v<T, std::string>) {
          bool taken = false;
          for (const char* const* c = k.choices; *c != nullptr; ++c) taken = taken || value == *c;
          if (!e.quoted || !taken) fail("\"" + key + "\" must be " + choices_text(k));
          p.*member = value;
        } else {
          if (e.quoted) fail("\"" + key + "\" must be a number");
          if (!json_number(value)) fail("\"" + key + "\" = " + value + " is not a number");
          const double v = std::strtod(value.c_str(), nullptr);
          const bool inside = v >= k.least && v <= k.most;  // false for NaN
          if constexpr (std::is_same_v<T, double>) {
            // A bound as large as a count's means "no bound" in the message.
            if (!inside)
              fail("\"" + key + "\" = " + value + " is not a number " +
                   (k.most >= profile_count_max
                        ? ">= " + whole_text(k.least)
                        : "in [" + whole_text(k.least) + ", " + whole_text(k.most) + "]"));
            p.*member = v;
          } else {
            if (!inside || v != std::floor(v))
              fail("\"" + key + "\" = " + value + " must be a whole number in [" +
                   whole_text(k.least) + ", " + whole_text(k.most) + "]");
            p.*member = static_cast<T>(v);
          }
        }
      },
      k.field);
}

/// Applies the entries of a profile read by read_profile_text on top of
/// `p` (see apply_profile_file); throws io_error naming file and line.
inline void apply_profile_entries(DeviceProfile& p, const ProfileText& t) {
  for (const ProfileEntry& e : t.entries) {
    if (e.key == "name") {
      if (!e.quoted || e.value.empty())
        throw io_error(t.path, e.value_line, "\"name\" must be a non-empty string");
      if (p.name.find(e.value) == std::string::npos)
        throw io_error(t.path, e.value_line,
                       "profile for '" + e.value + "', but this device is '" + p.name + "'");
    } else if (const ProfileKey* k = find_profile_key(e.key)) {
      apply_profile_key(p, *k, e, t.path);
    } else {
      throw io_error(t.path, e.key_line, "unknown key \"" + e.key + "\"");
    }
  }
}

}  // namespace detail

/// Applies a JSON profile file on top of `p`: one flat object of
/// "key": value pairs, the keys of profile_keys (each within its range)
/// plus an optional "name" that must occur in the device's name. Throws
/// io_error naming file and line for anything else (unknown key, a value
/// out of its range, JSON that is not one flat object, a profile for
/// another device). Nothing of `p` changes when it throws.
inline void apply_profile_file(DeviceProfile& p, const std::string& path) {
  const detail::ProfileText t = detail::read_profile_text(path);
  DeviceProfile q = p;
  detail::apply_profile_entries(q, t);
  q.source = "file: " + path;
  p = std::move(q);
}

/// Applies the profile for this device from `folder`, a folder of profile
/// files (*.json) as kobalt-tune writes them, each naming its device: of
/// the files whose "name" occurs in the device's name, the one with the
/// longest name (the first by file name among equals); the others are
/// ignored and listed in p.notes, so one setting serves a cluster of
/// different devices. No matching file leaves `p` built-in, with a note.
/// A file that is not a valid profile, or the chosen one with a bad value,
/// is an io_error naming file and line, as apply_profile_file.
inline void apply_profile_folder(DeviceProfile& p, const std::string& folder) {
  namespace fs = std::filesystem;
  std::error_code error;
  std::vector<std::string> files;
  for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
    std::error_code kind;
    if (it->path().extension() == ".json" && it->is_regular_file(kind))
      files.push_back(it->path().string());
  }
  if (error) throw io_error(folder, 0, "cannot list the profile folder: " + error.message());
  std::sort(files.begin(), files.end());
  std::vector<detail::ProfileText> texts;
  for (const auto& f : files) texts.push_back(detail::read_profile_text(f));
  const detail::ProfileText* chosen = nullptr;
  std::string chosen_name;
  for (const auto& t : texts) {
    const detail::ProfileEntry* name = t.find("name");
    if (name == nullptr || !name->quoted || name->value.empty() ||
        p.name.find(name->value) == std::string::npos)
      continue;
    if (chosen == nullptr || name->value.size() > chosen_name.size()) {
      chosen = &t;
      chosen_name = name->value;
    }
  }
  std::string ignored;
  for (const auto& t : texts) {
    if (&t == chosen) continue;
    const detail::ProfileEntry* name = t.find("name");
    std::string why;
    if (name == nullptr || !name->quoted || name->value.empty())
      why = "names no device";
    else if (p.name.find(name->value) == std::string::npos)
      why = "for '" + name->value + "'";
    else
      why = "for '" + name->value + "', less specific than '" + chosen_name + "'";
    ignored += (ignored.empty() ? "" : ", ") + fs::path(t.path).filename().string() + " (" + why + ")";
  }
  if (chosen != nullptr) {
    apply_profile_file(p, chosen->path);
  } else {
    p.source += "; no profile in " + folder + " names this device";
  }
  if (!ignored.empty())
    p.notes += (p.notes.empty() ? "" : "; ") + std::string("ignored in ") + folder + ": " + ignored;
}

/// apply_profile_folder where `path` is a folder, else apply_profile_file:
/// what KOBALT_PROFILE names.
inline void apply_profile(DeviceProfile& p, const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error))
    apply_profile_folder(p, path);
  else
    apply_profile_file(p, path);
}

/// Writes `p`'s tuning constants as the flat JSON object apply_profile_file
/// reads (every key it knows, "name" = the device's name), atomically: into
/// path + ".tmp", then renamed over `path`, so an interrupted run leaves the
/// old file or none. Throws io_error when the file cannot be written.
inline void write_profile_file(const DeviceProfile& p, const std::string& path) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    if (!out) throw io_error(tmp, 0, "cannot write the device profile");
    out.precision(17);
    out << "{\n  \"name\": \"" << p.name << "\"";
    for (const ProfileKey& k : profile_keys) {
      out << ",\n  \"" << k.name << "\": ";
      std::visit(
          [&](auto member) {
            if constexpr (std::is_same_v<std::decay_t<decltype(p.*member)>, std::string>)
              out << "\"" << p.*member << "\"";
            else
              out << p.*member;
          },
          k.field);
    }
    out << "\n}\n";
    out.flush();
    if (!out) throw io_error(tmp, 0, "cannot write the device profile");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw io_error(path, 0, "cannot rename " + tmp + " over it");
  }
}

/// The profile of `info`'s device from the built-in table (no file).
inline DeviceProfile builtin_profile(const arch::DeviceInfo& info) {
  DeviceProfile p;
  p.kind = info.kind;
  p.backend = info.backend;
  p.name = info.name;
  p.gpu = info.gpu;
  p.compute_units = info.compute_units;
  p.warp_width = info.warp_width;
  p.l2_bytes = info.l2_bytes;
  p.memory_bytes = info.memory_bytes;
  p.team_limits = info.team;
  detail::kind_defaults(p);
  p.source = std::string("built-in default for ") + (p.gpu ? "GPUs" : "host backends") +
             ": device '" + p.name + "' is not in the table";
  for (const auto& row : detail::measured_devices) {
    if (row.gpu != p.gpu || p.name.find(row.name_contains) == std::string::npos) continue;
    row.measured(p);
    p.source = row.evidence;
  }
  return p;
}

/// The profile of the device behind `exec`: the built-in table, then what
/// the environment variable KOBALT_PROFILE names if it is set: a profile
/// file (one for another device is an error) or a folder of profiles, of
/// which the one for this device is used (apply_profile).
template <class ExecutionSpace>
DeviceProfile profile_of(const ExecutionSpace& exec) {
  DeviceProfile p = builtin_profile(arch::device_info(exec));
  if (const char* path = std::getenv("KOBALT_PROFILE"); path != nullptr && *path != '\0')
    apply_profile(p, path);
  return p;
}

/// profile_of(exec), computed once per device and execution-space type in
/// this process (device queries cost more than a small SpMV). The reference
/// stays valid for the whole run (entries are never removed).
template <class ExecutionSpace>
const DeviceProfile& cached_profile_of(const ExecutionSpace& exec) {
  struct tag {};
  return arch::once_per_device<tag>(exec, [&] { return profile_of(exec); });
}

}  // namespace kobalt::tuning
