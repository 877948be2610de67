#!/usr/bin/env bash
# pqpage scan: on every shipped file, and every reference file where ../shared has them, the
# figures it prints (rows, levels, non-null values, compressed bytes) must agree with what inspect
# --json reports for the same file, and a file inspect finds damaged must make scan fail with a
# one-line error.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

# The figures of MIXED, which its golden dump (testfiles/peers) fixes: 100 rows, 1715 levels
# (the lists repeat), 1427 of them values.
run_expect 0 "scan MIXED" -- "$TOOL" scan "$MIXED"
t=$SCRATCH/out
expect_grep '^rows: 100$' "$t" "scan MIXED: rows"
expect_grep '^levels: 1715$' "$t" "scan MIXED: levels"
expect_grep '^values: 1427 \(non-null\)$' "$t" "scan MIXED: values"
expect_grep '^compressed bytes: [0-9]+$' "$t" "scan MIXED: compressed bytes"
expect_grep '^decoded value bytes: [0-9]+$' "$t" "scan MIXED: value bytes"
expect_grep '^elapsed: [0-9]+\.[0-9]+ s$' "$t" "scan MIXED: elapsed"
expect_grep '^throughput: ([0-9.]+ MB/s|-) compressed, ([0-9.]+ MB/s|-) decoded$' "$t" \
  "scan MIXED: MB/s"
run_expect 2 "scan --threads 0" -- "$TOOL" scan "$MIXED" --threads 0
run_expect 2 "scan --threads x" -- "$TOOL" scan "$MIXED" --threads x
run_expect 0 "scan --per-column" -- "$TOOL" scan "$MIXED" --per-column
expect_grep '^ts +INT96 +100 +90 +[0-9]+ +1080$' "$SCRATCH/out" \
  "scan --per-column: INT96 row (90 values of 12 bytes, 10 nulls)"
# --arrow: MIXED read as Arrow record batches (OpenArrowStream), one batch per row group of 50
# rows (on any thread count); --rows and --columns narrow it, an unknown field is an error, and the Arrow-only options
# are refused without --arrow.
run_expect 0 "scan --arrow" -- "$TOOL" scan "$MIXED" --arrow
expect_grep '^rows: 100$' "$SCRATCH/out" "scan --arrow: rows"
expect_grep '^arrow batches: 2$' "$SCRATCH/out" "scan --arrow: a batch per row group"
expect_grep '^file bytes read: [0-9]+ of [0-9]+$' "$SCRATCH/out" "scan --arrow: bytes read"
expect_grep '^elapsed: [0-9]+\.[0-9]+ s$' "$SCRATCH/out" "scan --arrow: elapsed"
run_expect 0 "scan --arrow --rows 40:70" -- "$TOOL" scan "$MIXED" --arrow --rows 40:70
expect_grep '^rows: 30$' "$SCRATCH/out" "scan --arrow --rows: rows"
expect_grep '^arrow batches: 2$' "$SCRATCH/out" "scan --arrow --rows: a batch per row group"
run_expect 0 "scan --arrow --columns" -- "$TOOL" scan "$MIXED" --arrow --columns i64_req,lst,st \
  --threads 3
