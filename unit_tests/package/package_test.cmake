# SPDX-License-Identifier: BSD-3-Clause
# Kobalt as a package, through unit_tests/consumer (configure and install
# only, no build; CI builds and runs the consumer both ways):
#  1. add_subdirectory: the parent's `cmake --install` installs no Kobalt file
#     by default (KOBALT_INSTALL OFF), and does with -DKOBALT_INSTALL=ON;
#  2. neither way warns about CXX extensions, though the consumer does not set
#     CMAKE_CXX_EXTENSIONS;
#  3. the installed config needs zlib exactly when Kobalt was built with it;
#  4. the installed config refuses a Kokkos of another version or devices than
#     the one it was built with, naming both.
# Usage: cmake -DSOURCE=<kobalt> -DWORK=<scratch> -DCXX=<compiler> -DKOKKOS_DIR=<its Kokkos_DIR>
#              -DKOKKOS_VERSION=... -DKOKKOS_DEVICES=a,b -DZLIB_FOUND=... -P package_test.cmake
foreach(v SOURCE WORK CXX KOKKOS_DIR KOKKOS_VERSION KOKKOS_DEVICES)
  if(NOT DEFINED ${v} OR "${${v}}" STREQUAL "")
    message(FATAL_ERROR "package_test.cmake needs -D${v}=...")
  endif()
endforeach()
file(REMOVE_RECURSE ${WORK})
set(consumer ${SOURCE}/unit_tests/consumer)
set(kokkos -DKokkos_DIR=${KOKKOS_DIR})  # the Kokkos of the build under test

# run(NAME EXPECT_RC ARG...): runs cmake with ARG..., checks the exit status
# (0 or "nonzero"), leaves the output in out_NAME.
function(run name expect)
  execute_process(COMMAND ${CMAKE_COMMAND} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(out "${out}${err}")
  if((expect STREQUAL "0" AND NOT rc EQUAL 0) OR (expect STREQUAL "nonzero" AND rc EQUAL 0))
    message(FATAL_ERROR "${name}: cmake ${ARGN}\nexit ${rc}, expected ${expect}:\n${out}")
  endif()
  if(out MATCHES "CXX extensions")
    message(FATAL_ERROR "${name}: the consumer got the CXX-extensions warning:\n${out}")
  endif()
  set(out_${name} "${out}" PARENT_SCOPE)
  message(STATUS "${name}: exit ${rc} as expected")
endfunction()

# 1. add_subdirectory, default and KOBALT_INSTALL=ON.
set(sub ${WORK}/subdir)
run(subdir_default 0 -S ${consumer} ${kokkos} -B ${sub} -DCMAKE_CXX_COMPILER=${CXX} -DKOBALT_SOURCE_DIR=${SOURCE})
run(subdir_default_install 0 --install ${sub} --prefix ${WORK}/subdir-default)
file(GLOB_RECURSE installed RELATIVE ${WORK}/subdir-default ${WORK}/subdir-default/*)
if(installed)
  message(FATAL_ERROR "add_subdirectory without KOBALT_INSTALL: the parent's install copied ${installed}")
endif()
run(subdir_install_on 0 -S ${consumer} -B ${sub} -DKOBALT_INSTALL=ON)
set(prefix ${WORK}/installed)
run(subdir_install_on_install 0 --install ${sub} --prefix ${prefix})
foreach(f include/kobalt/kobalt.hpp include/kobalt/version.hpp include/kobalt/io/file_stream.hpp)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "add_subdirectory with KOBALT_INSTALL=ON: ${f} not installed")
  endif()
endforeach()
file(GLOB_RECURSE config ${prefix}/*/KobaltConfig.cmake)
if(NOT config)
  message(FATAL_ERROR "add_subdirectory with KOBALT_INSTALL=ON: no KobaltConfig.cmake under ${prefix}")
endif()

# 2 and 3. find_package(Kobalt) from that install (zlib as found), and from one
# built with KOBALT_ENABLE_ZLIB=OFF, each with find_package(ZLIB) disabled.
run(found 0 -S ${consumer} ${kokkos} -B ${WORK}/found -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_PREFIX_PATH=${prefix})
run(subdir_no_zlib 0 -S ${consumer} -B ${sub} -DKOBALT_INSTALL=ON -DKOBALT_ENABLE_ZLIB=OFF)
run(subdir_no_zlib_install 0 --install ${sub} --prefix ${WORK}/installed-no-zlib)
run(found_no_zlib 0 -S ${consumer} ${kokkos} -B ${WORK}/found-no-zlib -DCMAKE_CXX_COMPILER=${CXX}
    -DCMAKE_PREFIX_PATH=${WORK}/installed-no-zlib -DCMAKE_DISABLE_FIND_PACKAGE_ZLIB=ON)
if(ZLIB_FOUND)
  run(found_zlib_missing nonzero -S ${consumer} ${kokkos} -B ${WORK}/found-zlib-missing -DCMAKE_CXX_COMPILER=${CXX}
      -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_DISABLE_FIND_PACKAGE_ZLIB=ON)
  if(NOT out_found_zlib_missing MATCHES "ZLIB")
    message(FATAL_ERROR "a Kobalt built with zlib, zlib missing: no word of ZLIB:\n${out_found_zlib_missing}")
  endif()
endif()

# 4. Another Kokkos: a stand-in package of another version and devices.
set(fake ${WORK}/other-kokkos)
file(WRITE ${fake}/KokkosConfig.cmake
     "set(Kokkos_VERSION 9.8.7)\nset(Kokkos_DEVICES CUDA)\n"
     "if(NOT TARGET Kokkos::kokkos)\n  add_library(Kokkos::kokkos INTERFACE IMPORTED)\nendif()\n")
run(other_kokkos nonzero -S ${consumer} -B ${WORK}/other-kokkos-build -DCMAKE_CXX_COMPILER=${CXX}
    -DCMAKE_PREFIX_PATH=${prefix} -DKokkos_DIR=${fake})
string(REPLACE "," ", " built_devices "${KOKKOS_DEVICES}")  # passed comma-separated
string(REGEX REPLACE "[ \n]+" " " said "${out_other_kokkos}")
foreach(phrase "was built with Kokkos ${KOKKOS_VERSION} (devices: ${built_devices})"
               "found Kokkos 9.8.7 (devices: CUDA)")
  string(FIND "${said}" "${phrase}" at)
  if(at LESS 0)
    message(FATAL_ERROR "another Kokkos: the message does not say '${phrase}':\n${out_other_kokkos}")
  endif()
endforeach()
message(STATUS "package config: all checks passed")
