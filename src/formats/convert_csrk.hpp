// SPDX-License-Identifier: BSD-3-Clause
// Csr <-> CsrK on the device (seed 002 §2.2): fixed-size super-rows and
// super-super-rows, optionally after a reverse Cuthill-McKee reordering.
#pragma once

#include "../range.hpp"
#include "convert_coo.hpp"
#include "csr.hpp"
#include "csrk.hpp"
#include "permute_csr.hpp"
#include "rcm.hpp"
#include "storage_limit.hpp"
#include "../compat.hpp"
#include "../errors.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace kobalt {

namespace detail {

/// Number of groups of `size` (>= 1) that cover `count` items.
inline std::int64_t group_count(std::int64_t count, std::int64_t size) {
  return count == 0 ? 0 : 1 + (count - 1) / size;  // no overflow for any size
}

/// Boundary i of fixed-size groups: i * size, or `last` for the final one.
template <class IndexView>
struct CsrkBoundaryFunctor {
  using index_type = typename IndexView::non_const_value_type;
  IndexView boundaries;
  std::int64_t groups, size, last;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    // For i < groups, i * size <= (groups - 1) * size < last: no overflow.
    boundaries(i) = static_cast<index_type>(i < groups ? i * size : last);
  }
};

/// boundaries(i) = i * size for i < groups, boundaries(groups) = last:
/// fixed-size groups of `size`, the final one possibly shorter. boundaries
/// has group_count(last, size) + 1 entries.
template <class ExecutionSpace, class IndexView>
void fill_fixed_boundaries(const ExecutionSpace& exec, const IndexView& boundaries, std::int64_t size, std::int64_t last) {
  const std::int64_t groups = static_cast<std::int64_t>(boundaries.extent(0)) - 1;
  Kokkos::parallel_for(
      "kobalt::convert<csrk>::boundaries", range_policy<ExecutionSpace>(exec, 0, groups + 1),
      CsrkBoundaryFunctor<IndexView>{boundaries, groups, size, last});
}

/// q(p(i)) = i: the inverse of permutation p at one position.
template <class IndexView>
struct CsrkInversePermFunctor {
  using Index = typename IndexView::non_const_value_type;
  IndexView q, p;

  KOKKOS_INLINE_FUNCTION void operator()(const Index i) const { q(p(i)) = i; }
};

/// The RCM permutation of a's pattern (a square): perm(new) = old and its
/// inverse, both on the device.
template <class ExecutionSpace, class Value, class Index, class Device>
void rcm_permutation(const ExecutionSpace& space, const Csr<Value, Index, Device>& a,
                     typename Csr<Value, Index, Device>::index_view& perm,
                     typename Csr<Value, Index, Device>::index_view& inverse) {
  using exec = ExecutionSpace;
  using index_view = typename Csr<Value, Index, Device>::index_view;
  // The one host step of this conversion: RCM is a sequential breadth-first
  // search, so the ordering is computed on a host copy of the PATTERN only
  // (row_ptr and col: O(nnz) index metadata). The values never leave the
  // device, and the permuted matrix is built on the device.
  space.fence();
  auto row_ptr = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a.row_ptr());
  auto col = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a.col_indices());
  const std::vector<Index> order = detail::rcm_ordering(a.rows(), row_ptr.data(), col.data());
  perm = index_view(compat::uninitialized("kobalt::csrk::perm"), order.size());
  inverse = index_view(compat::uninitialized("kobalt::csrk::inverse_perm"), order.size());
  Kokkos::deep_copy(space, perm,
                    Kokkos::View<const Index*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                        order.data(), order.size()));
  const index_view p = perm, q = inverse;
  Kokkos::parallel_for(
      "kobalt::convert<csrk>::inverse_perm", range_policy<exec>(space, 0, a.rows()),
      CsrkInversePermFunctor<index_view>{q, p});
  space.fence();  // `order` is a local host buffer
}

}  // namespace detail