expect_grep '^rows: 100$' "$SCRATCH/out" "scan --arrow --columns: rows"
run_expect 0 "scan --arrow --threads 2" -- "$TOOL" scan "$MIXED" --arrow --threads 2
expect_grep '^rows: 100$' "$SCRATCH/out" "scan --arrow --threads 2: rows"
expect_grep '^arrow batches: 2$' "$SCRATCH/out" "scan --arrow --threads 2: batches"
run_expect 0 "scan --arrow --mmap" -- "$TOOL" scan "$MIXED" --arrow --mmap
expect_grep '^rows: 100$' "$SCRATCH/out" "scan --arrow --mmap: rows"
run_expect 1 "scan --arrow --columns nope" -- "$TOOL" scan "$MIXED" --arrow --columns nope
expect_one_line_error "scan --arrow --columns nope"
run_expect 2 "scan --columns without --arrow" -- "$TOOL" scan "$MIXED" --columns i64_req
# --batch-rows and --batch-bytes cut the batches within row groups: 2 x ceil(50 / 20), and one row
# a batch under a bound below any row's bytes; 0 bytes is no bound.
run_expect 0 "scan --arrow --batch-rows 20" -- "$TOOL" scan "$MIXED" --arrow --batch-rows 20
expect_grep '^arrow batches: 6$' "$SCRATCH/out" "scan --arrow --batch-rows 20: batches"
run_expect 0 "scan --arrow --batch-bytes 1" -- "$TOOL" scan "$MIXED" --arrow --batch-bytes 1
expect_grep '^arrow batches: 100$' "$SCRATCH/out" "scan --arrow --batch-bytes 1: a row a batch"
run_expect 0 "scan --arrow --batch-bytes 0" -- "$TOOL" scan "$MIXED" --arrow --batch-bytes 0
expect_grep '^arrow batches: 2$' "$SCRATCH/out" "scan --arrow --batch-bytes 0: no bound"
run_expect 2 "scan --arrow --batch-rows 0" -- "$TOOL" scan "$MIXED" --arrow --batch-rows 0
run_expect 2 "scan --arrow --batch-bytes 1X" -- "$TOOL" scan "$MIXED" --arrow --batch-bytes 1X
run_expect 2 "scan --batch-bytes without --arrow" -- "$TOOL" scan "$MIXED" --batch-bytes 4M
run_expect 2 "scan --arrow --per-column" -- "$TOOL" scan "$MIXED" --arrow --per-column
if need_shared "the figures of alltypes_plain"; then
  run_expect 0 "scan alltypes_plain" -- "$TOOL" scan "$DATA/alltypes_plain.parquet"
  expect_grep '^rows: 8$' "$SCRATCH/out" "scan alltypes_plain: rows"
  expect_grep '^levels: 88$' "$SCRATCH/out" "scan alltypes_plain: levels"
  expect_grep '^values: 88 \(non-null\)$' "$SCRATCH/out" "scan alltypes_plain: values"
  run_expect 0 "scan --per-column alltypes_plain" -- "$TOOL" scan \
    "$DATA/alltypes_plain.parquet" --per-column
  expect_grep '^timestamp_col +INT96 +8 +8 +[0-9]+ +96$' "$SCRATCH/out" \
    "scan --per-column: INT96 row (8 values of 12 bytes)"
fi

# A bad CRC fails the scan unless checksums are not verified: a copy of MIXED with CRCs and one
# value byte flipped, and parquet-testing's corrupt file.
run_expect 0 "recode with CRCs" -- "$TOOL" recode "$MIXED" "$SCRATCH/crc.parquet" \
  --checksum --encoding plain --compression uncompressed
python3 "$DAMAGE" "$TOOL" "$SCRATCH/crc.parquet" "$SCRATCH/corrupt-checksum.parquet" crc \
  i64_req 1 > /dev/null
corrupt=("$SCRATCH/corrupt-checksum.parquet")
if need_shared "datapage_v1-corrupt-checksum"; then
  corrupt+=("$DATA/datapage_v1-corrupt-checksum.parquet")
fi
run_expect 0 "scan of the copy with CRCs" -- "$TOOL" scan "$SCRATCH/crc.parquet"
for file in "${corrupt[@]}"; do
  run_expect 1 "scan of a corrupt checksum ($file)" -- "$TOOL" scan "$file"
  expect_one_line_error "scan of a corrupt checksum ($file)"
  expect_grep "CRC" "$SCRATCH/err" "scan of a corrupt checksum ($file) says CRC"
  run_expect 0 "scan --no-verify-checksums of a corrupt checksum ($file)" -- \
    "$TOOL" scan "$file" --no-verify-checksums
  run_expect 1 "scan --arrow of a corrupt checksum ($file)" -- "$TOOL" scan "$file" --arrow
  expect_one_line_error "scan --arrow of a corrupt checksum ($file)"
  expect_grep "CRC" "$SCRATCH/err" "scan --arrow of a corrupt checksum ($file) says CRC"
  run_expect 0 "scan --arrow --no-verify-checksums of a corrupt checksum ($file)" -- \
    "$TOOL" scan "$file" --arrow --no-verify-checksums
done

# Every reference file: scan must agree with inspect --json on rows, levels, non-null values and
# compressed bytes, or, for a file with a bad CRC, fail with a one-line error. inspect --json
# and scan run per file; one python3 then compares them all (its start-up would dominate).
compare=$SCRATCH/compare.py
cat > "$compare" <<'PY'
import json, re, sys
failures = []
scanned = 0
for line in open(sys.argv[1]):
    file, inspect_json, scan_text, status = line.rstrip("\n").split("\t")
    doc = json.load(open(inspect_json))
    pages = [p for rg in doc["row_groups"] for c in rg["columns"] for p in c["pages"]]
    bad_crc = any(p["crc_valid"] is False for p in pages)
    if bad_crc or doc["problems"]:
        if status != "1":
            failures.append(f"scan {file}: exit {status}, but the file has a bad CRC or problems")
        continue
    if status != "0":
        failures.append(f"scan {file}: exit {status}")
        continue
    text = open(scan_text).read()
    def figure(name):
        m = re.search(r"^" + name + r": (\d+)", text, re.M)
        return int(m.group(1)) if m else None
    data = [p for p in pages if p["type"] in ("DATA_PAGE", "DATA_PAGE_V2")]
    want = {
        "rows": sum(rg["num_rows"] for rg in doc["row_groups"]),
        "levels": sum(p["num_values"] for p in data),
        "values": sum(p["num_values"] - p["num_nulls"] for p in data),
        "compressed bytes": sum(c["length"] for rg in doc["row_groups"] for c in rg["columns"]),
    }
    for name, value in want.items():
        if figure(name) != value:
            failures.append(f"scan {file}: {name} {figure(name)}, inspect --json says {value}")
    scanned += 1
