// SPDX-License-Identifier: BSD-3-Clause
// A row range of a structured generator (generators/row_range.hpp, what each
// rank of kobalt-bench-distributed builds) against the host oracle: every
// range of the grid, grown or not, holds exactly the oracle's rows, and
// rows_of cuts the same rows out of the whole matrix.
#include "bench/generator_oracles.hpp"
#include "fixtures/types.hpp"
#include "generators/row_range.hpp"

#include <string>
#include <vector>

namespace kobalt::test {
namespace {

using bench::parse_generator;
namespace gen = bench::gen;

/// The oracle's rows [first, first + count), renumbered from 0.
oracle::Matrix rows_of(const oracle::Matrix& m, std::int64_t first, std::int64_t count) {
  oracle::Matrix out = oracle::empty(count, m.cols);
  for (std::int64_t i = 0; i < count; ++i) out.row[i] = m.row[first + i];
  return out;
}

struct Case {
  std::string spec;
  std::int64_t copies;
  oracle::Matrix expected;  // the grown grid, whole
};

std::vector<Case> cases() {
  using namespace oracle;
  return {{"lap2d:5", 1, stencil(5, 2, false)},      {"lap2d:5", 3, stencil(5, 2, false, 15)},
          {"lap3d:4", 2, stencil(4, 3, false, 8)},   {"lap3d:3", 1, stencil(3, 3, false)},
          {"stencil27:3", 3, stencil(3, 3, true, 9)}, {"fem:6,2,1", 2, fem(12, 2, 1)},
          {"arrow:7", 1, arrow(7)}};
}

template <class T>
class RowRange : public ::testing::Test {};
TYPED_TEST_SUITE(RowRange, ValueIndexTypes, TypeNames);

TYPED_TEST(RowRange, EveryRangeHoldsTheOraclesRows) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  for (const Case& c : cases()) {
    const auto s = gen::structured(parse_generator(c.spec), c.copies);
    ASSERT_TRUE(s.has_value()) << c.spec;
    ASSERT_EQ(s->rows, c.expected.rows) << c.spec;
    const std::vector<std::int64_t> rp = gen::row_pointer(*s);
    ASSERT_EQ(rp.back(), c.expected.nnz()) << c.spec;
    const auto whole = gen::build_rows<V, I>(*s, rp, 0, s->rows);
    oracle::expect_matches(c.expected, whole, c.spec);
    // Ranges that start and end mid-row-block, an empty one, the last row.
    const std::int64_t n = s->rows;
    for (const auto& [first, count] : std::vector<std::pair<std::int64_t, std::int64_t>>{
             {0, n / 3}, {n / 3, n / 2}, {n / 2, 0}, {n - 1, 1}, {1, n - 2}}) {
      const std::string what = c.spec + " x" + std::to_string(c.copies) + " rows " +
                               std::to_string(first) + "+" + std::to_string(count);
      const auto expected = rows_of(c.expected, first, count);
      oracle::expect_matches(expected, gen::build_rows<V, I>(*s, rp, first, count), what);
      oracle::expect_matches(expected, gen::rows_of(whole, first, count), what + " (cut)");
    }
  }
}

TEST(RowRange, OnlyGridsGrow) {
  EXPECT_FALSE(gen::structured(parse_generator("rmat:6,4"), 1).has_value());
  EXPECT_FALSE(gen::structured(parse_generator("uniform:20,3"), 1).has_value());
  EXPECT_FALSE(gen::structured(parse_generator("arrow:5"), 2).has_value());
  EXPECT_EQ(gen::structured(parse_generator("lap3d:4"), 2)->name, "lap3d:4 x2");
}

}  // namespace
}  // namespace kobalt::test
