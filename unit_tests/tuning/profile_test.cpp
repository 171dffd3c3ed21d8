// SPDX-License-Identifier: BSD-3-Clause
// DeviceProfile (tuning/profile.hpp): the built-in table for a host, a
// measured GPU (H200) and an unknown GPU; the key table (tuning::
// profile_keys) against the committed profiles/*.json, their built-in rows
// and docs/tuning.md; JSON profile files (every key, every error with its
// line); profile_of on the host space and through KOBALT_PROFILE; and Q_R
// read off the statistics (tuning::quantile) against the sorted-copy oracle.
#include "fixtures/edge_matrices.hpp"
#include "fixtures/row_lengths.hpp"
#include "fixtures/scoped_env.hpp"
#include "fixtures/temp_files.hpp"
#include "fixtures/types.hpp"

#include <kobalt/kobalt.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace kobalt::test {
namespace {

using tuning::DeviceProfile;

arch::DeviceInfo host_info() {
  arch::DeviceInfo d;
  d.backend = "Serial";
  d.name = "Test CPU 9000";
  d.gpu = false;
  d.compute_units = 4;
  d.warp_width = 1;
  d.l2_bytes = 2u << 20;
  d.memory_bytes = std::uint64_t{16} << 30;
  return d;
}

arch::DeviceInfo gpu_info(const std::string& name) {
  arch::DeviceInfo d;
  d.backend = "Cuda";
  d.name = name;
  d.gpu = true;
  d.compute_units = 132;
  d.warp_width = 32;
  d.l2_bytes = std::uint64_t{60} << 20;
  d.memory_bytes = std::uint64_t{141} << 30;
  return d;
}

void expect_hardware_copied(const DeviceProfile& p, const arch::DeviceInfo& d) {
  EXPECT_EQ(p.backend, d.backend);
  EXPECT_EQ(p.name, d.name);
  EXPECT_EQ(p.gpu, d.gpu);
  EXPECT_EQ(p.compute_units, d.compute_units);
  EXPECT_EQ(p.warp_width, d.warp_width);
  EXPECT_EQ(p.l2_bytes, d.l2_bytes);
  EXPECT_EQ(p.memory_bytes, d.memory_bytes);
}

/// The GPU kind's defaults; a measured device has its own CSR-k model.
void expect_gpu_defaults(const DeviceProfile& p, const std::string& csrk_model = "ampere") {
  EXPECT_EQ(p.team_threads, 128);
  EXPECT_EQ(p.rows_per_team, 128);
  EXPECT_EQ(p.entries_per_thread, 16);
  EXPECT_EQ(p.csrk_k, 3);
  EXPECT_EQ(p.csrk_model, csrk_model);
}

TEST(BuiltinProfile, HostGetsTheHostDefaults) {
  const auto info = host_info();
  const DeviceProfile p = tuning::builtin_profile(info);
  expect_hardware_copied(p, info);
  EXPECT_EQ(p.team_threads, 1);
  EXPECT_EQ(p.rows_per_team, 256);
  EXPECT_EQ(p.entries_per_thread, 0);  // an equal share per thread (issue 15)
  EXPECT_EQ(p.merge_path_items, 0);    // tiles per thread by the rule (select_csr.hpp)
  EXPECT_EQ(p.csrk_k, 2);
  EXPECT_EQ(p.csrk_model, "none");
  EXPECT_EQ(p.csrk_super_row_size, 96);
  EXPECT_EQ(p.csrk_super_super_row_size, 8);
  EXPECT_EQ(p.x_rows_min_rhs, 0);  // hosts never copy x (kernels/x_rows.hpp)
  EXPECT_EQ(p.auto_min_convert_nnz, 0);  // kobalt::automatic stays in Csr on hosts
  EXPECT_EQ(p.bandwidth_gbs, 0.0);
  EXPECT_EQ(p.source, "built-in default for host backends: device 'Test CPU 9000' is not in "
                      "the table");
  const std::string s = p.str();
  EXPECT_NE(s.find("Serial 'Test CPU 9000'"), std::string::npos) << s;
  EXPECT_NE(s.find("4 threads"), std::string::npos) << s;
  EXPECT_NE(s.find(p.source), std::string::npos) << s;
}

// The H200's row is profiles/h200.json (CommittedProfiles below holds
// every key): the GPU launch defaults, CSR-k sizes and the automatic
// handle's keys as kobalt-tune fitted them there.
TEST(BuiltinProfile, H200IsInTheTable) {
  const auto info = gpu_info("NVIDIA H200");
  const DeviceProfile p = tuning::builtin_profile(info);
  expect_hardware_copied(p, info);
  expect_gpu_defaults(p, "fitted");  // the constant (SSRS, SRS) = (4, 8)
  EXPECT_EQ(p.csrk_ssrs_constant, 4);
  EXPECT_EQ(p.csrk_srs_constant, 8);
  EXPECT_EQ(p.auto_min_convert_nnz, 4380);
  EXPECT_EQ(p.bandwidth_gbs, 4255.9682878165704);
  EXPECT_NE(p.source.find("H200"), std::string::npos) << p.source;
  EXPECT_EQ(p.source.find("not in the table"), std::string::npos) << p.source;
  EXPECT_EQ(p.source.rfind("built-in", 0), 0u) << p.source;
  const std::string s = p.str();
  EXPECT_NE(s.find("4255 GB/s"), std::string::npos) << s;
  EXPECT_NE(s.find("132 compute units"), std::string::npos) << s;
  EXPECT_NE(s.find("warp 32"), std::string::npos) << s;
  EXPECT_NE(s.find("L2 60 MiB"), std::string::npos) << s;
}

// The H100's row is profiles/h100.json: the GPU defaults but the automatic
// handle's keys and the triad kobalt-tune measured there; CSR-k unfitted.
TEST(BuiltinProfile, H100IsInTheTable) {
  const auto info = gpu_info("NVIDIA H100 80GB HBM3");
  const DeviceProfile p = tuning::builtin_profile(info);
  expect_hardware_copied(p, info);
  expect_gpu_defaults(p, "ampere");
  EXPECT_EQ(p.auto_min_convert_nnz, 4380);
  EXPECT_EQ(p.auto_hybrid_min_nnz, 2049378);
  EXPECT_EQ(p.merge_path_team_resident, 12);
  EXPECT_NE(p.source.find("H100"), std::string::npos) << p.source;
  EXPECT_EQ(p.source.rfind("built-in", 0), 0u) << p.source;
  // Other H100s (PCIe, NVL: fewer SMs, other memory) are not this device.
  EXPECT_NE(tuning::builtin_profile(gpu_info("NVIDIA H100 PCIe")).source.find("not in the table"),
            std::string::npos);
}

TEST(BuiltinProfile, UnknownGpuGetsTheGpuDefaults) {
  const auto info = gpu_info("NVIDIA A100-SXM4-40GB");
  const DeviceProfile p = tuning::builtin_profile(info);
  expect_hardware_copied(p, info);
  expect_gpu_defaults(p);
  EXPECT_EQ(p.bandwidth_gbs, 0.0);
  EXPECT_EQ(p.source,
            "built-in default for GPUs: device 'NVIDIA A100-SXM4-40GB' is not in the table");
  EXPECT_NE(p.source.find("not in the table"), std::string::npos);
  // A 64-lane wavefront is kept as reported.
  auto amd = gpu_info("AMD Instinct MI250X");
  amd.backend = "HIP";
  amd.kind = arch::Backend::hip;
  amd.warp_width = 64;
  const DeviceProfile q = tuning::builtin_profile(amd);
  EXPECT_EQ(q.warp_width, 64);
  expect_gpu_defaults(q);
  EXPECT_NE(q.source.find("not in the table"), std::string::npos);
}

TEST(ProfileFile, EveryKeyIsApplied) {
  const TempFile f(
      "{\n"
      "  \"name\": \"H200\",\n"
      "  \"bandwidth_gbs\": 4100.5,\n"
      "  \"team_threads\": 256,\n"
      "  \"rows_per_team\": 64,\n"
      "  \"entries_per_thread\": 32,\n"
      "  \"csrk_k\": 2,\n"
      "  \"csrk_model\": \"volta\",\n"
      "  \"csrk_super_row_size\": 48,\n"
      "  \"csrk_super_super_row_size\": 6,\n"
      "  \"x_rows_min_rhs\": 16,\n"
      "  \"auto_min_convert_nnz\": 5000,\n"
      "  \"auto_hybrid_min_nnz\": 200000\n"
      "}\n");
  DeviceProfile p = tuning::builtin_profile(gpu_info("NVIDIA H200"));
  EXPECT_EQ(p.x_rows_min_rhs, 8);  // the GPU default, measured at K = 8
  EXPECT_EQ(p.auto_min_convert_nnz, 4380);  // the H200's row
  EXPECT_EQ(p.auto_hybrid_min_nnz, 2049378);
  tuning::apply_profile_file(p, f.path());
  EXPECT_EQ(p.bandwidth_gbs, 4100.5);
  EXPECT_EQ(p.team_threads, 256);
  EXPECT_EQ(p.rows_per_team, 64);
  EXPECT_EQ(p.entries_per_thread, 32);
  EXPECT_EQ(p.csrk_k, 2);
  EXPECT_EQ(p.csrk_model, "volta");
  EXPECT_EQ(p.csrk_super_row_size, 48);
  EXPECT_EQ(p.csrk_super_super_row_size, 6);
  EXPECT_EQ(p.x_rows_min_rhs, 16);
  EXPECT_EQ(p.auto_min_convert_nnz, 5000);
  EXPECT_EQ(p.auto_hybrid_min_nnz, 200000);
  EXPECT_EQ(p.source, "file: " + f.path());
  // Hardware facts are not the file's to change.
  EXPECT_EQ(p.name, "NVIDIA H200");
  EXPECT_EQ(p.warp_width, 32);
  EXPECT_TRUE(p.gpu);
}

TEST(ProfileFile, KeysLeftOutKeepTheirValuesAndOneLineWorks) {
  const TempFile f("{\"team_threads\": 64, \"csrk_model\": \"none\"}");
  DeviceProfile p = tuning::builtin_profile(gpu_info("Some GPU"));
  tuning::apply_profile_file(p, f.path());
  EXPECT_EQ(p.team_threads, 64);
  EXPECT_EQ(p.csrk_model, "none");
  EXPECT_EQ(p.rows_per_team, 128);
  EXPECT_EQ(p.csrk_k, 3);
  EXPECT_EQ(p.source, "file: " + f.path());
  const TempFile empty("{ }");
  DeviceProfile q = tuning::builtin_profile(host_info());
  tuning::apply_profile_file(q, empty.path());
  EXPECT_EQ(q.rows_per_team, 256);
  EXPECT_EQ(q.source, "file: " + empty.path());
}

/// apply_profile_file must throw io_error naming the file and `line`.
void expect_profile_error(const std::string& text, std::int64_t line, const std::string& what,
                          const DeviceProfile& base) {
  const TempFile f(text);
  DeviceProfile p = base;
  try {
    tuning::apply_profile_file(p, f.path());
    ADD_FAILURE() << what << ": no io_error";
  } catch (const io_error& e) {
    EXPECT_EQ(e.file(), f.path()) << what;
    EXPECT_EQ(e.line(), line) << what << ": " << e.what();
    EXPECT_EQ(std::string(e.what()).rfind(f.path() + ":" + std::to_string(line) + ": ", 0), 0u)
        << what << ": " << e.what();
  }
}

TEST(ProfileFile, ErrorsNameTheLine) {
  const DeviceProfile h200 = tuning::builtin_profile(gpu_info("NVIDIA H200"));
  expect_profile_error("{\n  \"team_threads\": 64,\n  \"warp_width\": 16\n}\n", 3, "unknown key",
                       h200);
  expect_profile_error("{\n\n\n  \"colour\": \"blue\"\n}\n", 4, "unknown key, line 4", h200);
  expect_profile_error("{\n  \"team_threads\": 0\n}\n", 2, "team_threads below 1", h200);
  expect_profile_error("{\n  \"team_threads\": 1.5\n}\n", 2, "fraction", h200);
  expect_profile_error("{\n  \"rows_per_team\": -4\n}\n", 2, "negative", h200);
  expect_profile_error("{\n  \"entries_per_thread\": \"16\"\n}\n", 2, "quoted number", h200);
  expect_profile_error("{\n  \"bandwidth_gbs\": fast\n}\n", 2, "not a number", h200);
  expect_profile_error("{\n  \"csrk_k\": 4\n}\n", 2, "csrk_k 4", h200);
  expect_profile_error("{\n  \"team_threads\": 3000000000\n}\n", 2, "team_threads past int", h200);
  expect_profile_error("{\n  \"name\": \"\"\n}\n", 2, "empty name", h200);
  expect_profile_error("{\n  \"csrk_k\": 1\n}\n", 2, "csrk_k 1", h200);
  expect_profile_error("{\n  \"team_threads\": 64,\n  \"csrk_model\": \"pascal\"\n}\n", 3,
                       "unknown model", h200);
  expect_profile_error("{\n  \"csrk_model\": ampere\n}\n", 2, "unquoted model", h200);
  expect_profile_error("{\n  \"name\": \"MI300X\",\n  \"team_threads\": 64\n}\n", 2,
                       "profile of another device", h200);
  expect_profile_error("{\n  \"name\": 200\n}\n", 2, "unquoted name", h200);
  expect_profile_error("\n\"team_threads\": 64\n", 1, "no object", h200);
  expect_profile_error("{\n  \"auto_min_convert_nnz\": -1\n}\n", 2, "negative threshold", h200);
  expect_profile_error("{\n\n  \"auto_hybrid_min_nnz\": 1e6x\n}\n", 3, "bad threshold", h200);
  expect_profile_error("{\n  \"csrk_srs_log\": \"-1.5\"\n}\n", 2, "quoted coefficient", h200);
  expect_profile_error("{\n  \"csrk_ssrs_constant\": -2e16\n}\n", 2, "coefficient out of range",
                       h200);
  expect_profile_error("{\n  \"csrk_ssrs_log\": nan\n}\n", 2, "coefficient nan", h200);
  expect_profile_error("{\n  \"auto_sellp_slice_size\": 0\n}\n", 2, "SELL-P slices of 0 rows",
                       h200);
  expect_profile_error("{\n  \"auto_sellp_slice_size\": 1025\n}\n", 2,
                       "SELL-P slices past a team", h200);
}

// The reader takes one JSON object and nothing else: a trailing comma, a
// missing comma, a key given twice or text after the closing brace are
// errors on their line (they were read as if absent).
TEST(ProfileFile, JsonIsReadStrictly) {
  const DeviceProfile host = tuning::builtin_profile(host_info());
  struct Bad {
    const char* text;
    std::int64_t line;
    const char* what;
  };
  for (const Bad& b : {
           Bad{"{\n  \"team_threads\": 1,\n  \"rows_per_team\": 64,\n}\n", 3, "trailing comma"},
           Bad{"{\"rows_per_team\": 64,}", 1, "trailing comma, one line"},
           Bad{"{\n  \"team_threads\": 1\n  \"rows_per_team\": 64\n}\n", 3, "missing comma"},
           Bad{"{\n  \"rows_per_team\": 64\n}\n\n{\"rows_per_team\": 8}\n", 5, "a second object"},
           Bad{"{\n  \"rows_per_team\": 64\n}\ntrailing words\n", 4, "trailing text"},
           Bad{"{\n  \"rows_per_team\": 64 65\n}\n", 2, "two values"},
           Bad{"{\n  \"rows_per_team\": 64,\n  \"rows_per_team\": 8\n}\n", 3, "key given twice"},
           Bad{"{\n  ,\"rows_per_team\": 64\n}\n", 2, "leading comma"},
           Bad{"x{\"rows_per_team\": 64}\n", 1, "text before the object"},
           Bad{"{\n  \"rows_per_team\": 64\n", 3, "no closing brace"},
           Bad{"{\n  \"bandwidth_gbs\": 0x10\n}\n", 2, "hexadecimal"},
           Bad{"{\n  \"bandwidth_gbs\": +10\n}\n", 2, "plus sign"},
           Bad{"{\n  \"rows_per_team\": 064\n}\n", 2, "leading zero"},
           Bad{"{\n  \"rows_per_team\": \n}\n", 3, "no value"}})
    expect_profile_error(b.text, b.line, b.what, host);
  // Whitespace anywhere between tokens, and JSON exponents, are fine.
  const TempFile ok(" \n{ \"rows_per_team\" :\t64 , \"bandwidth_gbs\": 1.5e3 }\n\n");
  DeviceProfile p = host;
  tuning::apply_profile_file(p, ok.path());
  EXPECT_EQ(p.rows_per_team, 64);
  EXPECT_EQ(p.bandwidth_gbs, 1500.0);
  // Nothing of the profile changes when the file is refused.
  const TempFile half("{\n  \"rows_per_team\": 64,\n  \"colour\": 1\n}\n");
  DeviceProfile q = host;
  EXPECT_THROW(tuning::apply_profile_file(q, half.path()), io_error);
  EXPECT_EQ(q.rows_per_team, host.rows_per_team);
}

// Values that would overflow the arithmetic they feed are refused where
// the file is read: CSR-k sizes and size-model coefficients beyond
// csrk_size_max (a fitted model with csrk_srs_constant 1e15 overflowed
// SRS x SSRS).
TEST(ProfileFile, ValuesThatWouldOverflowAreRefused) {
  const DeviceProfile h200 = tuning::builtin_profile(gpu_info("NVIDIA H200"));
  expect_profile_error(
      "{\n  \"csrk_model\": \"fitted\",\n  \"csrk_ssrs_constant\": 32,\n"
      "  \"csrk_srs_constant\": 1e15\n}\n",
      4, "SRS constant 1e15", h200);
  expect_profile_error("{\n  \"csrk_ssrs_log\": -3e9\n}\n", 2, "log coefficient", h200);
  expect_profile_error("{\n  \"csrk_super_row_size\": 3000000000\n}\n", 2, "SRS past int",
                       h200);
  expect_profile_error("{\n  \"csrk_super_super_row_size\": 1e12\n}\n", 2, "SSRS", h200);
  const TempFile at_limit(
      "{\"csrk_srs_constant\": 2147483647, \"csrk_super_row_size\": 2147483647}");
  DeviceProfile p = h200;
  tuning::apply_profile_file(p, at_limit.path());
  EXPECT_EQ(p.csrk_srs_constant, static_cast<double>(tuning::csrk_size_max));
  EXPECT_EQ(p.csrk_super_row_size, tuning::csrk_size_max);
}

TEST(ProfileFile, FittedCsrkModelTakesSignedCoefficients) {
  const TempFile f(
      "{\"csrk_model\": \"fitted\", \"csrk_ssrs_constant\": 12.5, \"csrk_ssrs_log\": -0.75,\n"
      " \"csrk_srs_constant\": 9, \"csrk_srs_log\": 1.25}");
  DeviceProfile p = tuning::builtin_profile(host_info());
  tuning::apply_profile_file(p, f.path());
  EXPECT_EQ(p.csrk_model, "fitted");
  EXPECT_EQ(p.csrk_ssrs_constant, 12.5);
  EXPECT_EQ(p.csrk_ssrs_log, -0.75);
  EXPECT_EQ(p.csrk_srs_constant, 9);
  EXPECT_EQ(p.csrk_srs_log, 1.25);
}

TEST(ProfileFile, MissingFileThrowsWithLineZero) {
  DeviceProfile p = tuning::builtin_profile(host_info());
  const std::string path = (std::filesystem::temp_directory_path() /
                            "kobalt_profile_test_does_not_exist.json")
                               .string();
  try {
    tuning::apply_profile_file(p, path);
    ADD_FAILURE() << "no io_error";
  } catch (const io_error& e) {
    EXPECT_EQ(e.file(), path);
    EXPECT_EQ(e.line(), 0);
  }
  EXPECT_EQ(p.source.rfind("built-in", 0), 0u) << "unchanged: " << p.source;
}

/// The profiles committed in profiles/ (written by kobalt-tune, one key
/// set by hand in the GPUs' files) load on the device they name, lose nothing
/// (written back, the same text), and are refused on the other device.
TEST(ProfileFile, CommittedProfilesLoadOnTheirDeviceOnly) {
  arch::DeviceInfo xeon = host_info();
  xeon.name = "Intel(R) Xeon(R) Processor";
  const std::vector<std::pair<std::string, arch::DeviceInfo>> committed = {
      {"h200.json", gpu_info("NVIDIA H200")},
      {"h100.json", gpu_info("NVIDIA H100 80GB HBM3")},
      {"h200_host_openmp16.json", xeon}};
  for (const auto& [file, device] : committed) {
    SCOPED_TRACE(file);
    const std::string path = std::string(KOBALT_PROFILES_DIR) + "/" + file;
    DeviceProfile p = tuning::builtin_profile(device);
    ASSERT_NO_THROW(tuning::apply_profile_file(p, path));
    EXPECT_EQ(p.source, "file: " + path);
    const TempFile written("");
    tuning::write_profile_file(p, written.path());
    const auto text_of = [](const std::string& f) {
      std::ifstream in(f);
      std::stringstream s;
      s << in.rdbuf();
      return s.str();
    };
    EXPECT_EQ(text_of(written.path()), text_of(path));
    const arch::DeviceInfo other = device.gpu ? xeon : gpu_info("NVIDIA H200");
    DeviceProfile q = tuning::builtin_profile(other);
    EXPECT_THROW(tuning::apply_profile_file(q, path), io_error);
  }
}

// The key table is the one list of profile keys: the reader and the writer
// walk it, so a key written is a key read, value for value.
TEST(ProfileKeys, EveryKeyRoundTripsWithAValueOfItsOwn) {
  std::set<std::string> names;
  for (const auto& k : tuning::profile_keys)
    EXPECT_TRUE(names.insert(k.name).second) << k.name << " is listed twice";
  EXPECT_EQ(names.count("name"), 0u);  // the device match, not a field
  const DeviceProfile base = tuning::builtin_profile(gpu_info("Some GPU"));
  DeviceProfile p = base;
  for (const auto& k : tuning::profile_keys) {
    std::visit(
        [&](auto member) {
          using T = std::decay_t<decltype(p.*member)>;
          if constexpr (std::is_same_v<T, std::string>) {
            const char* const* c = k.choices;
            while (*c != nullptr && p.*member == *c) ++c;
            ASSERT_NE(*c, nullptr) << k.name;
            p.*member = *c;
          } else if constexpr (std::is_same_v<T, double>) {
            p.*member = k.least + 1.0 / 3.0;
          } else {
            p.*member = static_cast<T>(p.*member == k.least ? k.most : k.least);
          }
        },
        k.field);
  }
  const TempFile written("");
  tuning::write_profile_file(p, written.path());
  DeviceProfile q = base;
  tuning::apply_profile_file(q, written.path());
  for (const auto& k : tuning::profile_keys)
    std::visit(
        [&](auto member) {
          EXPECT_EQ(q.*member, p.*member) << k.name;
          EXPECT_NE(q.*member, base.*member) << k.name << ": the test's value is the default";
        },
        k.field);
}

/// The io_error message of `text` as a profile file for `base`'s device,
/// without its "file:line: ".
std::string profile_error(const std::string& text, const DeviceProfile& base) {
  const TempFile f(text);
  DeviceProfile p = base;
  try {
    tuning::apply_profile_file(p, f.path());
  } catch (const io_error& e) {
    const std::string what = e.what();
    return what.substr(what.find(": ") + 2);
  }
  return "no io_error";
}

// Each kind of key words its error from its range in the table.
TEST(ProfileKeys, ErrorsNameTheRangeOfTheKey) {
  const DeviceProfile gpu = tuning::builtin_profile(gpu_info("Some GPU"));
  const std::pair<const char*, const char*> cases[] = {
      {"{\"team_threads\": 0}", "\"team_threads\" = 0 must be a whole number in [1, 2147483647]"},
      {"{\"csrk_k\": 2.5}", "\"csrk_k\" = 2.5 must be a whole number in [2, 3]"},
      {"{\"auto_sellp_max_nnz\": 2e15}",
       "\"auto_sellp_max_nnz\" = 2e15 must be a whole number in [0, 1000000000000000]"},
      {"{\"bandwidth_gbs\": -1}", "\"bandwidth_gbs\" = -1 is not a number >= 0"},
      {"{\"csrk_srs_log\": -3e9}",
       "\"csrk_srs_log\" = -3e9 is not a number in [-2147483647, 2147483647]"},
      {"{\"csrk_model\": \"pascal\"}",
       "\"csrk_model\" must be \"hopper\", \"ampere\", \"volta\", \"fitted\" or \"none\""},
      {"{\"entries_per_thread\": \"16\"}", "\"entries_per_thread\" must be a number"},
      {"{\"auto_ell_speedup\": fast}", "\"auto_ell_speedup\" = fast is not a number"},
      {"{\"colour\": 1}", "unknown key \"colour\""},
      {"{\"name\": 1}", "\"name\" must be a non-empty string"},
      {"{\"name\": \"MI300X\"}", "profile for 'MI300X', but this device is 'Some GPU'"}};
  for (const auto& [text, message] : cases) EXPECT_EQ(profile_error(text, gpu), message) << text;
}

// Each committed profile is kobalt-tune's fit of a device in the built-in
// table, and that row holds the same values: a refit committed without
// its row (or a row changed without regenerating the file) fails here.
TEST(CommittedProfiles, EqualTheBuiltInRowOfTheirDevice) {
  std::set<std::string> rows_with_a_file;
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(KOBALT_PROFILES_DIR)) {
    if (entry.path().extension() != ".json") continue;
    const std::string path = entry.path().string();
    SCOPED_TRACE(path);
    ++files;
    const auto text = tuning::detail::read_profile_text(path);
    const auto* name = text.find("name");
    ASSERT_NE(name, nullptr) << "a committed profile names its device";
    const tuning::detail::TableRow* row = nullptr;
    for (const auto& r : tuning::detail::measured_devices)
      if (name->value.find(r.name_contains) != std::string::npos) row = &r;
    ASSERT_NE(row, nullptr) << "'" << name->value
                            << "' has no row in tuning::detail::measured_devices";
    rows_with_a_file.insert(row->name_contains);
    arch::DeviceInfo device = row->gpu ? gpu_info(name->value) : host_info();
    device.name = name->value;
    const DeviceProfile builtin = tuning::builtin_profile(device);
    EXPECT_NE(builtin.source.find("built-in: "), std::string::npos) << builtin.source;
    DeviceProfile file = builtin;
    tuning::apply_profile_file(file, path);
    for (const auto& k : tuning::profile_keys) {
      EXPECT_NE(text.find(k.name), nullptr) << k.name << " is not in the file";
      std::visit(
          [&](auto member) {
            EXPECT_EQ(file.*member, builtin.*member) << k.name << ": the file, the built-in row";
          },
          k.field);
    }
  }
  EXPECT_GE(files, 3);
  for (const auto& r : tuning::detail::measured_devices)
    EXPECT_EQ(rows_with_a_file.count(r.name_contains), 1u)
        << "the built-in row '" << r.name_contains << "' has no profile in profiles/";
}

