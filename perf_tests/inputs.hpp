// SPDX-License-Identifier: BSD-3-Clause
// kobalt-bench's inputs: Matrix Market files, directories of them, and
// generator specs, each loaded as a device Csr.
#pragma once

#include "device_info.hpp"
#include "options.hpp"
#include "generators/generators.hpp"
#include "generators/imaginary_parts.hpp"

#include <kobalt/kobalt.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include <unistd.h>

namespace kobalt::bench {

template <class Value, class Index>
struct Input {
  std::string name, source;
  Csr<Value, Index, default_device> csr;
};

/// Files and generator specs, directories expanded in name order. A
/// directory without a .mtx or .mtx.gz file is an invalid_argument (it would
/// run nothing and look like success).
inline std::vector<std::string> expand_inputs(const std::vector<std::string>& inputs) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  for (const auto& in : inputs) {
    if (fs::is_directory(in)) {
      std::vector<std::string> files;
      for (const auto& e : fs::directory_iterator(in))
        if (is_matrix_file_name(e.path().string())) files.push_back(e.path().string());
      if (files.empty())
        throw std::invalid_argument("folder '" + in + "' holds no .mtx or .mtx.gz file");
      std::sort(files.begin(), files.end());
      out.insert(out.end(), files.begin(), files.end());
    } else {
      out.push_back(in);
    }
  }
  return out;
}

/// Checks one input of expand_inputs' list before anything runs: a file
/// must open and start as a Matrix Market file that Value and Index can
/// hold (banner and size line; a pipe or device only has to be readable,
/// since reading it here would consume it), anything else must parse as a
/// generator spec. Throws invalid_argument naming the input and the problem.
template <class Value, class Index>
void check_input(const std::string& input) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status status = fs::status(input, ec);
  if (fs::exists(status)) {
    if (fs::is_directory(status))
      throw std::invalid_argument("'" + input + "' is a folder inside an input folder");
    if (!fs::is_regular_file(status)) {
      if (::access(input.c_str(), R_OK) != 0)
        throw std::invalid_argument("'" + input + "' cannot be read: " + std::strerror(errno));
      return;
    }
    try {
      kobalt::detail::mm::line_source src(input);
      const auto header = kobalt::detail::mm::parse_banner(src, is_complex_v<Value>);
      kobalt::detail::mm::parse_size_line<Index>(
          src, header, static_cast<std::uint64_t>(std::numeric_limits<Index>::max()));
    } catch (const kobalt::error& e) {
      throw std::invalid_argument(std::string("input ") + e.what());
    }
    return;
  }
  if (ec && ec != std::errc::no_such_file_or_directory)
    throw std::invalid_argument("'" + input + "' cannot be read: " + ec.message());
  if (!is_generator_spec(input))
    throw std::invalid_argument("'" + input + "' is neither a file nor a known generator");
  parse_generator(input);  // throws invalid_argument naming the spec and the problem
}

/// A matrix file's name in reports: its file name without .gz and .mtx.
inline std::string file_input_name(const std::string& path) {
  std::string name = std::filesystem::path(path).filename().string();
  for (const char* ext : {".gz", ".mtx"})
    if (name.size() > std::strlen(ext) && name.compare(name.size() - std::strlen(ext), std::strlen(ext), ext) == 0)
      name.erase(name.size() - std::strlen(ext));
  return name;
}

template <class Value, class Index>
Input<Value, Index> load_input(const std::string& input) {
  namespace fs = std::filesystem;
  Input<Value, Index> in;
  in.source = input;
  if (fs::exists(input)) {
    in.name = file_input_name(input);
    in.csr = make_csr(read_matrix_market<Value, Index>(input));
    return in;
  }
  if (is_generator_spec(input)) {
    const GeneratorSpec spec = parse_generator(input);
    in.name = to_string(spec);
    if constexpr (is_complex_v<Value>) {
      // Seed 1, the generators' default seed (generators.hpp).
      in.csr = gen::with_imaginary_parts(
          generate<real_type_t<Value>, Index, default_device>(spec), 1);
    } else {
      in.csr = generate<Value, Index, default_device>(spec);
    }
    return in;
  }
  throw std::invalid_argument("'" + input + "' is neither a file nor a known generator");
}

}  // namespace kobalt::bench
