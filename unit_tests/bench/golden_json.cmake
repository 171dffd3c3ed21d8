# SPDX-License-Identifier: BSD-3-Clause
# Golden-file test of kobalt-bench's JSON layout: runs the bench on a fixed
# input, masks what depends on the machine or the clock (times, rates, the
# device, the Kokkos version, the build's provenance, errors in the last bits), and compares the
# rest with the golden file. Set UPDATE=1 to rewrite the golden file.
# Usage: cmake -DBENCH=... -DGOLDEN=... -DWORK=... [-DUPDATE=1] -P golden_json.cmake
foreach(var BENCH GOLDEN WORK)
  if(NOT ${var})
    message(FATAL_ERROR "golden_json.cmake needs -D${var}=...")
  endif()
endforeach()
get_filename_component(data_dir ${GOLDEN} DIRECTORY)
execute_process(
  COMMAND ${BENCH} ${data_dir}/bench_input.mtx lap2d:5
          --format csr:classical --format ell --format ell:width=1 --format hybrid:minimal_storage
          --format csrk:k=2 --format hybrid:reproducible=1 --reps 5 --budget 0 --warmup 0 --triad-mib 1 --json ${WORK}/bench.json
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
# ell:width=1 is refused on purpose (an error row), so the bench exits 1.
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "kobalt-bench exited ${rc} (expected 1: one refused format)\n${out}\n${err}")
endif()
file(READ ${WORK}/bench.json json)
foreach(key setup_ms setup_csr_spmvs update_values_ms update_values_csr_spmvs time_ms_median time_ms_min
            time_ms_max reps gflops gb_per_s
            bandwidth_fraction max_relative_error seconds kokkos_version last_level_cache_bytes)
  string(REGEX REPLACE "\"${key}\": [-0-9.e+]+" "\"${key}\": <number>" json "${json}")
endforeach()
# Strings that name the machine, the build or the run (provenance); JSON
# escapes (\n, \") may occur inside them.
foreach(key device execution_space source commit compiler flags build_type host date
            command_line pages kokkos_configuration)
  string(REGEX REPLACE "\"${key}\": \"([^\"\\\\]|\\\\.)*\"" "\"${key}\": <text>" json "${json}")
endforeach()
# Whether a result fits the last-level cache depends on the machine, and
# CSR-k's super-row size on its profile (a measured host has its own row).
string(REGEX REPLACE "\"cache_resident\": (true|false|null)" "\"cache_resident\": <flag>" json "${json}")
# A host that does not show its caches (no /sys/devices/system/cpu/*/cache,
# as in some containers) reports none.
string(REGEX REPLACE "\"last_level_cache_bytes\": null" "\"last_level_cache_bytes\": <number>" json "${json}")
string(REGEX REPLACE "srs=[0-9]+" "srs=<n>" json "${json}")
if(UPDATE)
  file(WRITE ${GOLDEN} "${json}")
  message(STATUS "rewrote ${GOLDEN}")
  return()
endif()
file(READ ${GOLDEN} golden)
if(NOT json STREQUAL golden)
  file(WRITE ${WORK}/bench.masked.json "${json}")
  message(FATAL_ERROR "kobalt-bench JSON differs from ${GOLDEN}; masked output in "
                      "${WORK}/bench.masked.json (diff them; rerun with -DUPDATE=1 if the change is intended)")
endif()
message(STATUS "kobalt-bench JSON matches ${GOLDEN}")
