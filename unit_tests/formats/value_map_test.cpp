// SPDX-License-Identifier: BSD-3-Clause
// ValueMap (formats/value_map.hpp): a copy made through a value map equals
// the direct conversion, value array for value array (padding included),
// for every format and op(A); after the source's values change it keeps
// the old ones until gather(), then equals a fresh conversion of the new.
#include "fixtures/csrk_cases.hpp"
#include "fixtures/edge_matrices.hpp"
#include "fixtures/new_values.hpp"
#include "fixtures/scalars.hpp"
#include "fixtures/spmv_check.hpp"
#include "fixtures/types.hpp"

#include <kobalt/kobalt.hpp>

#include <string>

namespace kobalt::test {
namespace {

using exec_type = Kokkos::DefaultExecutionSpace;

template <class T>
class ValueMapFormats : public ::testing::Test {};
TYPED_TEST_SUITE(ValueMapFormats, ValueIndexTypes, TypeNames);

/// Every value array of a format, on the host, concatenated.
template <class Matrix>
std::vector<typename Matrix::value_type> host_values(const Matrix& m) {
  std::vector<typename Matrix::value_type> out;
  for (const auto& v : detail::value_arrays(m)) {
    const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
    for (std::size_t k = 0; k < h.extent(0); ++k) out.push_back(h(k));
  }
  return out;
}

/// `copy` holds what `direct` holds: the same entries and the same value
/// slots (padding included), bit for bit.
template <class Copy, class Direct>
void expect_same_matrix(const Copy& copy, const Direct& direct, const std::string& what) {
  static_assert(std::is_same_v<Copy, Direct>);
  expect_same_triplets(to_triplets(to_csr(direct)), to_triplets(to_csr(copy)), what);
  const auto c = host_values(copy), d = host_values(direct);
  ASSERT_EQ(c.size(), d.size()) << what;
  for (std::size_t k = 0; k < c.size(); ++k) ASSERT_EQ(c[k], d[k]) << what << " slot " << k;
}

/// `convert` through a value map against the direct conversion, before and
/// after the source's values change.
template <class V, class I, class Convert>
void expect_map_follows(const Triplets<V, I>& t, const Convert& convert, bool conjugate,
                        const std::string& what) {
  const exec_type exec;
  const auto w = writable_csr(t);
  auto c = ValueMap<V, I, typename Csr<V, I>::device_type>::convert(exec, w.matrix, convert,
                                                                     conjugate);
  const auto before = convert(exec, w.matrix);
  expect_same_matrix(c.matrix, before, what + " at setup");
  EXPECT_EQ(c.map.slots(), static_cast<std::int64_t>(host_values(before).size())) << what;
  change_values(w);
  // A snapshot until the gather: the copy still holds the old values.
  expect_same_matrix(c.matrix, before, what + " before the gather");
  c.map.gather(exec, detail::value_arrays(w.matrix));
  expect_same_matrix(c.matrix, convert(exec, w.matrix), what + " after the gather");
}

TYPED_TEST(ValueMapFormats, EveryFormatAndModeFollowsTheDirectConversion) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  for (const auto& m : edge_matrices<V, I>()) {
    Triplets<V, I> t = m.matrix;
    t.assemble();
    const auto check = [&](const auto& convert, const std::string& what) {
      expect_map_follows(t, convert, false, m.name + " " + what);
    };
    check([](const auto& e, const auto& a) { return to_csr(e, a); }, "csr copy");
    check([](const auto& e, const auto& a) { return to_coo(e, a); }, "coo");
    check([](const auto& e, const auto& a) { return to_ell(e, a); }, "ell");
    check([](const auto& e, const auto& a) {
            ell_params p;
            p.stored_per_row = a.max_row_nnz() + 2;
            p.stride = a.rows() + 3;
            return to_ell(e, a, p);
          },
          "ell(wider, strided)");
    check([](const auto& e, const auto& a) { return to_sellp(e, a); }, "sellp");
    check([](const auto& e, const auto& a) {
            sellp_params p;
            p.slice_size = 4;
            p.sort_window = 8;
            return to_sellp(e, a, p);
          },
          "sellp(b=4,sigma=8)");
    check([](const auto& e, const auto& a) { return to_hybrid(e, a); }, "hybrid");
    check([](const auto& e, const auto& a) { return to_csrk(e, a); }, "csrk");
    if (t.rows == t.cols)
      check([](const auto& e, const auto& a) {
              csrk::parameters p;
              p.order = csrk::reordering::rcm;
              return to_csrk(e, a, p);
            },
            "csrk(rcm)");
    check([](const auto& e, const auto& a) { return to_aligned_coo(e, a); }, "aligned_coo");
    check([](const auto& e, const auto& a) { return to_csr(e, a, Mode::transpose); }, "A^T");
  }
}

// op(A) of a format that is itself a copy: the map numbers both value
// arrays of Hybrid and ALIGNED_COO (the ELL or seg part first).
TYPED_TEST(ValueMapFormats, TransposeOfTwoPartFormatsFollows) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  const exec_type exec;
  for (const auto& m : edge_matrices<V, I>()) {
    Triplets<V, I> t = m.matrix;
    t.assemble();
    const auto w = writable_csr(t);
    hybrid::layout split;
    split.ell_width = 1;  // both parts hold entries wherever rows are longer
    auto hyb = to_hybrid(exec, w.matrix, split);
    using D = typename Csr<V, I>::device_type;
    auto c = ValueMap<V, I, D>::convert(
        exec, hyb, [](const auto& e, const auto& a) { return to_csr(e, a, Mode::transpose); });
    expect_same_matrix(c.matrix, to_csr(exec, hyb, Mode::transpose), m.name + " hybrid^T");
    change_values(w);
    hyb = to_hybrid(exec, w.matrix, split);
    // The map reads the source it is given: the new Hybrid has the old one's shape.
    c.map.gather(exec, detail::value_arrays(hyb));
    expect_same_matrix(c.matrix, to_csr(exec, hyb, Mode::transpose), m.name + " hybrid^T new");
  }
}