// docs/tuning.md's table of keys ("| key | what it sets |", keys in
// backquotes in its first column) lists exactly tuning::profile_keys and
// "name": a key added, renamed or dropped in one place fails here.
TEST(ProfileKeys, DocsListExactlyTheKeys) {
  const std::string path = std::string(KOBALT_DOCS_DIR) + "/tuning.md";
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  std::set<std::string> listed;
  bool table = false;
  for (std::string line; std::getline(in, line);) {
    if (!table) {
      table = line.rfind("| key |", 0) == 0;
      continue;
    }
    if (line.empty() || line[0] != '|') break;
    const std::string first = line.substr(1, line.find('|', 1) - 1);
    for (std::size_t open = first.find('`'); open != std::string::npos;) {
      const std::size_t close = first.find('`', open + 1);
      ASSERT_NE(close, std::string::npos) << line;
      listed.insert(first.substr(open + 1, close - open - 1));
      open = first.find('`', close + 1);
    }
  }
  ASSERT_TRUE(table) << path << " has no \"| key | what it sets |\" table";
  std::set<std::string> keys = {"name"};
  for (const auto& k : tuning::profile_keys) keys.insert(k.name);
  for (const auto& k : keys) EXPECT_EQ(listed.count(k), 1u) << k << " is not in " << path;
  for (const auto& k : listed)
    EXPECT_EQ(keys.count(k), 1u) << k << " is in " << path << " but not a profile key";
}

