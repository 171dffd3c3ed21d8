// SPDX-License-Identifier: BSD-3-Clause
// kobalt-bench's format specs (format_spec.hpp, format_registry.hpp): the
// reproducible=1 key every Kobalt format takes, and the storage cap of the
// spec check on the 2 x 2 identity (a spec asking gigabytes there is left to
// each input, found by fuzz/specs_fuzz: sellp:b=611111111 padded two rows to
// 611M, 7 GB).
#include "format_registry.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace kobalt::test {
namespace {

using bench::FormatSpec;
using view = Kokkos::View<double*>;

Csr<double, std::int32_t> identity2() {
  Triplets<double, std::int32_t> t;
  t.rows = t.cols = 2;
  t.push_back(0, 0, 1.0);
  t.push_back(1, 1, 1.0);
  t.assemble();
  return make_csr(t);
}

TEST(FormatSpecs, ReproducibleIsAFlagOfEveryKobaltFormat) {
  const auto a = identity2();
  for (const char* text : {"csr:reproducible=1", "coo:reproducible=1", "ell:reproducible=1",
                           "sellp:b=32,reproducible=1", "hybrid:reproducible=1",
                           "csrk:k=2,reproducible=1", "aligned_coo:reproducible=1",
                           "coo:load_balance,reproducible=1"}) {
    const auto op = bench::prepare<view>(FormatSpec::parse(text), a);
    EXPECT_TRUE(op.reproducible.value_or(false)) << text << ": " << op.strategy;
  }
  EXPECT_FALSE(bench::prepare<view>(FormatSpec::parse("coo"), a).reproducible.value_or(true));
  EXPECT_THROW(bench::prepare<view>(FormatSpec::parse("coo:reproducible=2"), a),
               std::invalid_argument);
  // A strategy that adds with atomics is refused, naming the alternative.
  try {
    (void)bench::prepare<view>(FormatSpec::parse("coo:segmented,reproducible=1"), a);
    ADD_FAILURE() << "accepted";
  } catch (const invalid_parameter& e) {
    EXPECT_NE(std::string(e.what()).find("coo::load_balance"), std::string::npos) << e.what();
  }
  EXPECT_THROW((bench::check_format_specs<view, double, std::int32_t>({"hybrid:reproducible=yes"},
                                                                     1)),
               std::invalid_argument);
}

TEST(FormatSpecs, TheSpecCheckNeverAllocatesGigabytes) {
  const auto a = identity2();
  // On the identity, the cap refuses the 7 GB SELL-P before allocating ...
  EXPECT_THROW(bench::prepare<view>(FormatSpec::parse("sellp:b=611111111"), a, 1,
                                    bench::spec_check_bytes),
               format_too_large);
  EXPECT_THROW(bench::prepare<view>(FormatSpec::parse("ell:width=100000000"), a, 1,
                                    bench::spec_check_bytes),
               format_too_large);
  // ... and the check leaves such specs to each input's run (no error here).
  EXPECT_NO_THROW((bench::check_format_specs<view, double, std::int32_t>(
      {"sellp:b=611111111", "ell:width=100000000"}, 1)));
}

}  // namespace
}  // namespace kobalt::test
