#!/usr/bin/env bash
# Every C++ file git tracks in src/, include/, tests/ and bench/ is formatted as .clang-format says
# (clang-format --dry-run -Werror); the offending lines are printed. Run `clang-format -i FILE` to
# fix a file. Called by ctest as: clang_format_test.sh SOURCE_DIR.
set -euo pipefail
cd "$1"
if ! command -v clang-format > /dev/null; then
  echo "FAIL: clang-format is not installed (install-deps.sh installs it)"
  exit 1
fi
if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
  mapfile -t files < <(git ls-files 'src/*.cc' 'src/*.h' 'include/*.h' 'tests/*.cc' 'tests/*.h' \
    'bench/*.cc' 'bench/*.h')
else
  mapfile -t files < <(find src include tests bench -name '*.cc' -o -name '*.h' | sort)
fi
bad=0
for file in "${files[@]}"; do
  if ! clang-format --dry-run -Werror "$file" > /dev/null 2>&1; then
    echo "FAIL: $file is not clang-formatted:"
    clang-format "$file" | diff "$file" - | head -20 || true
    bad=$((bad + 1))
  fi
done
echo "$((${#files[@]} - bad)) passed, $bad failed"
[[ $bad -eq 0 ]]
