#!/usr/bin/env bash
# Zero-row files, the ordinary output of a filter that matched nothing, as the peers write them
# (testfiles/peers/*-zero-rows*.parquet: pyarrow's row group of 0 rows with chunks at offset 0
# of 0 bytes, or with empty dictionary pages; DuckDB's and polars' files without row groups).
# Every command must handle them: dump prints every column with no values, inspect shows the empty
# chunks, scan counts 0 rows, and recode writes a zero-row file with the same row groups whose
# dump equals the original's. (That the peers read pqpage's zero-row files back is checked by
# tests/interop/peer_options_test.py.)
set -euo pipefail
source "$(dirname "$0")/lib.sh"

FILES=$(dirname "$0")/../../testfiles/peers
shopt -s nullglob
zero_row_files=("$FILES"/*-zero-rows*.parquet)
[[ ${#zero_row_files[@]} -ge 4 ]] || fail "expected 4 zero-row files in $FILES, found ${#zero_row_files[@]}"

for file in "${zero_row_files[@]}"; do
  name=$(basename "$file" .parquet)
  run_expect 0 "dump $name" -- "$TOOL" dump "$file"
  cp "$SCRATCH/out" "$SCRATCH/$name.dump"
  columns=$(wc -l < "$SCRATCH/$name.dump")
  [[ $columns -gt 10 ]] || fail "dump $name: $columns columns, expected every leaf of the table"
  if grep -v '"values":\[\]}$' "$SCRATCH/$name.dump" | grep -q .; then
    fail "dump $name: a column with values: $(grep -v '"values":\[\]}$' "$SCRATCH/$name.dump" | head -1)"
  fi
  CHECKS=$((CHECKS + 1))

  run_expect 0 "inspect $name" -- "$TOOL" inspect "$file"
  expect_grep '^rows: +0$' "$SCRATCH/out" "inspect $name: rows"
  groups=$(sed -n 's/^row groups: *//p' "$SCRATCH/out")
  if [[ $groups -gt 0 ]]; then
    expect_grep '^row group 0: 0 rows' "$SCRATCH/out" "inspect $name: the empty row group"
    expect_grep "^  column 0 'b_req' BOOLEAN: .*, 0 values," "$SCRATCH/out" \
      "inspect $name: the empty chunk"
  fi
  if [[ $name == pyarrow-zero-rows-plain-v1 ]]; then
    expect_grep "0 values, 0 bytes \(0 uncompressed\) at offset 0$" "$SCRATCH/out" \
      "inspect $name: a chunk at offset 0 of 0 bytes"
    expect_grep "pages: \(no pages\)" "$SCRATCH/out" "inspect $name: no pages"
  fi
  run_expect 0 "inspect --json $name" -- "$TOOL" inspect "$file" --json
  python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(1 if d["problems"] else 0)' \
    "$SCRATCH/out" || fail "inspect --json $name: problems reported"
  CHECKS=$((CHECKS + 1))

  run_expect 0 "scan $name" -- "$TOOL" scan "$file"
  expect_grep '^rows: 0$' "$SCRATCH/out" "scan $name: rows"
  expect_grep '^values: 0 \(non-null\)$' "$SCRATCH/out" "scan $name: values"

  for options in "" "--page-version 2 --compression zstd" "--encoding plain --checksum" \
    "--encoding delta --page-version 2 --compression snappy --verify"; do
    out=$SCRATCH/$name.recoded.parquet
    # shellcheck disable=SC2086  # the options are words
    run_expect 0 "recode $name $options" -- "$TOOL" recode "$file" "$out" $options
    run_expect 0 "dump of recoded $name ($options)" -- "$TOOL" dump "$out"
    cmp -s "$SCRATCH/out" "$SCRATCH/$name.dump" ||
      fail "recode $name ($options): the dump differs from the original's"
    CHECKS=$((CHECKS + 1))
    run_expect 0 "inspect of recoded $name ($options)" -- "$TOOL" inspect "$out"
    expect_grep "^row groups: +$groups$" "$SCRATCH/out" "recode $name ($options): row groups kept"
  done
done
passed
