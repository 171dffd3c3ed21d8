// SPDX-License-Identifier: BSD-3-Clause
// Complex Matrix Market files (issue 18 item 7): the complex and hermitian
// files of unit_tests/data read into Kokkos::complex<float> and
// Kokkos::complex<double> with their exact expected triplets, complex
// symmetric and skew-symmetric mirrors, real / integer / pattern files read
// as complex (imaginary parts 0), write -> read round trips of complex
// values, and the refusals: a complex file read as real, a hermitian
// diagonal entry that is not real, a non-square hermitian matrix, a complex
// entry with a missing part.
#include "fixtures/edge_matrices.hpp"
#include "fixtures/scalars.hpp"
#include "fixtures/types.hpp"
#include "io/mm_test_util.hpp"

#include <kobalt/io/matrix_market.hpp>

#include <string>
#include <tuple>
#include <vector>

namespace kobalt::test {
namespace {

std::string data_file(const std::string& name) {
  return std::string(KOBALT_TEST_DATA_DIR) + "/" + name;
}

template <class T>
class MatrixMarketComplex : public ::testing::Test {
 protected:
  using V = typename T::value_type;
  using I = typename T::index_type;
  /// A temp file name of this test and type.
  std::string path(const std::string& stem) const {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    return temp_dir().file(std::string(info->name()) + "_" + TypeNames::GetName<T>(0) + "_" +
                           stem + ".mtx");
  }
  Triplets<V, I> read_text(const std::string& stem, const std::string& text) const {
    return read_matrix_market<V, I>(write_text(path(stem), text));
  }
  /// Triplets from {row, col, real, imaginary} (0-based), in that order.
  static Triplets<V, I> expected(I rows, I cols,
                                 const std::vector<std::tuple<I, I, double, double>>& e) {
    Triplets<V, I> t;
    t.rows = rows;
    t.cols = cols;
    for (const auto& [r, c, re, im] : e) t.push_back(r, c, scalar_from<V>(re, im));
    return t;
  }
  /// Reads `text` and expects io_error at `line` naming `phrase`.
  void expect_refused(const std::string& stem, const std::string& text, std::int64_t line,
                      const std::string& phrase) const {
    const std::string p = write_text(path(stem), text);
    SCOPED_TRACE(text);
    expect_error<io_error>([&] { read_matrix_market<V, I>(p); }, p, line, phrase);
  }
};
TYPED_TEST_SUITE(MatrixMarketComplex, ComplexIndexTypes, TypeNames);

TYPED_TEST(MatrixMarketComplex, GeneralIsSortedSummedAndKeepsZeros) {
  using V = typename TestFixture::V;
  using I = typename TestFixture::I;
  const auto got = read_matrix_market<V, I>(data_file("complex_general.mtx"));
  expect_identical(this->expected(3, 4, {{0, 0, 1.5, -0.25}, {0, 2, 0, -2}, {1, 2, 0, 0},
                                         {2, 0, 5, 1.5}}),
                   got, "complex general");
}

TYPED_TEST(MatrixMarketComplex, HermitianMirrorsTheConjugate) {
  using V = typename TestFixture::V;
  using I = typename TestFixture::I;
  const auto got = read_matrix_market<V, I>(data_file("complex_hermitian.mtx"));
  // (2,1) = 1+3i gives (1,2) = 1-3i; (3,2) = -0.5-1.25i gives (2,3) = -0.5+1.25i.
  expect_identical(this->expected(3, 3, {{0, 0, 2, 0}, {0, 1, 1, -3}, {1, 0, 1, 3},
                                         {1, 2, -0.5, 1.25}, {2, 1, -0.5, -1.25},
                                         {2, 2, -4, 0}}),
                   got, "complex hermitian");
}

TYPED_TEST(MatrixMarketComplex, HermitianArrayMirrorsTheConjugate) {
  using V = typename TestFixture::V;
  using I = typename TestFixture::I;
  const auto got = read_matrix_market<V, I>(data_file("complex_hermitian_array.mtx"));
  expect_identical(this->expected(2, 2, {{0, 0, 1, 0}, {0, 1, 0.5, 2}, {1, 0, 0.5, -2},
                                         {1, 1, 3, 0}}),
                   got, "complex hermitian array");
}

TYPED_TEST(MatrixMarketComplex, SymmetricAndSkewSymmetricMirrorWithoutConjugate) {
  const auto sym = this->read_text("symmetric",
                                   "%%MatrixMarket matrix coordinate complex symmetric\n"
                                   "2 2 2\n2 1 1 3\n2 2 0 1\n");
  // Complex symmetric: a_12 = a_21 (no conjugate); the diagonal may be complex.
  expect_identical(this->expected(2, 2, {{0, 1, 1, 3}, {1, 0, 1, 3}, {1, 1, 0, 1}}), sym,
                   "complex symmetric");
  const auto skew = this->read_text("skew",
                                    "%%MatrixMarket matrix coordinate complex skew-symmetric\n"
                                    "2 2 1\n2 1 1 3\n");
  expect_identical(this->expected(2, 2, {{0, 1, -1, -3}, {1, 0, 1, 3}}), skew,
                   "complex skew-symmetric");
}

TYPED_TEST(MatrixMarketComplex, RealIntegerAndPatternFilesGetZeroImaginaryParts) {
  using V = typename TestFixture::V;
  using I = typename TestFixture::I;
  using R = real_type_t<V>;
  // A real file: every value as read into R, imaginary part 0.
  const std::string real_file = data_file("bench_input.mtx");
  const auto as_real = read_matrix_market<R, I>(real_file);
  const auto as_complex = read_matrix_market<V, I>(real_file);
  ASSERT_GT(as_real.nnz(), 0);
  Triplets<V, I> want;
  want.rows = as_real.rows;
  want.cols = as_real.cols;
  for (std::size_t k = 0; k < as_real.val.size(); ++k)
    want.push_back(as_real.row[k], as_real.col[k], V(as_real.val[k], R(0)));
  expect_identical(want, as_complex, "real file as complex");
  // Integer and pattern files; hermitian on real data is symmetric.
  expect_identical(this->expected(2, 2, {{0, 1, 7, 0}, {1, 0, 7, 0}}),
                   this->read_text("integer",
                                   "%%MatrixMarket matrix coordinate integer hermitian\n"
                                   "2 2 1\n2 1 7\n"),
                   "integer hermitian as complex");
  expect_identical(this->expected(2, 3, {{0, 2, 1, 0}, {1, 0, 1, 0}}),
                   this->read_text("pattern",
                                   "%%MatrixMarket matrix coordinate pattern general\n"
                                   "2 3 2\n2 1\n1 3\n"),
                   "pattern as complex");
}

TYPED_TEST(MatrixMarketComplex, WriteThenReadGivesTheSameBits) {
  using V = typename TestFixture::V;
  using I = typename TestFixture::I;
  for (const auto& m : edge_matrices<real_type_t<V>, I>()) {
    Triplets<V, I> t = complex_copy(m.matrix);
    t.assemble();
    const std::string p = this->path(m.name);
    write_matrix_market(p, t);
    expect_identical(t, read_matrix_market<V, I>(p), m.name);
  }
}

TYPED_TEST(MatrixMarketComplex, WritesTheComplexBanner) {
  const std::string p = this->path("banner");
  write_matrix_market(p, this->expected(1, 2, {{0, 1, 1.5, -2}}));
  const auto bytes = read_bytes(p);
  EXPECT_EQ(std::string(bytes.begin(), bytes.end()),
            "%%MatrixMarket matrix coordinate complex general\n1 2 1\n1 2 1.5 -2\n");
}

TYPED_TEST(MatrixMarketComplex, Refusals) {
  this->expect_refused("diagonal",
                       "%%MatrixMarket matrix coordinate complex hermitian\n2 2 2\n2 1 1 1\n"
                       "2 2 3 0.5\n",
                       4, "diagonal entry (2, 2) of a hermitian matrix has a nonzero imaginary part");
  this->expect_refused("diagonal_array",
                       "%%MatrixMarket matrix array complex hermitian\n1 1\n1 -1\n", 3,
                       "diagonal entry (1, 1) of a hermitian matrix");
  this->expect_refused("square", "%%MatrixMarket matrix coordinate complex hermitian\n2 3 0\n", 2,
                       "must be square, got 2 x 3");
  this->expect_refused("missing_part",
                       "%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 1 1\n", 3,
                       "expected 4 tokens 'row col real imaginary' (complex field), found 3");
  this->expect_refused("array_missing_part",
                       "%%MatrixMarket matrix array complex general\n1 1\n1\n", 3,
                       "expected 2 numbers 'real imaginary' per line (complex array), found 1");
  this->expect_refused("bad_imaginary",
                       "%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 2i\n", 3,
                       "value '2i' is not a number");
}

}  // namespace
}  // namespace kobalt::test
