# SPDX-License-Identifier: BSD-3-Clause
# Finds Kokkos (whatever Kokkos_ROOT points at) and repairs the imported target
# of Debian 12's libtrilinos-kokkos-dev, whose INTERFACE_INCLUDE_DIRECTORIES
# name the non-existent /usr/lib/include. Included by CMakeLists.txt and by
# the installed KobaltConfig.cmake, so consumers get the same repair.

# The Kokkos versions Kobalt supports: 3.4 to the last 5.x. The Spack
# recipe's depends_on("kokkos@3.4:5") says the same (the test spack_package
# compares the two).
set(KOBALT_KOKKOS_MIN_VERSION 3.4)
set(KOBALT_KOKKOS_MAX_MAJOR 5)

# find_package(Kokkos 3.4...<6) rejects Debian's "3.4.01" (its version file
# takes no range across majors): ask for no version and check it here.
if(NOT TARGET Kokkos::kokkos)
  find_package(Kokkos REQUIRED)
endif()
string(REGEX MATCH "^[0-9]+" _kobalt_kokkos_major "${Kokkos_VERSION}")
if(Kokkos_VERSION VERSION_LESS KOBALT_KOKKOS_MIN_VERSION OR _kobalt_kokkos_major GREATER KOBALT_KOKKOS_MAX_MAJOR)
  message(FATAL_ERROR "Kobalt supports Kokkos ${KOBALT_KOKKOS_MIN_VERSION} to ${KOBALT_KOKKOS_MAX_MAJOR}.x; "
                      "found Kokkos ${Kokkos_VERSION} in ${Kokkos_DIR}")
endif()

function(kobalt_repair_kokkos_target)
  get_target_property(_kobalt_kokkos_target Kokkos::kokkos ALIASED_TARGET)
  if(NOT _kobalt_kokkos_target)
    set(_kobalt_kokkos_target Kokkos::kokkos)
  endif()
  get_target_property(_inc ${_kobalt_kokkos_target} INTERFACE_INCLUDE_DIRECTORIES)
  set(_found FALSE)
  foreach(_dir IN LISTS _inc)
    if(EXISTS "${_dir}/Kokkos_Core.hpp")
      set(_found TRUE)
    endif()
  endforeach()
  if(NOT _found AND Kokkos_INCLUDE_DIRS)
    get_target_property(_imported ${_kobalt_kokkos_target} IMPORTED)
    if(_imported)
      set_target_properties(${_kobalt_kokkos_target} PROPERTIES
        INTERFACE_INCLUDE_DIRECTORIES "${Kokkos_INCLUDE_DIRS}")
    endif()
  endif()
endfunction()
kobalt_repair_kokkos_target()
