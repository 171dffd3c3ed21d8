// SPDX-License-Identifier: BSD-3-Clause
// The MPI datatype of each value and index type Kobalt moves between ranks.
#pragma once

#include "../scalar.hpp"

#include <mpi.h>

#include <cstdint>
#include <type_traits>

namespace kobalt::distributed::detail {

/// MPI's datatype for T (float, double, their Kokkos::complex, int32_t,
/// int64_t); any other T does not compile.
template <class T>
MPI_Datatype mpi_type() {
  if constexpr (std::is_same_v<T, float>) return MPI_FLOAT;
  else if constexpr (std::is_same_v<T, double>) return MPI_DOUBLE;
  else if constexpr (std::is_same_v<T, Kokkos::complex<float>>) return MPI_C_FLOAT_COMPLEX;
  else if constexpr (std::is_same_v<T, Kokkos::complex<double>>) return MPI_C_DOUBLE_COMPLEX;
  else if constexpr (std::is_same_v<T, std::int32_t>) return MPI_INT32_T;
  else if constexpr (std::is_same_v<T, std::int64_t>) return MPI_INT64_T;
  else static_assert(sizeof(T) == 0, "kobalt::distributed: no MPI datatype for this type");
}

}  // namespace kobalt::distributed::detail
