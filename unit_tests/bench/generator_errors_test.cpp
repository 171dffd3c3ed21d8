// SPDX-License-Identifier: BSD-3-Clause
// Generator error paths: malformed specs (std::invalid_argument naming the
// spec and the problem), sizes that overflow int32 (kobalt::index_overflow)
// and a storage limit (kobalt::format_too_large), both thrown before any
// allocation: the sizes below would need gigabytes, so a generator that
// allocated first would not finish in time.
#include <generators/generators.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <limits>
#include <string>

namespace kobalt::test {
namespace {

using bench::generate;
using bench::parse_generator;

/// parse_generator(spec) throws invalid_argument whose message names the
/// spec and contains `needle`.
void expect_bad_spec(const std::string& spec, const std::string& needle) {
  try {
    parse_generator(spec);
    ADD_FAILURE() << spec << " was accepted";
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("'" + spec + "'"), std::string::npos) << message;
    EXPECT_NE(message.find(needle), std::string::npos) << spec << ": " << message;
  }
}

TEST(GeneratorSpecs, BadSpecsThrowInvalidArgumentWithTheProblem) {
  expect_bad_spec("lap4d:3", "unknown generator");
  expect_bad_spec("lap2d", "unknown generator");
  expect_bad_spec("lap2d:", "N must be a non-negative integer");
  expect_bad_spec("lap2d:0", "N must be at least 1");
  expect_bad_spec("lap2d:-4", "N must be a non-negative integer");
  expect_bad_spec("lap2d:3.5", "N must be a non-negative integer");
  expect_bad_spec("lap2d:3,4", "expected lap2d:N (2 arguments given)");
  expect_bad_spec("lap3d:3000000", "exceeds 2^63 - 1");
  expect_bad_spec("stencil27:1e30", "N must be a non-negative integer");
  // Found by fuzz/specs_fuzz: powers of 0 divided by zero, and powers of 0
  // and 1 looped once per unit of the exponent.
  expect_bad_spec("lap3d:0^4", "N must be at least 1");
  expect_bad_spec("lap3d:0^9999999999999999999", "N must be at least 1");
  EXPECT_EQ(bench::to_string(parse_generator("lap2d:1^9999999999999999999")), "lap2d:1");
  EXPECT_EQ(bench::to_string(parse_generator("lap2d:7^0")), "lap2d:1");
  expect_bad_spec("fem:4,2", "expected fem:N,B,W");
  expect_bad_spec("fem:4,0,1", "B must be at least 1");
  expect_bad_spec("uniform:10", "expected uniform:N,K[,seed]");
  expect_bad_spec("uniform:10,11", "K must be at most N");
  expect_bad_spec("uniform:10,3,x", "seed must be a non-negative integer");
  expect_bad_spec("uniform:2^62,2", "nnz exceeds 2^63 - 1");
  expect_bad_spec("rmat:40,9000000", "edges exceeds 2^63 - 1");
  expect_bad_spec("tall:10,10,2", "tall needs M > N");
  expect_bad_spec("wide:10,5,2", "wide needs M < N");
  expect_bad_spec("wide:5,10,11", "K must be at most N");
  expect_bad_spec("zipf:100,0", "MEAN must lie in (0, N]");
  expect_bad_spec("zipf:100,101", "MEAN must lie in (0, N]");
  expect_bad_spec("zipf:100,nan", "MEAN must be a finite number");
  expect_bad_spec("zipf:100,4,-1", "s must lie in [0, 16]");
  expect_bad_spec("rmat:10", "expected rmat:SCALE,EF[,a,b,c,seed]");
  expect_bad_spec("rmat:10,16,0.5", "give all three of a, b, c or none");
  expect_bad_spec("rmat:10,16,0.5,0.3,0.3", "a + b + c <= 1");
  expect_bad_spec("rmat:10,16,0,0,0.5", "0 < a + b < 1");
  expect_bad_spec("rmat:41,1", "SCALE must be at most 40");
  // Found by fuzz/specs_fuzz: SCALE was cast to int before its range check
  // (1e15 wrapped to a negative shift).
  expect_bad_spec("rmat:1000000000000000,4", "SCALE must be at most 40");
  expect_bad_spec("rmat:4294967336,4", "SCALE must be at most 40");
  expect_bad_spec("rmat:10,0", "EF must be at least 1");
  expect_bad_spec("circuit:2,1,3", "N must be at least 3");
  expect_bad_spec("circuit:10,11,3", "R must be at most N");
  expect_bad_spec("circuit:10,1,2", "L must be at least 3");
  expect_bad_spec("circuit:10,1,11", "L must be at most N");
  expect_bad_spec("arrow:1,2", "expected arrow:N");
}

/// generate<V, int32> throws index_overflow naming `needle` (rows, cols or
/// nnz), quickly (nothing allocated).
template <class V>
void expect_int32_overflow(const std::string& spec, const std::string& needle) {
  const auto start = std::chrono::steady_clock::now();
  try {
    generate<V, std::int32_t>(parse_generator(spec));
    ADD_FAILURE() << spec << " fit int32";
  } catch (const index_overflow& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(spec), std::string::npos) << message;
    EXPECT_NE(message.find(needle + " = "), std::string::npos) << message;
  }
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 2.0)
      << spec << ": the check came after allocating";
}

