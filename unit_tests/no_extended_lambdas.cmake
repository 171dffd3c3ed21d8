# SPDX-License-Identifier: BSD-3-Clause
# No header of the library or of kobalt-bench launches an extended lambda
# (KOKKOS_LAMBDA, KOKKOS_CLASS_LAMBDA): nvcc keeps their copy functions per
# translation unit, so an application of two units can call a null one on
# the host (docs/contributing.md, "Kernels are functors").
# Usage: cmake -DDIRS="<dir>;<dir>" -P no_extended_lambdas.cmake
if(NOT DIRS)
  message(FATAL_ERROR "no_extended_lambdas.cmake needs -DDIRS=...")
endif()
set(problems "")
foreach(dir IN LISTS DIRS)
  file(GLOB_RECURSE headers ${dir}/*.hpp)
  foreach(h IN LISTS headers)
    file(READ ${h} text)
    string(REGEX MATCHALL "KOKKOS_(CLASS_)?LAMBDA" hits "${text}")
    list(LENGTH hits count)
    if(count GREATER 0)
      list(APPEND problems "${h}: ${count}")
    endif()
  endforeach()
endforeach()
if(problems)
  string(REPLACE ";" "\n" problems "${problems}")
  message(FATAL_ERROR "extended lambdas in headers (file: count; use a named functor):\n${problems}")
endif()
message(STATUS "no extended lambdas in the headers of ${DIRS}")
