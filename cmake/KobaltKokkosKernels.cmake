# SPDX-License-Identifier: BSD-3-Clause
# Kokkos Kernels for Kobalt's own executables (kobalt-bench, examples,
# tests); the library itself never needs it.
#   kobalt_find_kokkos_kernels(REQUIRED|QUIET): find_package(KokkosKernels),
#     then refuse one built on another Kokkos (kobalt_check_kokkos_kernels).
#   kobalt_link_kokkos_kernels(TARGET): links TARGET to the one found.

# A Kokkos Kernels built on another Kokkos than Kobalt's would compile
# against that Kokkos' headers and link both Kokkos libraries (a HIP Kokkos
# beside Debian's Kokkos Kernels 3.4): refuse it, naming both versions.
# Its Kokkos is the one its config names: a TriBITS build's (Trilinos,
# Debian) lies beside it in ../Kokkos, a standalone one's config calls
# find_dependency(Kokkos HINTS <dir>). Reads Kokkos_VERSION, Kokkos_DEVICES,
# Kokkos_DIR and KokkosKernels_DIR (and KokkosKernels_PACKAGE_LIST).
function(kobalt_check_kokkos_kernels)
  set(config "${KokkosKernels_DIR}/KokkosKernelsConfig.cmake")
  set(kk_kokkos_dir "")
  if(DEFINED KokkosKernels_PACKAGE_LIST)
    set(kk_kokkos_dir "${KokkosKernels_DIR}/../Kokkos")
  elseif(EXISTS "${config}")
    file(STRINGS "${config}" hints REGEX "find_dependency\\(Kokkos .*HINTS")
    if(hints MATCHES "HINTS[ \t]+\"?([^ \t\")]+)")
      set(kk_kokkos_dir "${CMAKE_MATCH_1}")
    endif()
  endif()
  if(NOT kk_kokkos_dir OR NOT EXISTS "${kk_kokkos_dir}/KokkosConfigVersion.cmake")
    message(STATUS "Kobalt: cannot tell which Kokkos the Kokkos Kernels in ${KokkosKernels_DIR} was built on")
    return()
  endif()
  get_filename_component(kk_kokkos_dir "${kk_kokkos_dir}" REALPATH)
  get_filename_component(kokkos_dir "${Kokkos_DIR}" REALPATH)
  if(kk_kokkos_dir STREQUAL kokkos_dir)
    return()
  endif()

  # Another folder may hold the same Kokkos (a Spack view, a copied prefix):
  # compare its version and devices.
  file(STRINGS "${kk_kokkos_dir}/KokkosConfigVersion.cmake" line REGEX "set\\(PACKAGE_VERSION \"")
  string(REGEX MATCH "\"([^\"]*)\"" unused "${line}")
  set(kk_version "${CMAKE_MATCH_1}")
  set(kk_devices "")
  foreach(file KokkosConfig.cmake KokkosConfigCommon.cmake)
    if(EXISTS "${kk_kokkos_dir}/${file}")
      file(STRINGS "${kk_kokkos_dir}/${file}" line REGEX "^[ \t]*[Ss][Ee][Tt]\\(Kokkos_DEVICES ")
      if(line MATCHES "Kokkos_DEVICES ([^)]*)\\)")
        string(REPLACE " " ";" kk_devices "${CMAKE_MATCH_1}")
      endif()
    endif()
  endforeach()
  set(devices ${Kokkos_DEVICES})
  list(SORT devices)
  list(SORT kk_devices)
  if(kk_version VERSION_EQUAL Kokkos_VERSION AND (NOT kk_devices OR kk_devices STREQUAL devices))
    return()
  endif()
  string(REPLACE ";" ", " kk_devices "${kk_devices}")
  string(REPLACE ";" ", " devices "${devices}")
  message(FATAL_ERROR
    "Kokkos Kernels in ${KokkosKernels_DIR} was built on Kokkos ${kk_version} (devices: ${kk_devices}; "
    "${kk_kokkos_dir}), but Kobalt uses Kokkos ${Kokkos_VERSION} (devices: ${devices}; ${kokkos_dir}): "
    "the two would be compiled and linked together. Point KokkosKernels_ROOT at a Kokkos Kernels built "
    "on this Kokkos, or configure with -DCMAKE_DISABLE_FIND_PACKAGE_KokkosKernels=ON (and "
    "KOBALT_ENABLE_KOKKOSKERNELS OFF) to build without it.")
endfunction()

# A macro, so that KokkosKernels_FOUND and _VERSION reach the caller.
macro(kobalt_find_kokkos_kernels mode)
  find_package(KokkosKernels ${mode})
  if(KokkosKernels_FOUND)
    kobalt_check_kokkos_kernels()
  endif()
endmacro()

function(kobalt_link_kokkos_kernels target)
  # Kokkos Kernels 4.x exports Kokkos::kokkoskernels; Debian 12's 3.4 build
  # (from Trilinos) exports trilinos_kokkoskernels.
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
