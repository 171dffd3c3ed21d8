// SPDX-License-Identifier: BSD-3-Clause
// kobalt-bench's format specs (format_spec.hpp, format_registry.hpp): the
// reproducible=1 key every Kobalt format takes, and the storage cap of the
// spec check on the 2 x 2 identity (a spec asking gigabytes there is left to
// each input, found by fuzz/specs_fuzz: sellp:b=611111111 padded two rows to
// 611M, 7 GB), and --mode on the Kobalt formats.
#include "format_registry.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
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

// auto: the automatic handle, its choice in the strategy and rule; applies=N
// (N >= 1) is its only key.
TEST(FormatSpecs, AutoNamesItsChoice) {
  const auto a = identity2();
  for (const char* text : {"auto", "auto:applies=1", "auto:applies=1000000"}) {
    const auto op = bench::prepare<view>(FormatSpec::parse(text), a);
    EXPECT_EQ(op.strategy.rfind("csr ", 0), 0u) << text << ": " << op.strategy;  // 2 nonzeros
    EXPECT_EQ(op.rule.rfind("automatic: csr: ", 0), 0u) << text << ": " << op.rule;
  }
  for (const char* bad : {"auto:applies=0", "auto:width=3", "auto:ell", "auto:reproducible=1"})
    EXPECT_THROW((bench::check_format_specs<view, double, std::int32_t>({bad}, 1)),
                 std::invalid_argument)
        << bad;
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

// --mode T on a 3 x 2 matrix: every Kobalt format builds the Csr copy of
// A^T in prepare (setup time), names it in the strategy, counts its bytes
// as the traffic, and y = A^T x comes out right (x of 3, y of 2 entries).
TEST(FormatSpecs, ModeTAppliesTheHandlesCsrCopyOfTheTranspose) {
  Triplets<double, std::int32_t> t;
  t.rows = 3;
  t.cols = 2;
  t.push_back(0, 0, 1.0);
  t.push_back(0, 1, 2.0);
  t.push_back(1, 1, 3.0);
  t.push_back(2, 0, 4.0);
  t.assemble();
  const auto a = make_csr(t);
  for (const char* text : {"csr", "coo", "ell", "sellp", "hybrid", "csrk:k=2", "aligned_coo",
                           "hybrid:reproducible=1"}) {
    for (const Mode mode : {Mode::transpose, Mode::conjugate_transpose}) {
      const auto op = bench::prepare<view>(FormatSpec::parse(text), a, 1, 0, mode);
      EXPECT_NE(op.strategy.find("op(T): Csr copy of "), std::string::npos) << text << ": " << op.strategy;
      EXPECT_GT(op.traffic_bytes, 0u) << text;
      view x("x", 3), y("y", 2);
      Kokkos::deep_copy(x, 1.0);
      Kokkos::deep_copy(y, std::numeric_limits<double>::quiet_NaN());
      op.apply(x, y);
      const auto yh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
      EXPECT_EQ(yh(0), 5.0) << text;  // 1 + 4
      EXPECT_EQ(yh(1), 5.0) << text;  // 2 + 3
    }
    // C of real values is A itself: no copy, the strategy of mode N.
    const auto c = bench::prepare<view>(FormatSpec::parse(text), a, 1, 0, Mode::conjugate);
    EXPECT_EQ(c.strategy.find("op("), std::string::npos) << text << ": " << c.strategy;
    EXPECT_EQ(c.traffic_bytes, 0u) << text;
  }
}

// A format that cannot hold the matrix, in memory or in its index type, or a
// peer without the operation is refused by design (exit status 0); any other
// error is a failure.
TEST(FormatSpecs, RefusalsByDesign) {
  EXPECT_STREQ(bench::error_kind_of(format_too_large("ell", 100, 10)), "refused");
  EXPECT_STREQ(bench::error_kind_of(index_overflow("stored slots = 2239599552")), "refused");
  EXPECT_STREQ(bench::error_kind_of(bench::peer_lacks("cusparse:sell --rhs 2")), "refused");
  EXPECT_STREQ(bench::error_kind_of(invalid_parameter("t < 0")), "failed");
  EXPECT_STREQ(bench::error_kind_of(std::runtime_error("device")), "failed");
}

}  // namespace
}  // namespace kobalt::test
