// SPDX-License-Identifier: BSD-3-Clause
// write_matrix_market: the exact text it writes, and write -> read round
// trips that give back the same bits (edge matrices, special values, gzip,
// a shared real matrix).
#include "fixtures/edge_matrices.hpp"
#include "fixtures/shared_matrices.hpp"
#include "fixtures/types.hpp"
#include "io/mm_test_util.hpp"

#include <kobalt/io/matrix_market.hpp>

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

namespace kobalt::test {
namespace {

template <class T>
class MatrixMarketWrite : public ::testing::Test {
 protected:
  using V = typename T::value_type;
  using I = typename T::index_type;
  std::string path(const std::string& stem, const std::string& ext = ".mtx") {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    return temp_dir().file(std::string(info->name()) + "_" + TypeNames::GetName<T>(0) + "_" + stem + ext);
  }
};
TYPED_TEST_SUITE(MatrixMarketWrite, ValueIndexTypes, TypeNames);

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TYPED_TEST(MatrixMarketWrite, WritesBannerCommentSizeAndOneBasedEntries) {
  using V = typename TestFixture::V;
  using I = typename TestFixture::I;
  const auto a = triplets<V, I>(3, 4, {{2, 3, 1.5}, {0, 0, -2}, {1, 2, 0}});
  const std::string p = this->path("text");
  write_matrix_market(p, a, "first line\nsecond line");
  EXPECT_EQ(slurp(p),
            "%%MatrixMarket matrix coordinate real general\n"
            "% first line\n"
            "% second line\n"
            "3 4 3\n"
            "3 4 1.5\n"
            "1 1 -2\n"
            "2 3 0\n");
  write_matrix_market(p, a);
  EXPECT_EQ(slurp(p).substr(0, 52), "%%MatrixMarket matrix coordinate real general\n3 4 3\n");
}

TYPED_TEST(MatrixMarketWrite, RoundTripOfEveryEdgeMatrixIsExact) {
  using V = typename TestFixture::V;
  using I = typename TestFixture::I;
  for (const auto& m : edge_matrices<V, I>()) {
    const std::string p = this->path(m.name);
    write_matrix_market(p, m.matrix, "edge matrix " + m.name);
    Triplets<V, I> expected = m.matrix;
    expected.assemble();  // the reader assembles; unassembled input comes back assembled
    expect_identical(expected, read_matrix_market<V, I>(p), m.name);
  }
}

TYPED_TEST(MatrixMarketWrite, RoundTripOfSpecialValuesIsBitExact) {
  using V = typename TestFixture::V;
  using I = typename TestFixture::I;
  using lim = std::numeric_limits<V>;
  const V values[] = {V(0.1),        -V(0),          lim::max(),         lim::lowest(),
                      lim::min(),    lim::denorm_min(), lim::epsilon(),  V(1) / V(3),
                      lim::infinity(), -lim::infinity(), lim::quiet_NaN(), V(-123456.789)};
  Triplets<V, I> a;
  a.rows = 1;
  a.cols = static_cast<I>(std::size(values));
  for (std::size_t k = 0; k < std::size(values); ++k) a.push_back(0, static_cast<I>(k), values[k]);
  const std::string p = this->path("special");
  write_matrix_market(p, a);
  expect_identical(a, read_matrix_market<V, I>(p), "special values");
}

#if KOBALT_TEST_GZIP
TYPED_TEST(MatrixMarketWrite, GzipRoundTrip) {
  using V = typename TestFixture::V;
  using I = typename TestFixture::I;
  const auto edges = edge_matrices<V, I>();
  const auto& m = edges.front();
  const std::string p = this->path("gz", ".mtx.gz");
  write_matrix_market(p, m.matrix);
  const std::vector<char> bytes = read_bytes(p);
  ASSERT_GE(bytes.size(), 2u);
  EXPECT_EQ(static_cast<unsigned char>(bytes[0]), 0x1f) << "gzip magic";
  EXPECT_EQ(static_cast<unsigned char>(bytes[1]), 0x8b) << "gzip magic";
  Triplets<V, I> expected = m.matrix;
  expected.assemble();
  expect_identical(expected, read_matrix_market<V, I>(p), m.name + " gz");
}
#else
TYPED_TEST(MatrixMarketWrite, GzipRefusedWithoutZlib) {
  using V = typename TestFixture::V;
  using I = typename TestFixture::I;
  const std::string p = this->path("gz", ".mtx.gz");
  expect_error<io_error>([&] { write_matrix_market(p, triplets<V, I>(1, 1, {{0, 0, 1}})); }, p, 0,
                         "cannot write a gzip-compressed file: Kobalt was built without zlib");
  EXPECT_FALSE(std::ifstream(p).good()) << "nothing is written";
}
#endif

TYPED_TEST(MatrixMarketWrite, UnwritablePathThrows) {
  using V = typename TestFixture::V;
  using I = typename TestFixture::I;
  const std::string p = temp_dir().file("no_such_dir/out.mtx");
  expect_error<io_error>([&] { write_matrix_market(p, triplets<V, I>(1, 1, {{0, 0, 1}})); }, p, 0,
                         "cannot open file for writing");
}

TYPED_TEST(MatrixMarketWrite, InvalidTripletsAreRejectedBeforeWriting) {
  using V = typename TestFixture::V;
  using I = typename TestFixture::I;
  const std::string p = this->path("invalid");
  EXPECT_THROW(write_matrix_market(p, triplets<V, I>(2, 2, {{2, 0, 1}})), invalid_matrix);
  EXPECT_FALSE(std::ifstream(p).good()) << "nothing is written for invalid input";
}

using MatrixMarketWriteShared = NeedsSharedMatrices<>;

TEST_F(MatrixMarketWriteShared, RoundTripOfARealMatrixIsExact) {
  // bcsstk13: symmetric storage, values with full double precision.
  const auto& a = shared_matrix<double, std::int32_t>("bcsstk13");
  const std::string p = temp_dir().file("bcsstk13_roundtrip.mtx.gz");
  write_matrix_market(p, a, "bcsstk13, expanded");
  expect_identical(a, read_matrix_market<double, std::int32_t>(p), "bcsstk13");
}

}  // namespace
}  // namespace kobalt::test
