#!/usr/bin/env bash
# Runs one libFuzzer target, coverage-guided, for a bounded time, and fails on any finding.
#
#   run_fuzzer.sh FUZZER REPLAY SECONDS WORK_DIR [REGRESSION_DIR]
#
# The run starts from the target's seeds (REPLAY --write-seeds, the same seeds the ctest replay
# mutates), its regression corpus (inputs that once found a bug), and for the file-level target the
# small reference files (parquet-testing, testfiles/peers). New inputs accumulate in
# WORK_DIR/corpus, which later runs reuse (tests/fuzz/fuzz_all.sh runs every target for as long
# as you like). A crash, sanitizer report, leak, timeout or out-of-memory fails the run; the
# offending input is printed in hex and kept in WORK_DIR/artifacts, and every such input belongs in
# tests/fuzz/regressions/TARGET/ once fixed, so ctest replays it for good.
set -euo pipefail
if [[ $# -lt 4 ]]; then
  echo "usage: $0 FUZZER REPLAY SECONDS WORK_DIR [REGRESSION_DIR]" >&2
  exit 2
fi
fuzzer=$1 replay=$2 seconds=$3 work=$4 regressions=${5:-}
name=$(basename "$fuzzer")
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work/seeds" "$work/artifacts" "$work/files"
mkdir -p "$work/seeds" "$work/corpus" "$work/artifacts"
"$replay" --write-seeds "$work/seeds" > /dev/null
dirs=("$work/corpus" "$work/seeds")
[[ -n $regressions && -d $regressions ]] && dirs+=("$regressions")
if [[ $name == file_reader_decode_fuzz ]]; then
  mkdir -p "$work/files"
  shared=${PQPAGE_SHARED_DIR:-$here/../../../shared}
  for f in "$shared"/parquet-testing/data/*.parquet "$shared"/parquet-testing/bad_data/*.parquet \
    "$here"/../../testfiles/peers/*.parquet; do
    [[ -f $f && $(stat -c %s "$f") -le 65536 ]] && cp "$f" "$work/files/"
  done
  dirs+=("$work/files")
fi

status=0
# -rss_limit_mb and -malloc_limit_mb: a harness may legitimately allocate what its caps allow
# (1 MiB pages, 64 Ki values), never gigabytes. -timeout: one input taking 25 s is a hang.
"$fuzzer" -max_total_time="$seconds" -timeout=25 -rss_limit_mb=2048 -malloc_limit_mb=2048 \
  -print_final_stats=1 -artifact_prefix="$work/artifacts/" "${dirs[@]}" > "$work/log" 2>&1 ||
  status=$?
executed=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log" | tail -1)
done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$work/log" | tail -1 || true)
coverage=$(sed -nE 's/.* cov: ([0-9]+) ft: ([0-9]+) corp: ([0-9]+).* rss: ([0-9]+Mb).*/coverage \1 edges, \2 features, corpus \3 inputs, peak \4/p' \
  <<< "$done_line")
findings=$(find "$work/artifacts" -type f | wc -l)
if [[ $status -ne 0 || $findings -ne 0 ]]; then
  echo "FAIL [$name]: libFuzzer exit $status, $findings finding(s) after ${executed:-?} runs"
  grep -E 'ERROR|SUMMARY|runtime error|==[0-9]+==|#[0-9]+ 0x' "$work/log" | head -40 || true
  for artifact in "$work"/artifacts/*; do
    [[ -f $artifact ]] || continue
    echo "--- $artifact ($(stat -c %s "$artifact") bytes); reproduce: $fuzzer $artifact"
    od -A x -t x1z -v "$artifact" | head -64
  done
  exit 1
fi
echo "PASS [$name]: ${executed:-?} runs in ${seconds}s, ${coverage:-no final stats}, no findings"