/// Unsets KOBALT_PROFILE for a test and restores what the caller had.
class NoProfileVariable : public ScopedEnv {
 public:
  NoProfileVariable() : ScopedEnv("KOBALT_PROFILE", nullptr) {}
};

// Decisions compare arch::Backend: Cuda and HIP by type, other spaces by
// whether their lanes run in lockstep.
TEST(ProfileOf, BackendKindOfTheDefaultSpace) {
  using exec = Kokkos::DefaultExecutionSpace;
  const arch::DeviceInfo d = arch::device_info(exec());
  const std::string name = exec::name();
  const arch::Backend expected = name == "Cuda" ? arch::Backend::cuda
                                 : name == "HIP" ? arch::Backend::hip
                                 : d.gpu         ? arch::Backend::other_gpu
                                                 : arch::Backend::host;
  EXPECT_EQ(d.kind, expected) << name;
  EXPECT_EQ(tuning::profile_of(exec()).kind, expected) << name;
}

TEST(ProfileOf, HostExecutionSpace) {
  using host = Kokkos::DefaultHostExecutionSpace;
  const NoProfileVariable no_file;
  const DeviceProfile p = tuning::profile_of(host());
  EXPECT_EQ(p.warp_width, 1);
  EXPECT_FALSE(p.gpu);
  EXPECT_EQ(p.backend, host::name());
  EXPECT_EQ(p.kind, arch::Backend::host);
  EXPECT_EQ(p.compute_units, static_cast<int>(host().concurrency()));
  EXPECT_EQ(p.csrk_k, 2);
  EXPECT_EQ(p.csrk_super_super_row_size, 8);
  EXPECT_EQ(p.source.rfind("built-in", 0), 0u) << p.source;
  // The cached profile is the same on every call.
  const DeviceProfile c = tuning::cached_profile_of(host());
  EXPECT_EQ(c.str(), p.str());
  EXPECT_EQ(tuning::cached_profile_of(host()).str(), c.str());
}

