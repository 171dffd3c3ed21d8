// SPDX-License-Identifier: BSD-3-Clause
// Every way read_matrix_market rejects input: the exception type, and a
// message naming the file, the line and the problem.
#include "fixtures/types.hpp"
#include "io/mm_test_util.hpp"

#include <kobalt/io/matrix_market.hpp>

#include <fstream>
#include <string>

namespace kobalt::test {
namespace {

const std::string coo_banner = "%%MatrixMarket matrix coordinate real general\n";

template <class T>
class MatrixMarketErrors : public ::testing::Test {
 protected:
  using V = typename T::value_type;
  using I = typename T::index_type;
  /// Writes `text`, reads it and expects Error at `line` with `phrase`.
  template <class Error = io_error>
  void expect(const std::string& text, std::int64_t line, const std::string& phrase) {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    const std::string path = write_text(std::string(info->name()) + "_" + TypeNames::GetName<T>(0) + "_" +
                                            std::to_string(counter_++) + ".mtx",
                                        text);
    SCOPED_TRACE(text);
    expect_error<Error>([&] { read_matrix_market<V, I>(path); }, path, line, phrase);
  }

 private:
  int counter_ = 0;
};
TYPED_TEST_SUITE(MatrixMarketErrors, ValueIndexTypes, TypeNames);

TYPED_TEST(MatrixMarketErrors, MissingFile) {
  const std::string path = temp_dir().file("no_such_file.mtx");
  expect_error<io_error>([&] { read_matrix_market<typename TestFixture::V, typename TestFixture::I>(path); },
                         path, 0, "cannot open file");
}

TYPED_TEST(MatrixMarketErrors, DirectoryIsAReadError) {
  const std::string dir = temp_dir().file("a_directory.mtx");
  std::filesystem::create_directories(dir);
  expect_error<io_error>([&] { read_matrix_market<typename TestFixture::V, typename TestFixture::I>(dir); },
                         dir, 1, "read error");
}

TYPED_TEST(MatrixMarketErrors, MalformedBanner) {
  this->expect("", 1, "empty file");
  this->expect("MatrixMarket matrix coordinate real general\n1 1 0\n", 1, "must start with %%MatrixMarket");
  this->expect("% just a comment\n1 1 0\n", 1, "must start with %%MatrixMarket");
  this->expect("%%MatrixMarket matrix coordinate real\n1 1 0\n", 1, "found 4 words");
  this->expect("%%MatrixMarket matrix coordinate real general extra\n1 1 0\n", 1, "found 6 words");
  this->expect("%%MatrixMarket vector coordinate real general\n1 1 0\n", 1, "unsupported object 'vector'");
  this->expect("%%MatrixMarket matrix coordinates real general\n1 1 0\n", 1, "unknown format 'coordinates'");
}

TYPED_TEST(MatrixMarketErrors, UnknownField) {
  this->expect("%%MatrixMarket matrix coordinate quaternion general\n1 1 0\n", 1, "unknown field 'quaternion'");
}

// Complex files need complex values (io/matrix_market_complex_test.cpp reads them).
TYPED_TEST(MatrixMarketErrors, ComplexIntoRealIsRefused) {
  this->expect("%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n", 1,
               "a complex matrix cannot be read into real values");
  this->expect("%%MatrixMarket matrix array complex hermitian\n1 1\n1 0\n", 1,
               "read it as Kokkos::complex<float> or Kokkos::complex<double>");
}

TYPED_TEST(MatrixMarketErrors, UnknownSymmetry) {
  this->expect("%%MatrixMarket matrix coordinate real antisymmetric\n1 1 0\n", 1,
               "unknown symmetry 'antisymmetric'");
}

TYPED_TEST(MatrixMarketErrors, ImpossibleCombinations) {
  this->expect("%%MatrixMarket matrix array pattern general\n1 1\n", 1, "pattern field requires the coordinate");
  this->expect("%%MatrixMarket matrix coordinate pattern skew-symmetric\n2 2 1\n2 1\n", 1,
               "cannot be skew-symmetric");
}

TYPED_TEST(MatrixMarketErrors, MissingSizeLine) {
  this->expect(coo_banner, 2, "missing size line");
  this->expect(coo_banner + "% comment\n\n% another\n", 5, "missing size line");
}

TYPED_TEST(MatrixMarketErrors, WrongSizeLine) {
  this->expect(coo_banner + "3 3\n", 2, "found 2 tokens");
  this->expect(coo_banner + "% c\n3 3 1 1\n1 1 1\n", 3, "found 4 tokens");
  this->expect("%%MatrixMarket matrix array real general\n3 3 9\n", 2, "expected 'rows cols', found 3 tokens");
  this->expect(coo_banner + "-3 3 0\n", 2, "rows must not be negative");
  this->expect(coo_banner + "3 3 -1\n", 2, "entries must not be negative");
  this->expect(coo_banner + "3 three 0\n", 2, "cols 'three' is not an integer");
  this->expect(coo_banner + "3 3.0 0\n", 2, "cols '3.0' is not an integer");
  this->expect(coo_banner + "3x 3 0\n", 2, "rows '3x' is not an integer");
}

TYPED_TEST(MatrixMarketErrors, SymmetricMustBeSquare) {
  this->expect("%%MatrixMarket matrix coordinate real symmetric\n3 4 1\n1 1 1\n", 2, "must be square, got 3 x 4");
  this->expect("%%MatrixMarket matrix array real skew-symmetric\n2 3\n1\n", 2, "must be square");
}

TYPED_TEST(MatrixMarketErrors, FewerEntriesThanDeclared) {
  this->expect(coo_banner + "3 3 3\n1 1 1\n2 2 2\n", 5, "end of file after 2 of 3 declared entries");
  this->expect(coo_banner + "3 3 3\n1 1 1\n% comment\n\n", 6, "end of file after 1 of 3");
  this->expect("%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n", 6, "end of file after 3 of 4");
}

TYPED_TEST(MatrixMarketErrors, MoreEntriesThanDeclared) {
  this->expect(coo_banner + "3 3 2\n1 1 1\n2 2 2\n% ok\n\n3 3 3\n", 7, "more entries than the 2 declared");
  this->expect("%%MatrixMarket matrix array real symmetric\n2 2\n1\n2\n3\n4\n", 6, "more entries than the 3");
}

TYPED_TEST(MatrixMarketErrors, IndexOutOfRange) {
  this->expect(coo_banner + "3 4 2\n1 1 1\n0 2 1\n", 4, "row index 0 out of range [1, 3]");
  this->expect(coo_banner + "3 4 1\n4 2 1\n", 3, "row index 4 out of range [1, 3]");
  this->expect(coo_banner + "3 4 1\n1 5 1\n", 3, "column index 5 out of range [1, 4]");
  this->expect(coo_banner + "3 4 1\n1 -1 1\n", 3, "column index -1 out of range");
  this->expect(coo_banner + "3 4 1\n99999999999999999999 1 1\n", 3, "row index 99999999999999999999 out of range");
}

TYPED_TEST(MatrixMarketErrors, NonNumericTokens) {
  this->expect(coo_banner + "3 3 1\n1 1 1.5abc\n", 3, "value '1.5abc' is not a number");
  this->expect(coo_banner + "3 3 1\n1 1 abc\n", 3, "value 'abc' is not a number");
  this->expect(coo_banner + "3 3 1\n1 1 --1\n", 3, "value '--1' is not a number");
  this->expect(coo_banner + "3 3 1\n1a 1 1\n", 3, "row index '1a' is not an integer");
  this->expect(coo_banner + "3 3 1\n1 1.0 1\n", 3, "column index '1.0' is not an integer");
  this->expect("%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 1 1.5\n", 3,
               "value '1.5' is not an integer");
  this->expect("%%MatrixMarket matrix array real general\n1 2\n1\n2x\n", 4, "value '2x' is not a number");
}

TYPED_TEST(MatrixMarketErrors, ValueOutOfRangeForTheValueType) {
  this->expect(coo_banner + "1 1 1\n1 1 1e400\n", 3, "out of range for");
  if constexpr (std::is_same_v<typename TestFixture::V, float>) {
    this->expect(coo_banner + "1 1 1\n1 1 -1e39\n", 3, "value -1e39 is out of range for float");
  }
}

TYPED_TEST(MatrixMarketErrors, WrongTokenCountOnEntryLines) {
  this->expect("%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 1 1\n", 3,
               "expected 2 tokens 'row col' (pattern field), found 3");
  this->expect(coo_banner + "3 3 2\n1 1 1\n2 2\n", 4, "expected 3 tokens 'row col value', found 2");
  this->expect(coo_banner + "3 3 1\n1 1 1 0\n", 3, "found 4");
  this->expect("%%MatrixMarket matrix array real general\n1 2\n1\n2 3\n", 4, "expected 1 value per line");
}

TYPED_TEST(MatrixMarketErrors, SkewSymmetricDiagonal) {
  this->expect("%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n2 1 1\n2 2 1\n", 4,
               "diagonal entry (2, 2) in a skew-symmetric matrix");
}

// A symmetric file that stores both (1,2) and (2,1) would sum them into 2x
// on both sides: an error naming both lines. The same triangle twice is a
// duplicate (summed, as in general files), and the upper triangle alone is
// mirrored as before.
TYPED_TEST(MatrixMarketErrors, SymmetricFileStoresBothTriangles) {
  this->expect("%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n1 2 5\n3 3 1\n2 1 5\n", 5,
               "entry (2, 1) mirrors entry (1, 2) on line 3");
  this->expect("%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n3 1 2\n1 3 -2\n", 4,
               "entry (1, 3) mirrors entry (3, 1) on line 3");
  using V = typename TestFixture::V;
  using I = typename TestFixture::I;
  const std::string path = ::testing::TempDir() + "kobalt_one_triangle.mtx";
  {
    std::ofstream f(path);
    f << "%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n1 2 5\n1 2 1\n3 2 4\n";
  }
  const auto t = read_matrix_market<V, I>(path);  // (1,2) twice: one duplicate, summed
  ASSERT_EQ(t.val.size(), 4u);  // (1,2), (2,1), (2,3), (3,2)
  EXPECT_EQ(t.val[0], V(6));
}

TYPED_TEST(MatrixMarketErrors, DimensionsOverflowTheIndexType) {
  using I = typename TestFixture::I;
  if constexpr (sizeof(I) == 4) {
    this->template expect<index_overflow>(coo_banner + "3000000000 3 0\n", 2,
                                          "rows = 3000000000 does not fit the index type int32");
    this->template expect<index_overflow>(coo_banner + "3 2147483648 0\n", 2,
                                          "cols = 2147483648 does not fit the index type int32");
    this->template expect<index_overflow>(coo_banner + "3 3 3000000000\n", 2,
                                          "entries = 3000000000 does not fit the index type int32");
    this->template expect<index_overflow>("%%MatrixMarket matrix array real general\n100000 100000\n", 2,
                                          "array of 100000 x 100000 entries does not fit the index type int32");
  } else {
    // The same sizes fit int64: the file fails later, for its missing entries.
    this->expect(coo_banner + "3000000000 3 1\n", 3, "end of file after 0 of 1");
  }
  this->template expect<index_overflow>(coo_banner + "99999999999999999999 3 0\n", 2,
                                        "rows = 99999999999999999999 does not fit the index type");
}

TEST(MatrixMarketErrorsLimit, SymmetricExpansionOverflowsTheEntryLimit) {
  // The public reader's limit is the Index maximum; a 2^31-entry file is out
  // of reach for a test, so the same check runs with a limit of 4 entries:
  // after the diagonal (1) and one mirrored pair (3), the next pair makes 5.
  const std::string path = write_text("expansion_limit.mtx",
                                      "%%MatrixMarket matrix coordinate real symmetric\n"
                                      "3 3 3\n"
                                      "1 1 1\n"
                                      "2 1 1\n"
                                      "3 1 1\n");
  expect_error<index_overflow>([&] { detail::mm::read<double, std::int32_t>(path, 4); }, path, 5,
                               "more than 4 entries after symmetric expansion");
  EXPECT_EQ((detail::mm::read<double, std::int32_t>(path, 5).nnz()), 5);
}

#if KOBALT_TEST_GZIP
/// A copy of data/grid_hubs.mtx.gz (13.7 kB, 39.5 kB of text): its first `n`
/// bytes (keep_prefix) or all but its last `n`.
std::string truncated_copy(const std::string& name, std::size_t n, bool keep_prefix) {
  std::vector<char> bytes = read_bytes(shipped_gzip_matrix());
  EXPECT_GT(bytes.size(), 8000u);
  bytes.resize(keep_prefix ? n : bytes.size() - n);
  return write_bytes(name, bytes);
}

TEST(MatrixMarketErrorsGzip, TruncatedInsideTheCompressedData) {
  const std::string path = truncated_copy("grid_hubs_part.mtx.gz", 4000, true);
  // The reader stops where zlib stops: at the line after the last complete one.
  const std::int64_t line = newlines_zlib_delivers(path) + 1;
  EXPECT_GT(line, 3);
  EXPECT_LT(line, newlines_zlib_delivers(shipped_gzip_matrix()));
  expect_error<io_error>([&] { read_matrix_market<double, std::int32_t>(path); }, path, line,
                         "truncated gzip stream");
}

TEST(MatrixMarketErrorsGzip, TruncatedBeforeTheTrailer) {
  // All data present, the 8-byte trailer (CRC-32 and length) half missing.
  const std::string path = truncated_copy("grid_hubs_no_trailer.mtx.gz", 4, false);
  const std::int64_t lines = newlines_zlib_delivers(path);
  EXPECT_EQ(lines, newlines_zlib_delivers(shipped_gzip_matrix()))
      << "every line is still there";
  expect_error<io_error>([&] { read_matrix_market<double, std::int32_t>(path); }, path, lines + 1,
                         "truncated gzip stream");
}

TEST(MatrixMarketErrorsGzip, CorruptChecksum) {
  std::vector<char> bytes = read_bytes(shipped_gzip_matrix());
  bytes[bytes.size() - 8] = static_cast<char>(bytes[bytes.size() - 8] ^ 0x5a);  // first CRC byte
  const std::string path = write_bytes("grid_hubs_bad_crc.mtx.gz", bytes);
  // zlib discards the output of the read that fails its check, so the line
  // is where the unreadable data starts: here line 1 (the text fits one buffer).
  expect_error<io_error>([&] { read_matrix_market<double, std::int32_t>(path); }, path, 1,
                         "corrupt gzip stream (unreadable from this line on): incorrect data check");
}
#endif

}  // namespace
}  // namespace kobalt::test
