// SPDX-License-Identifier: BSD-3-Clause
// kobalt-bench generators built on the device against their host oracles
// (generator_oracles.hpp): exact equality at small sizes for every
// generator and type, Csr invariants, nnz closed forms, determinism, and a
// few statistical properties that a wrong sampler would break.
#include "bench/generator_oracles.hpp"
#include "fixtures/spmv_check.hpp"
#include "fixtures/types.hpp"

#include <cmath>
#include <string>
#include <vector>

namespace kobalt::test {
namespace {

using bench::generate;
using bench::parse_generator;

template <class T>
class Generators : public ::testing::Test {};
TYPED_TEST_SUITE(Generators, ValueIndexTypes, TypeNames);

/// Specs at small, odd sizes, with the oracle of each (built once).
std::vector<std::pair<std::string, oracle::Matrix>> make_oracle_cases() {
  using namespace oracle;
  std::vector<std::pair<std::string, Matrix>> c;
  for (std::int64_t n : {1, 2, 7}) {
    c.push_back({"lap2d:" + std::to_string(n), stencil(n, 2, false)});
    c.push_back({"lap3d:" + std::to_string(n), stencil(n, 3, false)});
    c.push_back({"stencil27:" + std::to_string(n), stencil(n, 3, true)});
    c.push_back({"arrow:" + std::to_string(n), arrow(n)});
  }
  c.push_back({"fem:1,3,0", fem(1, 3, 0)});
  c.push_back({"fem:9,2,1", fem(9, 2, 1)});
  c.push_back({"fem:5,3,7", fem(5, 3, 7)});
  c.push_back({"fem:40,1,3", fem(40, 1, 3)});
  c.push_back({"uniform:1,1", random_rows(1, 1, 1, 1)});
  c.push_back({"uniform:50,50,9", random_rows(50, 50, 50, 9)});  // dense rows
  c.push_back({"uniform:300,7,3", random_rows(300, 300, 7, 3)});
  c.push_back({"uniform:1000,33", random_rows(1000, 1000, 33, 1)});
  c.push_back({"tall:301,17,5,2", random_rows(301, 17, 5, 2)});
  c.push_back({"wide:9,100000,40", random_rows(9, 100000, 40, 1)});
  c.push_back({"zipf:500,6", zipf(std::get<bench::spec::zipf>(parse_generator("zipf:500,6")))});
  c.push_back({"zipf:300,20,1.6,5", zipf(std::get<bench::spec::zipf>(parse_generator("zipf:300,20,1.6,5")))});
  c.push_back({"zipf:200,3.5,0.5", zipf(std::get<bench::spec::zipf>(parse_generator("zipf:200,3.5,0.5")))});
  c.push_back({"zipf:64,64,0", zipf(std::get<bench::spec::zipf>(parse_generator("zipf:64,64,0")))});
  for (const char* s : {"circuit:3,1,3", "circuit:3,3,3", "circuit:100,4,40,7", "circuit:1000,13,300",
                        "circuit:50,50,50", "circuit:20,0,3"})
    c.push_back({s, circuit(std::get<bench::spec::circuit>(parse_generator(s)))});
  // Rows longer than gen::long_row_items (2^16) take the chunked kernel.
  c.push_back({"arrow:70001", arrow(70001)});
  c.push_back({"zipf:100000,16", zipf(std::get<bench::spec::zipf>(parse_generator("zipf:100000,16")))});
  c.push_back({"circuit:150000,3,70000,2",
               circuit(std::get<bench::spec::circuit>(parse_generator("circuit:150000,3,70000,2")))});
  for (const char* s : {"rmat:0,3", "rmat:1,1", "rmat:6,4", "rmat:10,16,0.45,0.15,0.15,3",
                        "rmat:8,8,0.25,0.25,0.25", "rmat:5,40,0.9,0.05,0.05"})
    c.push_back({s, rmat(std::get<bench::spec::rmat>(parse_generator(s)))});
  return c;
}

const std::vector<std::pair<std::string, oracle::Matrix>>& oracle_cases() {
  static const auto cases = make_oracle_cases();
  return cases;
}

TYPED_TEST(Generators, MatchTheHostOracleExactly) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  for (const auto& [text, expected] : oracle_cases()) {
    const auto a = generate<V, I>(parse_generator(text));
    oracle::expect_valid_csr(a, text);
    oracle::expect_matches(expected, a, text);
  }
}

TEST(Generators, ClosedFormsGiveNnz) {
  auto nnz = [](const std::string& s) { return generate<double, std::int64_t>(parse_generator(s)).nnz(); };
  for (std::int64_t n : {1, 3, 10, 33}) {
    const std::string ns = std::to_string(n);
    EXPECT_EQ(nnz("lap2d:" + ns), 5 * n * n - 4 * n) << n;
    EXPECT_EQ(nnz("lap3d:" + ns), 7 * n * n * n - 6 * n * n) << n;
    EXPECT_EQ(nnz("stencil27:" + ns), (3 * n - 2) * (3 * n - 2) * (3 * n - 2)) << n;
    EXPECT_EQ(nnz("arrow:" + ns), 3 * n - 2) << n;
  }
  EXPECT_EQ(nnz("fem:10,3,2"), 9 * (10 * 5 - 6));
  EXPECT_EQ(nnz("uniform:1000,17"), 17000);
  EXPECT_EQ(nnz("tall:1000,100,100"), 100000);
  EXPECT_EQ(nnz("wide:100,100000,60"), 6000);
  // Interior dense rows: 3N - 2 + R (L - 3); rows 0 and N - 1 dense when R = N.
  EXPECT_EQ(nnz("circuit:100000,20,2000"), 3 * 100000 - 2 + 20 * (2000 - 3));
  EXPECT_EQ(nnz("circuit:40,40,5"), 3 * 40 - 2 + 40 * 2 + 2);
}

TEST(Generators, RowsHaveTheRequestedLengths) {
  const auto a = generate<double, std::int32_t>(parse_generator("circuit:4000,7,900,11"));
  auto row_ptr = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a.row_ptr());
  int dense = 0;
  for (int i = 0; i < 4000; ++i) {
    const int len = row_ptr(i + 1) - row_ptr(i);
    if (len == 900) {
      ++dense;
    } else {
      EXPECT_EQ(len, (i == 0 || i == 3999) ? 2 : 3) << i;
    }
  }
  EXPECT_EQ(dense, 7);
  EXPECT_EQ(a.max_row_nnz(), 900);
  const auto u = generate<float, std::int64_t>(parse_generator("uniform:777,31"));
  EXPECT_EQ(u.max_row_nnz(), 31);
  EXPECT_EQ(u.nnz(), 777 * 31);
}

