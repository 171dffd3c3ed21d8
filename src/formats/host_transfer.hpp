// SPDX-License-Identifier: BSD-3-Clause
// Host Triplets <-> device Coo/Csr: the only place where matrix data crosses
// between host and device.
#pragma once

#include "convert_coo.hpp"
#include "storage_limit.hpp"
#include "triplets.hpp"

namespace kobalt {

/// Copies triplets to the device as a Coo. Unsorted input is sorted and
/// duplicates are summed on a host copy first (Matrix Market semantics).
template <class Device = default_device, class Value, class Index>
Coo<Value, Index, Device> make_coo(const Triplets<Value, Index>& input) {
  return make_coo<Device>(typename Device::execution_space(), input);
}

/// make_coo with the copies on the execution-space instance `exec`.
template <class Device = default_device, class ExecutionSpace, class Value, class Index>
Coo<Value, Index, Device> make_coo(const ExecutionSpace& exec, const Triplets<Value, Index>& input) {
  const Triplets<Value, Index>* t = &input;
  Triplets<Value, Index> assembled;
  input.validate();
  if (!input.is_assembled()) {
    assembled = input;
    assembled.assemble();
    t = &assembled;
  }
  using result_t = Coo<Value, Index, Device>;
  const std::size_t n = t->val.size();
  check_storage<typename Device::memory_space>(
      "kobalt::make_coo",
      detail::saturating_mul(static_cast<std::uint64_t>(n), 2 * sizeof(Index) + sizeof(Value)), 0);
  typename result_t::index_view row(compat::uninitialized("kobalt::coo::row"), n);
  typename result_t::index_view col(compat::uninitialized("kobalt::coo::col"), n);
  typename result_t::value_view val(compat::uninitialized("kobalt::coo::val"), n);
  using host_index = Kokkos::View<const Index*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
  using host_value = Kokkos::View<const Value*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
  Kokkos::deep_copy(exec, row, host_index(t->row.data(), n));
  Kokkos::deep_copy(exec, col, host_index(t->col.data(), n));
  Kokkos::deep_copy(exec, val, host_value(t->val.data(), n));
  exec.fence();  // `assembled` is a local host buffer
  return result_t(t->rows, t->cols, row, col, val);
}

/// Copies triplets to the device as a Csr (through Coo).
template <class Device = default_device, class Value, class Index>
Csr<Value, Index, Device> make_csr(const Triplets<Value, Index>& input) {
  return make_csr<Device>(typename Device::execution_space(), input);
}

/// make_csr on the execution-space instance `exec`.
template <class Device = default_device, class ExecutionSpace, class Value, class Index>
Csr<Value, Index, Device> make_csr(const ExecutionSpace& exec, const Triplets<Value, Index>& input) {
  return to_csr(exec, make_coo<Device>(exec, input));
}

/// Copies a device Csr back to host triplets (for I/O, tests and checks).
template <class Value, class Index, class Device, class Offset>
Triplets<Value, Index> to_triplets(const Csr<Value, Index, Device, Offset>& a) {
  Triplets<Value, Index> t;
  t.rows = a.rows();
  t.cols = a.cols();
  auto row_ptr = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a.row_ptr());
  auto col = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a.col_indices());
  auto val = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a.values());
  t.row.reserve(val.extent(0));
  for (Index i = 0; i < a.rows(); ++i) {
    for (auto k = row_ptr(i); k < row_ptr(i + 1); ++k) t.push_back(i, col(k), val(k));
  }
  return t;
}

}  // namespace kobalt
