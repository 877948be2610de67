#!/usr/bin/env bash
# Every library and tool source (src/, with the headers it includes from src/ and include/) passes
# the checks of .clang-tidy: bug-prone and slow code, and the static analyzer. A finding prints with its
# check name and fails the test; a deliberate exception carries a NOLINT naming the check and why.
# Called by ctest as: clang_tidy_test.sh SOURCE_DIR BUILD_DIR (BUILD_DIR has compile_commands.json).
set -euo pipefail
source_dir=$1 build_dir=$2
cd "$source_dir"
if ! command -v clang-tidy > /dev/null; then
  echo "FAIL: clang-tidy is not installed (install-deps.sh installs it)"
  exit 1
fi
if [[ ! -f $build_dir/compile_commands.json ]]; then
  echo "FAIL: $build_dir/compile_commands.json is missing (CMAKE_EXPORT_COMPILE_COMMANDS)"
  exit 1
fi
if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
  mapfile -t files < <(git ls-files 'src/*.cc' ':!src/python/*')
else
  mapfile -t files < <(find src -name '*.cc' -not -path 'src/python/*' | sort)
fi
# src/python (the binding) is left out: pip builds it, with nanobind's and Python's headers, and
# this build has no compile commands for it.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
printf '%s\n' "${files[@]}" | xargs -P "$(nproc)" -n 4 clang-tidy -p "$build_dir" --quiet \
  > "$log" 2>&1 || true
findings=$(grep -E '(warning|error): ' "$log" | sort -u || true)
if [[ -n $findings ]]; then
  echo "$findings"
  echo "0 passed, $(wc -l <<< "$findings") failed"
  exit 1
fi
echo "${#files[@]} passed, 0 failed"
