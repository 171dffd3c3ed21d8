# SPDX-License-Identifier: BSD-3-Clause
# tools/check_hip_build.sh --classify on a made-up build log: the warnings it
# counts as Kobalt's are those in the checkout and those under the build
# tree (its include/kobalt link to src/, the consumer's installed copy), also
# where the build tree lies outside the checkout; not those in ROCm, in an
# outside Kokkos or in a Kokkos folder inside the checkout.
# Usage: cmake -DSOURCE=<kobalt> -DWORK=<scratch> -DBASH=<bash> -P check_hip_build_test.cmake
foreach(v SOURCE WORK BASH)
  if(NOT DEFINED ${v} OR "${${v}}" STREQUAL "")
    message(FATAL_ERROR "check_hip_build_test.cmake needs -D${v}=...")
  endif()
endforeach()
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
get_filename_component(src "${SOURCE}" REALPATH)
set(build /nonexistent/kobalt-build-hip)  # outside the checkout
set(ours
    "${build}/include/kobalt/plan/handle.hpp:12:5: warning: unused variable 'n' [-Wunused-variable]"
    "${build}/install/include/kobalt/formats/csr.hpp:40:9: warning: comparison of integers of different signs [-Wsign-compare]"
    "${src}/unit_tests/formats/csr_test.cpp:7:3: warning: unused parameter 'x' [-Wunused-parameter]")
set(theirs
    "/opt/rocm/include/hip/amd_detail/host_defines.h:1:1: warning: macro redefined [-Wmacro-redefined]"
    "/opt/kokkos-hip/include/Kokkos_View.hpp:3:3: warning: deprecated [-Wdeprecated-declarations]"
    "${src}/.carry/kokkos-hip/include/Kokkos_Core.hpp:2:2: warning: shadow [-Wshadow]")
string(REPLACE ";" "\n" log "${ours};In file included from ${build}/include/kobalt/kobalt.hpp:3:;${theirs}")
file(WRITE ${WORK}/mixed.log "${log}\n")
string(REPLACE ";" "\n" log "${theirs}")
file(WRITE ${WORK}/clean.log "${log}\n")

execute_process(COMMAND ${BASH} ${src}/tools/check_hip_build.sh --classify ${WORK}/mixed.log ${build}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "mixed log: exit ${rc}, expected 1:\n${out}${err}")
endif()
string(REGEX REPLACE "\n$" "" out "${out}")
string(REPLACE "\n" ";" counted "${out}")
list(SORT counted)
list(SORT ours)
if(NOT counted STREQUAL ours)
  string(REPLACE ";" "\n" counted "${counted}")
  string(REPLACE ";" "\n" ours "${ours}")
  message(FATAL_ERROR "mixed log: counted\n${counted}\ninstead of\n${ours}")
endif()
execute_process(COMMAND ${BASH} ${src}/tools/check_hip_build.sh --classify ${WORK}/clean.log ${build}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "log without Kobalt's warnings: exit ${rc}, expected 0:\n${out}${err}")
endif()
message(STATUS "check_hip_build.sh counts Kobalt's 3 warnings and no others")
