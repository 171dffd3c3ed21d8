# SPDX-License-Identifier: BSD-3-Clause
# kobalt_link_kokkos_kernels(target): links a target of ours with Kokkos
# Kernels as found by find_package(KokkosKernels). Kokkos Kernels 4.x exports
# Kokkos::kokkoskernels; Debian 12's 3.4 build (from Trilinos) exports
# trilinos_kokkoskernels and its include folder separately.
function(kobalt_link_kokkos_kernels target)
  if(TARGET Kokkos::kokkoskernels)
    target_link_libraries(${target} PRIVATE Kokkos::kokkoskernels)
  elseif(TARGET trilinos_kokkoskernels)
    target_link_libraries(${target} PRIVATE trilinos_kokkoskernels)
    target_include_directories(${target} SYSTEM PRIVATE ${KokkosKernels_INCLUDE_DIRS})
  else()
    message(FATAL_ERROR "Kokkos Kernels found, but neither Kokkos::kokkoskernels nor trilinos_kokkoskernels exists")
  endif()
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # Kokkos Kernels 3.4's SPMV_MV_Transpose_Functor leaves rows_per_team
    # uninitialised; GCC reports it after inlining despite -isystem.
    target_compile_options(${target} PRIVATE -Wno-maybe-uninitialized)
  endif()
endfunction()
