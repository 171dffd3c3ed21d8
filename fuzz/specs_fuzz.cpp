// SPDX-License-Identifier: BSD-3-Clause
// libFuzzer target: kobalt-bench's two spec grammars on arbitrary text.
// - Generator specs (generators/spec.hpp): a spec that parses prints back to
//   a canonical text that parses to the same canonical text; a small one
//   (at most 1 MiB of matrix) is generated and checked against its promised
//   shape. Bad specs are std::invalid_argument (so are zipf tables past
//   2^24 entries); sizes past Index or the memory limit are index_overflow /
//   format_too_large.
// - Format specs (format_spec.hpp): FormatSpec::parse, then
//   check_format_specs prepares the spec on a 2 x 2 identity, as kobalt-bench
//   does before any input. Bad specs are std::invalid_argument.
// Anything else (a crash, a sanitizer report, another exception) is a
// finding.
#include "format_registry.hpp"
#include "generators/generators.hpp"
#include "generators/spec.hpp"

#include <kobalt/kobalt.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace {

void generator_spec(const std::string& text) {
  using namespace kobalt::bench;
  if (!is_generator_spec(text)) return;
  GeneratorSpec g;
  try {
    g = parse_generator(text);
  } catch (const std::invalid_argument&) {
    return;
  }
  const std::string canonical = to_string(g);
  if (to_string(parse_generator(canonical)) != canonical) std::abort();
  try {
    const auto a = generate<double, std::int32_t>(g, 1u << 20);
    if (a.rows() < 0 || a.cols() < 0 || a.nnz() < 0) std::abort();
  } catch (const kobalt::index_overflow&) {
  } catch (const kobalt::format_too_large&) {
  } catch (const std::invalid_argument& e) {
    // zipf's documented refusals; the message names the generator once
    if (std::string(e.what()).rfind("generator '" + canonical + "': ", 0) != 0) std::abort();
  }
}

void format_spec(const std::string& text) {
  using namespace kobalt::bench;
  try {
    (void)FormatSpec::parse(text);
    check_format_specs<Kokkos::View<double*>, double, std::int32_t>({text}, 1);
  } catch (const std::invalid_argument&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  Kokkos::initialize();
  std::atexit([] { Kokkos::finalize(); });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 256) return -1;  // specs are short; longer inputs add nothing
  const std::string text(reinterpret_cast<const char*>(data), size);
  generator_spec(text);
  format_spec(text);
  return 0;
}
