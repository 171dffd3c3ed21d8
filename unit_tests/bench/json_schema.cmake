# SPDX-License-Identifier: BSD-3-Clause
# kobalt-bench's JSON report against perf_tests/kobalt-bench.schema.json:
# a run with a correct, a refused-by-library and a generated input, and a
# --mode T --rhs 2 run and a complex run (value_type complex_double), checked
# by perf_tests/check_json_schema.py (python3-jsonschema; exit 77 = skipped
# when the module is missing, which .ci/run does not accept); first, every
# timed result must hold its spread, time_ms_min <= median <= time_ms_max.
# Usage: cmake -DBENCH=... -DPYTHON=... -DSOURCE=... -DDATA=... -DWORK=... -P json_schema.cmake
foreach(var BENCH PYTHON SOURCE DATA WORK)
  if(NOT ${var})
    message(FATAL_ERROR "json_schema.cmake needs -D${var}=...")
  endif()
endforeach()
file(MAKE_DIRECTORY ${WORK})
execute_process(
  COMMAND ${BENCH} ${DATA}/bench_input.mtx lap2d:6 --format csr --format ell:width=1 --format sellp
          --reps 2 --budget 0 --warmup 0 --triad-mib 1 --json ${WORK}/schema_run.json
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 1)  # ell:width=1 fails on purpose
  message(FATAL_ERROR "kobalt-bench exited ${rc} (expected 1)\n${out}\n${err}")
endif()
# A transposed run with two right-hand sides (--mode T: "mode": "T").
execute_process(
  COMMAND ${BENCH} ${DATA}/bench_input.mtx --mode T --rhs 2 --format csr --format sellp
          --reps 2 --budget 0 --warmup 0 --triad-mib 1 --json ${WORK}/schema_run_t.json
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "kobalt-bench --mode T exited ${rc} (expected 0)\n${out}\n${err}")
endif()
file(READ ${WORK}/schema_run_t.json json_t)
if(NOT json_t MATCHES "\"mode\": \"T\"")
  message(FATAL_ERROR "the --mode T report does not say \"mode\": \"T\"")
endif()
execute_process(
  COMMAND ${BENCH} --value complex_double ${DATA}/complex_general.mtx lap2d:6 --format csr
          --format sellp --reps 2 --budget 0 --warmup 0 --triad-mib 1
          --json ${WORK}/schema_complex.json
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "kobalt-bench --value complex_double exited ${rc}\n${out}\n${err}")
endif()
# The spread of the repetitions: every timed result has a minimum, a median
# and a maximum, in that order.
foreach(report schema_run schema_run_t schema_complex)
  file(READ ${WORK}/${report}.json json)
  string(JSON matrices LENGTH "${json}" matrices)
  set(timed 0)
  math(EXPR last_matrix "${matrices} - 1")
  foreach(m RANGE ${last_matrix})
    string(JSON results LENGTH "${json}" matrices ${m} results)
    if(results EQUAL 0)
      continue()
    endif()
    math(EXPR last_result "${results} - 1")
    foreach(r RANGE ${last_result})
      string(JSON kind TYPE "${json}" matrices ${m} results ${r} time_ms_median)
      if(kind STREQUAL "NULL")
        continue()
      endif()
      string(JSON median GET "${json}" matrices ${m} results ${r} time_ms_median)
      string(JSON low GET "${json}" matrices ${m} results ${r} time_ms_min)
      string(JSON high ERROR_VARIABLE missing GET "${json}" matrices ${m} results ${r} time_ms_max)
      if(NOT missing STREQUAL "NOTFOUND" OR NOT (low LESS_EQUAL median AND median LESS_EQUAL high))
        message(FATAL_ERROR "${report}.json, matrix ${m}, result ${r}: min ${low}, median ${median}, "
                            "max ${high}: not a spread")
      endif()
      math(EXPR timed "${timed} + 1")
    endforeach()
  endforeach()
  if(timed EQUAL 0)
    message(FATAL_ERROR "${report}.json holds no timed result")
  endif()
endforeach()
foreach(report schema_run schema_run_t schema_complex)
  execute_process(
    COMMAND ${PYTHON} ${SOURCE}/perf_tests/check_json_schema.py
            ${SOURCE}/perf_tests/kobalt-bench.schema.json ${WORK}/${report}.json
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("${out}${err}")
  if(rc EQUAL 77)
    message("SKIPPED: python3-jsonschema is not installed")
    return()
  endif()
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the JSON report ${report}.json does not match the schema (exit ${rc})")
  endif()
endforeach()