TEST(ProfileOf, EnvironmentNamesAProfileFile) {
  using host = Kokkos::DefaultHostExecutionSpace;
  const NoProfileVariable restore;
  const TempFile f("{\n  \"rows_per_team\": 32,\n  \"csrk_super_row_size\": 40\n}\n");
  ASSERT_EQ(::setenv("KOBALT_PROFILE", f.path().c_str(), 1), 0);
  const DeviceProfile p = tuning::profile_of(host());
  const TempFile bad("{\n  \"unknown\": 1\n}\n");
  ASSERT_EQ(::setenv("KOBALT_PROFILE", bad.path().c_str(), 1), 0);
  EXPECT_THROW(tuning::profile_of(host()), io_error);
  ASSERT_EQ(::unsetenv("KOBALT_PROFILE"), 0);
  EXPECT_EQ(p.rows_per_team, 32);
  EXPECT_EQ(p.csrk_super_row_size, 40);
  EXPECT_EQ(p.source, "file: " + f.path());
  EXPECT_EQ(p.warp_width, 1);
  const DeviceProfile q = tuning::profile_of(host());
  EXPECT_EQ(q.rows_per_team, 256);
  EXPECT_EQ(q.source.rfind("built-in", 0), 0u) << q.source;
}

// KOBALT_PROFILE may name a folder of profiles, one per device of a
// cluster: the one whose "name" this device has is applied (the most
// specific where several match), the others are ignored with a note that
// describe() shows, and a device none names keeps the built-in profile
// without an error. Before, a folder was an io_error ("cannot open").
TEST(ProfileFolder, TheProfileForThisDeviceIsUsed) {
  const TempFolder folder(Files{{"a_mi300.json", "{\"name\": \"MI300X\", \"team_threads\": 256}"},
                           {"b_h200.json", "{\"name\": \"H200\", \"team_threads\": 64}"},
                           {"c_h200_nvl.json",
                            "{\"name\": \"NVIDIA H200\", \"team_threads\": 32}"},
                           {"d_any.json", "{\"team_threads\": 16}"},
                           {"README.md", "not a profile"}});
  std::filesystem::create_directories(folder.path() + "/old.json");  // a folder: skipped
  DeviceProfile p = tuning::builtin_profile(gpu_info("NVIDIA H200"));
  tuning::apply_profile(p, folder.path());
  EXPECT_EQ(p.team_threads, 32);
  EXPECT_EQ(p.source, "file: " + folder.path() + "/c_h200_nvl.json");
  EXPECT_NE(p.notes.find("ignored in " + folder.path() + ": a_mi300.json (for 'MI300X'), "
                         "b_h200.json (for 'H200', less specific than 'NVIDIA H200'), "
                         "d_any.json (names no device)"),
            std::string::npos)
      << p.notes;
  EXPECT_NE(p.str().find("ignored in"), std::string::npos) << p;  // what describe() prints
  // Another device takes its own; one that no file names keeps the built-in values.
  DeviceProfile mi = tuning::builtin_profile(gpu_info("AMD Instinct MI300X"));
  tuning::apply_profile(mi, folder.path());
  EXPECT_EQ(mi.team_threads, 256);
  DeviceProfile cpu = tuning::builtin_profile(host_info());
  ASSERT_NO_THROW(tuning::apply_profile(cpu, folder.path()));
  EXPECT_EQ(cpu.team_threads, 1);
  EXPECT_NE(cpu.source.find("no profile in " + folder.path() + " names this device"),
            std::string::npos)
      << cpu.source;
  EXPECT_NE(cpu.notes.find("c_h200_nvl.json (for 'NVIDIA H200')"), std::string::npos) << cpu.notes;
  // Named alone, a file for another device stays an error.
  DeviceProfile alone = tuning::builtin_profile(host_info());
  EXPECT_THROW(tuning::apply_profile(alone, folder.path() + "/b_h200.json"), io_error);
}

