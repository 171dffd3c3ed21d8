// SPDX-License-Identifier: BSD-3-Clause
// Checks on the device that an index array given by a user is a permutation
// (CsrK's RCM ordering, Sellp's SELL-C-sigma row order).
#pragma once

#include "../range.hpp"
#include "../compat.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kobalt::detail {

/// Counts entry i when perm(i) lies outside [0, n) or inverse(perm(i)) != i.
template <class IndexView, class InverseView>
struct PermutationViolationFunctor {
  using value_type = std::int64_t;
  IndexView perm;
  std::int64_t n;
  InverseView inverse;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, std::int64_t& count) const {
    const std::int64_t p = perm(i);
    if (p < 0 || p >= n || static_cast<std::int64_t>(inverse(p)) != i) ++count;
  }
};

/// Entries i with perm(i) outside [0, n) or inverse(perm(i)) != i. Zero
/// violations with both arrays of length n means perm is a bijection and
/// inverse its inverse.
template <class ExecutionSpace, class IndexView, class InverseView>
std::int64_t permutation_violations(const ExecutionSpace& exec, const IndexView& perm,
                                    const InverseView& inverse) {
  const std::int64_t n = static_cast<std::int64_t>(perm.extent(0));
  std::int64_t bad = 0;
  Kokkos::parallel_reduce(
      "kobalt::check_permutation", range_policy<ExecutionSpace>(exec, 0, n),
      PermutationViolationFunctor<IndexView, InverseView>{perm, n, inverse},
      bad);
  return bad;
}

/// inverse(perm(i)) = i where perm(i) lies in [0, n).
template <class IndexView, class InverseView>
struct InvertPermutationFunctor {
  using Index = typename InverseView::non_const_value_type;
  IndexView perm;
  std::int64_t n;
  InverseView inverse;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    const std::int64_t p = perm(i);
    if (p >= 0 && p < n) inverse(p) = static_cast<Index>(i);
  }
};

/// True when perm's n entries are a permutation of [0, n). Scatters an
/// inverse (a duplicate value leaves one of its positions unmatched) and
/// counts the violations.
template <class ExecutionSpace, class IndexView>
bool is_permutation(const ExecutionSpace& exec, const IndexView& perm) {
  using Index = typename IndexView::non_const_value_type;
  const std::int64_t n = static_cast<std::int64_t>(perm.extent(0));
  Kokkos::View<Index*, typename IndexView::device_type> inverse("kobalt::inverse_permutation",
                                                                n);
  Kokkos::parallel_for(
      "kobalt::invert_permutation", range_policy<ExecutionSpace>(exec, 0, n),
      InvertPermutationFunctor<IndexView, decltype(inverse)>{perm, n, inverse});
  return permutation_violations(exec, perm, inverse) == 0;
}

}  // namespace kobalt::detail
