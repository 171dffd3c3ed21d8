// SPDX-License-Identifier: BSD-3-Clause
// The CSR row kernel under launch shapes other than the tuned ones: several
// team threads and vector lanes per row, rows per team that do not divide the
// row count. On Serial (team size 1) the shapes collapse to 1 x 1; the OpenMP
// and CUDA builds run the in-team paths.
#include "fixtures/spmv_check.hpp"
#include "fixtures/team_limits.hpp"
#include "fixtures/types.hpp"

namespace kobalt::test {
namespace {

template <class T>
class CsrPolicies : public ::testing::Test {};
TYPED_TEST_SUITE(CsrPolicies, ValueIndexTypes, TypeNames);

TYPED_TEST(CsrPolicies, AnyLaunchShapeMatchesReference) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  using exec = Kokkos::DefaultExecutionSpace;
  const int max_vector = max_vector_length();
  const int max_team = max_team_threads();
  for (const auto& m : edge_matrices<V, I>()) {
    Triplets<V, I> t = m.matrix;
    t.assemble();
    const auto a = make_csr(t);
    for (int team : {1, 2, 4}) {
      for (int vector : {1, 2, 8}) {
        for (int rows_per_team : {1, 3, 7}) {
          tuning::LaunchShape p;
          p.part = "rows";
          p.vector_length = std::min(vector, max_vector);
          p.team_size = team;
          p.rows_per_team = rows_per_team;
          if (p.team_size * p.vector_length > max_team) continue;  // Serial: one thread per team
          std::vector<V> xs(t.cols, V(1)), ys(t.rows, V(0));
          for (I j = 0; j < t.cols; ++j) xs[j] = V(0.5) + V(j % 5);
          Kokkos::View<V*> x("x", t.cols), y("y", t.rows);
          auto xh = Kokkos::create_mirror_view(x);
          for (I j = 0; j < t.cols; ++j) xh(j) = xs[j];
          Kokkos::deep_copy(x, xh);
          Kokkos::deep_copy(y, V(7));
          detail::csr_basic_classical(exec(), p, "test", V(2), a, x, V(-1), y);
          auto yh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
          const auto ref = reference_spmv(t, 2.0, xs, -1.0, std::vector<V>(t.rows, V(7)));
          for (I i = 0; i < t.rows; ++i) {
            const double tol = (t.cols + 4) * std::numeric_limits<V>::epsilon() * ref.bound[i];
            ASSERT_NEAR(yh(i), ref.y[i], tol) << m.name << " policy " << p << " row " << i;
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace kobalt::test