// profiles/ itself is such a folder: each committed profile is the one its
// device takes from it, and the other is listed as ignored.
TEST(ProfileFolder, CommittedFolderServesEachDevice) {
  arch::DeviceInfo xeon = host_info();
  xeon.name = "Intel(R) Xeon(R) Processor";
  const std::string folder = KOBALT_PROFILES_DIR;
  for (const auto& [file, other, device] :
       {std::make_tuple("h200.json", "h200_host_openmp16.json", gpu_info("NVIDIA H200")),
        std::make_tuple("h100.json", "h200.json", gpu_info("NVIDIA H100 80GB HBM3")),
        std::make_tuple("h200_host_openmp16.json", "h100.json", xeon)}) {
    DeviceProfile p = tuning::builtin_profile(device);
    tuning::apply_profile(p, folder);
    EXPECT_EQ(p.source, "file: " + std::string((std::filesystem::path(folder) / file).string()));
    EXPECT_NE(p.notes.find(std::string(other) + " (for '"), std::string::npos) << p.notes;
  }
}

// The chosen file's errors are errors, as with a file; so is a file of the
// folder that is not a profile at all (it might have been this device's).
TEST(ProfileFolder, BrokenFilesAreErrors) {
  const TempFolder bad_value(Files{{"h200.json", "{\"name\": \"H200\",\n \"team_threads\": 0}"}});
  DeviceProfile p = tuning::builtin_profile(gpu_info("NVIDIA H200"));
  try {
    tuning::apply_profile(p, bad_value.path());
    ADD_FAILURE() << "no io_error";
  } catch (const io_error& e) {
    EXPECT_EQ(e.file(), bad_value.path() + "/h200.json");
    EXPECT_EQ(e.line(), 2);
  }
  const TempFolder bad_json(Files{{"h200.json", "{\"name\": \"H200\"}"},
                             {"other.json", "{\"name\": \"MI300X\",}"}});
  EXPECT_THROW(tuning::apply_profile(p, bad_json.path()), io_error);
  const TempFolder empty(Files{});
  DeviceProfile q = tuning::builtin_profile(host_info());
  ASSERT_NO_THROW(tuning::apply_profile(q, empty.path()));
  EXPECT_EQ(q.notes, "");
}

