// SPDX-License-Identifier: BSD-3-Clause
// The byte layer of Matrix Market I/O: one input and one output file over
// zlib where Kobalt is built with it (KOBALT_HAVE_ZLIB=1, which the CMake
// target sets under -DKOBALT_ENABLE_ZLIB=ON), over stdio otherwise. Without
// zlib, gzip files are refused with an io_error that says how to enable it.
// The only file that includes <zlib.h>.
#pragma once

#include "../errors.hpp"

#if defined(KOBALT_HAVE_ZLIB) && KOBALT_HAVE_ZLIB
#include <zlib.h>
#define KOBALT_IO_ZLIB 1
#else
#define KOBALT_IO_ZLIB 0
#endif

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>

namespace kobalt::detail::mm {

/// Whether this build reads and writes gzip (.mtx.gz).
inline constexpr bool has_zlib = KOBALT_IO_ZLIB != 0;

/// The problem reported for a gzip file in a build without zlib.
inline std::string gzip_needs_zlib(const char* action) {
  return std::string("cannot ") + action +
         " a gzip-compressed file: Kobalt was built without zlib (configure with "
         "-DKOBALT_ENABLE_ZLIB=ON, or compile with -DKOBALT_HAVE_ZLIB=1 and link zlib)";
}

inline std::string errno_text(const char* fallback) {
  return errno != 0 ? std::strerror(errno) : fallback;
}

/// How a read ended: bytes delivered, or the kind of failure.
enum class read_status { ok, truncated, io, corrupt };
struct read_result {
  std::size_t bytes = 0;  ///< 0 with status ok: the end of the file
  read_status status = read_status::ok;
  std::string message;  ///< the library's text for io and corrupt
};

/// A file opened for reading. With zlib, plain files are read transparently
/// and gzip streams decompressed (gzopen); without it, a file that starts
/// with the gzip magic bytes is an io_error (line 0).
class input_file {
 public:
  explicit input_file(const std::string& path) : path_(path) {
    errno = 0;
#if KOBALT_IO_ZLIB
    file_ = gzopen(path.c_str(), "rb");
    if (file_ == nullptr) throw io_error(path, 0, "cannot open file: " + errno_text("gzopen failed"));
    // zlib's input buffer (must precede the first read): 256 KiB for large
    // files, no larger than the file for small ones (zlib allocates three
    // times this per open, which dominated reading the fuzzer's tiny inputs).
    std::error_code size_error;
    const auto bytes = std::filesystem::file_size(path, size_error);
    gzbuffer(file_, static_cast<unsigned>(size_error ? max_zlib_buffer
                                                      : std::clamp<std::uintmax_t>(
                                                            bytes, min_zlib_buffer, max_zlib_buffer)));
#else
    file_ = std::fopen(path.c_str(), "rb");
    if (file_ == nullptr) throw io_error(path, 0, "cannot open file: " + errno_text("fopen failed"));
    // Peek at the first two bytes (kept for the first read: pipes cannot rewind).
    pending_ = std::fread(peek_, 1, sizeof peek_, file_);
    if (pending_ == sizeof peek_ && static_cast<unsigned char>(peek_[0]) == 0x1f &&
        static_cast<unsigned char>(peek_[1]) == 0x8b) {
      std::fclose(file_);
      file_ = nullptr;
      throw io_error(path, 0, gzip_needs_zlib("read"));
    }
#endif
  }
  ~input_file() {
#if KOBALT_IO_ZLIB
    if (file_ != nullptr) gzclose_r(file_);
#else
    if (file_ != nullptr) std::fclose(file_);
#endif
  }
  input_file(const input_file&) = delete;
  input_file& operator=(const input_file&) = delete;

