#!/usr/bin/env bash
# pqpage dump --rows A:B and scan --rows A:B: on files with and without a page index (pqpage's
# recodes with small pages, in every page version and several encodings and codecs, and reference
# files, list and nested columns among them), the rows read are exactly that slice of the full dump
# (rows_check.py), whatever the range: empty, the whole file, row group and page boundaries and
# their neighbours, random ones. Bad ranges are usage errors.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)

# The sample (4096 rows, 2 row groups) and MIXED (lists and structs, two row groups); the
# reference files add other writers' nesting.
inputs=("$SAMPLE" "$MIXED")
if need_shared "rows of 7 reference files"; then
  inputs+=("$DATA/alltypes_tiny_pages_plain.parquet" "$DATA/nested_lists.snappy.parquet"
    "$DATA/list_columns.parquet" "$DATA/repeated_no_annotation.parquet" "$DATA/null_list.parquet"
    "$DATA/nested_structs.rust.parquet" "$DATA/datapage_v2.snappy.parquet")
fi
policies=(plain dictionary delta auto)
codecs=(uncompressed zstd)
if [[ -n ${PQPAGE_SANITIZER_BUILD:-} ]]; then
  policies=(dictionary delta)
  codecs=(zstd)
fi
files=("${inputs[@]}")
n=0
for input in "${inputs[@]}"; do
  for version in 1 2; do
    for policy in "${policies[@]}"; do
      for codec in "${codecs[@]}"; do
        n=$((n + 1))
        out=$SCRATCH/recoded_$n.parquet
        run_expect 0 "recode $(basename "$input") v$version $policy $codec" -- \
          "$TOOL" recode "$input" "$out" --page-version "$version" --encoding "$policy" \
          --compression "$codec" --page-size 300
        files+=("$out")
      done
    done
  done
done

seed=1
for f in "${files[@]}"; do
  run_expect 0 "rows of $(basename "$f")" -- python3 "$HERE/rows_check.py" "$TOOL" "$f" "$seed"
  seed=$((seed + 1))
done

# A page index makes a few rows of a large file read a small part of it.
run_expect 0 "scan --rows of a recoded file" -- \
  "$TOOL" scan "$SCRATCH/recoded_1.parquet" --rows 100:101
expect_grep '^file bytes read: [0-9]+ of [0-9]+$' "$SCRATCH/out" "scan --rows: bytes read"

# A damaged page index (bytes just before the footer, where the last index written lies): the
# rows are still exact, read page after page, and a warning says so.
damaged=$SCRATCH/damaged_index.parquet
python3 - "$SCRATCH/recoded_1.parquet" "$damaged" << 'EOF_PY'
import struct, sys
data = bytearray(open(sys.argv[1], "rb").read())
footer_start = len(data) - 8 - struct.unpack("<I", data[-8:-4])[0]
data[footer_start - 6:footer_start] = b"\xff" * 6
open(sys.argv[2], "wb").write(data)
EOF_PY
run_expect 0 "rows of a file with a damaged page index" -- \
  python3 "$HERE/rows_check.py" "$TOOL" "$damaged" "$seed"
run_expect 0 "dump --rows of a file with a damaged page index" -- \
  "$TOOL" dump "$damaged" --rows 4000:4096
expect_grep '^pqpage dump: warning: .*its pages are read one after another instead$' \
  "$SCRATCH/err" "dump --rows: the damaged index is a warning"

run_expect 2 "--rows reversed" -- "$TOOL" dump "$SAMPLE" --rows 5:3
run_expect 2 "--rows without a colon" -- "$TOOL" dump "$SAMPLE" --rows 5
run_expect 2 "--rows negative" -- "$TOOL" scan "$SAMPLE" --rows -1:3
run_expect 2 "--rows not a number" -- "$TOOL" scan "$SAMPLE" --rows a:b
run_expect 0 "--rows past the end" -- "$TOOL" dump "$SAMPLE" --rows 100000:200000
expect_grep '"values":\[\]' "$SCRATCH/out" "--rows past the end: no values"
passed
