// SPDX-License-Identifier: BSD-3-Clause
// Complex values (issue 18 item 7) in one compact typed test: every format
// (for_every_format_and_strategy: CSR, COO, ELL, SELL-P and SELL-C-sigma,
// Hybrid, CSR-k and its RCM ordering, ALIGNED_COO) with every strategy its
// variant lists, rank 1 and rank 2 (3 and 9 right-hand sides), with and
// without a handle, for Kokkos::complex<float> and Kokkos::complex<double>
// values with int32 and int64 indices, against the complex reference; the
// split-row paths at tiny chunks; a complex<float> matrix with
// complex<double> vectors; and a few shared matrices made complex.
// Matrices are the real test matrices made complex by complex_copy
// (v * (1 + i*s), s varying per entry). On Serial, team size and vector
// length are 1: the in-team code (shuffles, scans across lanes) runs on
// CUDA, HIP and OpenMP builds only.
#include "fixtures/chunk_kernels.hpp"
#include "fixtures/every_format.hpp"
#include "fixtures/scalars.hpp"
#include "fixtures/shared_matrices.hpp"
#include "fixtures/spmv_check.hpp"
#include "fixtures/types.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace kobalt::test {
namespace {

using exec_type = Kokkos::DefaultExecutionSpace;

/// The edge matrices with complex values of type V.
template <class V, class I>
std::vector<NamedMatrix<V, I>> complex_edge_matrices() {
  std::vector<NamedMatrix<V, I>> out;
  for (const auto& m : edge_matrices<real_type_t<V>, I>())
    out.push_back({m.name, complex_copy(m.matrix)});
  return out;
}

/// Every format and strategy of t without a handle, and with `handles`
/// through one as well.
template <class V, class I>
void expect_every_format_matches(const Triplets<V, I>& input, const std::string& name,
                                 bool handles = true) {
  Triplets<V, I> t = input;
  t.assemble();
  const exec_type exec;
  for_every_format_and_strategy(make_csr(t), [&](const auto& a, const auto& s,
                                                 const std::string& what) {
    expect_spmv_matches_reference(a, t, name + " " + what, s);
    if (handles)
      expect_handle_matches_reference(exec, make_handle(exec, a, s), a, t,
                                      name + " " + what + " (handle)");
  });
}

template <class T>
class ComplexSpmv : public ::testing::Test {};
TYPED_TEST_SUITE(ComplexSpmv, ComplexIndexTypes, TypeNames);

TYPED_TEST(ComplexSpmv, EveryFormatAndStrategyOnEveryEdgeMatrix) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  for (const auto& m : complex_edge_matrices<V, I>()) expect_every_format_matches(m.matrix, m.name);
}

TYPED_TEST(ComplexSpmv, SplitRowsAtTinyChunks) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  for (const auto& m : complex_edge_matrices<V, I>()) {
    expect_chunk_kernels_match(m.matrix, m.name, {1, 2, 5});
    expect_composite_chunks_match(m.matrix, m.name, {1, 2, 5});
  }
}

// The complex copy must differ from its real matrix in every nonzero entry's
// imaginary part (else the tests above would not see dropped parts).
TYPED_TEST(ComplexSpmv, ComplexCopyHasImaginaryParts) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  for (const auto& m : edge_matrices<real_type_t<V>, I>()) {
    const auto c = complex_copy(m.matrix);
    ASSERT_EQ(c.val.size(), m.matrix.val.size()) << m.name;
    std::size_t distinct = 0, nonzero = 0;
    for (std::size_t k = 0; k < c.val.size(); ++k) {
      EXPECT_EQ(c.val[k].real(), m.matrix.val[k]) << m.name << " entry " << k;
      if (m.matrix.val[k] == 0) continue;
      ++nonzero;
      distinct += c.val[k].imag() != c.val[k].real();
    }
    EXPECT_EQ(distinct, nonzero) << m.name;
  }
}

// Mixed precision: a complex<float> matrix with complex<double> vectors,
// which the kernels accumulate in complex<double> (the tolerance is
// complex<double>'s).
TEST(ComplexMixedPrecision, FloatMatrixDoubleVectors) {
  using D = Kokkos::complex<double>;
  for (const auto& m : complex_edge_matrices<Kokkos::complex<float>, std::int32_t>()) {
    Triplets<Kokkos::complex<float>, std::int32_t> t = m.matrix;
    t.assemble();
    for_every_format_and_strategy(make_csr(t), [&](const auto& a, const auto& s,
                                                   const std::string& what) {
      for (const auto& c : complex_spmv_cases())
        expect_spmv_case<D>(a, t, c, m.name + " " + what + " complex<float> A, complex<double> x", s);
    });
  }
}

// A few shared matrices made complex, one type pair each and without
// handles (the edge matrices run every pair through handles; CI time): a
// rectangular LP with empty rows (lp_ship04l), an irregular symmetric one
// with a row of 1463 entries (hangGlider_2), one with rows of ~100 entries
// and empty rows (mbeacxc).
using ComplexShared = NeedsSharedMatrices<>;

TEST_F(ComplexShared, SomeSharedMatricesInEveryFormat) {
  expect_every_format_matches(complex_copy(shared_matrix<double, std::int32_t>("lp_ship04l")),
                              "lp_ship04l complex<double>/int32", false);
  expect_every_format_matches(complex_copy(shared_matrix<float, std::int64_t>("hangGlider_2")),
                              "hangGlider_2 complex<float>/int64", false);
  expect_every_format_matches(complex_copy(shared_matrix<double, std::int64_t>("mbeacxc")),
                              "mbeacxc complex<double>/int64", false);
}

}  // namespace
}  // namespace kobalt::test