  /// Reads up to `n` bytes into `out` (decompressed with zlib).
  read_result read(char* out, unsigned n) {
#if KOBALT_IO_ZLIB
    const int got = gzread(file_, out, n);
    int status = Z_OK;
    const char* message = gzerror(file_, &status);
    read_result r;
    r.bytes = got > 0 ? static_cast<std::size_t>(got) : 0;
    // Z_BUF_ERROR: the input ended inside a gzip member (data or trailer).
    if (status == Z_BUF_ERROR) {
      r.status = read_status::truncated;
    } else if (status == Z_ERRNO) {
      r.status = read_status::io;
      r.message = zlib_message(message);
    } else if (got < 0 || status != Z_OK) {
      r.status = read_status::corrupt;
      r.message = zlib_message(message);
    }
    return r;
#else
    read_result r;
    const std::size_t from_peek = std::min<std::size_t>(pending_ - used_, n);
    std::memcpy(out, peek_ + used_, from_peek);
    used_ += from_peek;
    errno = 0;
    r.bytes = from_peek + std::fread(out + from_peek, 1, n - from_peek, file_);
    if (std::ferror(file_)) {
      r.status = read_status::io;
      r.message = errno_text("fread failed");
    }
    return r;
#endif
  }

 private:
  std::string path_;
#if KOBALT_IO_ZLIB
  static constexpr std::uintmax_t min_zlib_buffer = 8192, max_zlib_buffer = 1u << 18;

  /// gzerror's text without the "<path>: " zlib puts in front of it.
  std::string zlib_message(const char* message) const {
    std::string m = message != nullptr && *message != '\0' ? message : "read error";
    const std::string prefix = path_ + ": ";
    if (m.compare(0, prefix.size(), prefix) == 0) m.erase(0, prefix.size());
    return m;
  }

  gzFile file_ = nullptr;
#else
  std::FILE* file_ = nullptr;
  char peek_[2] = {};
  std::size_t pending_ = 0, used_ = 0;
#endif
};

/// A file opened for writing: gzip for a name ending in ".gz" (an io_error
/// without zlib), plain text otherwise. Errors are io_errors at line 0.
class output_file {
 public:
  explicit output_file(const std::string& path) : path_(path) {
    const bool gz = path.size() >= 3 && path.compare(path.size() - 3, 3, ".gz") == 0;
    errno = 0;
#if KOBALT_IO_ZLIB
    file_ = gzopen(path.c_str(), gz ? "wb6" : "wbT");  // "T": zlib's transparent (plain) mode
#else
    if (gz) throw io_error(path, 0, gzip_needs_zlib("write"));
    file_ = std::fopen(path.c_str(), "wb");
#endif
    if (file_ == nullptr) throw io_error(path, 0, "cannot open file for writing: " + errno_text("open failed"));
  }
  ~output_file() {
    if (file_ != nullptr) close_file();  // only reached on an exception path
  }
  output_file(const output_file&) = delete;
  output_file& operator=(const output_file&) = delete;

  void write(const char* data, std::size_t n) {
    if (n == 0) return;
#if KOBALT_IO_ZLIB
    if (gzwrite(file_, data, static_cast<unsigned>(n)) != static_cast<int>(n)) {
      int status = Z_OK;
      const char* message = gzerror(file_, &status);
      throw io_error(path_, 0, std::string("write failed: ") + (message ? message : "gzwrite"));
    }
#else
    errno = 0;
    if (std::fwrite(data, 1, n, file_) != n)
      throw io_error(path_, 0, std::string("write failed: ") + errno_text("fwrite"));
#endif
  }

  void close() {
    if (!close_file()) throw io_error(path_, 0, "write failed while closing the file");
  }

 private:
  bool close_file() {
    auto* f = file_;
    file_ = nullptr;
#if KOBALT_IO_ZLIB
    return gzclose_w(f) == Z_OK;
#else
    return std::fclose(f) == 0;
#endif
  }

  std::string path_;
#if KOBALT_IO_ZLIB
  gzFile file_ = nullptr;
#else
  std::FILE* file_ = nullptr;
#endif
};

}  // namespace kobalt::detail::mm

#undef KOBALT_IO_ZLIB
