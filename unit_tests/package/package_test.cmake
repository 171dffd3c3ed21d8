# SPDX-License-Identifier: BSD-3-Clause
# Kobalt as a package, through unit_tests/consumer (configure and install
# only, no build; CI builds and runs the consumer both ways):
#  1. add_subdirectory: the parent's `cmake --install` installs no Kobalt file
#     by default (KOBALT_INSTALL OFF), and does with -DKOBALT_INSTALL=ON;
#  2. neither way warns about CXX extensions, though the consumer does not set
#     CMAKE_CXX_EXTENSIONS;
#  3. the installed config needs zlib exactly when Kobalt was built with it;
#  4. the installed config accepts another patch release of the Kokkos it was
#     built with (same major.minor and devices, listed in any order) and
#     refuses another major.minor or other devices, naming both;
#  5. Kobalt refuses a Kokkos outside the supported range (cmake/KobaltKokkos.cmake);
#  6. with MPI (KOBALT_ENABLE_MPI): Kobalt::distributed is defined under
#     add_subdirectory, and by the installed config with COMPONENTS
#     distributed only (no MPI search otherwise); that config without MPI
#     still gives Kobalt::kobalt, and COMPONENTS distributed without MPI
#     fails naming MPI.
# Usage: cmake -DSOURCE=<kobalt> -DWORK=<scratch> -DCXX=<compiler> -DKOKKOS_DIR=<its Kokkos_DIR>
#              -DKOKKOS_VERSION=... -DKOKKOS_DEVICES=a,b -DZLIB_FOUND=... -DMPI=ON|OFF
#              -P package_test.cmake
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

# 6. Kobalt::distributed, from the source tree and from the install (the
# runs of 1 and 2 above).
if(MPI)
  set(defined "consumer: Kobalt::distributed is defined")
  run(found_distributed 0 -S ${consumer} ${kokkos} -B ${WORK}/found-distributed -DCMAKE_CXX_COMPILER=${CXX}
      -DCMAKE_PREFIX_PATH=${prefix} -DKOBALT_COMPONENTS=distributed)
  foreach(name subdir_default found_distributed)
    if(NOT out_${name} MATCHES "${defined}")
      message(FATAL_ERROR "${name}: Kobalt built with MPI, but no Kobalt::distributed:\n${out_${name}}")
    endif()
  endforeach()
  if(out_found MATCHES "${defined}")
    message(FATAL_ERROR "found: Kobalt::distributed without COMPONENTS distributed (an MPI search)")
  endif()
  run(found_without_mpi 0 -S ${consumer} ${kokkos} -B ${WORK}/found-without-mpi -DCMAKE_CXX_COMPILER=${CXX}
      -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON)
  if(out_found_without_mpi MATCHES "${defined}")
    message(FATAL_ERROR "found_without_mpi: Kobalt::distributed defined without MPI")
  endif()
  run(distributed_without_mpi nonzero -S ${consumer} ${kokkos} -B ${WORK}/distributed-without-mpi
      -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_PREFIX_PATH=${prefix} -DKOBALT_COMPONENTS=distributed
      -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON)
  if(NOT out_distributed_without_mpi MATCHES "MPI")
    message(FATAL_ERROR "distributed_without_mpi: no word of MPI:\n${out_distributed_without_mpi}")
  endif()
endif()

# 4. Another Kokkos: stand-in packages of other versions and devices.
# fake_kokkos(NAME VERSION DEVICES...): a KokkosConfig.cmake in WORK/NAME.
function(fake_kokkos name version)
  file(WRITE ${WORK}/${name}/KokkosConfig.cmake
       "set(Kokkos_VERSION ${version})\nset(Kokkos_DEVICES ${ARGN})\n"
       "if(NOT TARGET Kokkos::kokkos)\n  add_library(Kokkos::kokkos INTERFACE IMPORTED)\nendif()\n")
endfunction()
string(REPLACE "," ";" devices "${KOKKOS_DEVICES}")
string(REGEX MATCH "^[0-9]+\\.[0-9]+" minor "${KOKKOS_VERSION}")
if(KOKKOS_VERSION MATCHES "\\.0*99$")
  set(other_patch ${minor}.00)
else()
  set(other_patch ${minor}.99)
endif()
set(reversed ${devices})
list(REVERSE reversed)
fake_kokkos(patch-kokkos ${other_patch} ${reversed})
run(other_patch 0 -S ${consumer} -B ${WORK}/patch-kokkos-build -DCMAKE_CXX_COMPILER=${CXX}
    -DCMAKE_PREFIX_PATH=${prefix} -DKokkos_DIR=${WORK}/patch-kokkos)
string(REGEX MATCH "^[0-9]+" major "${KOKKOS_VERSION}")
string(REGEX MATCH "^[0-9]+\\.([0-9]+)" minor_only "${KOKKOS_VERSION}")
math(EXPR next_minor "${CMAKE_MATCH_1} + 1")
string(REPLACE "," ", " built_devices "${KOKKOS_DEVICES}")  # passed comma-separated
# refused(NAME VERSION DEVICES...): the installed config refuses that Kokkos
# and names it and the one Kobalt was built with.
function(refused name version)
  fake_kokkos(${name} ${version} ${ARGN})
  run(${name} nonzero -S ${consumer} -B ${WORK}/${name}-build -DCMAKE_CXX_COMPILER=${CXX}
      -DCMAKE_PREFIX_PATH=${prefix} -DKokkos_DIR=${WORK}/${name})
  string(REPLACE ";" ", " found_devices "${ARGN}")
  string(REGEX REPLACE "[ \n]+" " " said "${out_${name}}")
  foreach(phrase "was built with Kokkos ${KOKKOS_VERSION} (devices: ${built_devices})"
                 "found Kokkos ${version} (devices: ${found_devices})")
    string(FIND "${said}" "${phrase}" at)
    if(at LESS 0)
      message(FATAL_ERROR "${name}: the message does not say '${phrase}':\n${out_${name}}")
    endif()
  endforeach()
endfunction()
refused(other_kokkos 9.8.7 CUDA)
refused(other_minor ${major}.${next_minor}.00 ${devices})
refused(other_devices ${KOKKOS_VERSION} ${devices} THREADS)

# 5. The supported range, at Kobalt's own configure: below it and above it
# refused, naming the range; its top accepted.
set(range_phrase "Kobalt supports Kokkos 3.4 to 5.x")
foreach(case "too_old;3.3.01;nonzero" "too_new;6.0.00;nonzero" "range_top;5.9.99;0")
  list(GET case 0 name)
  list(GET case 1 version)
  list(GET case 2 expect)
  fake_kokkos(range-${name} ${version} SERIAL)
  run(${name} ${expect} -S ${SOURCE} -B ${WORK}/range-${name}-build -DCMAKE_CXX_COMPILER=${CXX}
      -DKokkos_DIR=${WORK}/range-${name})
  string(REGEX REPLACE "[ \n]+" " " said "${out_${name}}")
  string(FIND "${said}" "${range_phrase}; found Kokkos ${version}" at)
  if(expect STREQUAL "nonzero" AND at LESS 0)
    message(FATAL_ERROR "${name}: the message does not say '${range_phrase}; found Kokkos ${version}':\n${out_${name}}")
  endif()
endforeach()
message(STATUS "package config: all checks passed")
