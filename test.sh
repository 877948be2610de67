#!/usr/bin/env bash
# Builds pqpage and runs every test twice: an optimised build (GCC), then a clang build with
# AddressSanitizer and UndefinedBehaviorSanitizer (clang's also checks pointer arithmetic on null)
# that halts on the first error. The clang build is also instrumented for libFuzzer: there every
# fuzz target additionally runs coverage-guided for a bounded time (PQPAGE_FUZZ_SECONDS, 20 s a
# target, the two page-level targets 60 s), and any finding fails the run with its input printed.
# The tests that compare pqpage with other implementations use a virtualenv of them (pyarrow,
# duckdb, polars, fastparquet, pinned) made under build/ on the first run and reused afterwards;
# the Python package is built and installed there with `pip install .` (build/python kept between
# runs) before the optimised build's tests, which include its pytest suite.
set -euo pipefail
cd "$(dirname "$0")"
./install-deps.sh
jobs=$(nproc)
mkdir -p build
bash tests/peers/make_venv.sh build/peers-venv
export PQPAGE_PEERS_VENV="$PWD/build/peers-venv"

# Arrow C++ as pyarrow ships it, for the test that Arrow reads pqpage's page indexes.
arrow_dir=$("$PQPAGE_PEERS_VENV/bin/python" -c 'import os, pyarrow; print(os.path.dirname(pyarrow.__file__))')
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DPQPAGE_BUILD_BENCHMARKS=ON \
  -DPQPAGE_ARROW_DIR="$arrow_dir" > /dev/null
cmake --build build -j"$jobs"
# The Python package, built and installed as a user would (`pip install .`), for its tests.
bash tests/python/install_package.sh "$PQPAGE_PEERS_VENV"
ctest --test-dir build --output-on-failure -j"$jobs"

cmake -S . -B build-sanitize-clang -DCMAKE_CXX_COMPILER=clang++-14 \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPQPAGE_FUZZ=ON -DPQPAGE_BUILD_BENCHMARKS=OFF > /dev/null
cmake --build build-sanitize-clang -j"$jobs"
ASAN_OPTIONS=halt_on_error=1:detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  ctest --test-dir build-sanitize-clang --output-on-failure -j"$jobs"
