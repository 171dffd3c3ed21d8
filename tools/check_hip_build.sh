#!/usr/bin/env bash
# Compile check for AMD GPUs: configures and builds the library,
# every unit test, kobalt-bench with the rocSPARSE peer, and the install
# consumer against a Kokkos built for HIP, and fails on any error, and on any
# warning from Kobalt's own files (src/, perf_tests/, unit_tests/, fuzz/,
# tools/; warnings inside Kokkos or ROCm headers are listed, not fatal).
# Nothing runs: there is no AMD GPU here.
#
# Usage: tools/check_hip_build.sh KOKKOS_HIP_ROOT [BUILD_DIR]
#   KOKKOS_HIP_ROOT  install prefix of a Kokkos 4.x configured with
#                    -DKokkos_ENABLE_HIP=ON -DKokkos_ARCH_AMD_GFX90A=ON
#                    -DKokkos_ENABLE_ROCTHRUST=OFF (docs/building.md, "HIP on
#                    Debian 12")
#   BUILD_DIR        default build-hip
# Needs Debian 12's hipcc libamdhip64-dev rocm-device-libs librocsparse-dev
# libhipsparse-dev. JOBS sets the parallel jobs (default: all cores).
# KOKKOS_KERNELS_HIP_ROOT names a Kokkos Kernels built on that Kokkos (the
# interop tests); without it Kokkos Kernels is left out, since Debian's is
# built on its own Kokkos 3.4 and CMake refuses it.
#
#   tools/check_hip_build.sh --classify LOG BUILD_DIR
# prints the warnings of LOG that the check counts as Kobalt's and exits 1
# if there are any (the test check_hip_build_warnings runs it).
set -uo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)

# kobalt_warnings LOG BUILD: the warning lines located in Kobalt's files: in
# this checkout, or under the build tree, whose include/kobalt is a link to
# src/ and whose install/include/kobalt is the consumer's copy (the compiler
# names a header by the path it was found through), but not in a Kokkos
# folder someone keeps inside either.
kobalt_warnings() {
  local log=$1 build=$2
  case $build in /*) ;; *) build=$PWD/$build ;; esac
  grep -E "warning:" "$log" | grep -F -e "$src/" -e "${build%/}/" | grep -viE "/kokkos[^/]*/" | sort -u
}
if [ "${1:-}" = "--classify" ]; then
  ours=$(kobalt_warnings "${2:?usage: --classify LOG BUILD_DIR}" "${3:?usage: --classify LOG BUILD_DIR}")
  [ -z "$ours" ] && exit 0
  echo "$ours"
  exit 1
fi

kokkos=${1:?usage: tools/check_hip_build.sh KOKKOS_HIP_ROOT [BUILD_DIR]}
build=${2:-build-hip}
jobs=${JOBS:-$(nproc)}
log=$build/check_hip_build.log
if [ -n "${KOKKOS_KERNELS_HIP_ROOT:-}" ]; then
  kokkos_kernels=-DKokkosKernels_ROOT=$KOKKOS_KERNELS_HIP_ROOT
else
  kokkos_kernels=-DCMAKE_DISABLE_FIND_PACKAGE_KokkosKernels=ON
fi
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
  -DKOBALT_ENABLE_ROCSPARSE=ON "$kokkos_kernels"
step "build (library, unit tests, kobalt-bench + rocSPARSE)" cmake --build "$build" -j "$jobs"
step install cmake --install "$build" --prefix "$build/install"
step "consumer: configure" cmake -S "$src/unit_tests/consumer" -B "$build/consumer" \
  -DCMAKE_CXX_COMPILER=hipcc -DCMAKE_PREFIX_PATH="$build/install" -DKokkos_ROOT="$kokkos"
step "consumer: build" cmake --build "$build/consumer" -j "$jobs"
ours=$(kobalt_warnings "$log" "$build")
others=$(grep -cE "warning:" "$log")
if [ -n "$ours" ]; then
  echo "check_hip_build: warnings in Kobalt's code:" >&2
  echo "$ours" >&2
  exit 1
fi
echo "check_hip_build: clean for $HCC_AMDGPU_TARGET ($(ls "$build"/unit_tests/test_* | wc -l) test executables, kobalt-bench, consumer; $others warning lines, none from Kobalt's files)"
