#!/usr/bin/env bash
# pqpage inspect: the table and --json on the shipped files, copies pqpage makes of them (every
# page version, encoding policy, CRCs, damaged pages) and, where ../shared has them, the reference
# files. The JSON is parsed by python3 and checked for structure (counts agree across footer, row
# groups and pages; pages tile their chunk; spec names everywhere); files get checks of what they
# are known to contain.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
CHECK=$(dirname "$0")/inspect_check.py

# inspect_json FILE EXPECTATION...: --json must exit 0; the structural checks and EXPECTATIONs
# are queued in the manifest, which check_manifest runs in one python3 (whose start-up would
# otherwise dominate the test's time).
MANIFEST=$SCRATCH/manifest
: > "$MANIFEST"
queue_check() {
  local label=$1 json=$2
  shift 2
  (IFS=$'\t'; echo "$label"$'\t'"$json"$'\t'"$*") >> "$MANIFEST"
}
check_manifest() {
  python3 "$CHECK" --manifest "$MANIFEST" || fail "checks of inspect --json output failed"
  CHECKS=$((CHECKS + $(wc -l < "$MANIFEST")))
  : > "$MANIFEST"
}
# PATH is a reference file's name (in $DATA) or a path; the JSON is left in $SCRATCH/NAME.json.
inspect_json() {
  local path=$1 file
  [[ $path == */* ]] || path=$DATA/$path
  file=$(basename "$path")
  shift
  run_expect 0 "inspect --json $file" -- "$TOOL" inspect "$path" --json
  cp "$SCRATCH/out" "$SCRATCH/$file.json"
  queue_check "inspect --json $file" "$SCRATCH/$file.json" clean "$@"
}

# inspect_table FILE: the table must exit 0; leaves it in $SCRATCH/NAME.txt.
inspect_table() {
  local path=$1
  [[ $path == */* ]] || path=$DATA/$path
  run_expect 0 "inspect $(basename "$path")" -- "$TOOL" inspect "$path"
  cp "$SCRATCH/out" "$SCRATCH/$(basename "$path").txt"
}

# recode_copy NAME OPTION...: a copy of MIXED recoded with OPTIONs, as $SCRATCH/NAME.
recode_copy() {
  local name=$1
  shift
  run_expect 0 "recode $name" -- "$TOOL" recode "$MIXED" "$SCRATCH/$name" "$@"
}

# --- shipped files and pqpage's copies of MIXED, with what they are known to contain
inspect_json "$MIXED" dictionary page_type=DICTIONARY_PAGE encoding=RLE_DICTIONARY nested \
  crc=none created_by=parquet-cpp-arrow
inspect_table "$MIXED"
t=$SCRATCH/$(basename "$MIXED").txt
expect_grep '^created_by: +parquet-cpp-arrow version' "$t" "MIXED table: created_by"
expect_grep '^rows: +100$' "$t" "MIXED table: rows"
expect_grep '^row groups: +2$' "$t" "MIXED table: row groups"
expect_grep '^leaf columns: 16$' "$t" "MIXED table: leaf columns"
expect_grep '^  +12 +ts +INT96 +1 +0$' "$t" "MIXED table: schema row"
expect_grep '^  +15 +st\.b\.list\.element +BYTE_ARRAY +4 +1$' "$t" \
  "MIXED table: a max_rep 1, max_def 4 column"
expect_grep '^row group 1: 50 rows' "$t" "MIXED table: row group line"
expect_grep "^  column 0 'b_req' BOOLEAN: SNAPPY, 50 values" "$t" "MIXED table: chunk line"
expect_grep '^    page +offset +header +type +encoding' "$t" "MIXED table: page header"
expect_grep '^    pages: DICTIONARY_PAGE/PLAIN x1, DATA_PAGE/RLE_DICTIONARY x2$' "$t" \
  "MIXED table: encoding roll-up"

recode_copy plain_v1.parquet --encoding plain --page-version 1 --compression uncompressed
inspect_json "$SCRATCH/plain_v1.parquet" page_type=DATA_PAGE only_data_page=DATA_PAGE \
  only_encoding=PLAIN crc=none "created_by=pqpage version "
