#!/usr/bin/env bash
# Compile check for AMD GPUs (issue 19): configures and builds the library,
# every unit test, kobalt-bench with the rocSPARSE peer, and the install
# consumer against a Kokkos built for HIP, and fails on any error, and on any
# warning from Kobalt's own files (src/, perf_tests/, unit_tests/, fuzz/,
# tools/; warnings inside Kokkos or ROCm headers are listed, not fatal).
# Nothing runs: there is no AMD GPU here.
#
# Usage: tools/check_hip_build.sh KOKKOS_HIP_ROOT [BUILD_DIR]
#   KOKKOS_HIP_ROOT  install prefix of a Kokkos 4.x configured with
#                    -DKokkos_ENABLE_HIP=ON -DKokkos_ARCH_AMD_GFX90A=ON
#                    -DKokkos_ENABLE_ROCTHRUST=OFF (README, "Swapping backends")
#   BUILD_DIR        default build-hip
# Needs Debian 12's hipcc libamdhip64-dev rocm-device-libs librocsparse-dev
# libhipsparse-dev. JOBS sets the parallel jobs (default: all cores).
set -uo pipefail
kokkos=${1:?usage: tools/check_hip_build.sh KOKKOS_HIP_ROOT [BUILD_DIR]}
build=${2:-build-hip}
jobs=${JOBS:-$(nproc)}
src=$(cd "$(dirname "$0")/.." && pwd)
log=$build/check_hip_build.log
# Without a GPU, hipcc asks rocm_agent_enumerator for one and prints a
# harmless traceback; naming the target silences it.
export HCC_AMDGPU_TARGET=${HCC_AMDGPU_TARGET:-gfx90a}
mkdir -p "$build"
: > "$log"
step() {  # NAME COMMAND...: runs it into the log, stops the check on failure
  local name=$1
  shift
  echo "== $name" | tee -a "$log"
  if ! "$@" >> "$log" 2>&1; then
    echo "check_hip_build: '$name' failed; the log is $log" >&2
    grep -E "error" "$log" | sort -u | head -20 >&2
    exit 1
  fi
}
step configure cmake -S "$src" -B "$build" -DCMAKE_CXX_COMPILER=hipcc -DKokkos_ROOT="$kokkos" \
  -DCMAKE_BUILD_TYPE=Release -DKOBALT_ENABLE_TESTS=ON -DKOBALT_ENABLE_PERF_TESTS=ON \
  -DKOBALT_ENABLE_ROCSPARSE=ON
step "build (library, unit tests, kobalt-bench + rocSPARSE)" cmake --build "$build" -j "$jobs"
step install cmake --install "$build" --prefix "$build/install"
step "consumer: configure" cmake -S "$src/unit_tests/consumer" -B "$build/consumer" \
  -DCMAKE_CXX_COMPILER=hipcc -DCMAKE_PREFIX_PATH="$build/install" -DKokkos_ROOT="$kokkos"
step "consumer: build" cmake --build "$build/consumer" -j "$jobs"
# Ours: a warning located in this tree (the build's include/kobalt is a
# link to src/), not in a Kokkos folder someone keeps inside it.
ours=$(grep -E "warning:" "$log" | grep -F "$src/" | grep -viE "/kokkos[^/]*/" | sort -u)
others=$(grep -cE "warning:" "$log")
if [ -n "$ours" ]; then
  echo "check_hip_build: warnings in Kobalt's code:" >&2
  echo "$ours" >&2
  exit 1
fi
echo "check_hip_build: clean for $HCC_AMDGPU_TARGET ($(ls "$build"/unit_tests/test_* | wc -l) test executables, kobalt-bench, consumer; $others warning lines, none from Kobalt's files)"
