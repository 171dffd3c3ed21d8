# SPDX-License-Identifier: BSD-3-Clause
# What the API reference covers (test api_coverage, after api_reference):
#  1. every header in src/ is read by docs/Doxyfile (INPUT, a file or a
#     folder) or named internal below, so a new public header cannot be
#     left out unnoticed;
#  2. the pages users look up exist: the KokkosSparse interop
#     (from_kokkos_crs, to_kokkos_crs) and the version macros.
# Usage: cmake -DSOURCE=<kobalt> -DHTML=<doxygen html folder> -P check_api_coverage.cmake

cmake_minimum_required(VERSION 3.16)

# Internal headers (docs/Doxyfile's comment says why each is not public).
set(internal "^src/arch/" "^src/kernels/" "^src/range\\.hpp$" "^src/scalar\\.hpp$" "^src/team_scratch\\.hpp$")
set(public_exceptions src/kernels/reference.hpp)

foreach(v SOURCE HTML)
  if(NOT DEFINED ${v} OR "${${v}}" STREQUAL "")
    message(FATAL_ERROR "check_api_coverage.cmake needs -D${v}=...")
  endif()
endforeach()
# INPUT's entries, its continuation lines (a trailing backslash) joined.
file(READ ${SOURCE}/docs/Doxyfile doxyfile)
string(REPLACE "\\\n" " " doxyfile "${doxyfile}")
string(REGEX MATCH "\nINPUT[ ]*=([^\n]*)" unused "${doxyfile}")
string(REGEX REPLACE "[ ]+" ";" inputs "${CMAKE_MATCH_1}")
list(REMOVE_ITEM inputs "")

set(problems "")
file(GLOB_RECURSE headers RELATIVE ${SOURCE} ${SOURCE}/src/*.hpp)
foreach(h IN LISTS headers)
  set(read FALSE)
  foreach(in IN LISTS inputs)
    if(h STREQUAL in OR h MATCHES "^${in}/")
      set(read TRUE)
    endif()
  endforeach()
  set(private FALSE)
  foreach(pattern IN LISTS internal)
    if(h MATCHES "${pattern}" AND NOT h IN_LIST public_exceptions)
      set(private TRUE)
    endif()
  endforeach()
  if(read AND private)
    list(APPEND problems "${h}: read by docs/Doxyfile but listed internal here")
  elseif(NOT read AND NOT private)
    list(APPEND problems "${h}: neither in docs/Doxyfile's INPUT nor internal (docs/check_api_coverage.cmake)")
  endif()
endforeach()

# page: FILE NAME... (each NAME must appear in HTML/FILE)
foreach(page "kokkos__sparse_8hpp.html;from_kokkos_crs;to_kokkos_crs"
             "version_8hpp.html;KOBALT_VERSION_STRING;KOBALT_VERSION_MAJOR")
  list(POP_FRONT page file)
  if(NOT EXISTS ${HTML}/${file})
    list(APPEND problems "${HTML}/${file}: no such page")
    continue()
  endif()
  file(READ ${HTML}/${file} text)
  foreach(name IN LISTS page)
    string(FIND "${text}" "${name}" at)
    if(at LESS 0)
      list(APPEND problems "${HTML}/${file}: does not document ${name}")
    endif()
  endforeach()
endforeach()

list(JOIN problems "\n" report)
list(LENGTH headers n)
if(report)
  message(FATAL_ERROR "API reference coverage:\n${report}")
endif()
message(STATUS "API reference: ${n} headers read or internal; the interop and version pages exist")
