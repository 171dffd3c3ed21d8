// SPDX-License-Identifier: BSD-3-Clause
// The files kobalt-bench and kobalt-tune write (--json, --out): checked
// before anything runs, and replaced only through a new private folder
// beside them, so that no run can destroy an input, a matrix, a device or a
// file of another program, nor a temporary file someone else left there.
#pragma once

#include "options.hpp"

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

namespace kobalt::bench {

/// Whether `path`'s file name is a matrix file's in any case: .mtx or .mm,
/// alone or before a compression suffix (.mtx.gz, .MTX.BZ2, .mm.xz).
inline bool looks_like_matrix_file(const std::string& path) {
  std::string name = std::filesystem::path(path).filename().string();
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const auto ends = [&](const std::string& e) {
    return name.size() > e.size() && name.compare(name.size() - e.size(), e.size(), e) == 0;
  };
  for (const char* matrix : {".mtx", ".mm"})
    for (const char* packed : {"", ".gz", ".bz2", ".xz", ".zst", ".z", ".lz4", ".zip"})
      if (ends(std::string(matrix) + packed)) return true;
  return false;
}

/// What a tool may replace: files it wrote itself. `marker` is the text its
/// files hold near their start (nullptr: any JSON object); the option names
/// the file in messages.
struct OutputKind {
  const char* option;  ///< "--json", "--out"
  const char* what;    ///< "a kobalt-bench report", "a device profile"
  const char* marker;  ///< e.g. "\"kobalt_bench\""; nullptr: a leading '{' suffices
};

namespace detail {
/// The first bytes of a file into `head`; false when it cannot be read.
inline bool head_of(const std::string& path, std::string& head) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  head.assign(256, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  return true;
}

inline std::string absolute_normal(const std::string& path) {
  std::error_code ec;
  const auto p = std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec), ec);
  return (ec ? std::filesystem::absolute(path).lexically_normal() : p).string();
}
}  // namespace detail

/// Why `path` must not be written as `kind`'s output, "" when it may: an
/// empty name; a matrix file's name; a symbolic link, folder, device, pipe
/// or socket; one of `inputs` (by path, and by device and inode where it
/// exists); a Matrix Market file; or an existing file that is not one this
/// tool wrote (not empty and without its marker).
inline std::string output_refusal(const OutputKind& kind, const std::string& path,
                                  const std::vector<std::string>& inputs) {
  const std::string name = std::string(kind.option) + " " + path;
  if (path.empty()) return std::string(kind.option) + " needs a file name, got an empty one";
  if (looks_like_matrix_file(path))
    return name + " looks like a matrix file (.mtx, .mtx.gz, .mm in any case); refusing to overwrite it";
  const std::string target = detail::absolute_normal(path);
  struct stat out_stat {};
  const bool exists = ::lstat(path.c_str(), &out_stat) == 0;
  for (const auto& in : inputs) {
    struct stat in_stat {};
    const bool same_file = exists && ::stat(in.c_str(), &in_stat) == 0 &&
                           in_stat.st_dev == out_stat.st_dev && in_stat.st_ino == out_stat.st_ino;
    if (same_file || detail::absolute_normal(in) == target) return name + " is also an input";
  }
  if (!exists) return "";
  if (S_ISLNK(out_stat.st_mode))
    return name + " is a symbolic link; name the file itself (replacing the link would cut it)";
  if (S_ISDIR(out_stat.st_mode)) return name + " is a folder";
  if (!S_ISREG(out_stat.st_mode))
    return name + " is not a regular file (a device, pipe or socket); refusing to replace it";
  std::string head;
  if (!detail::head_of(path, head)) return name + " exists and cannot be read: " + std::strerror(errno);
  const auto start = head.find_first_not_of(" \t\r\n");
  std::string banner = head.substr(0, 14);
  for (char& c : banner) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (banner == "%%matrixmarket")  // the reader takes the banner in any case
    return name + " holds a Matrix Market matrix; refusing to overwrite it";
  const bool object = start != std::string::npos && head[start] == '{';
  const bool own = object && (kind.marker == nullptr || head.find(kind.marker) != std::string::npos);
  if (start != std::string::npos && !own)
    return name + " exists and is not " + kind.what + "; refusing to overwrite it (remove it or name another file)";
  return "";
}

/// A new private folder beside `path` (`.NAME.XXXXXX`, mode 0700: what is
/// in it is the caller's alone), or "" with `error` set.
inline std::string make_private_folder_beside(const std::string& path, std::string& error) {
  const std::filesystem::path p(path);
  const std::filesystem::path folder = p.has_parent_path() ? p.parent_path() : ".";
  std::string pattern = (folder / ("." + p.filename().string() + ".XXXXXX")).string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    error = "cannot create a temporary folder in " + folder.string() + ": " + std::strerror(errno);
    return "";
  }
  return pattern;
}

/// Refuses what output_refusal refuses and a folder that is missing or
/// where no file can be made (tried by making and removing a private
/// folder there): throws usage_error, before anything runs.
inline void check_output(const OutputKind& kind, const std::string& path,
                         const std::vector<std::string>& inputs) {
  const std::string refusal = output_refusal(kind, path, inputs);
  if (!refusal.empty()) throw usage_error(refusal);
  namespace fs = std::filesystem;
  const fs::path folder = fs::path(path).parent_path();
  std::error_code ec;
  if (!folder.empty() && !fs::is_directory(folder, ec))
    throw usage_error(std::string(kind.option) + " " + path + ": folder " + folder.string() +
                      " does not exist");
  std::string error;
  const std::string probe = make_private_folder_beside(path, error);
  if (probe.empty()) throw usage_error(std::string(kind.option) + " " + path + ": " + error);
  fs::remove(probe, ec);
}

/// Replaces `path` with what `write(file)` writes into `file`, a name in a
/// new private folder beside `path`, renamed over `path` once `write`
/// returned true and `path` still passes output_refusal. The folder goes
/// in every case; false with `error` set on any failure, and then `path`
/// is as it was.
inline bool replace_file(const OutputKind& kind, const std::string& path,
                         const std::vector<std::string>& inputs,
                         const std::function<bool(const std::string& file)>& write,
                         std::string& error) {
  namespace fs = std::filesystem;
  const std::string folder = make_private_folder_beside(path, error);
  if (folder.empty()) return false;
  const std::string file = (fs::path(folder) / fs::path(path).filename()).string();
  bool ok = false;
  try {
    ok = write(file);
    if (!ok) error = "cannot write " + file;
  } catch (const std::exception& e) {
    error = e.what();
  }
  if (ok) {
    // The target may have changed since the run began.
    const std::string refusal = output_refusal(kind, path, inputs);
    if (!refusal.empty()) {
      error = refusal;
      ok = false;
    } else if (std::rename(file.c_str(), path.c_str()) != 0) {
      error = "cannot rename " + file + " over " + path + ": " + std::strerror(errno);
      ok = false;
    }
  }
  std::error_code ec;
  fs::remove_all(folder, ec);
  return ok;
}

}  // namespace kobalt::bench