// A column-major copy is refreshed a tile of rows at a time, each tile's
// source run staged in team scratch where it fits: ELL tiles of 256 rows
// (some only padding) and of 128 (30 wide, in double), rows walked where
// 128 rows do not fit (150 wide), and a Hybrid whose long row leaves one
// tile's run too long to stage (read from the source).
TYPED_TEST(ValueMapFormats, ColumnMajorTilesStagedOrNot) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  const auto rows_of = [](I long_row) {
    Triplets<V, I> t;
    t.rows = 1300;
    t.cols = 6000;
    for (I i = 0; i < t.rows; ++i) {
      const I length = i == long_row ? 5000 : (i >= 256 && i < 512 ? 0 : 1 + i % 5);
      for (I k = 0; k < length; ++k)
        t.push_back(i, (i * 7 + k * 13) % t.cols, scalar_from<V>(0.5 + double((i + k) % 11), 0.25));
    }
    t.assemble();
    return t;
  };
  const Triplets<V, I> t = rows_of(-1), with_long_row = rows_of(700);
  expect_map_follows(t, [](const auto& e, const auto& a) {
                       ell_params p;
                       p.stored_per_row = 6;
                       return to_ell(e, a, p);
                     },
                     false, "ell, rows 256-511 empty");
  expect_map_follows(t, [](const auto& e, const auto& a) {
                       ell_params p;
                       p.stored_per_row = 30;
                       return to_ell(e, a, p);
                     },
                     false, "ell 30 wide");
  expect_map_follows(t, [](const auto& e, const auto& a) {
                       ell_params p;
                       p.stored_per_row = 150;
                       return to_ell(e, a, p);
                     },
                     false, "ell 150 wide");
  expect_map_follows(with_long_row, [](const auto& e, const auto& a) {
                       hybrid::layout split;
                       split.ell_width = 3;
                       return to_hybrid(e, a, split);
                     },
                     false, "hybrid with a row of 5000");

}

TEST(ValueMapComplex, ConjugatingCopiesConjugateTheNewValues) {
  using V = Kokkos::complex<double>;
  using I = std::int32_t;
  for (const auto& m : edge_matrices<double, I>()) {
    Triplets<V, I> t = complex_copy(m.matrix);
    t.assemble();
    expect_map_follows(
        t, [](const auto& e, const auto& a) { return to_csr(e, a, Mode::conjugate_transpose); },
        true, m.name + " A^H");
    expect_map_follows(
        t, [](const auto& e, const auto& a) { return to_csr(e, a, Mode::conjugate); }, true,
        m.name + " conj(A)");
  }
}

TEST(ValueMapErrors, SourceOfOtherExtentsIsRefused) {
  using V = double;
  using I = std::int32_t;
  const exec_type exec;
  const auto a = make_csr(edge_matrix<V, I>("empty_rows_37x29"));
  const auto b = make_csr(edge_matrix<V, I>("diagonal_65"));
  auto c = ValueMap<V, I, Csr<V, I>::device_type>::convert(
      exec, a, [](const auto& e, const auto& m) { return to_ell(e, m); });
  EXPECT_THROW(c.map.gather(exec, detail::value_arrays(b)), dimension_mismatch);
}

}  // namespace
}  // namespace kobalt::test
