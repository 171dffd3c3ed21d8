# SPDX-License-Identifier: BSD-3-Clause
# Finds Kokkos (whatever Kokkos_ROOT points at) and repairs the imported target
# of Debian 12's libtrilinos-kokkos-dev, whose INTERFACE_INCLUDE_DIRECTORIES
# name the non-existent /usr/lib/include. Included by CMakeLists.txt and by
# the installed KobaltConfig.cmake, so consumers get the same repair.

# find_package(Kokkos 3.4...<5) rejects Debian's "3.4.01": ask for no version
# and check it here instead.
if(NOT TARGET Kokkos::kokkos)
  find_package(Kokkos REQUIRED)
endif()
if(Kokkos_VERSION VERSION_LESS 3.4)
  message(FATAL_ERROR "Kobalt needs Kokkos 3.4 or newer; found ${Kokkos_VERSION}")
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
