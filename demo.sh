#!/usr/bin/env bash
# Builds pqpage (installing any missing Debian packages) and runs the main job on the sample the
# project ships: `pqpage inspect` shows how testfiles/sample_trips.parquet is encoded, page by
# page; `pqpage recode` rewrites it with data pages v2 and zstd; `inspect` shows the result and
# `dump` proves both files hold the same levels and values.
set -euo pipefail
cd "$(dirname "$0")"
./install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build build -j"$(nproc)" --target pqpage_tool
sample=testfiles/sample_trips.parquet
recoded=build/sample_trips.v2-zstd.parquet
./build/pqpage inspect "$sample"
echo
./build/pqpage recode "$sample" "$recoded" --page-version 2 --compression zstd
echo
./build/pqpage inspect "$recoded"
echo
if cmp -s <(./build/pqpage dump "$sample") <(./build/pqpage dump "$recoded"); then
  echo "pqpage dump: both files hold the same levels and values."
else
  echo "pqpage dump: the files differ" >&2
  exit 1
fi