TEST(ProfileOf, EnvironmentNamesAProfileFolder) {
  using host = Kokkos::DefaultHostExecutionSpace;
  const NoProfileVariable restore;
  const std::string name = tuning::builtin_profile(arch::device_info(host())).name;
  const TempFolder folder(
      Files{{"here.json", "{\"name\": \"" + name + "\", \"rows_per_team\": 48}"},
            {"gpu.json", "{\"name\": \"NVIDIA H200\", \"team_threads\": 64}"}});
  ASSERT_EQ(::setenv("KOBALT_PROFILE", folder.path().c_str(), 1), 0);
  const DeviceProfile p = tuning::profile_of(host());
  ASSERT_EQ(::unsetenv("KOBALT_PROFILE"), 0);
  EXPECT_EQ(p.rows_per_team, 48);
  EXPECT_EQ(p.source, "file: " + folder.path() + "/here.json");
  EXPECT_NE(p.notes.find("gpu.json (for 'NVIDIA H200')"), std::string::npos) << p.notes;
}

template <class T>
class StatsQuantile : public ::testing::Test {};
TYPED_TEST_SUITE(StatsQuantile, ValueIndexTypes, TypeNames);

std::vector<double> quantile_points(std::int64_t rows) {
  std::vector<double> xs = {-1.0, -1e-12, 0.0, 1e-12, 0.1, 0.25, 1.0 / 3.0, 0.4, 0.5, 0.75,
                            0.9, 0.99, 1.0, 1.5};
  if (rows > 0) {
    const double n = static_cast<double>(rows);
    xs.push_back(1.0 - 1.0 / n);
    xs.push_back(std::nextafter(1.0 - 1.0 / n, 0.0));
    xs.push_back(std::nextafter(1.0 / n, 0.0));
    xs.push_back(1.0 / n);
  }
  return xs;
}