/// Csr -> CsrK (002 §2.2) on `space`: super-rows of p.super_row_size
/// consecutive rows and, for k = 3, super-super-rows of
/// p.super_super_row_size consecutive super-rows (the last of each possibly
/// shorter). With order = rcm the rows and columns are first renumbered by
/// reverse Cuthill-McKee (P A P^T, on the device; the ordering itself on a
/// host copy of the pattern). Values are never changed. Throws
/// invalid_parameter (k not 2 or 3; a size below 1; a super_super_row_size
/// with k = 2; rcm on a non-square matrix) and format_too_large (before
/// allocating). tuning::select fills a layout from csrk::parameters.
template <class ExecutionSpace, class Value, class Index, class Device>
CsrK<Value, Index, Device> to_csrk(const ExecutionSpace& space, const Csr<Value, Index, Device>& a,
                                   const csrk::layout& p) {
  using result_t = CsrK<Value, Index, Device>;
  using index_view = typename result_t::index_view;
  const int k = p.k;
  if (k != 2 && k != 3)
    throw invalid_parameter("kobalt::to_csrk: k = " + std::to_string(k) + ", must be 2 or 3");
  if (p.super_row_size < 1)
    throw invalid_parameter("kobalt::to_csrk: super_row_size = " +
                            std::to_string(p.super_row_size) + ", must be >= 1");
  if (k == 3 && p.super_super_row_size < 1)
    throw invalid_parameter("kobalt::to_csrk: super_super_row_size = " +
                            std::to_string(p.super_super_row_size) + ", must be >= 1 for k = 3");
  if (k == 2 && p.super_super_row_size != 0)
    throw invalid_parameter("kobalt::to_csrk: super_super_row_size = " +
                            std::to_string(p.super_super_row_size) +
                            " given with k = 2; super-super-rows exist for k = 3 only");
  const bool rcm = p.order == csrk::reordering::rcm;
  if (rcm && a.rows() != a.cols())
    throw invalid_parameter("kobalt::to_csrk: RCM reordering needs a square matrix, A is " +
                            std::to_string(a.rows()) + " x " + std::to_string(a.cols()));

  const std::int64_t rows = a.rows();
  const std::int64_t srs = p.super_row_size;
  const std::int64_t ssrs = k == 2 ? 0 : p.super_super_row_size;
  const std::int64_t num_sr = detail::group_count(rows, srs);
  const std::int64_t num_ssr = k == 3 ? detail::group_count(num_sr, ssrs) : 0;

  const std::uint64_t index_entries = static_cast<std::uint64_t>(num_sr + 1) +
                                      (k == 3 ? static_cast<std::uint64_t>(num_ssr + 1) : 0) +
                                      (rcm ? 2 * static_cast<std::uint64_t>(rows) : 0);
  check_storage<typename Device::memory_space>(
      "kobalt::to_csrk",
      detail::saturating_add(a.bytes(), detail::saturating_mul(index_entries, sizeof(Index))),
      p.max_bytes);
  compat::ScopedRegion region("kobalt::convert<csrk>");

  // "No permutation" and k = 2's ssr_ptr are allocated views of extent 0,
  // never default-constructed ones: with GCC 12 and Kokkos 4.6.99 (mdspan
  // View) a default-constructed View's tracker reads as a live record and
  // destroying it crashes.
  index_view perm("kobalt::csrk::perm", 0), inverse("kobalt::csrk::inverse_perm", 0);
  if (rcm) detail::rcm_permutation(space, a, perm, inverse);
  const Csr<Value, Index, Device> stored =
      rcm ? detail::permute_csr(space, a, perm, inverse, "kobalt::convert<csrk>::permute")
          : to_csr(space, a);
  index_view sr_ptr(compat::uninitialized("kobalt::csrk::sr_ptr"), num_sr + 1);
  detail::fill_fixed_boundaries(space, sr_ptr, srs, rows);
  index_view ssr_ptr(compat::uninitialized("kobalt::csrk::ssr_ptr"), k == 3 ? num_ssr + 1 : 0);
  if (k == 3) detail::fill_fixed_boundaries(space, ssr_ptr, ssrs, num_sr);
  space.fence();
  return result_t(space, stored, k, sr_ptr, ssr_ptr, perm, inverse, p.order, srs, ssrs);
}
/// The same from a Csr with other offsets: CsrK keeps its rows as a
/// Csr<Value, Index, Device>, so they are copied to Index offsets first
/// (to_csr: index_overflow when nnz does not fit Index).
template <class ExecutionSpace, class Value, class Index, class Device, class Offset>
CsrK<Value, Index, Device> to_csrk(const ExecutionSpace& space,
                                   const Csr<Value, Index, Device, Offset>& a,
                                   const csrk::layout& p) {
  return to_csrk(space, to_csr(space, a), p);
}

/// CsrK -> Csr in the ORIGINAL ordering: the permutation, if any, is undone
/// on the device (B(perm(i), perm(j)) = A'(i, j)), so to_csr(to_csrk(A))
/// equals A entry for entry.
template <class ExecutionSpace, class Value, class Index, class Device>
Csr<Value, Index, Device> to_csr(const ExecutionSpace& space, const CsrK<Value, Index, Device>& a,
                                 const convert_options& options = {}) {
  if (!a.is_permuted()) return to_csr(space, a.matrix(), options);
  check_storage<typename Device::memory_space>("kobalt::to_csr", a.matrix().bytes(),
                                               options.max_bytes);
  compat::ScopedRegion region("kobalt::convert<csr>");
  return detail::permute_csr(space, a.matrix(), a.inverse_permutation(), a.permutation(),
                             "kobalt::convert<csr>::unpermute");
}

/// to_csrk(exec, a, ...) on the default instance of the matrix's execution space.
template <class Value, class Index, class Device, class Offset>
CsrK<Value, Index, Device> to_csrk(const Csr<Value, Index, Device, Offset>& a,
    const csrk::layout& p) {
  return to_csrk(typename Device::execution_space(), a, p);
}
/// to_csr(exec, a, ...) on the default instance of the matrix's execution space.
template <class Value, class Index, class Device>
Csr<Value, Index, Device> to_csr(const CsrK<Value, Index, Device>& a,
    const convert_options& options = {}) {
  return to_csr(typename Device::execution_space(), a, options);
}

}  // namespace kobalt
