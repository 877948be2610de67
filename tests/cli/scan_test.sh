#!/usr/bin/env bash
# pqpage scan: on every reference file the figures it prints (rows, levels, non-null values,
# compressed bytes) must agree with what inspect --json reports for the same file, and a file
# inspect finds damaged must make scan fail with a one-line error.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

run_expect 0 "scan alltypes_plain" -- "$TOOL" scan "$DATA/alltypes_plain.parquet"
t=$SCRATCH/out
expect_grep '^rows: 8$' "$t" "scan alltypes_plain: rows"
expect_grep '^levels: 88$' "$t" "scan alltypes_plain: levels"
expect_grep '^values: 88 \(non-null\)$' "$t" "scan alltypes_plain: values"
expect_grep '^compressed bytes: [0-9]+$' "$t" "scan alltypes_plain: compressed bytes"
expect_grep '^decoded value bytes: [0-9]+$' "$t" "scan alltypes_plain: value bytes"
expect_grep '^elapsed: [0-9]+\.[0-9]+ s$' "$t" "scan alltypes_plain: elapsed"
expect_grep '^throughput: ([0-9.]+ MB/s|-) compressed, ([0-9.]+ MB/s|-) decoded$' "$t" \
  "scan alltypes_plain: MB/s"
run_expect 2 "scan --threads 0" -- "$TOOL" scan "$DATA/alltypes_plain.parquet" --threads 0
run_expect 2 "scan --threads x" -- "$TOOL" scan "$DATA/alltypes_plain.parquet" --threads x
run_expect 0 "scan --per-column" -- "$TOOL" scan "$DATA/alltypes_plain.parquet" --per-column
expect_grep '^timestamp_col +INT96 +8 +8 +[0-9]+ +96$' "$SCRATCH/out" \
  "scan --per-column: INT96 row (8 values of 12 bytes)"

# A bad CRC fails the scan unless checksums are not verified.
run_expect 1 "scan of a corrupt checksum" -- \
  "$TOOL" scan "$DATA/datapage_v1-corrupt-checksum.parquet"
expect_one_line_error "scan of a corrupt checksum"
run_expect 0 "scan --no-verify-checksums of a corrupt checksum" -- \
  "$TOOL" scan "$DATA/datapage_v1-corrupt-checksum.parquet" --no-verify-checksums

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
for failure in failures:
    print("FAIL:", failure, file=sys.stderr)
if scanned < 30:
    print(f"FAIL: only {scanned} reference files scanned cleanly", file=sys.stderr)
sys.exit(1 if failures or scanned < 30 else 0)
PY

: > "$SCRATCH/manifest"
mkdir -p "$SCRATCH/files"
for path in "$DATA"/*.parquet; do
  file=$(basename "$path")
  # A 1 GiB string: seconds and gigabytes for every pass (inspect_test covers the file).
  [[ $file == large_string_map.brotli.parquet ]] && continue
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
    # Bytes read are the same for every thread count; a mapped file is not read but used.
    ignored='^(elapsed|throughput):'
    [[ $variant == *--mmap* ]] && ignored='^(elapsed|throughput|file bytes read):'
    diff <(grep -Ev "$ignored" "$SCRATCH/files/$file.txt") \
      <(grep -Ev "$ignored" "$SCRATCH/variant.txt") > /dev/null ||
      fail "scan $file $variant: figures differ from the default's"
    CHECKS=$((CHECKS + 1))
  done
  printf '%s\t%s\t%s\t%s\n' "$file" "$SCRATCH/files/$file.json" "$SCRATCH/files/$file.txt" \
    "$status" >> "$SCRATCH/manifest"
  CHECKS=$((CHECKS + 1))
done
python3 "$compare" "$SCRATCH/manifest" || fail "scan figures disagree with inspect --json"

passed