template <class V, class I>
void expect_stats_quantiles(const Triplets<V, I>& assembled, const std::string& what) {
  const auto a = make_csr(assembled);
  const auto len = row_lengths(assembled);
  const tuning::MatrixStats stats = tuning::analyze(a);
  const tuning::MatrixStats on_host = tuning::analyze(Kokkos::DefaultHostExecutionSpace(),
                                                      make_csr<Kokkos::HostSpace::device_type>(
                                                          assembled));
  // Every format's statistics hold the same distribution.
  const tuning::MatrixStats of_coo = tuning::analyze(to_coo(a));
  const tuning::MatrixStats of_ell = tuning::analyze(to_ell(a));
  for (double x : quantile_points(assembled.rows)) {
    const std::int64_t oracle = quantile_oracle(len, x);
    EXPECT_EQ(tuning::quantile(stats, x), oracle) << what << " x=" << x;
    EXPECT_EQ(tuning::quantile(on_host, x), oracle) << what << " host x=" << x;
    EXPECT_EQ(tuning::quantile(of_coo, x), oracle) << what << " coo x=" << x;
    EXPECT_EQ(tuning::quantile(of_ell, x), oracle) << what << " ell x=" << x;
    EXPECT_EQ(tuning::row_length_quantile(a, x), oracle) << what << " x=" << x;
  }
  EXPECT_THROW(tuning::quantile(stats, std::numeric_limits<double>::quiet_NaN()),
               invalid_parameter);
  EXPECT_THROW(tuning::quantile(stats, std::numeric_limits<double>::infinity()),
               invalid_parameter);
}