TEST(Generators, TwoCallsGiveTheSameMatrixAndSeedsDiffer) {
  for (const char* s : {"uniform:5000,16,4", "zipf:3000,12", "rmat:12,8", "circuit:20000,5,3000"}) {
    const auto a = to_triplets(generate<double, std::int32_t>(parse_generator(s)));
    const auto b = to_triplets(generate<double, std::int32_t>(parse_generator(s)));
    expect_same_triplets(a, b, s);
  }
  const auto a = to_triplets(generate<double, std::int32_t>(parse_generator("uniform:100,10,1")));
  const auto b = to_triplets(generate<double, std::int32_t>(parse_generator("uniform:100,10,2")));
  EXPECT_NE(a.col, b.col);
}

TEST(Generators, UniformColumnsAreSpreadEvenly) {
  // 64 buckets of 20000 x 40 columns: each expects 12500 hits, sd ~ 110.
  const std::int64_t n = 20000, k = 40;
  const auto t = to_triplets(generate<double, std::int64_t>(parse_generator("uniform:20000,40")));
  std::vector<std::int64_t> bucket(64, 0);
  for (auto c : t.col) ++bucket[static_cast<std::size_t>(c * 64 / n)];
  for (std::size_t b = 0; b < bucket.size(); ++b)
    EXPECT_NEAR(static_cast<double>(bucket[b]), n * k / 64.0, 700.0) << "bucket " << b;
  // Adjacent columns (c, c + 1) in a row: a uniform k-subset of n has
  // k (k - 1) / n such pairs per row; the sorted-sample construction ties
  // two floor(u (n - k + 1)) values half as often (row_engine.hpp), so
  // k (k - 1) / 2n per row: 780 here (sd ~ 28). Stratified or evenly spaced
  // columns would give almost none, sampling with replacement duplicates.
  std::int64_t adjacent = 0;
  for (std::size_t e = 1; e < t.col.size(); ++e)
    adjacent += t.row[e] == t.row[e - 1] && t.col[e] == t.col[e - 1] + 1;
  EXPECT_GT(adjacent, 600);
  EXPECT_LT(adjacent, 960);
}

