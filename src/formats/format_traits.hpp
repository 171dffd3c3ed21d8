// SPDX-License-Identifier: BSD-3-Clause
// What every Kobalt format class template shares: its type aliases and the
// compile-time checks on Value and Index.
#pragma once

#include "../scalar.hpp"

#include <Kokkos_Core.hpp>

#include <type_traits>

namespace kobalt {

namespace detail {
/// A source slot's number carried through a conversion in place of its
/// value (formats/value_map.hpp): a double, exact below 2^53.
struct slot_number {
  double n = 0;
  slot_number() = default;
  /// Slot n + 1's number; 0 marks padding (what conversions write as Value(0)).
  KOKKOS_INLINE_FUNCTION constexpr slot_number(double v) : n(v) {}
};
template <class T>
inline constexpr bool is_slot_number_v = std::is_same_v<T, slot_number>;
}  // namespace detail

/// Device used when a format is written without one.
using default_device = Kokkos::DefaultExecutionSpace::device_type;

/// Type aliases and compile-time checks every format class derives from:
/// Value is float, double, Kokkos::complex<float> or Kokkos::complex<double>,
/// Index a signed integer type, Device a Kokkos device (execution space +
/// memory space).
template <class Value, class Index, class Device>
struct format_types {
  static_assert(is_scalar_v<Value> || detail::is_slot_number_v<Value>,
                "Kobalt formats hold float, double, Kokkos::complex<float> or "
                "Kokkos::complex<double> values");
  static_assert(std::is_integral_v<Index> && std::is_signed_v<Index>,
                "Kobalt index types are signed integers (int32_t, int64_t): "
                "-1 marks padding");
  using value_type = Value;  ///< Type of the stored values.
  using index_type = Index;  ///< Type of row and column indices.
  using device_type = Device;  ///< Kokkos device the Views live on.
  using execution_space = typename Device::execution_space;  ///< Where the kernels run.
  using memory_space = typename Device::memory_space;  ///< Where the arrays live.
  using index_view = Kokkos::View<Index*, Device>;  ///< An array of indices.
  using value_view = Kokkos::View<Value*, Device>;  ///< An array of values.
};

/// Column index that marks a padding slot in ELL, SELL-P and ALIGNED_COO.
/// Padding is marked by its index, never by its value, so explicit zeros of
/// the matrix survive every round trip.
template <class Index>
inline constexpr Index padding_index = Index(-1);

}  // namespace kobalt