TEST(GeneratorSpecs, Int32OverflowIsReportedBeforeAllocating) {
  expect_int32_overflow<double>("lap2d:30000", "nnz");                // 4.5e9
  expect_int32_overflow<double>("lap3d:700", "nnz");                  // 7 700^3 - 6 700^2 = 2.4e9
  expect_int32_overflow<float>("stencil27:500", "nnz");               // 1498^3 = 3.4e9
  expect_int32_overflow<double>("lap3d:1300", "rows");                // 2.2e9 rows
  expect_int32_overflow<double>("fem:100000000,2,10", "nnz");         // 8.4e9
  expect_int32_overflow<double>("uniform:100000000,30", "nnz");       // 3e9
  expect_int32_overflow<double>("tall:3000000000,10,1", "rows");
  expect_int32_overflow<double>("wide:10,3000000000,2", "cols");
  expect_int32_overflow<double>("zipf:300000000,8", "nnz");           // 2.4e9
  expect_int32_overflow<double>("circuit:800000000,1,3", "nnz");      // 2.4e9
  expect_int32_overflow<double>("arrow:1000000000", "nnz");           // 3e9 - 2
  expect_int32_overflow<double>("rmat:31,1", "rows");                 // 2^31 rows
  // nnz = 2^31 exactly does not fit either (the largest int32 is 2^31 - 1).
  expect_int32_overflow<double>("tall:1073741824,2,2", "nnz");
  // Found by fuzz/specs_fuzz's inputs (session 26): the shape's 2N
  // overflowed int64 before any check (UBSan) when W = 0.
  expect_int32_overflow<double>("fem:4611686018427387904,1,0", "rows");
  EXPECT_THROW((generate<double, std::int64_t>(parse_generator("fem:4611686018427387904,1,0"))),
               format_too_large);
}

// Found by fuzz/specs_fuzz (session 24, a heap-buffer-overflow whose input
// was lost; traced in session 26): R-MAT's 2^62 edges made its byte count
// wrap to a small number, which passed the storage check, and its arrays of
// E entries were allocated at a wrapped size and written past. Saturated
// counts are refused, for every index type and also without a limit.
TEST(GeneratorSpecs, ByteCountsPast64BitsAreRefusedNotWrapped) {
  for (const char* spec : {"rmat:0,4611686018427387904", "rmat:1,2305843009213693951"}) {
    const auto g = parse_generator(spec);
    EXPECT_THROW((generate<double, std::int32_t>(g, 1u << 20)), format_too_large) << spec;
    EXPECT_THROW((generate<double, std::int64_t>(g)), format_too_large) << spec;
  }
  // circuit's samples R L (2^62 here; int32 refuses its nnz first)
  EXPECT_THROW((generate<double, std::int64_t>(
                   parse_generator("circuit:2147483647,2147483647,2147483647"))),
               format_too_large);
}

// Found by fuzz/specs_fuzz: the message named the generator twice
// ("generator 'generator 'zipf:...''"), and a huge n was planned (seconds)
// before its rows were checked against the memory.
TEST(GeneratorSpecs, ZipfTablesPastTheirLimitAreRefusedByName) {
  const auto huge = parse_generator("zipf:210000000000000000,1.2,1");
  EXPECT_THROW((generate<double, std::int64_t>(huge)), format_too_large);
  try {  // with room for the rows, the row-length tables are what is too large
    (void)generate<double, std::int64_t>(huge, std::numeric_limits<std::uint64_t>::max());
    ADD_FAILURE() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind("generator 'zipf:210000000000000000,1.2,1,1': the "
                                          "row-length tables would need more than 2^24 entries",
                                          0),
              0u)
        << e.what();
  }
}

TEST(GeneratorSpecs, StorageLimitIsCheckedBeforeAllocating) {
  auto build = [](const std::string& spec, std::uint64_t max_bytes) {
    return generate<double, std::int32_t>(parse_generator(spec), max_bytes);
  };
  for (const char* spec : {"lap3d:50", "uniform:10000,10", "zipf:10000,10", "rmat:10,8",
                           "circuit:1000,2,100", "arrow:1000", "fem:10,4,2"}) {
    EXPECT_THROW(build(spec, 1000), format_too_large) << spec;
  }
  // lap2d:10 needs 460 entries * 12 bytes + 101 * 4 bytes = 5924 bytes.
  EXPECT_THROW(build("lap2d:10", 5923), format_too_large);
  EXPECT_EQ(build("lap2d:10", 5924).nnz(), 460);
}

}  // namespace
}  // namespace kobalt::test
