// SPDX-License-Identifier: BSD-3-Clause
// The scalar types Kobalt's values and vectors may hold, and the few
// operations whose meaning depends on whether a scalar is complex
// (conjugation, the real type behind it, the width partial sums are kept in).
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

/// Whether T is a value type Kobalt's formats and vectors hold: float,
/// double, Kokkos::complex<float> or Kokkos::complex<double>.
template <class T>
inline constexpr bool is_scalar_v =
    std::is_same_v<real_type_t<T>, float> || std::is_same_v<real_type_t<T>, double>;

/// The widest scalar of T's kind: double for real T, Kokkos::complex<double>
/// for complex T. Partial sums that outlive a launch are kept in it, so one
/// workspace serves a matrix of float (complex<float>) with vectors of
/// double (complex<double>).
template <class T>
using widest_t = std::conditional_t<is_complex_v<T>, Kokkos::complex<double>, double>;

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
