// SPDX-License-Identifier: BSD-3-Clause
// Conversions with automatic parameters: the matrix statistics and the
// device profile go through tuning::select to a concrete layout, then the
// format's own conversion runs (formats take parameters, never choose them).
// Each runs on the caller's execution-space instance; the overloads without
// one use the default instance of the matrix's space.
#pragma once

#include "../formats/convert_aligned_coo.hpp"
#include "../formats/convert_csrk.hpp"
#include "../formats/convert_hybrid.hpp"
#include "../tuning/profile.hpp"
#include "../tuning/select.hpp"
#include "../tuning/stats.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace kobalt {

/// Csr -> Hybrid with the ELL width t that partition `s` gives (default:
/// hybrid::automatic, 003's hybridlimit33), read off the row-length
/// distribution (tuning::analyze + tuning::select). Throws invalid_parameter
/// for a bad partition and format_too_large (before allocating) when the
/// result would exceed options.max_bytes (0: the device's memory).
template <class ExecutionSpace, class Value, class Index, class Device, class Offset,
          class = std::enable_if_t<Kokkos::is_execution_space<ExecutionSpace>::value>>
Hybrid<Value, Index, Device> to_hybrid(const ExecutionSpace& exec,
                                       const Csr<Value, Index, Device, Offset>& a,
                                       const hybrid::partition& s = hybrid::automatic{},
                                       const convert_options& options = {}) {
  hybrid::validate(s);
  const auto layout = tuning::select<Value, Index>(tuning::analyze(exec, a),
                                                   tuning::cached_profile_of(exec), s,
                                                   options.max_bytes);
  return to_hybrid(exec, a, layout);
}
/// to_hybrid(exec, a, ...) on the default instance of the matrix's execution space.
template <class Value, class Index, class Device, class Offset>
Hybrid<Value, Index, Device> to_hybrid(const Csr<Value, Index, Device, Offset>& a,
                                       const hybrid::partition& s = hybrid::automatic{},
                                       const convert_options& options = {}) {
  return to_hybrid(typename Device::execution_space(), a, s, options);
}

/// Csr -> CsrK with the fields of p left 0 chosen for the device (k: 3 on
/// GPUs, 2 on CPUs, 002 §6.2; sizes: 002 §4.1's model on GPUs, 96 and 8 on
/// CPUs). Throws invalid_parameter (k not 0, 2, 3; a negative size; a
/// super_super_row_size with k = 2; rcm on a non-square matrix) and
/// format_too_large (before allocating).
template <class ExecutionSpace, class Value, class Index, class Device, class Offset,
          class = std::enable_if_t<Kokkos::is_execution_space<ExecutionSpace>::value>>
CsrK<Value, Index, Device> to_csrk(const ExecutionSpace& exec,
                                   const Csr<Value, Index, Device, Offset>& a,
                                   const csrk::parameters& p = {}) {
  const auto layout =
      tuning::select(tuning::summary_stats(a), tuning::cached_profile_of(exec), p);
  return to_csrk(exec, a, layout);
}
/// to_csrk(exec, a, ...) on the default instance of the matrix's execution space.
template <class Value, class Index, class Device, class Offset>
CsrK<Value, Index, Device> to_csrk(const Csr<Value, Index, Device, Offset>& a,
                                   const csrk::parameters& p = {}) {
  return to_csrk(typename Device::execution_space(), a, p);
}

namespace detail {
/// The AlignedCoo layout p resolves to for `a` on the device of `profile`:
/// 004 Alg. 3's split (as an argmin) and Alg. 1's lanes, from the row
/// lengths and a's entry bytes. Throws invalid_parameter for bad parameters.
template <class ExecutionSpace, class Value, class Index, class Device, class Offset>
aligned_coo::layout aligned_coo_layout(const ExecutionSpace& exec,
                                       const Csr<Value, Index, Device, Offset>& a,
                                       const tuning::DeviceProfile& profile,
                                       const aligned_coo::params& p = {}) {
  aligned_coo::validate(p);
  const auto row_ptr = detail::index_row_ptr(exec, a, "kobalt::to_aligned_coo: nnz");
  return tuning::select(exec, row_ptr, profile, p, 2 * sizeof(Index) + sizeof(Value));
}
}  // namespace detail

/// Csr -> AlignedCoo with p's automatic split (004 Alg. 3 as an argmin) and
/// lanes (004 Alg. 1) resolved from the row lengths (detail::aligned_coo_layout).
/// Throws invalid_parameter for bad parameters, index_overflow when the lanes
/// do not fit Index and format_too_large (before allocating).
template <class ExecutionSpace, class Value, class Index, class Device, class Offset,
          class = std::enable_if_t<Kokkos::is_execution_space<ExecutionSpace>::value>>
AlignedCoo<Value, Index, Device> to_aligned_coo(const ExecutionSpace& exec,
                                                const Csr<Value, Index, Device, Offset>& a,
                                                const aligned_coo::params& p = {}) {
  return to_aligned_coo(exec, a,
                        detail::aligned_coo_layout(exec, a, tuning::cached_profile_of(exec), p));
}
/// to_aligned_coo(exec, a, ...) on the default instance of the matrix's execution space.
template <class Value, class Index, class Device, class Offset>
AlignedCoo<Value, Index, Device> to_aligned_coo(const Csr<Value, Index, Device, Offset>& a,
                                                const aligned_coo::params& p = {}) {
  return to_aligned_coo(typename Device::execution_space(), a, p);
}

}  // namespace kobalt
