// SPDX-License-Identifier: BSD-3-Clause
// arch::arrivals<Exec>::count, the acquiring atomic count behind split rows
// (kernels/finish_split_rows.hpp): many threads count at a few counters and each
// sees a different earlier count, 0 .. n - 1 exactly once per counter; and
// the message-passing pattern of a split row: every thread writes its part,
// fences and counts, and the thread that counts last reads every part.
#include <gtest/gtest.h>

#include <kobalt/arch/arch.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <vector>

namespace kobalt::test {
namespace {

using exec_type = Kokkos::DefaultExecutionSpace;

// The kernels are free functions: nvcc rejects device lambdas inside a
// gtest TestBody (a private member).

/// Thread i counts at counter(i % counters) and keeps what it saw.
void count_at(Kokkos::View<int*> counter, Kokkos::View<int*> before) {
  const int counters = static_cast<int>(counter.extent(0));
  Kokkos::parallel_for(
      "arrivals_count", Kokkos::RangePolicy<exec_type>(0, static_cast<int>(before.extent(0))),
      KOKKOS_LAMBDA(const int i) {
        before(i) = arch::arrivals<exec_type>::count(&counter(i % counters));
      });
}

/// Groups of `parts` threads, like the parts of one split row: each writes
/// its part, fences, counts; the one that reads parts - 1 sums the group's
/// parts (volatile reads, as finish_split_row does) and stores the sum.
void pass_parts(Kokkos::View<int*> data, Kokkos::View<int*> arrived, Kokkos::View<int*> total,
                int parts) {
  Kokkos::parallel_for(
      "arrivals_message", Kokkos::RangePolicy<exec_type>(0, static_cast<int>(data.extent(0))),
      KOKKOS_LAMBDA(const int i) {
        const int g = i / parts;
        data(i) = i + 1;
        Kokkos::memory_fence();
        if (arch::arrivals<exec_type>::count(&arrived(g)) == parts - 1) {
          int sum = 0;
          for (int k = 0; k < parts; ++k)
            sum += *static_cast<const volatile int*>(&data(g * parts + k));
          total(g) = sum;
        }
      });
}

TEST(Arrivals, EachCountIsSeenOnce) {
  constexpr int counters = 7, threads = 100003;
  Kokkos::View<int*> counter("counter", counters), before("before", threads);
  count_at(counter, before);
  const auto c = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), counter);
  const auto b = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), before);
  for (int k = 0; k < counters; ++k) {
    const int n = (threads - k + counters - 1) / counters;  // threads with i % counters == k
    EXPECT_EQ(c(k), n) << "counter " << k;
    std::vector<int> seen(n, 0);
    for (int i = k; i < threads; i += counters) {
      ASSERT_GE(b(i), 0);
      ASSERT_LT(b(i), n);
      ++seen[b(i)];
    }
    for (int v = 0; v < n; ++v) EXPECT_EQ(seen[v], 1) << "counter " << k << ", count " << v;
  }
}

TEST(Arrivals, TheLastCounterSeesEveryPart) {
  constexpr int groups = 4096, parts = 37;
  Kokkos::View<int*> data("parts", groups * parts), arrived("arrived", groups),
      total("total", groups);
  pass_parts(data, arrived, total, parts);
  const auto t = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), total);
  for (int g = 0; g < groups; ++g) {
    const std::int64_t first = std::int64_t(g) * parts + 1;
    EXPECT_EQ(t(g), (first + first + parts - 1) * parts / 2) << "group " << g;
  }
}

}  // namespace
}  // namespace kobalt::test