inspect_table "$SCRATCH/plain_v1.parquet"
expect_grep '^ +0 +[0-9]+ +[0-9]+ +DATA_PAGE +PLAIN +RLE/RLE +no +50 +8 +50 ' \
  "$SCRATCH/plain_v1.parquet.txt" "PLAIN v1 table: a v1 page row with levels, nulls and rows"

recode_copy plain_v2.parquet --encoding plain --page-version 2
inspect_json "$SCRATCH/plain_v2.parquet" only_data_page=DATA_PAGE_V2 statistics
inspect_table "$SCRATCH/plain_v2.parquet"
t=$SCRATCH/plain_v2.parquet.txt
expect_grep ' DATA_PAGE_V2 .* [0-9]+/0 bytes ' "$t" "v2 table: level byte lengths"
expect_grep '^ +statistics: min "", max "red/dark", null_count [0-9]+$' "$t" \
  "v2 table: string statistics quoted as text"
# The chunks' bounds are the values' (MIXED's golden dump): byte arrays in hex, INT32 as numbers,
# DOUBLE as floats.
python3 - "$SCRATCH/plain_v2.parquet.json" "$MIXED.dump.jsonl" <<'PY' || fail "v2 JSON statistics"
import json, sys
doc = json.load(open(sys.argv[1]))
values = {c["path"]: c["values"] for c in map(json.loads, open(sys.argv[2]))}
def chunks(path):
    return [c for rg in doc["row_groups"] for c in rg["columns"] if c["path"] == path]
i32 = chunks("i32_req")
assert min(c["statistics"]["min_value"] for c in i32) == min(values["i32_req"]), i32
assert max(c["statistics"]["max_value"] for c in i32) == max(values["i32_req"]), i32
# Infinities are the strings "Infinity" and "-Infinity" (the sample's DOUBLE bounds, below, are
# finite floats).
for chunk in chunks("f64"):
    assert chunk["statistics"]["min_value"] == "-Infinity", chunk["statistics"]
    assert chunk["statistics"]["max_value"] == "Infinity", chunk["statistics"]
s = chunks("s_req")
assert min(bytes.fromhex(c["statistics"]["min_value"]) for c in s) == \
    min(bytes.fromhex(v) for v in values["s_req"]), s
assert sum(c["statistics"]["null_count"] for c in chunks("s_low")) == \
    100 - len(values["s_low"]), chunks("s_low")
PY
CHECKS=$((CHECKS + 1))

recode_copy dictionary.parquet --encoding dictionary
inspect_json "$SCRATCH/dictionary.parquet" dictionary page_type=DICTIONARY_PAGE \
  encoding=RLE_DICTIONARY
inspect_table "$SCRATCH/dictionary.parquet"
expect_grep '^    pages: DICTIONARY_PAGE/PLAIN x1, DATA_PAGE/RLE_DICTIONARY x1$' \
  "$SCRATCH/dictionary.parquet.txt" "dictionary table: encoding roll-up"
recode_copy delta.parquet --encoding delta --page-version 2
inspect_json "$SCRATCH/delta.parquet" encoding=DELTA_BYTE_ARRAY encoding=DELTA_BINARY_PACKED
inspect_table "$SCRATCH/delta.parquet"
expect_grep 'DATA_PAGE_V2/DELTA_BYTE_ARRAY x[0-9]+' "$SCRATCH/delta.parquet.txt" \
  "delta table: roll-up"
recode_copy delta_length.parquet --encoding delta_length_byte_array
inspect_json "$SCRATCH/delta_length.parquet" encoding=DELTA_LENGTH_BYTE_ARRAY
recode_copy byte_stream_split.parquet --encoding byte_stream_split
inspect_json "$SCRATCH/byte_stream_split.parquet" encoding=BYTE_STREAM_SPLIT
inspect_json "$PEERS/pyarrow-delta-binary-packed-v2-zstd.parquet" encoding=DELTA_BINARY_PACKED \
  only_data_page=DATA_PAGE_V2
inspect_json "$PEERS/pyarrow-byte-stream-split-v1-lz4raw.parquet" encoding=BYTE_STREAM_SPLIT
expect_grep '^  +[0-9]+ +lst\.list\.element +INT32 +3 +1$' "$SCRATCH/$(basename "$MIXED").txt" \
  "MIXED table: a list column"

