#!/usr/bin/env bash
# Measures pqpage against Arrow C++ side by side: installs pyarrow (which ships libparquet and its
# headers) into a virtualenv under build-arrow/, builds bench/arrow/arrow_comparison_bench against
# it, runs it once and prints pqpage/Arrow throughput ratios for every path (>1: pqpage is faster).
# Extra arguments go to the benchmark (e.g. --benchmark_filter=decode).
set -euo pipefail
cd "$(dirname "$0")/../.."
./install-deps.sh
venv=build-arrow/venv
# The same pins as the peers' virtualenv (tests/peers/make_venv.sh), so both compare one Arrow.
pyarrow_pin=$(grep -o 'pyarrow==[0-9.]*' tests/peers/make_venv.sh)
numpy_pin=$(grep -o 'numpy==[0-9.]*' tests/peers/make_venv.sh)
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/pip" show -q pyarrow 2>/dev/null ||
  [ "$("$venv/bin/python" -c 'import pyarrow; print("pyarrow==" + pyarrow.__version__)')" != "$pyarrow_pin" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "$pyarrow_pin" "$numpy_pin"
fi
arrow_dir=$("$venv/bin/python" -c 'import os, pyarrow; print(os.path.dirname(pyarrow.__file__))')
echo "Arrow C++ $("$venv/bin/python" -c 'import pyarrow; print(pyarrow.__version__)') from $arrow_dir"
cmake -S . -B build-arrow -DCMAKE_BUILD_TYPE=Release -DPQPAGE_BUILD_TESTS=OFF \
  -DPQPAGE_ARROW_DIR="$arrow_dir" > /dev/null
cmake --build build-arrow -j"$(nproc)" --target arrow_comparison_bench arrow_file_scan_bench \
  pqpage_file_scan_bench
./build-arrow/arrow_comparison_bench --benchmark_min_time=0.3 --benchmark_repetitions=3 \
  --benchmark_report_aggregates_only=true --benchmark_out=build-arrow/arrow_comparison.json \
  --benchmark_out_format=json "$@" > /dev/null
python3 bench/arrow/ratios.py build-arrow/arrow_comparison.json
# The page level: whole files through Arrow's column readers and pqpage's page decoder.
"$venv/bin/python" bench/arrow/make_scan_files.py build-arrow/scan
export PQPAGE_SCAN_FILES=build-arrow/scan/scan_pyarrow_defaults.parquet:build-arrow/scan/scan_pyarrow_v2_delta_zstd.parquet
for side in arrow pqpage; do
  "./build-arrow/${side}_file_scan_bench" --benchmark_min_time=0.3 --benchmark_repetitions=3 \
    --benchmark_report_aggregates_only=true --benchmark_out="build-arrow/${side}_file_scan.json" \
    --benchmark_out_format=json > /dev/null
done
python3 bench/arrow/ratios.py build-arrow/arrow_file_scan.json build-arrow/pqpage_file_scan.json
