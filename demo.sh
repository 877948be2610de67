#!/usr/bin/env bash
# Builds pqpage and runs the main job on the sample the project ships: every applicable encoding
# of every column of testfiles/sample_trips.csv, with sizes and encode/decode speeds.
set -euo pipefail
cd "$(dirname "$0")"
./install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build build -j"$(nproc)" --target pqpage_demo
./build/pqpage_demo testfiles/sample_trips.csv
