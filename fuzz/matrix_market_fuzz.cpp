// SPDX-License-Identifier: BSD-3-Clause
// libFuzzer target: the Matrix Market reader (io/matrix_market_read.hpp) on
// arbitrary bytes, plain and gzip. The first byte picks the path: odd, the
// rest is gzip-compressed first (valid gzip around fuzzed text reaches the
// parser through zlib); even, the rest is written as it is (fuzzed bytes
// that start with the gzip magic exercise zlib's error paths). Every input
// must give Triplets or one of Kobalt's typed errors (io_error,
// index_overflow); anything else (a crash, a sanitizer report, another
// exception) is a finding. Read as double/int32, float/int64 and
// complex<double>/int32 (the complex and hermitian paths) with an
// entry limit of 2^16, so a size line promising more is refused before any
// large allocation, as index_overflow.
#include <kobalt/errors.hpp>
#include <kobalt/io/matrix_market_read.hpp>

#include <unistd.h>
#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

/// The file the reader opens, one per fuzzing process.
const std::string& input_path() {
  static const std::string path = "/tmp/kobalt_mm_fuzz_" + std::to_string(::getpid()) + ".mtx";
  return path;
}

bool write_input(const std::uint8_t* data, std::size_t size, bool compress) {
  if (compress) {
    gzFile f = gzopen(input_path().c_str(), "wb");
    if (f == nullptr) return false;
    const bool ok = size == 0 || gzwrite(f, data, static_cast<unsigned>(size)) > 0;
    return gzclose(f) == Z_OK && ok;
  }
  std::FILE* f = std::fopen(input_path().c_str(), "wb");
  if (f == nullptr) return false;
  const bool ok = size == 0 || std::fwrite(data, 1, size, f) == size;
  return std::fclose(f) == 0 && ok;
}

template <class Value, class Index>
void read_checked() {
  try {
    const auto t = kobalt::detail::mm::read<Value, Index>(input_path(), 1u << 16);
    // What the reader returns is assembled and inside its declared size.
    for (std::size_t k = 0; k < t.val.size(); ++k)
      if (t.row[k] < 0 || t.row[k] >= t.rows || t.col[k] < 0 || t.col[k] >= t.cols ||
          (k > 0 && (t.row[k] < t.row[k - 1] ||
                     (t.row[k] == t.row[k - 1] && t.col[k] <= t.col[k - 1]))))
        std::abort();
  } catch (const kobalt::io_error&) {
  } catch (const kobalt::index_overflow&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  if (size > (1u << 20)) return -1;  // keep inputs small; the reader streams anyway
  if (!write_input(data + 1, size - 1, (data[0] & 1) != 0)) std::abort();
  read_checked<double, std::int32_t>();
  read_checked<float, std::int64_t>();
  read_checked<Kokkos::complex<double>, std::int32_t>();
  return 0;
}
