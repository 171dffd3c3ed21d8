#!/usr/bin/env bash
# Runs both libFuzzer targets of BUILD (configured with -DKOBALT_ENABLE_FUZZING=ON)
# side by side for SECONDS each, from the seed corpora and dictionaries here;
# new inputs go to BUILD/fuzz-corpus/. A finding leaves its input in
# BUILD/fuzz-artifacts/ (replay it: BUILD/fuzz/<target>_fuzz FILE) and makes
# the exit status non-zero, and is printed in hex at the end. Usage:
# fuzz/run.sh BUILD SECONDS
set -uo pipefail
build=${1:?usage: fuzz/run.sh BUILD SECONDS}
seconds=${2:?usage: fuzz/run.sh BUILD SECONDS}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$build/fuzz-artifacts"
pids=()
for target in matrix_market specs; do
  mkdir -p "$build/fuzz-corpus/$target"
  "$build/fuzz/${target}_fuzz" -max_total_time="$seconds" -dict="$here/$target.dict" \
    -artifact_prefix="$build/fuzz-artifacts/$target-" -print_final_stats=1 \
    "$build/fuzz-corpus/$target" "$here/corpus/$target" > "$build/fuzz-$target.log" 2>&1 &
  pids+=($!)
done
status=0
for target in matrix_market specs; do
  wait "${pids[0]}" || status=1
  pids=("${pids[@]:1}")
  echo "fuzz $target: $(grep -h 'number_of_executed_units' "$build/fuzz-$target.log" | awk '{print $2}') executions"
  grep -h -A3 "^==.*ERROR\|^SUMMARY" "$build/fuzz-$target.log" || true
done
# A finding's input, in hex, so that a run on a throw-away machine (CI's
# fresh root) can be replayed elsewhere: xxd -r -p <<< HEX > FILE.
for found in "$build"/fuzz-artifacts/*; do
  [ -f "$found" ] && echo "fuzz finding $(basename "$found"): $(od -An -v -tx1 "$found" | tr -d ' \n')"
done
exit $status
