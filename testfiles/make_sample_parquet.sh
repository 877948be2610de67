#!/usr/bin/env bash
# Regenerates testfiles/sample_trips.parquet from sample_trips.csv with pqpage's own page builder
# (pqpage_demo --write-parquet): 2 row groups, 8 KiB pages, a 16 KiB dictionary limit so that the
# receipt URLs fall back from dictionary to PLAIN, snappy, page CRCs.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build build -j"$(nproc)" --target pqpage_demo
./build/pqpage_demo testfiles/sample_trips.csv --write-parquet testfiles/sample_trips.parquet