# CRCs: the sample's pages carry them, as does a copy with --checksum; a value byte flipped in
# one page is reported, not fatal: exit 0, and that page says crc_valid false.
inspect_json "$SAMPLE" crc=ok dictionary statistics
# Its DOUBLE bounds are floats, the extremes of the CSV it was written from.
python3 - "$SCRATCH/$(basename "$SAMPLE").json" "${SAMPLE%.parquet}.csv" <<'PY' ||
import csv, json, sys
doc = json.load(open(sys.argv[1]))
distances = [float(row[3]) for row in list(csv.reader(open(sys.argv[2])))[1:]]
stats = [c["statistics"] for rg in doc["row_groups"] for c in rg["columns"]
         if c["path"] == "distance_km"]
assert all(isinstance(s["min_value"], float) and isinstance(s["max_value"], float) for s in stats)
assert min(s["min_value"] for s in stats) == min(distances), stats
assert max(s["max_value"] for s in stats) == max(distances), stats
PY
  fail "the sample: DOUBLE statistics"
CHECKS=$((CHECKS + 1))
recode_copy crc.parquet --checksum --encoding plain --compression uncompressed
inspect_json "$SCRATCH/crc.parquet" crc=ok
python3 "$DAMAGE" "$TOOL" "$SCRATCH/crc.parquet" "$SCRATCH/corrupt-checksum.parquet" crc \
  i64_req 1 > /dev/null
inspect_json "$SCRATCH/corrupt-checksum.parquet" crc=bad
inspect_table "$SCRATCH/corrupt-checksum.parquet"
[[ $(grep -c ' BAD$' "$SCRATCH/corrupt-checksum.parquet.txt") -eq 1 ]] ||
  fail "corrupt checksum table: not exactly one page's CRC shows BAD"
expect_grep ' ok$' "$SCRATCH/corrupt-checksum.parquet.txt" \
  "corrupt checksum table: the other pages' CRCs show ok"

# Damaged pages: inspect shows every header it can read and the error of each page that does
# not read or decode, then exits 1 with a one-line error. A copy of MIXED whose first page of
# 'b_opt' has a level length prefix past the page, and one whose first page header is garbage.
read -r offset page < <(python3 "$DAMAGE" "$TOOL" "$SCRATCH/plain_v1.parquet" \
  "$SCRATCH/bad_levels.parquet" levels b_opt)
run_expect 1 "inspect of a page whose levels do not decode" -- \
  "$TOOL" inspect "$SCRATCH/bad_levels.parquet" --json
expect_one_line_error "inspect of a page whose levels do not decode"
cp "$SCRATCH/out" "$SCRATCH/bad_levels.json"
python3 "$CHECK" "$SCRATCH/bad_levels.json" || fail "bad_levels.json: checks failed"
python3 - "$SCRATCH/bad_levels.json" "$page" <<'PY' || fail "bad_levels.json: not on page $page"
import json, sys
doc = json.load(open(sys.argv[1]))
page = int(sys.argv[2])
assert doc["problems"] == 1, doc["problems"]
pages = doc["row_groups"][0]["columns"][1]["pages"]
assert "error" in pages[page] and pages[page]["num_nulls"] is None, pages
assert pages[page]["num_rows"] is None and pages[page]["counts_from"] == "unknown", pages
assert all("error" not in p for i, p in enumerate(pages) if i != page), pages
# The other chunks are untouched and complete.
assert all("error" not in p for g, rg in enumerate(doc["row_groups"])
           for i, c in enumerate(rg["columns"]) for p in c["pages"] if (g, i) != (0, 1))
PY
run_expect 1 "inspect (table) of a page whose levels do not decode" -- \
  "$TOOL" inspect "$SCRATCH/bad_levels.parquet"
expect_grep "^ +$page +$offset +[0-9]+ +DATA_PAGE +PLAIN +RLE/RLE +no +50 +\? +\? " \
  "$SCRATCH/out" "bad_levels table: the page's header is shown, nulls and rows unknown"
expect_grep "^ +error: column 'b_opt' .*page $page at offset $offset" "$SCRATCH/out" \
  "bad_levels table: the page's error"
