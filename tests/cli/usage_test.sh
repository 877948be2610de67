#!/usr/bin/env bash
# The tool's command line: --help everywhere, usage errors (exit 2) and unreadable or unwritable
# files (exit 1 with a one-line error).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

# --help of the tool and of every command: usage on stdout, exit 0.
run_expect 0 "pqpage --help" -- "$TOOL" --help
expect_grep '^usage: pqpage COMMAND' "$SCRATCH/out" "pqpage --help"
for command in inspect dump recode scan lookup; do
  expect_grep "^  $command " "$SCRATCH/out" "pqpage --help lists $command"
done
run_expect 2 "pqpage without arguments" -- "$TOOL"
run_expect 2 "unknown command" -- "$TOOL" frobnicate
for command in inspect dump recode scan lookup; do
  run_expect 0 "$command --help" -- "$TOOL" "$command" --help
  expect_grep "^usage: pqpage $command" "$SCRATCH/out" "$command --help"
  [[ -s $SCRATCH/err ]] && fail "$command --help wrote to stderr: $(cat "$SCRATCH/err")"
done
for command in inspect recode scan; do
  run_expect 0 "$command -h" -- "$TOOL" "$command" -h
  expect_grep "^usage: pqpage $command" "$SCRATCH/out" "$command -h"
done

# Usage errors: exit 2.
in=$MIXED
out=$SCRATCH/out.parquet
run_expect 2 "inspect without FILE" -- "$TOOL" inspect
run_expect 2 "inspect with two files" -- "$TOOL" inspect "$in" "$in"
run_expect 2 "inspect --bogus" -- "$TOOL" inspect "$in" --bogus
expect_grep "unknown option '--bogus'" "$SCRATCH/err" "inspect --bogus names the option"
run_expect 2 "inspect --json=yes (a flag given a value)" -- "$TOOL" inspect "$in" --json=yes
run_expect 2 "inspect -x" -- "$TOOL" inspect -x "$in"
run_expect 2 "scan without FILE" -- "$TOOL" scan
run_expect 2 "scan --bogus" -- "$TOOL" scan "$in" --bogus
run_expect 2 "recode without OUT" -- "$TOOL" recode "$in"
run_expect 2 "recode with three files" -- "$TOOL" recode "$in" "$out" "$out"
run_expect 2 "recode --encoding bogus" -- "$TOOL" recode "$in" "$out" --encoding bogus
run_expect 2 "recode --encoding (no value)" -- "$TOOL" recode "$in" "$out" --encoding
run_expect 2 "recode --page-version 3" -- "$TOOL" recode "$in" "$out" --page-version 3
run_expect 2 "recode --page-version=x" -- "$TOOL" recode "$in" "$out" --page-version=x
run_expect 2 "recode --compression lzo" -- "$TOOL" recode "$in" "$out" --compression lzo
run_expect 2 "recode --compression lz4 (Hadoop LZ4 is read-only)" -- \
  "$TOOL" recode "$in" "$out" --compression lz4
run_expect 2 "recode --page-size 0" -- "$TOOL" recode "$in" "$out" --page-size 0
run_expect 2 "recode --page-size 12abc" -- "$TOOL" recode "$in" "$out" --page-size 12abc
run_expect 2 "recode --compression-level x" -- "$TOOL" recode "$in" "$out" --compression-level x
run_expect 2 "recode --compression zstd --compression-level 99" -- \
  "$TOOL" recode "$in" "$out" --compression zstd --compression-level 99
expect_grep 'ZSTD: level 99' "$SCRATCH/err" "an out-of-range level names the codec's limits"
run_expect 2 "recode --compression gzip --compression-level 10" -- \
  "$TOOL" recode "$in" "$out" --compression gzip --compression-level 10
run_expect 2 "recode --checksum=1" -- "$TOOL" recode "$in" "$out" --checksum=1
run_expect 2 "recode --unknown" -- "$TOOL" recode "$in" "$out" --unknown
[[ -e $out ]] && fail "a usage error created $out"
cp "$in" "$SCRATCH/self.parquet"
run_expect 2 "recode onto its own input" -- \
  "$TOOL" recode "$SCRATCH/self.parquet" "$SCRATCH/./self.parquet"
