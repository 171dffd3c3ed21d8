// SPDX-License-Identifier: BSD-3-Clause
// The batched CSR row walk (row_reduce_contiguous_batched, which CSR rows
// below one wave run) against the plain one: the same slots per lane in the
// same order, so every row's sum is the same bit for bit, at every vector
// length the backend runs lanes at (host backends: 1; CUDA and HIP: up to 32).
#include "fixtures/spmv_check.hpp"
#include "fixtures/team_limits.hpp"
#include "fixtures/types.hpp"

#include <kobalt/kernels/row_reduce.hpp>

#include <cstring>
#include <type_traits>

namespace kobalt::test {
namespace {

template <int Batch, class Csr, class XView, class SumView>
struct BothRowWalks {
  using scalar = typename SumView::non_const_value_type;
  using member = typename Kokkos::TeamPolicy<typename SumView::execution_space>::member_type;
  typename Csr::row_ptr_view row_ptr;
  typename Csr::col_view col;
  typename Csr::val_view val;
  detail::XBlock<XView> x;
  SumView plain, batched;
  int lanes;

  KOKKOS_INLINE_FUNCTION void operator()(const member& team) const {
    const auto i = team.league_rank();
    detail::Sums<scalar, 1> a, b;
    detail::row_reduce_contiguous(team, col, val, x, row_ptr(i), row_ptr(i + 1), a);
    detail::row_reduce_contiguous_batched<Batch>(team, lanes, col, val, x, row_ptr(i),
                                                 row_ptr(i + 1), b);
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      plain(i) = a.v[0];
      batched(i) = b.v[0];
    });
  }
};

template <class T>
class RowReduce : public ::testing::Test {};
TYPED_TEST_SUITE(RowReduce, ValueIndexTypes, TypeNames);

template <int Batch, class V, class I>
void expect_batched_walk_is_plain_walk(const Triplets<V, I>& t, const std::string& name) {
  using exec = Kokkos::DefaultExecutionSpace;
  const auto a = make_csr(t);
  Kokkos::View<V*> x("x", static_cast<std::size_t>(t.cols));
  auto xh = Kokkos::create_mirror_view(x);
  Lcg rng(7);
  for (I j = 0; j < t.cols; ++j) xh(j) = static_cast<V>(rng.uniform());
  Kokkos::deep_copy(x, xh);
  // Host backends run a vector range as one loop, not lane-strided: only
  // one lane walks a row there in the same order.
  const bool host = std::is_same_v<exec::memory_space, Kokkos::HostSpace>;
  const int most_lanes = host ? 1 : max_vector_length();
  for (int lanes = 1; lanes <= most_lanes; lanes *= 2) {
    Kokkos::View<V*> plain("plain", static_cast<std::size_t>(t.rows)),
        batched("batched", static_cast<std::size_t>(t.rows));
    using functor = BothRowWalks<Batch, std::decay_t<decltype(a)>, decltype(x), decltype(plain)>;
    Kokkos::parallel_for(
        Kokkos::TeamPolicy<exec>(static_cast<int>(t.rows), 1, lanes),
        functor{a.row_ptr(), a.col_indices(), a.values(), detail::XBlock<decltype(x)>(x, 0, 1),
                plain, batched, lanes});
    const auto ph = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), plain);
    const auto bh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), batched);
    for (I i = 0; i < t.rows; ++i)
      ASSERT_EQ(std::memcmp(&ph(i), &bh(i), sizeof(V)), 0)
          << name << " batch " << Batch << " lanes " << lanes << " row " << i << ": "
          << ph(i) << " against " << bh(i);
  }
}

TYPED_TEST(RowReduce, BatchedWalkSumsEveryRowAsThePlainWalk) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  for (const auto& m : edge_matrices<V, I>()) {
    Triplets<V, I> t = m.matrix;
    t.assemble();
    if (t.rows == 0) continue;  // no team to launch
    expect_batched_walk_is_plain_walk<detail::short_wave_slot_batch>(t, m.name);
    expect_batched_walk_is_plain_walk<3>(t, m.name);  // a batch that divides no row length
  }
}

}  // namespace
}  // namespace kobalt::test