expect_grep "^  column 15 'st.b.list.element'" "$SCRATCH/out" \
  "bad_levels table: later columns shown"
read -r offset page < <(python3 "$DAMAGE" "$TOOL" "$SCRATCH/plain_v1.parquet" \
  "$SCRATCH/bad_header.parquet" header b_req)
run_expect 1 "inspect of an unreadable page header" -- \
  "$TOOL" inspect "$SCRATCH/bad_header.parquet" --json
expect_one_line_error "inspect of an unreadable page header"
python3 "$CHECK" "$SCRATCH/out" || fail "bad_header.json: checks failed"
python3 - "$SCRATCH/out" "$offset" <<'PY' || fail "bad_header.json: the chunk's error is missing"
import json, sys
doc = json.load(open(sys.argv[1]))
chunk = doc["row_groups"][0]["columns"][0]
assert chunk["pages"] == [] and len(chunk["errors"]) == 1, chunk
assert f"page 0 at offset {sys.argv[2]}" in chunk["errors"][0], chunk["errors"]
PY
CHECKS=$((CHECKS + 3))

# A dictionary fallback shows in the roll-up: the sample's receipt URLs outgrow its 16 KiB
# dictionary limit.
python3 - "$SCRATCH/$(basename "$SAMPLE").json" <<'PY' || fail "the sample: no dictionary fallback"
import json, re, sys
doc = json.load(open(sys.argv[1]))
chunks = [c for rg in doc["row_groups"] for c in rg["columns"] if c["dictionary_fallback"]]
assert [c["path"] for c in chunks] == ["receipt_url", "receipt_url"], chunks
for chunk in chunks:
    summary = chunk["page_encoding_summary"]
    assert re.fullmatch(r"DICTIONARY_PAGE/PLAIN x1, DATA_PAGE/RLE_DICTIONARY x1, "
                        r"DATA_PAGE/PLAIN x\d+ \(dictionary fallback\)", summary), summary
PY
CHECKS=$((CHECKS + 1))
check_manifest

# --- reference files with known contents
if need_shared "inspect of reference files with known contents"; then
  inspect_json alltypes_plain.parquet page_type=DATA_PAGE only_data_page=DATA_PAGE encoding=PLAIN \
    crc=none created_by=impala
  inspect_table alltypes_plain.parquet
  t=$SCRATCH/alltypes_plain.parquet.txt
  expect_grep '^created_by: +impala version' "$t" "alltypes_plain table: created_by"
  expect_grep '^rows: +8$' "$t" "alltypes_plain table: rows"
  expect_grep '^row groups: +1$' "$t" "alltypes_plain table: row groups"
  expect_grep '^leaf columns: 11$' "$t" "alltypes_plain table: leaf columns"
  expect_grep '^  +10 +timestamp_col +INT96 +1 +0$' "$t" "alltypes_plain table: schema row"
  expect_grep '^row group 0: 8 rows' "$t" "alltypes_plain table: row group line"
  expect_grep "^  column 0 'id' INT32: UNCOMPRESSED, 8 values" "$t" \
    "alltypes_plain table: chunk line"
  expect_grep '^    page +offset +header +type +encoding' "$t" "alltypes_plain table: page header"
  expect_grep '^ +[0-9]+ +[0-9]+ +[0-9]+ +DATA_PAGE +PLAIN +RLE/BIT_PACKED +no +8 +0 +8 ' "$t" \
    "alltypes_plain table: a v1 page row with levels, nulls and rows"

  inspect_json alltypes_dictionary.parquet dictionary page_type=DICTIONARY_PAGE \
    encoding=PLAIN_DICTIONARY
  inspect_table alltypes_dictionary.parquet
  expect_grep '^    pages: DICTIONARY_PAGE/PLAIN_DICTIONARY x1, DATA_PAGE/PLAIN_DICTIONARY x1$' \
    "$SCRATCH/alltypes_dictionary.parquet.txt" "alltypes_dictionary table: encoding roll-up"

  inspect_json datapage_v2.snappy.parquet only_data_page=DATA_PAGE_V2 statistics
  inspect_table datapage_v2.snappy.parquet
  t=$SCRATCH/datapage_v2.snappy.parquet.txt
  expect_grep ' DATA_PAGE_V2 .* [0-9]+/0 bytes ' "$t" "datapage_v2 table: level byte lengths"
  expect_grep '^ +statistics: legacy min "abc", legacy max "abc", null_count 1$' "$t" \
    "datapage_v2 table: string statistics quoted as text"
  python3 - "$SCRATCH/datapage_v2.snappy.parquet.json" <<'PY' || fail "datapage_v2 JSON details"
