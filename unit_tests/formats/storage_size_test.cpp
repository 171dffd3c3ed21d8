// SPDX-License-Identifier: BSD-3-Clause
// Byte counts before allocations (formats/storage_limit.hpp, csr_arrays.hpp,
// storage_limit.hpp): they saturate instead of wrapping, and a saturated
// count is refused. A wrapped count once passed the check and Kokkos then
// allocated a wrapped size too: rmat:0,2^62's generator wrote past its
// arrays (fuzz/specs_fuzz, session 24; traced in session 26).
#include "fixtures/types.hpp"

#include <kobalt/kobalt.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

namespace kobalt::test {
namespace {

constexpr std::uint64_t u64_max = std::numeric_limits<std::uint64_t>::max();
constexpr std::int64_t i64_max = std::numeric_limits<std::int64_t>::max();

TEST(StorageSize, SaturatingMulAndAdd) {
  EXPECT_EQ(detail::saturating_mul(0, u64_max), 0u);
  EXPECT_EQ(detail::saturating_mul(u64_max, 1), u64_max);
  EXPECT_EQ(detail::saturating_mul(std::uint64_t{1} << 32, std::uint64_t{1} << 31),
            std::uint64_t{1} << 63);
  EXPECT_EQ(detail::saturating_mul(std::uint64_t{1} << 32, std::uint64_t{1} << 32), u64_max);
  EXPECT_EQ(detail::saturating_mul(std::uint64_t{1} << 62, 16), u64_max);  // wrapped to 0 before
  EXPECT_EQ(detail::saturating_add(u64_max - 1, 1), u64_max);
  EXPECT_EQ(detail::saturating_add(u64_max - 1, 2), u64_max);
  EXPECT_EQ(detail::saturating_add(u64_max, u64_max), u64_max);
  EXPECT_EQ(detail::ceil_div(i64_max, i64_max), 1);
  EXPECT_EQ(detail::ceil_div(i64_max, 2), i64_max / 2 + 1);
  EXPECT_EQ(detail::ceil_div(0, 7), 0);
}

TEST(StorageSize, CsrBytesAreExactOrSaturated) {
  EXPECT_EQ((detail::csr_bytes<double, std::int32_t>(10, 30)), 30u * 12 + 11u * 4);
  EXPECT_EQ((detail::csr_bytes<double, std::int64_t>(0, 0)), 8u);
  // nnz * 16 and (rows + 1) * 8 both past 64 bits: the old sum was 8 bytes.
  EXPECT_EQ((detail::csr_bytes<double, std::int64_t>(std::int64_t{1} << 62, std::int64_t{1} << 62)),
            u64_max);
  EXPECT_EQ((detail::csr_bytes<float, std::int32_t>(i64_max, 0)), u64_max);
}

TEST(StorageSize, SaturatedCountIsAlwaysTooLarge) {
  EXPECT_THROW(check_storage<Kokkos::HostSpace>("test", u64_max, u64_max), format_too_large);
  EXPECT_THROW(check_storage<Kokkos::HostSpace>("test", u64_max, 0), format_too_large);
  EXPECT_NO_THROW(check_storage<Kokkos::HostSpace>("test", u64_max - 1, u64_max));
  EXPECT_NO_THROW(check_storage<Kokkos::HostSpace>("test", 64, 64));
  EXPECT_THROW(check_storage<Kokkos::HostSpace>("test", 65, 64), format_too_large);
}

template <class T>
class CsrArraysAllocate : public ::testing::Test {};
TYPED_TEST_SUITE(CsrArraysAllocate, ValueIndexTypes, TypeNames);

TYPED_TEST(CsrArraysAllocate, RefusesCountsPastTheIndexOrThe64BitBytes) {
  using V = typename TypeParam::value_type;
  using I = typename TypeParam::index_type;
  using arrays = detail::CsrArrays<V, I, typename Kokkos::DefaultExecutionSpace::device_type>;
  const Kokkos::DefaultExecutionSpace exec;
  const auto huge = std::int64_t{1} << 62;
  if constexpr (sizeof(I) < 8) {
    EXPECT_THROW(arrays::allocate(exec, huge, 0, 0), index_overflow);
    EXPECT_THROW(arrays::allocate(exec, 0, huge, 0), index_overflow);
  } else {
    // Rows and nnz fit int64; their bytes do not: refused before allocating.
    EXPECT_THROW(arrays::allocate(exec, huge, 0, 0), format_too_large);
    EXPECT_THROW(arrays::allocate(exec, huge, huge, 0), format_too_large);
  }
  const auto small = arrays::allocate(exec, 3, 5, 0);
  EXPECT_EQ(small.row_ptr.extent(0), 4u);
  EXPECT_EQ(small.col.extent(0), 5u);
}

}  // namespace
}  // namespace kobalt::test
