#!/usr/bin/env bash
# Builds pqpage and runs every test twice: an optimised build, then a build with AddressSanitizer
# and UndefinedBehaviorSanitizer that halts on the first error. The tests that compare pqpage with
# other implementations use a virtualenv of them (pyarrow, duckdb, polars, fastparquet) made under
# build/ on the first run and reused afterwards.
set -euo pipefail
cd "$(dirname "$0")"
./install-deps.sh
jobs=$(nproc)
mkdir -p build
bash tests/peers/make_venv.sh build/peers-venv
export PQPAGE_PEERS_VENV="$PWD/build/peers-venv"

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DPQPAGE_BUILD_BENCHMARKS=ON > /dev/null
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs"

cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPQPAGE_SANITIZE=ON \
  -DPQPAGE_BUILD_BENCHMARKS=OFF > /dev/null
cmake --build build-sanitize -j"$jobs"
ASAN_OPTIONS=halt_on_error=1:detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  ctest --test-dir build-sanitize --output-on-failure -j"$jobs"
