// SPDX-License-Identifier: BSD-3-Clause
// Kernel launch objects stay below Kokkos' constant-memory launch threshold
// on CUDA. A launch object of 512 bytes or more (functor + policy) takes the
// constant-memory path: about 12 us per launch instead of 5 and a host wait
// for the previous such kernel (docs/sources.md, "Facts measured on the H200"). On the
// H200 (2026-11-22) 16 more bytes in the CSR-k functor (496 -> 512) cost
// 4-5 us per apply. A size check, not a timing check; other backends have
// no such path and skip.
#include "fixtures/types.hpp"

#include <kobalt/kobalt.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>

namespace kobalt::test {
namespace {

#if defined(KOKKOS_ENABLE_CUDA)
/// Bytes of the object Kokkos launches for functor F under policy P.
template <class F, class P>
constexpr std::size_t launch_size() {
  return sizeof(Kokkos::Impl::ParallelFor<F, P, Kokkos::Cuda>);
}
#endif

template <class T>
class LaunchSize : public ::testing::Test {};
TYPED_TEST_SUITE(LaunchSize, ValueIndexTypes, TypeNames);

TYPED_TEST(LaunchSize, RankOneRowKernelsTakeTheParameterPath) {
#if defined(KOKKOS_ENABLE_CUDA)
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  using E = Kokkos::Cuda;
  using IV = Kokkos::View<I*, E::device_type>;
  using OV = Kokkos::View<const I*, E::device_type>;  // Csr's row pointer (Offset = Index)
  using VV = Kokkos::View<V*, E::device_type>;
  using YV = Kokkos::View<double*, E::device_type>;
  using XB = detail::XBlock<YV>;
  using YB = detail::YBlock<YV>;
  using team = Kokkos::TeamPolicy<E>;
  using static_team = Kokkos::TeamPolicy<E, Kokkos::Schedule<Kokkos::Static>>;
  constexpr std::size_t limit = Kokkos::Impl::CudaTraits::ConstantMemoryUseThreshold;
  EXPECT_LT((launch_size<detail::CsrRowFunctor<E, OV, IV, VV, XB, YB, true>, team>()), limit);
  EXPECT_LT((launch_size<detail::EllRowFunctor<E, IV, VV, XB, YB, true>, team>()), limit);
  using range64 = Kokkos::RangePolicy<E, Kokkos::IndexType<std::int64_t>>;
  EXPECT_LT((launch_size<detail::ThreadPerRowFunctor<E, std::int64_t, detail::EllRowSlots<std::int64_t>,
                                                I, V, XB, YB, true>,
                         range64>()),
            limit);
  EXPECT_LT((launch_size<detail::ThreadPerRowFunctor<E, std::int64_t,
                                                detail::SliceRowSlots<std::int64_t, I>, I, V, XB,
                                                YB, true>,
                         range64>()),
            limit);
  EXPECT_LT((launch_size<detail::ColumnGroupsFunctor<E, detail::SliceBlocks<IV>, IV, VV, XB, YB, true>,
                         team>()),
            limit);
  EXPECT_LT((launch_size<detail::ColumnGroupsFunctor<E, detail::EllBlocks, IV, VV, XB, YB, true>,
                         team>()),
            limit);
  EXPECT_LT((launch_size<detail::CsrkFunctor<E, IV, VV, XB, YB, true, true, true>, static_team>()),
            limit);
  EXPECT_LT((launch_size<detail::CooSegmentedFunctor<E, 32, IV, VV, XB, YB>, team>()), limit);
  EXPECT_LT((launch_size<detail::LoadBalanceChunksFunctor<E, 32, detail::CsrRowWalk<OV, I>, IV, VV, XB, YB,
                                                   true>,
                         team>()),
            limit);
  EXPECT_LT((launch_size<detail::LoadBalanceChunksFunctor<E, 32, detail::CooRowIndices<IV>, IV, VV, XB,
                                                   YB, true>,
                         team>()),
            limit);
  EXPECT_LT((launch_size<detail::CooTilesFunctor<E, 32, detail::CooRowIndices<IV>, IV, VV, XB, YB,
                                                 true>,
                         team>()),
            limit);
  EXPECT_LT((launch_size<detail::AlignedCooSegFunctor<E, IV, VV, XB, YB, true>, team>()), limit);
#else
  GTEST_SKIP() << "no constant-memory launch path on " << Kokkos::DefaultExecutionSpace::name();
#endif
}

}  // namespace
}  // namespace kobalt::test
