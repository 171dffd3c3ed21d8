// SPDX-License-Identifier: BSD-3-Clause
// Every shared real matrix (all of MANIFEST.tsv, whatever KOBALT_TEST_MAX_NNZ
// says) read through the fixture and checked against the manifest, plus the
// fixture's own contract (names filter, cache).
#include "fixtures/scoped_env.hpp"
#include "fixtures/shared_matrices.hpp"
#include "io/mm_test_util.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

namespace kobalt::test {
namespace {

std::int64_t longest_row(const Triplets<double, std::int32_t>& t) {
  std::vector<std::int64_t> len(static_cast<std::size_t>(t.rows), 0);
  std::int64_t longest = 0;
  for (auto r : t.row) longest = std::max(longest, ++len[static_cast<std::size_t>(r)]);
  return longest;
}

/// A == A^T for assembled triplets: the transpose, built by a stable
/// counting sort on the column, is again sorted by (row, col), so the two
/// compare entry by entry.
bool equals_its_transpose(const Triplets<double, std::int32_t>& a) {
  if (a.rows != a.cols) return false;
  const std::size_t n = a.val.size(), m = static_cast<std::size_t>(a.cols);
  std::vector<std::size_t> start(m + 1, 0);
  std::vector<std::size_t> row_len(m, 0);
  for (std::size_t k = 0; k < n; ++k) {
    ++start[static_cast<std::size_t>(a.col[k]) + 1];
    ++row_len[static_cast<std::size_t>(a.row[k])];
  }
  for (std::size_t j = 0; j < m; ++j)
    if (start[j + 1] != row_len[j]) return false;  // row j of A^T has as many entries as row j of A
  for (std::size_t j = 0; j < m; ++j) start[j + 1] += start[j];
  std::vector<std::int32_t> tcol(n);
  std::vector<double> tval(n);
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t p = start[static_cast<std::size_t>(a.col[k])]++;
    tcol[p] = a.row[k];
    tval[p] = a.val[k];
  }
  // Row i of A^T now occupies the same positions as row i of A, if A = A^T.
  for (std::size_t k = 0; k < n; ++k)
    if (tcol[k] != a.col[k] || tval[k] != a.val[k]) return false;
  return true;
}

using SharedMatrices = NeedsSharedMatrices<>;

TEST_F(SharedMatrices, ManifestListsEveryFile) {
  ASSERT_GE(manifest().size(), 31u);
  for (const ManifestEntry& e : manifest()) {
    EXPECT_TRUE(std::ifstream(shared_file(e.file)).good()) << e.file;
    EXPECT_TRUE(e.storage.find("symmetric") != std::string::npos ||
                e.storage.find("general") != std::string::npos)
        << e.name << ": storage '" << e.storage << "'";
  }
}

TEST_F(SharedMatrices, NnzFullCountsTheExpandedEntries) {
  // nos7 stores 2673 entries of the lower triangle; nnz_full = 4617 must be
  // 2 * stored - diagonal, the count after symmetric expansion.
  const ManifestEntry& e = manifest_entry("nos7");
  EXPECT_EQ(e.nnz_stored, 2673);
  EXPECT_EQ(e.nnz_full, 4617);
  const auto& a = shared_matrix<double, std::int32_t>("nos7");
  std::int64_t diagonal = 0;
  for (std::size_t k = 0; k < a.row.size(); ++k) diagonal += a.row[k] == a.col[k];
  EXPECT_EQ(diagonal, 729);
  EXPECT_EQ(2 * e.nnz_stored - diagonal, e.nnz_full);
  EXPECT_EQ(a.nnz(), e.nnz_full);
}

TEST_F(SharedMatrices, EveryMatrixMatchesItsManifestRow) {
  for (const ManifestEntry& e : manifest()) {
    SCOPED_TRACE(e.name);
    const auto& a = shared_matrix<double, std::int32_t>(e.name);
    EXPECT_EQ(a.rows, e.rows);
    EXPECT_EQ(a.cols, e.cols);
    EXPECT_EQ(a.nnz(), e.nnz_full);
    EXPECT_EQ(longest_row(a), e.max_row_nnz);
    EXPECT_TRUE(a.is_assembled());
    const bool pattern = e.storage.rfind("pattern", 0) == 0;
    if (pattern) {
      EXPECT_TRUE(std::all_of(a.val.begin(), a.val.end(), [](double v) { return v == 1.0; }))
          << "pattern entries are 1 (and not duplicated)";
    }
    const bool symmetric = e.storage.find("symmetric") != std::string::npos;
    if (symmetric) {
      EXPECT_TRUE(equals_its_transpose(a)) << "symmetric storage expands to A = A^T";
    }
  }
}

TEST_F(SharedMatrices, TransposeCheckDetectsAnUnsymmetricMatrix) {
  EXPECT_FALSE(equals_its_transpose(shared_matrix<double, std::int32_t>("bayer10")));
  Triplets<double, std::int32_t> t = shared_matrix<double, std::int32_t>("nos7");
  const auto off = std::find_if(t.row.begin() + 1, t.row.end(), [&](std::int32_t r) { return r == 3; }) -
                   t.row.begin();  // the first entry of row 3: (3, 2), off the diagonal
  ASSERT_EQ(t.col[static_cast<std::size_t>(off)], 2);
  t.val[static_cast<std::size_t>(off)] += 1.0;
  EXPECT_FALSE(equals_its_transpose(t));
}

TEST_F(SharedMatrices, ExplicitZerosSurvive) {
  // zenios: 14375 of its 15032 stored entries are explicit zeros.
  const auto& a = shared_matrix<double, std::int32_t>("zenios");
  const auto zeros = std::count(a.val.begin(), a.val.end(), 0.0);
  EXPECT_GE(zeros, 14375);
  EXPECT_EQ(a.nnz(), manifest_entry("zenios").nnz_full);
}

TEST_F(SharedMatrices, OtherTypesReadTheSamePattern) {
  const auto& d = shared_matrix<double, std::int32_t>("bcsstk13");
  const auto& f = shared_matrix<float, std::int64_t>("bcsstk13");
  ASSERT_EQ(d.nnz(), f.nnz());
  for (std::size_t k = 0; k < d.row.size(); ++k) {
    ASSERT_EQ(d.row[k], f.row[k]);
    ASSERT_EQ(d.col[k], f.col[k]);
    // float is parsed directly from the text: the correctly rounded float of
    // the decimal, within half a float ulp of the double (which rounding to
    // float might miss by one ulp through double rounding).
    ASSERT_LE(std::abs(static_cast<double>(f.val[k]) - d.val[k]),
              std::abs(d.val[k]) * std::numeric_limits<float>::epsilon())
        << "entry " << k;
  }
}

TEST_F(SharedMatrices, CacheReturnsTheSameObject) {
  const auto read = [](const std::string& name) { return &shared_matrix<double, std::int32_t>(name); };
  const auto* first = read("nos7");
  EXPECT_EQ(first, read("nos7"));
  EXPECT_THROW(read("no_such_matrix"), std::out_of_range);
}

TEST_F(SharedMatrices, NamesHonourMaxNnz) {
  const ScopedEnv limit("KOBALT_TEST_MAX_NNZ", "15000");
  const std::vector<std::string> small = shared_matrix_names();
  limit.set(nullptr);
  const std::vector<std::string> all = shared_matrix_names();
  limit.set("lots");
  EXPECT_THROW(shared_matrix_names(), std::runtime_error);
  limit.set(nullptr);
  std::vector<std::string> expected_small;
  for (const ManifestEntry& e : manifest())
    if (e.nnz_full <= 15000) expected_small.push_back(e.name);
  std::sort(expected_small.begin(), expected_small.end());
  EXPECT_EQ(small, expected_small);
  EXPECT_GT(small.size(), 0u) << "nos7 (4617) and lp_e226 (2768) are below the limit";
  EXPECT_LT(small.size(), all.size());
  EXPECT_EQ(all.size(), manifest().size());
  EXPECT_TRUE(std::is_sorted(all.begin(), all.end()));
}

// The fixture's contract, checked in every build (not named *Shared*: it
// runs without the matrix set). CTest marks a test skipped by the phrase
// "shared matrices skipped" (unit_tests/CMakeLists.txt).
TEST(MatrixSetFixture, UnsetOrEmptyFolderIsAReasonToSkip) {
  for (const char* value : {static_cast<const char*>(nullptr), ""}) {
    const ScopedEnv dir("KOBALT_TEST_MATRIX_DIR", value);
    const std::string why = shared_matrices_unavailable();
    EXPECT_EQ(why.rfind("shared matrices skipped: KOBALT_TEST_MATRIX_DIR is not set", 0), 0u) << why;
    EXPECT_EQ(shared_matrix_params(), std::vector<std::string>{"matrix_set_unavailable"});
  }
}

TEST(MatrixSetFixture, AFolderThatIsSetButWrongFailsInsteadOfSkipping) {
  const ScopedEnv dir("KOBALT_TEST_MATRIX_DIR", "relative/matrices");
  if (kobalt::detail::mm::has_zlib) {
    EXPECT_EQ(shared_matrices_unavailable(), "");
  }
  EXPECT_THROW(shared_file("MANIFEST.tsv"), std::runtime_error) << "a relative folder";
  dir.set("/no/such/kobalt/matrices");
  if (kobalt::detail::mm::has_zlib) {
    EXPECT_EQ(shared_matrices_unavailable(), "");
  }
  // (manifest() caches the first folder it read, so the file is read here.)
  EXPECT_THROW(detail::load_manifest(shared_file("MANIFEST.tsv")), std::runtime_error);
}

}  // namespace
}  // namespace kobalt::test
