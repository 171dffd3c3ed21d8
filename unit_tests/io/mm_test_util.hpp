// SPDX-License-Identifier: BSD-3-Clause
// Helpers of the Matrix Market tests: a per-process temporary folder for the
// hand-written input files, an exception checker that looks at the type, the
// file, the line and a key phrase, and a bitwise triplet comparison.
#pragma once

#include <kobalt/errors.hpp>
#include <kobalt/formats/triplets.hpp>

#include <gtest/gtest.h>

#include <unistd.h>

// Gzip helpers only where Kobalt itself has zlib (KOBALT_ENABLE_ZLIB).
#if defined(KOBALT_HAVE_ZLIB) && KOBALT_HAVE_ZLIB
#define KOBALT_TEST_GZIP 1
#include <zlib.h>
#else
#define KOBALT_TEST_GZIP 0
#endif

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <tuple>
#include <vector>

namespace kobalt::test {

/// A folder under the system temp dir, removed when the process ends.
class TempDir {
 public:
  TempDir()
      : path_(std::filesystem::temp_directory_path() /
              ("kobalt_io_test_" + std::to_string(::getpid()))) {
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

inline const TempDir& temp_dir() {
  static const TempDir dir;
  return dir;
}

/// Writes `text` to a fresh file `name` in the temp folder; returns its path.
inline std::string write_text(const std::string& name, const std::string& text) {
  const std::string path = temp_dir().file(name);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  EXPECT_TRUE(out) << "cannot write " << path;
  return path;
}

/// Writes raw bytes (a gzip prefix, ...) to a fresh file in the temp folder.
inline std::string write_bytes(const std::string& name, const std::vector<char>& bytes) {
  const std::string path = temp_dir().file(name);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  EXPECT_TRUE(out) << "cannot write " << path;
  return path;
}

inline std::vector<char> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<char>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

#if KOBALT_TEST_GZIP
/// Writes `text` gzip-compressed.
inline std::string write_gzip(const std::string& name, const std::string& text) {
  const std::string path = temp_dir().file(name);
  gzFile f = gzopen(path.c_str(), "wb");
  EXPECT_NE(f, nullptr) << path;
  if (f == nullptr) return path;
  EXPECT_EQ(gzwrite(f, text.data(), static_cast<unsigned>(text.size())), static_cast<int>(text.size()));
  EXPECT_EQ(gzclose(f), Z_OK);
  return path;
}

/// Independent of the reader: the number of '\n' in everything zlib
/// decompresses from `path` before it stops (at the end or at an error).
inline std::int64_t newlines_zlib_delivers(const std::string& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (f == nullptr) return -1;
  std::vector<char> buf(1 << 16);
  std::int64_t n = 0;
  int got = 0;
  while ((got = gzread(f, buf.data(), static_cast<unsigned>(buf.size()))) > 0) {
    for (int k = 0; k < got; ++k) n += buf[k] == '\n';
  }
  gzclose(f);
  return n;
}
#endif

/// data/grid_hubs.mtx.gz: the small gzip matrix that ships with Kobalt.
inline std::string shipped_gzip_matrix() { return std::string(KOBALT_DATA_DIR) + "/grid_hubs.mtx.gz"; }

/// Runs `f` and checks that it throws exactly Error (not a sibling), and
/// that what() reads "<file>:<line>: ..." and contains `phrase`.
template <class Error, class F>
void expect_error(F&& f, const std::string& file, std::int64_t line, const std::string& phrase) {
  try {
    f();
  } catch (const Error& e) {
    const std::string what = e.what();
    const std::string prefix = file + ":" + std::to_string(line) + ": ";
    EXPECT_EQ(what.rfind(prefix, 0), 0u) << "message '" << what << "' should start with '" << prefix << "'";
    EXPECT_NE(what.find(phrase), std::string::npos)
        << "message '" << what << "' should contain '" << phrase << "'";
    if constexpr (std::is_same_v<Error, io_error>) {
      EXPECT_EQ(e.file(), file);
      EXPECT_EQ(e.line(), line) << what;
    }
    return;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "threw the wrong exception type: " << e.what();
    return;
  }
  ADD_FAILURE() << "no exception; expected one containing '" << phrase << "'";
}

/// Same bits, or both NaN.
template <class Value>
bool same_value(Value a, Value b) {
  if (a != a && b != b) return true;
  return std::memcmp(&a, &b, sizeof(Value)) == 0;
}

/// Exact comparison of dimensions, pattern and value bits.
template <class Value, class Index>
void expect_identical(const Triplets<Value, Index>& expected, const Triplets<Value, Index>& got,
                      const std::string& what) {
  ASSERT_EQ(expected.rows, got.rows) << what;
  ASSERT_EQ(expected.cols, got.cols) << what;
  ASSERT_EQ(expected.nnz(), got.nnz()) << what;
  for (std::size_t k = 0; k < expected.val.size(); ++k) {
    ASSERT_EQ(expected.row[k], got.row[k]) << what << " entry " << k;
    ASSERT_EQ(expected.col[k], got.col[k]) << what << " entry " << k;
    ASSERT_TRUE(same_value(expected.val[k], got.val[k]))
        << what << " entry " << k << ": expected " << expected.val[k] << ", got " << got.val[k];
  }
}

/// Triplets from a brace list {row, col, value} (0-based), in that order.
template <class Value, class Index>
Triplets<Value, Index> triplets(Index rows, Index cols,
                                std::vector<std::tuple<Index, Index, double>> entries) {
  Triplets<Value, Index> t;
  t.rows = rows;
  t.cols = cols;
  for (const auto& [r, c, v] : entries) t.push_back(r, c, static_cast<Value>(v));
  return t;
}

}  // namespace kobalt::test