cmp -s "$in" "$SCRATCH/self.parquet" || fail "recode onto its own input changed the input"

# Files that cannot be read or written: exit 1, one line on stderr.
missing=$SCRATCH/no-such-file.parquet
for command in inspect scan; do
  run_expect 1 "$command of a missing file" -- "$TOOL" "$command" "$missing"
  expect_one_line_error "$command of a missing file"
done
run_expect 1 "inspect --json of a missing file" -- "$TOOL" inspect "$missing" --json
expect_one_line_error "inspect --json of a missing file"
[[ -s $SCRATCH/out ]] && fail "inspect --json of a missing file printed on stdout"
run_expect 1 "recode of a missing file" -- "$TOOL" recode "$missing" "$out"
expect_one_line_error "recode of a missing file"
expect_grep "no-such-file.parquet" "$SCRATCH/err" "recode's error names the missing file"
[[ -e $out ]] && fail "recode of a missing file left $out behind"
printf 'not a parquet file, just some text that is long enough to have a footer\n' \
  > "$SCRATCH/text.parquet"
for command in inspect scan; do
  run_expect 1 "$command of a text file" -- "$TOOL" "$command" "$SCRATCH/text.parquet"
  expect_one_line_error "$command of a text file"
done
run_expect 1 "recode of a text file" -- "$TOOL" recode "$SCRATCH/text.parquet" "$out"
expect_one_line_error "recode of a text file"
run_expect 1 "recode into a missing directory" -- \
  "$TOOL" recode "$in" "$SCRATCH/no/such/dir/out.parquet"
expect_one_line_error "recode into a missing directory"

# A page that does not decode (its level length prefix overwritten, in a PLAIN v1 copy of MIXED):
# scan and recode stop with a one-line error naming the page, and recode leaves no output behind.
run_expect 0 "recode a PLAIN v1 copy" -- "$TOOL" recode "$in" "$SCRATCH/plain_v1.parquet" \
  --encoding plain --page-version 1 --compression uncompressed
read -r offset page < <(python3 "$DAMAGE" "$TOOL" "$SCRATCH/plain_v1.parquet" \
  "$SCRATCH/bad_levels.parquet" levels b_opt)
run_expect 1 "scan of a page that does not decode" -- "$TOOL" scan "$SCRATCH/bad_levels.parquet"
expect_one_line_error "scan of a page that does not decode"
expect_grep "column 'b_opt'.*page $page at offset $offset" "$SCRATCH/err" \
  "scan's error names column and page"
run_expect 1 "recode of a page that does not decode" -- \
  "$TOOL" recode "$SCRATCH/bad_levels.parquet" "$out"
expect_one_line_error "recode of a page that does not decode"
expect_grep "column 'b_opt'.*page $page at offset $offset" "$SCRATCH/err" \
  "recode's error names column and page"
[[ -e $out ]] && fail "a failed recode left $out behind"

# Option forms: --name value, --name=value, repeated options (last wins), -- ends options.
run_expect 0 "recode --name=value forms" -- "$TOOL" recode "$in" "$out" --encoding=plain \
  --page-version=2 --compression=zstd --compression-level=3 --page-size=4096
expect_grep '^recoded .* -> .*out\.parquet \([0-9]+ bytes' "$SCRATCH/out" "recode summary line"
expect_grep 'encoding plain, data page v2, ZSTD' "$SCRATCH/out" "recode summary options"
run_expect 0 "recode with an option repeated" -- \
  "$TOOL" recode "$in" "$out" --encoding delta --encoding plain --compression GZIP
expect_grep 'encoding plain, data page v1, GZIP' "$SCRATCH/out" "last --encoding wins"
run_expect 0 "-- ends the options" -- "$TOOL" scan -- "$in"