import json, sys
doc = json.load(open(sys.argv[1]))
chunk = doc["row_groups"][0]["columns"][0]
assert chunk["path"] == "a" and chunk["type"] == "BYTE_ARRAY", chunk["path"]
page = [p for p in chunk["pages"] if p["type"] == "DATA_PAGE_V2"][0]
stats = page["statistics"]
# Byte-array bounds are hex in JSON (this writer filled the legacy min/max fields).
assert bytes.fromhex(stats["legacy_min"]) == b"abc", stats
assert stats["null_count"] == 1, stats
# An INT32 column's bounds are numbers, a DOUBLE column's floats.
by_path = {c["path"]: c for c in doc["row_groups"][0]["columns"]}
assert by_path["b"]["statistics"]["legacy_min"] == 1, by_path["b"].get("statistics")
assert by_path["c"]["statistics"]["legacy_max"] == 5.0, by_path["c"].get("statistics")
PY
  CHECKS=$((CHECKS + 1))

  inspect_json delta_byte_array.parquet encoding=DELTA_BYTE_ARRAY only_encoding=DELTA_BYTE_ARRAY
  inspect_table delta_byte_array.parquet
  expect_grep 'DATA_PAGE_V2/DELTA_BYTE_ARRAY x[0-9]+' "$SCRATCH/delta_byte_array.parquet.txt" \
    "delta_byte_array table: roll-up"

  inspect_json delta_binary_packed.parquet encoding=DELTA_BINARY_PACKED
  inspect_json delta_length_byte_array.parquet encoding=DELTA_LENGTH_BYTE_ARRAY
  inspect_json byte_stream_split.zstd.parquet encoding=BYTE_STREAM_SPLIT
  inspect_json rle_boolean_encoding.parquet encoding=RLE
  inspect_json nested_lists.snappy.parquet nested
  inspect_table nested_lists.snappy.parquet
  expect_grep '^  +[0-9]+ +a\.list\.element\.list\.element\.list\.element +BYTE_ARRAY +[0-9]+ +3$' \
    "$SCRATCH/nested_lists.snappy.parquet.txt" "nested_lists table: max_rep 3 column"

  inspect_json datapage_v1-uncompressed-checksum.parquet crc=ok
  inspect_json datapage_v1-snappy-compressed-checksum.parquet crc=ok
  inspect_json plain-dict-uncompressed-checksum.parquet crc=ok dictionary
  # A bad CRC is reported, not fatal: exit 0, and the page says crc_valid false.
  inspect_json datapage_v1-corrupt-checksum.parquet crc=bad
  inspect_table datapage_v1-corrupt-checksum.parquet
  expect_grep ' BAD$' "$SCRATCH/datapage_v1-corrupt-checksum.parquet.txt" \
    "corrupt checksum table: a page's CRC shows BAD"
  expect_grep ' ok$' "$SCRATCH/datapage_v1-corrupt-checksum.parquet.txt" \
    "corrupt checksum table: the other pages' CRCs show ok"

  inspect_json int96_from_spark.parquet
  inspect_json fixed_length_decimal.parquet
  inspect_json nan_in_stats.parquet statistics
  inspect_json column_chunk_key_value_metadata.parquet

  # Damaged pages: inspect shows every header it can read and the error of each page that does
  # not read or decode, then exits 1 with a one-line error.
  python3 - "$DATA/alltypes_plain.parquet" "$SCRATCH" <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
