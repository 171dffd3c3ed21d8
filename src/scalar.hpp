// SPDX-License-Identifier: BSD-3-Clause
// The scalar types Kobalt's values and vectors may hold, and the few
// operations whose meaning depends on whether a scalar is complex
// (conjugation, the real type behind it).
#pragma once

#include <Kokkos_Complex.hpp>

#include <type_traits>

namespace kobalt {

/// Whether T is Kokkos::complex<R>.
template <class T>
struct is_complex : std::false_type {};
template <class R>
struct is_complex<Kokkos::complex<R>> : std::true_type {};
template <class T>
inline constexpr bool is_complex_v = is_complex<std::remove_cv_t<T>>::value;

/// The real type behind T: R for Kokkos::complex<R>, T otherwise.
template <class T>
struct real_type {
  using type = T;
};
template <class R>
struct real_type<Kokkos::complex<R>> {
  using type = R;
};
template <class T>
using real_type_t = typename real_type<std::remove_cv_t<T>>::type;

/// conj(v) for complex v, v itself for real v: lets one kernel serve the
/// transpose ("T") and the conjugate transpose ("H").
template <class T>
KOKKOS_INLINE_FUNCTION T conjugate(const T& v) {
  if constexpr (is_complex_v<T>) {
    return Kokkos::conj(v);
  } else {
    return v;
  }
}

}  // namespace kobalt