least = int(sys.argv[2])
for failure in failures:
    print("FAIL:", failure, file=sys.stderr)
if scanned < least:
    print(f"FAIL: only {scanned} files scanned cleanly, expected {least}", file=sys.stderr)
sys.exit(1 if failures or scanned < least else 0)
PY

# compare_all LEAST FILE...: every FILE is scanned and inspected; at least LEAST scan cleanly.
compare_all() {
  local least=$1 path file
  shift
  : > "$SCRATCH/manifest"
  rm -rf "$SCRATCH/files"
  mkdir -p "$SCRATCH/files"
  for path in "$@"; do
    compare_one "$path"
  done
  python3 "$compare" "$SCRATCH/manifest" "$least" ||
    fail "scan figures disagree with inspect --json"
}
compare_one() {
  local path=$1 file status status_t variant ignored
  file=$(basename "$path")
  run_expect 0 "inspect --json $file" -- "$TOOL" inspect "$path" --json
  mv "$SCRATCH/out" "$SCRATCH/files/$file.json"
  status=0
  "$TOOL" scan "$path" > "$SCRATCH/files/$file.txt" 2> "$SCRATCH/err" || status=$?
  if [[ $status -eq 1 ]]; then
    expect_one_line_error "scan $file"
  elif [[ -s $SCRATCH/err ]]; then
    fail "scan $file: exit $status and stderr: $(cat "$SCRATCH/err")"
  fi
  # Chunks are decoded in parallel, from a copy or in place: the figures, and which error is
  # reported, must depend neither on the thread count nor on --mmap.
  for variant in "--threads 1" "--threads 3" "--threads 2 --mmap"; do
    status_t=0
    # shellcheck disable=SC2086  # the variant is several arguments
    "$TOOL" scan "$path" $variant > "$SCRATCH/variant.txt" 2> "$SCRATCH/variant.err" ||
      status_t=$?
    [[ $status_t -eq $status ]] || fail "scan $file $variant: exit $status_t, not $status"
    cmp -s "$SCRATCH/err" "$SCRATCH/variant.err" ||
      fail "scan $file $variant: stderr '$(cat "$SCRATCH/variant.err")' differs"
    # Bytes read are the same as the default's with one thread; with more, a large chunk split
    # into page runs reads its dictionary page once a run (and its headers once more without an
    # offset index); a mapped file is not read but used.
    ignored='^(elapsed|throughput|file bytes read):'
    [[ $variant == "--threads 1" ]] && ignored='^(elapsed|throughput):'
    diff <(grep -Ev "$ignored" "$SCRATCH/files/$file.txt") \
      <(grep -Ev "$ignored" "$SCRATCH/variant.txt") > /dev/null ||
      fail "scan $file $variant: figures differ from the default's"
    CHECKS=$((CHECKS + 1))
  done
  printf '%s\t%s\t%s\t%s\n' "$file" "$SCRATCH/files/$file.json" "$SCRATCH/files/$file.txt" \
    "$status" >> "$SCRATCH/manifest"
  CHECKS=$((CHECKS + 1))
}

# The shipped files (the peers' zero-row files among them) and the copies made above, corrupt
# ones included; then every reference file but the 1 GiB string one (seconds and gigabytes for
# every pass; inspect_test covers it).
shipped=("$SAMPLE" "$PEERS"/*.parquet "$SCRATCH/crc.parquet" "$SCRATCH/corrupt-checksum.parquet")
compare_all 13 "${shipped[@]}"
if need_shared "scan against inspect --json on every reference file"; then
  reference=()
  for path in "$DATA"/*.parquet; do
    [[ $(basename "$path") == large_string_map.brotli.parquet ]] || reference+=("$path")
  done
  compare_all 30 "${reference[@]}"
fi

passed
