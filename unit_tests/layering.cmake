# SPDX-License-Identifier: BSD-3-Clause
# The layering of src/ (docs/contributing.md, "Architecture"): each layer
# includes only the layers below it, arch <- formats (io beside) <- tuning <-
# kernels <- plan (<- distributed, the only one that names MPI), and no file
# outside src/arch/ names a backend. interop/
# (bridges to other libraries, e.g. Kokkos Kernels) sits on top and is
# included by users only: no layer and not kobalt.hpp may include it, so the
# library never needs those libraries.
# Usage: cmake -DSRC=<src dir> -P layering.cmake
if(NOT SRC)
  message(FATAL_ERROR "layering.cmake needs -DSRC=...")
endif()
set(forbidden_arch "formats|io|tuning|kernels|plan|interop|distributed")
set(forbidden_formats "tuning|kernels|plan|interop|distributed")
set(forbidden_io "tuning|kernels|plan|interop|distributed")
set(forbidden_tuning "kernels|plan|interop|distributed")
set(forbidden_kernels "plan|interop|distributed")
set(forbidden_plan "interop|distributed")
set(forbidden_distributed "interop")
set(problems "")
file(READ ${SRC}/kobalt.hpp umbrella)
if(umbrella MATCHES "#include \"(interop|distributed)/")
  list(APPEND problems "${SRC}/kobalt.hpp: includes interop/ or distributed/, which users include themselves")
endif()
foreach(layer arch formats io tuning kernels plan interop distributed)
  file(GLOB headers ${SRC}/${layer}/*.hpp)
  foreach(h IN LISTS headers)
    file(READ ${h} text)
    if(DEFINED forbidden_${layer})
      string(REGEX MATCHALL "#include \"\\.\\./(${forbidden_${layer}})/[^\"]*\"" up "${text}")
      if(up)
        list(APPEND problems "${h}: includes a layer above ${layer}: ${up}")
      endif()
    endif()
    if(NOT layer STREQUAL "arch")
      string(REGEX MATCHALL "KOKKOS_ENABLE_(CUDA|HIP|SYCL|OPENMP)|Kokkos::(Cuda|HIP|OpenMP|Serial)[A-Za-z]*|cuda[A-Z][A-Za-z]*\\(|hip[A-Z][A-Za-z]*\\(|backend *[!=]= *\"" backend "${text}")
      if(backend)
        list(APPEND problems "${h}: names a backend outside src/arch/: ${backend}")
      endif()
    endif()
    # Only distributed/ names MPI (Kobalt::kobalt never needs it).
    if(NOT layer STREQUAL "distributed" AND text MATCHES "#include <mpi\\.h>|MPI_[A-Z][a-z]")
      list(APPEND problems "${h}: names MPI outside src/distributed/")
    endif()
  endforeach()
endforeach()
if(problems)
  string(REPLACE ";" "\n" problems "${problems}")
  message(FATAL_ERROR "layering broken:\n${problems}")
endif()
message(STATUS "layering of ${SRC} holds")
