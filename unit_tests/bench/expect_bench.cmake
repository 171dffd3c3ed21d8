# SPDX-License-Identifier: BSD-3-Clause
cmake_minimum_required(VERSION 3.20)
# One kobalt-bench command line that must fail in a given way: runs BENCH
# with ARGS (arguments separated by |; %DATA% and %WORK% replaced by the test data folder and
# a scratch folder), and checks the exit code (RC) and that stderr holds
# MESSAGE. SETUP names a preparation: "json_tmp_is_folder" makes WORK/r.json
# hold "old" and WORK/r.json.tmp a folder, so the report cannot be written
# and the old report must survive; "corrupt_input" writes WORK/bad.mtx;
# "nan_input" writes WORK/nan.mtx with NaN and Inf entries; "huge_rows"
# writes WORK/huge.mtx declaring 2^40 rows; "empty_folder" makes WORK/empty;
# "stdout" looks for MESSAGE on stdout instead of stderr.
# Usage: cmake -DBENCH=... -DDATA=... -DWORK=... -DARGS=... -DRC=... -DMESSAGE=... [-DSETUP=...] -P expect_bench.cmake
foreach(var BENCH DATA WORK ARGS RC MESSAGE)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "expect_bench.cmake needs -D${var}=...")
  endif()
endforeach()
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
if(SETUP STREQUAL "json_tmp_is_folder")
  file(WRITE ${WORK}/r.json "old")
  file(MAKE_DIRECTORY ${WORK}/r.json.tmp)
elseif(SETUP STREQUAL "corrupt_input")
  file(WRITE ${WORK}/bad.mtx "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1.0\n")
elseif(SETUP STREQUAL "nan_input")
  file(WRITE ${WORK}/nan.mtx "%%MatrixMarket matrix coordinate real general\n3 3 4\n1 1 nan\n2 2 inf\n3 1 1.0\n3 3 -inf\n")
elseif(SETUP STREQUAL "huge_rows")
  file(WRITE ${WORK}/huge.mtx "%%MatrixMarket matrix coordinate real general\n1099511627776 3 1\n1 1 1.0\n")
elseif(SETUP STREQUAL "empty_folder")
  file(MAKE_DIRECTORY ${WORK}/empty)
endif()
string(REPLACE "|" ";" args "${ARGS}")
string(REPLACE "%DATA%" "${DATA}" args "${args}")
string(REPLACE "%WORK%" "${WORK}" args "${args}")
execute_process(COMMAND ${BENCH} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL RC)
  message(FATAL_ERROR "kobalt-bench ${args}: exit code ${rc}, expected ${RC}\n${out}\n${err}")
endif()
set(stream stderr)
set(text "${err}")
if(SETUP STREQUAL "stdout")  # the message is expected on stdout (--version)
  set(stream stdout)
  set(text "${out}")
endif()
string(FIND "${text}" "${MESSAGE}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "kobalt-bench ${args}: ${stream} lacks '${MESSAGE}'\n${text}")
endif()
if(SETUP STREQUAL "json_tmp_is_folder")
  file(READ ${WORK}/r.json kept)
  if(NOT kept STREQUAL "old")
    message(FATAL_ERROR "the failed write replaced the previous report: '${kept}'")
  endif()
elseif(SETUP STREQUAL "corrupt_input")
  # The input that did not load is in the report, with its error.
  file(READ ${WORK}/r.json json)
  string(REGEX MATCH "\"source\": \"[^\"]*bad.mtx\"[^\n]*\n[^\n]*\n[^\n]*\"error\": \"[^\"]+\"" entry "${json}")
  if(NOT entry)
    message(FATAL_ERROR "the report lacks bad.mtx's error entry:\n${json}")
  endif()
endif()
