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
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

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

template <class Value, class Index>
Input<Value, Index> load_input(const std::string& input) {
  namespace fs = std::filesystem;
  Input<Value, Index> in;
  in.source = input;
  if (fs::exists(input)) {
    std::string name = fs::path(input).filename().string();
    for (const char* ext : {".gz", ".mtx"})
      if (name.size() > std::strlen(ext) && name.compare(name.size() - std::strlen(ext), std::strlen(ext), ext) == 0)
        name.erase(name.size() - std::strlen(ext));
    in.name = name;
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