TYPED_TEST(StatsQuantile, QuantileOfTheStatsMatchesTheOracle) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  for (const auto& m : edge_matrices<V, I>()) {
    Triplets<V, I> t = m.matrix;
    t.assemble();
    expect_stats_quantiles(t, m.name);
  }
  Lcg rng(31);
  for (std::int64_t rows : {1, 2, 5, 64, 500}) {
    std::vector<std::int64_t> len(static_cast<std::size_t>(rows));
    for (auto& l : len) l = rng.below(4) == 0 ? rng.below(120) : rng.below(4);
    expect_stats_quantiles(matrix_with_row_lengths<V, I>(len), "rows=" + std::to_string(rows));
  }
  // By hand: R = {1, ..., 10}, Q_R(x) = floor(10 x) + 1 below 0.9.
  const auto s = tuning::analyze(make_csr(matrix_with_row_lengths<V, I>({1, 2, 3, 4, 5, 6, 7, 8,
                                                                         9, 10})));
  EXPECT_EQ(s.row_lengths, (std::vector<std::int64_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
  EXPECT_EQ(s.rows_up_to, (std::vector<std::int64_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
  EXPECT_EQ(tuning::quantile(s, 0.5), 6);
  EXPECT_EQ(tuning::quantile(s, -0.5), 0);
  EXPECT_EQ(tuning::quantile(s, 0.9), 10);
  // Statistics without rows: 0 for every x.
  EXPECT_EQ(tuning::quantile(tuning::MatrixStats{}, 0.5), 0);
}

}  // namespace
}  // namespace kobalt::test
