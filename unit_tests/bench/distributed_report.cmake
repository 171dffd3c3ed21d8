# SPDX-License-Identifier: BSD-3-Clause
# kobalt-bench-distributed on 2 ranks: a strong run (a file, scattered; an
# R-MAT graph, cut from the whole; a grid, built by rows) and one of both
# scalings (grown grids, fixed-order handles, the MPI transport), their reports against
# perf_tests/kobalt-bench-distributed.schema.json, and what they must say:
# a run per rank count, every rank's part, a halo on 2 ranks and none on 1,
# the grown grid's name and size; then a command line it must refuse.
# Usage: cmake -DBENCH=... "-DMPIEXEC=mpiexec;-n;2;..." -DPYTHON=... -DSOURCE=...
#              -DDATA=... -DWORK=... -P distributed_report.cmake
foreach(var BENCH MPIEXEC PYTHON SOURCE DATA WORK)
  if(NOT ${var})
    message(FATAL_ERROR "distributed_report.cmake needs -D${var}=...")
  endif()
endforeach()
file(MAKE_DIRECTORY ${WORK})
set(quick --reps 2 --budget 0 --warmup 0 --batch 2)

function(run_bench expected_rc)
  execute_process(COMMAND ${MPIEXEC} ${BENCH} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL expected_rc)
    message(FATAL_ERROR "kobalt-bench-distributed ${ARGN}: exit ${rc}, expected ${expected_rc}\n${out}\n${err}")
  endif()
  set(out "${out}${err}" PARENT_SCOPE)
endfunction()

function(expect_equal json want)
  string(JSON got GET "${json}" ${ARGN})
  if(NOT got STREQUAL want)
    message(FATAL_ERROR "${ARGN}: ${got}, expected ${want}")
  endif()
endfunction()

run_bench(0 ${DATA}/bench_input.mtx rmat:7,4 lap3d:6 ${quick} --json ${WORK}/strong.json)
file(READ ${WORK}/strong.json strong)
string(JSON inputs LENGTH "${strong}" inputs)
if(NOT inputs EQUAL 3)
  message(FATAL_ERROR "strong.json holds ${inputs} inputs, expected 3")
endif()
foreach(i 0 1 2)
  string(JSON runs LENGTH "${strong}" inputs ${i} runs)
  if(NOT runs EQUAL 2)
    message(FATAL_ERROR "input ${i}: ${runs} runs, expected 2 (1 and 2 ranks)")
  endif()
  expect_equal("${strong}" 1 inputs ${i} runs 0 ranks)
  expect_equal("${strong}" 2 inputs ${i} runs 1 ranks)
  expect_equal("${strong}" 0 inputs ${i} runs 0 halo_bytes)
  string(JSON hidden TYPE "${strong}" inputs ${i} runs 0 hidden)
  if(NOT hidden STREQUAL "NULL")
    message(FATAL_ERROR "input ${i}, 1 rank: hidden is ${hidden}, expected null (no halo)")
  endif()
  expect_equal("${strong}" auto inputs ${i} single_device 0 format)
  string(JSON parts LENGTH "${strong}" inputs ${i} runs 1 per_rank)
  if(NOT parts EQUAL 2)
    message(FATAL_ERROR "input ${i}, 2 ranks: ${parts} parts, expected 2")
  endif()
  foreach(r 0 1)
    string(JSON efficiency TYPE "${strong}" inputs ${i} runs ${r} efficiency)
    if(NOT efficiency STREQUAL "NUMBER")
      message(FATAL_ERROR "input ${i}, run ${r}: no efficiency")
    endif()
  endforeach()
endforeach()
# lap3d:6 on 2 ranks: each sends and receives one 6 x 6 plane of 8-byte x.
expect_equal("${strong}" 576 inputs 2 runs 1 halo_bytes)
expect_equal("${strong}" 288 inputs 2 runs 1 per_rank 0 received_bytes)

run_bench(0 lap3d:5 fem:8,2,1 rmat:5,4 --scaling both --reproducible --transport mpi ${quick}
          --json ${WORK}/weak.json)
file(READ ${WORK}/weak.json weak)
expect_equal("${weak}" ON kobalt_bench_distributed reproducible)
# Grids: strong on 1 and 2 ranks, then weak on 2; R-MAT does not grow.
expect_equal("${weak}" strong inputs 0 runs 1 scaling)
expect_equal("${weak}" weak inputs 0 runs 2 scaling)
expect_equal("${weak}" "lap3d:5 x2" inputs 0 runs 2 matrix)
# A 5 x 5 x 10 grid: 7 n - 2 (5*10 + 5*10 + 5*5) entries.
expect_equal("${weak}" 250 inputs 0 runs 2 rows)
expect_equal("${weak}" 1500 inputs 0 runs 2 nnz)
expect_equal("${weak}" 125 inputs 0 runs 2 per_rank 1 rows)
expect_equal("${weak}" "fem:8,2,1 x2" inputs 1 runs 2 matrix)
expect_equal("${weak}" 32 inputs 1 runs 2 rows)
string(JSON runs LENGTH "${weak}" inputs 2 runs)
if(NOT runs EQUAL 2)
  message(FATAL_ERROR "rmat:5,4 under --scaling both: ${runs} runs, expected 2 (strong only)")
endif()

foreach(report strong weak)
  execute_process(
    COMMAND ${PYTHON} ${SOURCE}/perf_tests/check_json_schema.py
            ${SOURCE}/perf_tests/kobalt-bench-distributed.schema.json ${WORK}/${report}.json
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${report}.json does not follow the schema (exit ${rc})")
  endif()
endforeach()

# The results README's tables from these reports.
execute_process(
  COMMAND ${PYTHON} ${SOURCE}/perf_tests/plots/distributed_table.py ${WORK}/strong.json ${WORK}/weak.json
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "\\| lap3d:5 x2 \\| weak \\| 2 \\|")
  message(FATAL_ERROR "distributed_table.py exited ${rc} or lacks the weak run:\n${out}${err}")
endif()

run_bench(2 ${DATA}/bench_input.mtx --scaling weak)
if(NOT out MATCHES "--scaling weak grows lap2d, lap3d, stencil27 and fem grids")
  message(FATAL_ERROR "a weak run of a file is refused without saying why:\n${out}")
endif()
