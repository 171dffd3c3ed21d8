# SPDX-License-Identifier: BSD-3-Clause
cmake_minimum_required(VERSION 3.20)
# One kobalt-bench command line that must fail in a given way: runs BENCH
# with ARGS (arguments separated by |; %DATA% and %WORK% replaced by the test data folder and
# a scratch folder, %EMPTY% by an empty argument), and checks the exit code (RC) and that stderr holds
# MESSAGE. LIMIT, when set, is shell text run before BENCH in the same
# sh (e.g. "ulimit -v 1000000"), with OMP_NUM_THREADS=1 so that the limits
# measure the tool, not one thread stack per core. SETUP names a
# preparation, and for some a check afterwards that files were left alone:
# "old_report" makes WORK/r.json a report that must survive;
# "corrupt_input" writes WORK/bad.mtx;
# "nan_input" writes WORK/nan.mtx with NaN and Inf entries; "huge_rows"
# writes WORK/huge.mtx declaring 2^40 rows; "rows_5e8" WORK/rows.mtx declaring
# 5e8 rows; "empty_folder" makes WORK/empty;
# "input_copies" copies bench_input.mtx to WORK/data.tmp, WORK/in.mtx and
# WORK/in.txt, and tune_start_profile.json to WORK/start.json, which must
# stay as they were; "foreign_tmp" writes
# WORK/out.json.tmp and WORK/p.json.tmp, and "notes" WORK/notes.txt, which
# must keep their text; "fifo" makes the pipe WORK/fifo.json;
# "symlink" makes WORK/link.json a link to WORK/target.json, which must
# stay a link; "stdout" looks for MESSAGE on stdout instead of stderr.
# Usage: cmake -DBENCH=... -DDATA=... -DWORK=... -DARGS=... -DRC=... -DMESSAGE=... [-DSETUP=...] [-DLIMIT=...] -P expect_bench.cmake
foreach(var BENCH DATA WORK ARGS RC MESSAGE)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "expect_bench.cmake needs -D${var}=...")
  endif()
endforeach()
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(old_report "{\"kobalt_bench\": \"old\"}\n")
if(SETUP STREQUAL "old_report")
  file(WRITE ${WORK}/r.json "${old_report}")
elseif(SETUP STREQUAL "input_copies")
  foreach(name data.tmp in.mtx in.txt)
    configure_file(${DATA}/bench_input.mtx ${WORK}/${name} COPYONLY)
  endforeach()
  configure_file(${DATA}/tune_start_profile.json ${WORK}/start.json COPYONLY)
elseif(SETUP STREQUAL "foreign_tmp")
  file(WRITE ${WORK}/out.json.tmp "keep")
  file(WRITE ${WORK}/p.json.tmp "keep")
elseif(SETUP STREQUAL "notes")
  file(WRITE ${WORK}/notes.txt "notes")
elseif(SETUP STREQUAL "fifo")
  execute_process(COMMAND mkfifo ${WORK}/fifo.json RESULT_VARIABLE made)
  if(NOT made EQUAL 0)
    message(FATAL_ERROR "mkfifo ${WORK}/fifo.json failed")
  endif()
elseif(SETUP STREQUAL "symlink")
  file(WRITE ${WORK}/target.json "${old_report}")
  file(CREATE_LINK target.json ${WORK}/link.json SYMBOLIC)
elseif(SETUP STREQUAL "rows_5e8")
  file(WRITE ${WORK}/rows.mtx "%%MatrixMarket matrix coordinate real general\n500000000 3 1\n1 1 1.0\n")
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
if(LIMIT OR args MATCHES "%EMPTY%")
  # Through sh: the limits apply to the tool alone, and an empty argument
  # survives (a CMake list drops empty items).
  set(script "${LIMIT}\nOMP_NUM_THREADS=1 exec '${BENCH}'")
  foreach(a IN LISTS args)
    if(a STREQUAL "%EMPTY%")
      string(APPEND script " ''")
    else()
      string(APPEND script " '${a}'")
    endif()
  endforeach()
  execute_process(COMMAND sh -c "${script}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
else()
  execute_process(COMMAND ${BENCH} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
endif()
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
# expect_unchanged(FILE TEXT): FILE must still hold TEXT.
function(expect_unchanged file text)
  file(READ ${file} kept)
  if(NOT kept STREQUAL text)
    message(FATAL_ERROR "${file} was changed: '${kept}'")
  endif()
endfunction()
if(SETUP STREQUAL "old_report")
  expect_unchanged(${WORK}/r.json "${old_report}")
elseif(SETUP STREQUAL "input_copies")
  file(READ ${DATA}/bench_input.mtx input)
  foreach(name data.tmp in.mtx in.txt)
    expect_unchanged(${WORK}/${name} "${input}")
  endforeach()
  file(READ ${DATA}/tune_start_profile.json start)
  expect_unchanged(${WORK}/start.json "${start}")
elseif(SETUP STREQUAL "foreign_tmp")
  expect_unchanged(${WORK}/out.json.tmp "keep")
  expect_unchanged(${WORK}/p.json.tmp "keep")
elseif(SETUP STREQUAL "notes")
  expect_unchanged(${WORK}/notes.txt "notes")
elseif(SETUP STREQUAL "symlink")
  if(NOT IS_SYMLINK ${WORK}/link.json)
    message(FATAL_ERROR "${WORK}/link.json is no longer a symbolic link")
  endif()
  expect_unchanged(${WORK}/target.json "${old_report}")
elseif(SETUP STREQUAL "corrupt_input")
  # The input that did not load is in the report, with its error.
  file(READ ${WORK}/r.json json)
  string(REGEX MATCH "\"source\": \"[^\"]*bad.mtx\"[^\n]*\n[^\n]*\n[^\n]*\"error\": \"[^\"]+\"" entry "${json}")
  if(NOT entry)
    message(FATAL_ERROR "the report lacks bad.mtx's error entry:\n${json}")
  endif()
endif()
