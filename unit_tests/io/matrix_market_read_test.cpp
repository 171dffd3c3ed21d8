// SPDX-License-Identifier: BSD-3-Clause
// read_matrix_market on tiny hand-written files: every format x field x
// symmetry variant with its exact expected triplets, and the lenient corners
// (comments anywhere, blank lines, CRLF, tabs, signs, case).
#include "fixtures/types.hpp"
#include "io/mm_test_util.hpp"

#include <kobalt/io/matrix_market.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace kobalt::test {
namespace {

template <class T>
class MatrixMarketRead : public ::testing::Test {
 protected:
  using V = typename T::value_type;
  using I = typename T::index_type;
  /// Reads `text` from a temp file named after the test and the types.
  Triplets<V, I> read(const std::string& text, bool gz = false) {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    const std::string name = std::string(info->name()) + "_" + TypeNames::GetName<T>(0) + ".mtx";
#if KOBALT_TEST_GZIP
    const std::string path = gz ? write_gzip(name + ".gz", text) : write_text(name, text);
#else
    EXPECT_FALSE(gz) << "no gzip input in a build without zlib";
    const std::string path = write_text(name, text);
#endif
    return read_matrix_market<V, I>(path);
  }
  Triplets<V, I> expected(I rows, I cols, std::vector<std::tuple<I, I, double>> e) {
    return triplets<V, I>(rows, cols, std::move(e));
  }
};
TYPED_TEST_SUITE(MatrixMarketRead, ValueIndexTypes, TypeNames);

// Unsorted input with a duplicate and an explicit zero:
//   [ 1.5  0   -2  ]      (1,1)=1.5 (1,3)=-2
//   [ 0    0    0* ]      (2,3)=0 stored explicitly
//   [ 4+1  0    0  ]      (3,1) given twice: 4 and 1 -> 5
TYPED_TEST(MatrixMarketRead, CoordinateRealGeneralIsSortedSummedAndKeepsZeros) {
  auto got = this->read(
      "%%MatrixMarket matrix coordinate real general\n"
      "% a comment\n"
      "3 3 5\n"
      "3 1 4\n"
      "1 3 -2\n"
      "2 3 0\n"
      "1 1 1.5\n"
      "3 1 1\n");
  expect_identical(this->expected(3, 3, {{0, 0, 1.5}, {0, 2, -2}, {1, 2, 0}, {2, 0, 5}}), got, "general");
}

TYPED_TEST(MatrixMarketRead, DuplicatesAreSummedInFileOrder) {
  // 1e8 + 1 - 1e8 in float is 0 if summed left to right ((1e8 + 1) rounds to
  // 1e8), 1 otherwise; the reader sums in file order like Triplets::assemble.
  auto got = this->read(
      "%%MatrixMarket matrix coordinate real general\n"
      "1 2 4\n"
      "1 2 1e8\n"
      "1 1 7\n"
      "1 2 1\n"
      "1 2 -1e8\n");
  using V = typename TestFixture::V;
  const V expect = (V(1e8) + V(1)) + V(-1e8);
  expect_identical(this->expected(1, 2, {{0, 0, 7}, {0, 1, static_cast<double>(expect)}}), got, "order");
}

TYPED_TEST(MatrixMarketRead, IntegerAndDoubleFields) {
  auto ints = this->read(
      "%%MatrixMarket matrix coordinate integer general\n"
      "2 2 2\n"
      "2 2 -7\n"
      "1 2 +3\n");
  expect_identical(this->expected(2, 2, {{0, 1, 3}, {1, 1, -7}}), ints, "integer");
  auto dbl = this->read(
      "%%MatrixMarket matrix coordinate double general\n"
      "2 2 2\n"
      "2 1 -.5\n"
      "1 2 2.5E+1\n");
  expect_identical(this->expected(2, 2, {{0, 1, 25}, {1, 0, -0.5}}), dbl, "double");
}

TYPED_TEST(MatrixMarketRead, PatternEntriesAreOne) {
  auto got = this->read(
      "%%MatrixMarket matrix coordinate pattern general\n"
      "2 3 3\n"
      "2 3\n"
      "1 1\n"
      "2 1\n");
  expect_identical(this->expected(2, 3, {{0, 0, 1}, {1, 0, 1}, {1, 2, 1}}), got, "pattern");
}

// Lower triangle stored:          expanded:
//   [ 2  .  . ]                   [ 2  -1   0* ]
//   [-1  3  . ]                   [-1   3   4  ]
//   [ 0* 4  . ]                   [ 0*  4   .  ]
TYPED_TEST(MatrixMarketRead, SymmetricIsMirroredWithTheDiagonalOnce) {
  auto got = this->read(
      "%%MatrixMarket matrix coordinate real symmetric\n"
      "3 3 5\n"
      "1 1 2\n"
      "2 1 -1\n"
      "3 1 0\n"
      "2 2 3\n"
      "3 2 4\n");
  expect_identical(this->expected(3, 3, {{0, 0, 2}, {0, 1, -1}, {0, 2, 0}, {1, 0, -1}, {1, 1, 3},
                                         {1, 2, 4}, {2, 0, 0}, {2, 1, 4}}),
                   got, "symmetric");
}

TYPED_TEST(MatrixMarketRead, SymmetricUpperTriangleEntriesAreMirroredToo) {
  // The spec stores the lower triangle; files that store the upper one are
  // read the same way (an entry and its mirror), not rejected.
  auto got = this->read(
      "%%MatrixMarket matrix coordinate pattern symmetric\n"
      "2 2 2\n"
      "1 2\n"
      "1 1\n");
  expect_identical(this->expected(2, 2, {{0, 0, 1}, {0, 1, 1}, {1, 0, 1}}), got, "upper");
}

TYPED_TEST(MatrixMarketRead, SkewSymmetricMirrorsWithNegatedValues) {
  auto got = this->read(
      "%%MatrixMarket matrix coordinate real skew-symmetric\n"
      "3 3 2\n"
      "2 1 1.5\n"
      "3 2 -4\n");
  expect_identical(this->expected(3, 3, {{0, 1, -1.5}, {1, 0, 1.5}, {1, 2, 4}, {2, 1, -4}}), got, "skew");
}

TYPED_TEST(MatrixMarketRead, HermitianRealIsSymmetric) {
  auto got = this->read(
      "%%MatrixMarket matrix coordinate real hermitian\n"
      "2 2 2\n"
      "1 1 5\n"
      "2 1 -3\n");
  expect_identical(this->expected(2, 2, {{0, 0, 5}, {0, 1, -3}, {1, 0, -3}}), got, "hermitian");
}

// Column-major, every value an entry (zeros too):
//   [ 1  0  ]
//   [ 2  4  ]
//   [ 3 -5  ]
TYPED_TEST(MatrixMarketRead, ArrayGeneralIsColumnMajorAndKeepsZeros) {
  auto got = this->read(
      "%%MatrixMarket matrix array real general\n"
      "% comment\n"
      "3 2\n"
      "1\n2\n3\n0\n4\n-5\n");
  expect_identical(this->expected(3, 2, {{0, 0, 1}, {0, 1, 0}, {1, 0, 2}, {1, 1, 4}, {2, 0, 3}, {2, 1, -5}}),
                   got, "array general");
}

TYPED_TEST(MatrixMarketRead, ArraySymmetricStoresTheLowerTriangle) {
  // Stored column by column: (1,1) (2,1) (3,1) (2,2) (3,2) (3,3).
  auto got = this->read(
      "%%MatrixMarket matrix array integer symmetric\n"
      "3 3\n"
      "1\n2\n3\n4\n0\n6\n");
  expect_identical(this->expected(3, 3, {{0, 0, 1}, {0, 1, 2}, {0, 2, 3}, {1, 0, 2}, {1, 1, 4},
                                         {1, 2, 0}, {2, 0, 3}, {2, 1, 0}, {2, 2, 6}}),
                   got, "array symmetric");
}

TYPED_TEST(MatrixMarketRead, ArraySkewSymmetricStoresTheStrictLowerTriangle) {
  // Stored: (2,1) (3,1) (3,2).
  auto got = this->read(
      "%%MatrixMarket matrix array real skew-symmetric\n"
      "3 3\n"
      "1\n2\n3\n");
  expect_identical(this->expected(3, 3, {{0, 1, -1}, {0, 2, -2}, {1, 0, 1}, {1, 2, -3}, {2, 0, 2}, {2, 1, 3}}),
                   got, "array skew");
}

TYPED_TEST(MatrixMarketRead, LenientWhitespaceCommentsCaseAndLineEndings) {
  auto got = this->read(
      "%%matrixmarket MATRIX Coordinate Real General\r\n"
      "\r\n"
      "%comment before the size line\r\n"
      "  2\t2   2  \r\n"
      "% a comment between entries\r\n"
      "\t1 1\t 1.0e0 \r\n"
      "\r\n"
      "2   2 -1E-0\r\n"
      "\n"
      "% trailing comment\n"
      "   \n");
  expect_identical(this->expected(2, 2, {{0, 0, 1}, {1, 1, -1}}), got, "lenient");
}

TYPED_TEST(MatrixMarketRead, LastLineWithoutNewline) {
  auto got = this->read("%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 9.5");
  expect_identical(this->expected(1, 1, {{0, 0, 9.5}}), got, "no final newline");
}

TYPED_TEST(MatrixMarketRead, EmptyMatrices) {
  expect_identical(this->expected(0, 0, {}),
                   this->read("%%MatrixMarket matrix coordinate real general\n0 0 0\n"), "0x0");
  expect_identical(this->expected(4, 3, {}),
                   this->read("%%MatrixMarket matrix coordinate pattern general\n4 3 0\n"), "4x3");
  expect_identical(this->expected(0, 5, {}), this->read("%%MatrixMarket matrix array real general\n0 5\n"),
                   "array 0x5");
}

#if KOBALT_TEST_GZIP
TYPED_TEST(MatrixMarketRead, GzipFile) {
  auto got = this->read(
      "%%MatrixMarket matrix coordinate real general\n"
      "2 3 2\n"
      "2 3 0.25\n"
      "1 2 -8\n",
      true);
  expect_identical(this->expected(2, 3, {{0, 1, -8}, {1, 2, 0.25}}), got, "gzip");
}

TEST(MatrixMarketReadGzip, ShippedMatrix) {
  // data/grid_hubs.mtx.gz (data/README.md): 903 rows, 2,943 stored entries
  // of the lower triangle, 4,983 after the symmetric expansion.
  const auto t = read_matrix_market<double, std::int32_t>(shipped_gzip_matrix());
  EXPECT_EQ(t.rows, 903);
  EXPECT_EQ(t.cols, 903);
  EXPECT_EQ(t.nnz(), 4983);
  std::vector<std::int64_t> len(903, 0);
  for (auto r : t.row) ++len[static_cast<std::size_t>(r)];
  EXPECT_EQ(*std::min_element(len.begin(), len.end()), 3) << "a grid corner";
  EXPECT_EQ(*std::max_element(len.begin(), len.end()), 101) << "a hub row";
}
#else
TEST(MatrixMarketReadGzip, RefusedWithoutZlib) {
  const std::string path = shipped_gzip_matrix();
  expect_error<io_error>([&] { read_matrix_market<double, std::int32_t>(path); }, path, 0,
                         "cannot read a gzip-compressed file: Kobalt was built without zlib");
}
#endif

TYPED_TEST(MatrixMarketRead, LongUnsortedRowWithDuplicates) {
  // 40 entries in one row (beyond the insertion-sort cutoff), columns in
  // reverse order, column 7 twice.
  std::string text = "%%MatrixMarket matrix coordinate real general\n2 40 41\n";
  for (int c = 40; c >= 1; --c) text += "2 " + std::to_string(c) + " " + std::to_string(c) + "\n";
  text += "2 7 0.5\n";
  std::vector<std::tuple<typename TestFixture::I, typename TestFixture::I, double>> e;
  for (int c = 1; c <= 40; ++c) e.emplace_back(1, c - 1, c == 7 ? 7.5 : c);
  expect_identical(this->expected(2, 40, e), this->read(text), "long row");
}

TYPED_TEST(MatrixMarketRead, ManyEmptyRowsTakeTheSparsePath) {
  // rows >> entries: assembled without O(rows) counters.
  auto got = this->read(
      "%%MatrixMarket matrix coordinate real general\n"
      "100000 3 3\n"
      "99999 1 2\n"
      "5 3 1\n"
      "99999 1 3\n");
  expect_identical(this->expected(100000, 3, {{4, 2, 1}, {99998, 0, 5}}), got, "sparse rows");
}

TYPED_TEST(MatrixMarketRead, ValuesAreParsedDirectlyInTheValueType) {
  using V = typename TestFixture::V;
  auto got = this->read(
      "%%MatrixMarket matrix coordinate real general\n"
      "1 4 4\n"
      "1 1 1.00000017881393432617187499\n"
      "1 2 3.4028234663852886e+38\n"
      "1 3 1e-400\n"
      "1 4 -1e-400\n");
  ASSERT_EQ(got.nnz(), 4);
  // Just below the float midpoint 1 + 3 * 2^-24: float rounds down to
  // 1 + 2^-23; through double it would hit the midpoint exactly and round
  // (to even) up to 1 + 2^-22. Double itself rounds to the midpoint.
  const double expect = std::is_same_v<V, float> ? 1.00000011920928955078125 : 1.000000178813934326171875;
  EXPECT_TRUE(same_value(got.val[0], static_cast<V>(expect))) << got.val[0];
  EXPECT_TRUE(same_value(got.val[1], static_cast<V>(std::numeric_limits<float>::max())));
  EXPECT_TRUE(same_value(got.val[2], V(0))) << "underflow rounds to zero";
  EXPECT_TRUE(same_value(got.val[3], -V(0))) << "underflow keeps the sign";
}

TYPED_TEST(MatrixMarketRead, NanAndInfinityAreAccepted) {
  auto got = this->read(
      "%%MatrixMarket matrix coordinate real general\n"
      "1 3 3\n"
      "1 1 nan\n"
      "1 2 inf\n"
      "1 3 -inf\n");
  ASSERT_EQ(got.nnz(), 3);
  EXPECT_TRUE(std::isnan(got.val[0]));
  EXPECT_TRUE(std::isinf(got.val[1]) && got.val[1] > 0);
  EXPECT_TRUE(std::isinf(got.val[2]) && got.val[2] < 0);
}

TYPED_TEST(MatrixMarketRead, LargestDimensionsOfTheIndexTypeFit) {
  using I = typename TestFixture::I;
  const std::string max = std::to_string(std::numeric_limits<I>::max());
  auto got = this->read("%%MatrixMarket matrix coordinate real general\n" + max + " " + max + " 1\n" +
                        max + " " + max + " 2\n");
  const I m = std::numeric_limits<I>::max();
  expect_identical(this->expected(m, m, {{m - 1, m - 1, 2}}), got, "max index");
}

}  // namespace
}  // namespace kobalt::test
