// SPDX-License-Identifier: BSD-3-Clause
// Csr -> AlignedCoo -> Csr gives back the original, entry for entry and bit
// for bit, on every edge matrix (every split, several flat units and lane
// counts) and on every shared matrix (double/int32).
#include "fixtures/edge_matrices.hpp"
#include "fixtures/shared_matrices.hpp"
#include "fixtures/spmv_check.hpp"
#include "fixtures/types.hpp"

#include <string>

namespace kobalt::test {
namespace {

using aligned_coo::split;

template <class T>
class AlignedCooRoundTrip : public ::testing::Test {};
TYPED_TEST_SUITE(AlignedCooRoundTrip, ValueIndexTypes, TypeNames);

TYPED_TEST(AlignedCooRoundTrip, EveryEdgeMatrixEverySplit) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  for (const auto& m : edge_matrices<V, I>()) {
    Triplets<V, I> t = m.matrix;
    t.assemble();
    const auto csr = make_csr(m.matrix);
    for (std::int64_t lanes : {0, 1, 7}) {
      for (int unit : {32, 4}) {
        for (split s : {split::automatic, split::hybrid, split::all_seg, split::all_flat}) {
          aligned_coo::params p;
          p.choice = s;
          p.flat_unit = unit;
          p.seg_size = lanes;
          const auto back = to_csr(to_aligned_coo(csr, p));
          expect_same_triplets(t, to_triplets(back),
                               m.name + " " + aligned_coo::name(s) + " unit " +
                                   std::to_string(unit) + " lanes " + std::to_string(lanes));
          EXPECT_EQ(back.max_row_nnz(), csr.max_row_nnz()) << m.name;
        }
      }
    }
  }
}

// Each shared matrix with the hybrid split, all_flat, and all_seg where it
// differs from hybrid (automatic resolves to one of these; it is covered on
// the edge matrices). The whole seg part needs at most rows * longest-row
// slots; all_seg runs within a 256 MiB limit and may only refuse
// (format_too_large) where that bound exceeds the limit.
using AlignedCooRoundTripShared = NeedsSharedMatrices<>;

TEST_F(AlignedCooRoundTripShared, EverySharedMatrixDoubleInt32) {
  constexpr std::uint64_t limit = std::uint64_t(256) << 20;
  constexpr std::uint64_t slot_bytes = 2 * sizeof(std::int32_t) + sizeof(double);
  const auto names = shared_matrix_names();
  ASSERT_FALSE(names.empty()) << "no shared matrices in " << matrix_dir();
  for (const std::string& name : names) {
    const auto& t = shared_matrix<double, std::int32_t>(name);
    const auto csr = make_csr(t);
    bool hybrid_has_flat_part = true;
    for (split s : {split::hybrid, split::all_flat, split::all_seg}) {
      // With an empty flat part, hybrid stored exactly what all_seg stores.
      if (s == split::all_seg && !hybrid_has_flat_part) continue;
      aligned_coo::params p;
      p.choice = s;
      p.max_bytes = limit;
      const std::string what = name + " " + aligned_coo::name(s);
      try {
        const auto a = to_aligned_coo(csr, p);
        if (s == split::hybrid) hybrid_has_flat_part = a.flat().nnz() > 0;
        expect_same_triplets(t, to_triplets(to_csr(a)), what);
      } catch (const format_too_large&) {
        const ManifestEntry& e = manifest_entry(name);
        EXPECT_EQ(s, split::all_seg) << what << ": only all_seg may be refused";
        EXPECT_GT(static_cast<std::uint64_t>(e.rows) * e.max_row_nnz * slot_bytes, limit)
            << what << ": refused although its bound fits";
      }
    }
  }
}

}  // namespace
}  // namespace kobalt::test