# --max-page-size: a ceiling on what one page may claim, for every reading command, refused at
# once with the page's size and the limit named. check_max_page_size FILE LIMIT LIMIT_BYTES SIZE:
# FILE has a page of SIZE bytes (an extended regex) over LIMIT.
check_max_page_size() {
  local file=$1 limit=$2 limit_bytes=$3 size=$4
  for command in dump scan inspect; do
    run_expect 1 "$command --max-page-size $limit of $(basename "$file")" -- \
      "$TOOL" "$command" "$file" --max-page-size "$limit"
    if [[ $command != inspect ]]; then
      expect_one_line_error "$command --max-page-size $limit"
      expect_grep "page of $size bytes is larger than the reader's limit of $limit_bytes" \
        "$SCRATCH/err" "$command names the page size and the limit"
    else
      expect_grep "larger than the reader's limit of $limit_bytes" "$SCRATCH/out" \
        "inspect shows the refused page"
    fi
  done
  run_expect 1 "recode --max-page-size $limit of $(basename "$file")" -- \
    "$TOOL" recode "$file" "$out" --max-page-size="${limit,,}"
  expect_one_line_error "recode --max-page-size"
  [[ ! -e $out ]] || fail "a refused recode left $out behind"
}
# pqpage's PLAIN pages of the sample's receipt URLs (over 4 KiB each, default page size), and the
# same file in 512-byte PLAIN pages, read within the limit.
run_expect 0 "recode a PLAIN copy of the sample" -- "$TOOL" recode "$SAMPLE" \
  "$SCRATCH/big_pages.parquet" --encoding plain --compression uncompressed
largest=$(python3 -c 'import json, sys
doc = json.load(sys.stdin)
print(max(p["uncompressed_page_size"] for g in doc["row_groups"] for c in g["columns"]
          for p in c["pages"]))' < <("$TOOL" inspect "$SCRATCH/big_pages.parquet" --json))
[[ $largest -gt 4096 ]] || fail "the PLAIN copy of the sample has no page over 4 KiB ($largest)"
check_max_page_size "$SCRATCH/big_pages.parquet" 4K 4096 "[0-9]{4,}"
run_expect 0 "recode the sample in 512-byte pages" -- "$TOOL" recode "$SAMPLE" \
  "$SCRATCH/small_pages.parquet" --page-size 512 --encoding plain
run_expect 0 "dump --max-page-size within the pages' sizes" -- \
  "$TOOL" dump "$SCRATCH/small_pages.parquet" --max-page-size 4K
# The brotli map file declares 1 GiB pages: refused before any inflating.
if need_shared "--max-page-size on large_string_map.brotli's 1 GiB pages"; then
  check_max_page_size "$DATA/large_string_map.brotli.parquet" 64M 67108864 1073741828
  run_expect 0 "dump --max-page-size within alltypes_tiny_pages' page sizes" -- \
    "$TOOL" dump "$DATA/alltypes_tiny_pages_plain.parquet" --max-page-size 4K
fi
for bad in 10 1023 2G 0 -5 12Q K; do
  run_expect 2 "--max-page-size $bad" -- "$TOOL" scan "$in" --max-page-size "$bad"
  expect_grep "max-page-size" "$SCRATCH/err" "--max-page-size $bad is a usage error naming it"
done
run_expect 0 "--max-page-size 2047M is within the format's limit" -- \
  "$TOOL" scan "$in" --max-page-size 2047M

# No progress line when stderr is not a terminal; PQPAGE_PROGRESS=1 forces it.
run_expect 0 "scan without a terminal" -- "$TOOL" scan "$in"
[[ -s $SCRATCH/err ]] && fail "scan wrote to stderr without a terminal: $(cat "$SCRATCH/err")"
run_expect 0 "scan with forced progress" -- env PQPAGE_PROGRESS=1 "$TOOL" scan "$in"
grep -q $'\r' "$SCRATCH/err" || fail "PQPAGE_PROGRESS=1 drew no progress line on stderr"
expect_grep 'scan: row group [12]/2, column [0-9]+/16' "$SCRATCH/err" "progress line content"

passed
