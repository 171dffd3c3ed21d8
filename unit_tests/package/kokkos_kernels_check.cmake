# SPDX-License-Identifier: BSD-3-Clause
# kobalt_check_kokkos_kernels (cmake/KobaltKokkosKernels.cmake) on stand-in
# Kokkos and Kokkos Kernels config folders: a Kokkos Kernels built on
# another Kokkos (version or devices) is refused, naming both versions; one
# built on this Kokkos, in its folder or in another folder holding the same
# version and devices, is accepted. Both layouts: a standalone Kokkos
# Kernels (find_dependency(Kokkos HINTS <dir>)) and a TriBITS one (Trilinos,
# Debian: ../Kokkos beside it).
# Usage: cmake -DSOURCE=<kobalt> -DWORK=<scratch> -P kokkos_kernels_check.cmake
foreach(v SOURCE WORK)
  if(NOT DEFINED ${v} OR "${${v}}" STREQUAL "")
    message(FATAL_ERROR "kokkos_kernels_check.cmake needs -D${v}=...")
  endif()
endforeach()
file(REMOVE_RECURSE ${WORK})

# kokkos(DIR VERSION DEVICES...): a Kokkos config folder.
function(kokkos dir version)
  string(REPLACE ";" " " devices "${ARGN}")
  file(WRITE ${dir}/KokkosConfigVersion.cmake "set(PACKAGE_VERSION \"${version}\")\n")
  file(WRITE ${dir}/KokkosConfigCommon.cmake "set(Kokkos_DEVICES ${devices})\n")
endfunction()
# standalone_kk(DIR KOKKOS_DIR): a Kokkos Kernels 4.x config that names its Kokkos.
function(standalone_kk dir kokkos_dir)
  file(WRITE ${dir}/KokkosKernelsConfig.cmake
       "if(NOT Kokkos_FOUND)\n  find_dependency(Kokkos HINTS ${kokkos_dir})\nendif()\n")
endfunction()

# check(NAME EXPECT KOKKOS_DIR KOKKOS_VERSION KOKKOS_DEVICES KK_DIR [TRIBITS]):
# runs the check in a script of its own; EXPECT is "ok" or the phrases the
# refusal must contain, separated by |.
function(check name expect kokkos_dir version devices kk_dir)
  set(script ${WORK}/${name}.cmake)
  set(tribits "")
  if(ARGN STREQUAL "TRIBITS")
    set(tribits "set(KokkosKernels_PACKAGE_LIST \"KokkosKernels;KokkosCore\")\n")
  endif()
  file(WRITE ${script}
       "include(${SOURCE}/cmake/KobaltKokkosKernels.cmake)\n"
       "set(Kokkos_DIR ${kokkos_dir})\nset(Kokkos_VERSION ${version})\nset(Kokkos_DEVICES ${devices})\n"
       "set(KokkosKernels_DIR ${kk_dir})\n${tribits}"
       "kobalt_check_kokkos_kernels()\nmessage(STATUS \"accepted\")\n")
  execute_process(COMMAND ${CMAKE_COMMAND} -P ${script} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REGEX REPLACE "[ \n]+" " " said "${out}${err}")
  if(expect STREQUAL "ok")
    if(NOT rc EQUAL 0 OR NOT said MATCHES "accepted")
      message(FATAL_ERROR "${name}: expected to be accepted, exit ${rc}:\n${out}${err}")
    endif()
  else()
    if(rc EQUAL 0)
      message(FATAL_ERROR "${name}: expected a refusal, exit 0:\n${out}${err}")
    endif()
    string(REPLACE "|" ";" phrases "${expect}")
    foreach(phrase IN LISTS phrases)
      string(FIND "${said}" "${phrase}" at)
      if(at LESS 0)
        message(FATAL_ERROR "${name}: the refusal does not say '${phrase}':\n${out}${err}")
      endif()
    endforeach()
  endif()
  message(STATUS "${name}: as expected (exit ${rc})")
endfunction()

# This build's Kokkos: a HIP one. Beside it, a Debian-like 3.4.01 Serial
# Kokkos and another folder holding a copy of the HIP one.
set(hip ${WORK}/kokkos-hip/lib/cmake/Kokkos)
kokkos(${hip} 4.6.01 HIP SERIAL)
set(debian ${WORK}/usr/lib/cmake/Kokkos)
kokkos(${debian} 3.4.01 SERIAL)
set(copy ${WORK}/view/lib/cmake/Kokkos)
kokkos(${copy} 4.6.01 SERIAL HIP)
set(openmp ${WORK}/kokkos-openmp/lib/cmake/Kokkos)
kokkos(${openmp} 4.6.01 OPENMP)

set(kk_debian ${WORK}/usr/lib/cmake/KokkosKernels)  # TriBITS: ../Kokkos is Debian's
file(MAKE_DIRECTORY ${kk_debian})
set(kk_other ${WORK}/kk-debian-standalone)
standalone_kk(${kk_other} ${debian})
set(kk_hip ${WORK}/kk-hip)
standalone_kk(${kk_hip} ${hip})
set(kk_copy ${WORK}/kk-copy)
standalone_kk(${kk_copy} ${copy})
set(kk_openmp ${WORK}/kk-openmp)
standalone_kk(${kk_openmp} ${openmp})

set(refused "was built on Kokkos 3.4.01 (devices: SERIAL|but Kobalt uses Kokkos 4.6.01 (devices: HIP, SERIAL")
check(tribits_on_another_kokkos "${refused}" ${hip} 4.6.01 "HIP;SERIAL" ${kk_debian} TRIBITS)
check(standalone_on_another_kokkos "${refused}" ${hip} 4.6.01 "HIP;SERIAL" ${kk_other})
check(standalone_on_other_devices "was built on Kokkos 4.6.01 (devices: OPENMP" ${hip} 4.6.01 "HIP;SERIAL" ${kk_openmp})
check(tribits_on_this_kokkos ok ${debian} 3.4.01 SERIAL ${kk_debian} TRIBITS)
check(standalone_on_this_kokkos ok ${hip} 4.6.01 "HIP;SERIAL" ${kk_hip})
check(standalone_on_a_copy ok ${hip} 4.6.01 "HIP;SERIAL" ${kk_copy})
message(STATUS "Kokkos Kernels check: all cases as expected")