# Column 'id': dictionary page at 4 (13-byte header, 32 bytes), data page at 49 (17-byte header).
levels = bytearray(data)
levels[66:70] = b"\xff\xff\xff\x7f"  # the data page's level length prefix
open(sys.argv[2] + "/bad_levels.parquet", "wb").write(levels)
header = bytearray(data)
header[4:10] = b"\xff" * 6  # the dictionary page's header
open(sys.argv[2] + "/bad_header.parquet", "wb").write(header)
PY
  run_expect 1 "inspect of a page whose levels do not decode" -- \
    "$TOOL" inspect "$SCRATCH/bad_levels.parquet" --json
  expect_one_line_error "inspect of a page whose levels do not decode"
  cp "$SCRATCH/out" "$SCRATCH/bad_levels.json"
  python3 "$CHECK" "$SCRATCH/bad_levels.json" || fail "bad_levels.json: checks failed"
  python3 - "$SCRATCH/bad_levels.json" <<'PY' || fail "bad_levels.json: the error is not on page 1"
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["problems"] == 1, doc["problems"]
chunk = doc["row_groups"][0]["columns"][0]
pages = chunk["pages"]
assert len(pages) == 2 and "error" not in pages[0], pages
assert "error" in pages[1] and pages[1]["num_nulls"] is None and pages[1]["num_rows"] is None
assert pages[1]["counts_from"] == "unknown"
# The other columns are untouched and complete.
assert all("error" not in p for c in doc["row_groups"][0]["columns"][1:] for p in c["pages"])
PY
  run_expect 1 "inspect (table) of a page whose levels do not decode" -- \
    "$TOOL" inspect "$SCRATCH/bad_levels.parquet"
  expect_grep '^ +1 +49 +17 +DATA_PAGE +PLAIN_DICTIONARY +RLE/BIT_PACKED +no +8 +\? +\? ' \
    "$SCRATCH/out" "bad_levels table: the page's header is shown, nulls and rows unknown"
  expect_grep "^ +error: column 'id' .*page 1 at offset 49" "$SCRATCH/out" \
    "bad_levels table: the page's error"
  expect_grep "^  column 10 'timestamp_col'" "$SCRATCH/out" "bad_levels table: later columns shown"
  run_expect 1 "inspect of an unreadable page header" -- \
    "$TOOL" inspect "$SCRATCH/bad_header.parquet" --json
  expect_one_line_error "inspect of an unreadable page header"
  python3 "$CHECK" "$SCRATCH/out" || fail "bad_header.json: checks failed"
  python3 - "$SCRATCH/out" <<'PY' || fail "bad_header.json: the chunk does not report its error"
import json, sys
doc = json.load(open(sys.argv[1]))
chunk = doc["row_groups"][0]["columns"][0]
assert chunk["pages"] == [] and len(chunk["errors"]) == 1, chunk
assert "page 0 at offset 4" in chunk["errors"][0], chunk["errors"]
PY
  CHECKS=$((CHECKS + 3))

  # A dictionary fallback shows in the roll-up. The one reference file with a fallback holds a
  # 1 GiB string (2 GB of memory and seconds to decode), so it is inspected once, and only here.
  big=large_string_map.brotli.parquet
  inspect_json "$big" dictionary
  python3 - "$SCRATCH/$big.json" <<'PY' || fail "$big: no chunk shows its dictionary fallback"
import json, sys
doc = json.load(open(sys.argv[1]))
chunks = [c for rg in doc["row_groups"] for c in rg["columns"] if c["dictionary_fallback"]]
assert chunks, "no chunk with dictionary_fallback"
summary = chunks[0]["page_encoding_summary"]
assert summary == ("DICTIONARY_PAGE/PLAIN x1, DATA_PAGE/RLE_DICTIONARY x1, DATA_PAGE/PLAIN x1"
                   " (dictionary fallback)"), summary
PY
  CHECKS=$((CHECKS + 1))

  check_manifest
fi

