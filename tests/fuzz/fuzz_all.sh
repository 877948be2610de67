#!/usr/bin/env bash
# Long local fuzzing: every libFuzzer target (or those named), two at a time, for SECONDS each,
# keeping each target's corpus in BUILD_DIR/fuzz-work so later runs start where this one ended.
#
#   tests/fuzz/fuzz_all.sh BUILD_DIR SECONDS [TARGET...]
#
# BUILD_DIR is a clang build made with -DPQPAGE_FUZZ=ON (test.sh makes build-sanitize-clang). Prints one line
# per target (runs, coverage, corpus) and exits 1 if any target found something.
set -euo pipefail
if [[ $# -lt 2 ]]; then
  echo "usage: $0 BUILD_DIR SECONDS [TARGET...]" >&2
  exit 2
fi
build=$(cd "$1" && pwd) seconds=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
  for source in "$here"/*_fuzz.cc; do targets+=("$(basename "$source" .cc)"); done
fi
failed=0
run_one() {
  bash "$here/run_fuzzer.sh" "$build/$1" "$build/$1_replay" "$seconds" "$build/fuzz-work/$1" \
    "$here/regressions/$1"
}
for ((i = 0; i < ${#targets[@]}; i += 2)); do
  run_one "${targets[i]}" > "$build/fuzz-work.${targets[i]}.out" 2>&1 &
  first=$!
  second=""
  if ((i + 1 < ${#targets[@]})); then
    run_one "${targets[i + 1]}" > "$build/fuzz-work.${targets[i + 1]}.out" 2>&1 &
    second=$!
  fi
  wait "$first" || failed=1
  [[ -z $second ]] || wait "$second" || failed=1
  cat "$build/fuzz-work.${targets[i]}.out"
  ((i + 1 < ${#targets[@]})) && cat "$build/fuzz-work.${targets[i + 1]}.out"
done
exit $failed