TEST(Generators, RmatCountsEveryEdgeAndFollowsTheInitiator) {
  const auto g = std::get<bench::spec::rmat>(parse_generator("rmat:12,16"));
  const auto t = to_triplets(generate<double, std::int64_t>(bench::GeneratorSpec{g}));
  const std::int64_t rows = 4096, edges = 16 * rows;
  std::int64_t total = 0, top = 0, left = 0, self = 0;
  for (std::size_t e = 0; e < t.val.size(); ++e) {
    const double unit = bench::gen::hashed_value(g.seed, t.row[e], t.col[e]);
    const double m = t.val[e] / unit;  // multiplicity, exact in double
    ASSERT_EQ(m, std::floor(m)) << e;
    total += static_cast<std::int64_t>(m);
    if (t.row[e] < rows / 2) top += static_cast<std::int64_t>(m);
    if (t.col[e] < rows / 2) left += static_cast<std::int64_t>(m);
    if (t.row[e] == t.col[e]) ++self;
  }
  EXPECT_EQ(total, edges);
  EXPECT_LT(t.nnz(), edges);  // duplicates were merged
  EXPECT_GT(self, 0);         // self-loops kept
  // P(top half) = a + b = 0.76, P(left half) = a + c = 0.76; sd ~ 0.0017.
  EXPECT_NEAR(static_cast<double>(top) / edges, 0.76, 0.01);
  EXPECT_NEAR(static_cast<double>(left) / edges, 0.76, 0.01);
}

TEST(Generators, ZipfLengthsFollowThePowerLawWithTheRequestedMean) {
  for (const char* s : {"zipf:100000,16", "zipf:50000,8,0.7,3", "zipf:20000,30,2"}) {
    const auto z = std::get<bench::spec::zipf>(parse_generator(s));
    const auto plan = bench::gen::zipf_plan(z, s);
    // Every rank within one of round(C r^-s): the tail's threshold form
    // agrees with the direct formula.
    for (std::int64_t r = 1; r <= z.n; r += 1 + r / 50) {
      const double want = std::min(static_cast<double>(z.n), std::floor(plan.c * std::pow(double(r), -z.exponent) + 0.5));
      EXPECT_NEAR(static_cast<double>(oracle::zipf_length(plan, r)), want, 1.0) << s << " rank " << r;
    }
    const auto a = generate<double, std::int32_t>(parse_generator(s));
    EXPECT_EQ(a.nnz(), plan.nnz) << s;
    EXPECT_NEAR(static_cast<double>(a.nnz()) / z.n, z.mean, 0.01 * z.mean) << s;
    EXPECT_EQ(a.max_row_nnz(), plan.head[0]) << s;
  }
}

TEST(Generators, ToStringRoundTrips) {
  for (const char* s : {"lap2d:5", "lap3d:1e2", "stencil27:2^4", "fem:3,4,5", "uniform:10,3",
                        "tall:30,10,2,9", "wide:3,10,2", "zipf:100,2.5", "zipf:100,2.5,1.25,3",
                        "rmat:10,16", "rmat:4,2,0.5,0.2,0.1,8", "circuit:10,2,5", "arrow:4"}) {
    const std::string canonical = bench::to_string(parse_generator(s));
    EXPECT_EQ(bench::to_string(parse_generator(canonical)), canonical) << s;
    EXPECT_TRUE(bench::is_generator_spec(s)) << s;
  }
  EXPECT_EQ(bench::to_string(parse_generator("lap3d:1e2")), "lap3d:100");
  EXPECT_EQ(bench::to_string(parse_generator("uniform:2^10,4")), "uniform:1024,4,1");
  EXPECT_EQ(bench::to_string(parse_generator("rmat:10,16")), "rmat:10,16,0.57,0.19,0.19,1");
  EXPECT_EQ(bench::to_string(parse_generator("zipf:10,2")), "zipf:10,2,1,1");
  EXPECT_FALSE(bench::is_generator_spec("matrix.mtx"));
  EXPECT_FALSE(bench::is_generator_spec("lap4d:3"));
}

}  // namespace
}  // namespace kobalt::test