# --- every shipped file, the copies made above and every reference file: exit 0, or 1 with a
# one-line error and the problems shown; the JSON is valid and consistent either way, and table
# and JSON agree on the exit status.
all_files=("$SAMPLE" "$PEERS"/*.parquet "$SCRATCH"/*.parquet)
if need_shared "inspect of every reference file"; then
  for path in "$DATA"/*.parquet; do
    [[ $(basename "$path") == large_string_map.brotli.parquet ]] || all_files+=("$path")
  done
fi
for path in "${all_files[@]}"; do
  file=$(basename "$path")
  status=0
  "$TOOL" inspect "$path" --json > "$SCRATCH/all.json" 2> "$SCRATCH/err" || status=$?
  case $status in
    0) [[ -s $SCRATCH/err ]] &&
         fail "inspect --json $file: exit 0 but stderr: $(cat "$SCRATCH/err")" ;;
    1) expect_one_line_error "inspect --json $file (exit 1)"
       # Exit 1 after a readable footer still prints the whole document, problems included.
       if [[ -s $SCRATCH/all.json ]]; then
         python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["problems"] > 0' \
           "$SCRATCH/all.json" || fail "inspect --json $file: exit 1 without problems in the JSON"
       fi ;;
    *) fail "inspect --json $file: exit status $status" ;;
  esac
  if [[ -s $SCRATCH/all.json ]]; then
    mkdir -p "$SCRATCH/all"
    cp "$SCRATCH/all.json" "$SCRATCH/all/$file.json"
    queue_check "inspect --json $file" "$SCRATCH/all/$file.json"
  fi
  table_status=0
  "$TOOL" inspect "$path" > "$SCRATCH/all.txt" 2> "$SCRATCH/err" || table_status=$?
  [[ $table_status -eq $status ]] ||
    fail "inspect $file: table exits $table_status, --json exits $status"
  CHECKS=$((CHECKS + 1))
done
check_manifest

# The page index beside the pages: pqpage's own files carry one that agrees with the pages; the
# reference files that carry one agree too, except parquet-mr's checksum files, whose index marks
# every page of a required column null and is refused.
run_expect 0 "recode for the page index" -- "$TOOL" recode "$MIXED" \
  "$SCRATCH/indexed.parquet" --page-size 64
run_expect 0 "inspect a file with a page index" -- "$TOOL" inspect "$SCRATCH/indexed.parquet"
expect_grep "^    page index: ColumnIndex \(boundary order [A-Z]+\) \+ OffsetIndex, [0-9]+ pages$" \
  "$SCRATCH/out" "inspect: the page index line"
expect_grep "^    page +first row +min +max +nulls +null page$" "$SCRATCH/out" \
  "inspect: the page index table"
run_expect 0 "inspect --json a file with a page index" -- "$TOOL" inspect \
  "$SCRATCH/indexed.parquet" --json
python3 - "$SCRATCH/out" <<'PY' || fail "inspect --json: page_index missing or wrong"
import json, sys
doc = json.load(open(sys.argv[1]))
for rg in doc["row_groups"]:
    for chunk in rg["columns"]:
        index = chunk["page_index"]
        data_pages = [p for p in chunk["pages"] if p["type"].startswith("DATA_PAGE")]
        assert index["offset_index"], chunk["path"]
        assert index["column_index"] == (chunk["type"] != "INT96"), chunk["path"]
        assert [p["offset"] for p in index["pages"]] == [p["offset"] for p in data_pages]
        assert index["problems"] == [], index["problems"]
PY
CHECKS=$((CHECKS + 1))
if need_shared "the page indexes of reference files"; then
  for file in alltypes_tiny_pages_plain.parquet delta_encoding_required_column.parquet \
      data_index_bloom_encoding_stats.parquet binary_truncated_min_max.parquet \
      repeated_primitive_no_list.parquet old_list_structure.parquet; do
    run_expect 0 "inspect $file" -- "$TOOL" inspect "$DATA/$file"
    expect_grep "^    page index: " "$SCRATCH/out" "inspect $file: page index shown"
    ! grep -q "page index DISAGREES\|page index: UNREADABLE" "$SCRATCH/out" ||
      fail "inspect $file: $(grep -m1 "page index DISAGREES\|page index: UNREADABLE" \
        "$SCRATCH/out")"
  done
  run_expect 0 "inspect datapage_v1-uncompressed-checksum.parquet" -- "$TOOL" inspect \
    "$DATA/datapage_v1-uncompressed-checksum.parquet"
  expect_grep "page index: UNREADABLE: .*required column is marked a null page" "$SCRATCH/out" \
    "inspect: parquet-mr's all-null index of a required column"
fi

passed
