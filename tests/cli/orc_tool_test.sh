#!/usr/bin/env bash
# The tool on ORC files (detected by their "ORC" magic): inspect (text and --json: file facts,
# stripes, streams with their compression chunks counted from the chunk headers, encodings), dump
# (the DUMP_FORMAT.md lines of the columns outside lists and maps, values checked against the
# formula testfiles/orc/make_orc_files.py wrote them from), recode (RLE versions, compressions and
# block sizes, read back by pqpage), the options that do not apply to ORC, and damaged files
# (exit 1, one line on stderr, no output file left behind). That ORC's own reader reads the
# recoded files is tests/interop/orc_pyarrow_test.py's part.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

FILES=$(dirname "$0")/../../testfiles/orc
zlib12=$FILES/zlib_v0_12.orc
plain11=$FILES/uncompressed_v0_11.orc
[[ -f $zlib12 && -f $plain11 ]] || fail "the ORC test files are missing from $FILES"
out=$SCRATCH/out.orc

# json_check FILE LABEL PYTHON: PYTHON must be true, an expression over d (FILE, an inspect --json
# document), streams (every stream of every stripe) and encodings (the set of encoding kinds).
JSON_NAMES='import json, sys; d = json.load(open(sys.argv[1]))
streams = [st for s in d["stripes"] for st in s["streams"]]
encodings = {e["kind"] for s in d["stripes"] for e in s["encodings"]}'
json_check() {
  python3 -c "$JSON_NAMES"$'\n''sys.exit(0 if eval("(" + sys.argv[2] + ")") else 1)' "$1" "$3" ||
    fail "$2: $3 is false for $(head -c 300 "$1")"
  CHECKS=$((CHECKS + 1))
}

# ---- inspect
run_expect 0 "inspect zlib_v0_12" -- "$TOOL" inspect "$zlib12"
expect_grep '^format: +ORC, file version 0\.12$' "$SCRATCH/out" "inspect: file version"
expect_grep '^writer: +ORC C\+\+ \(id 1\), writer version [0-9]+$' "$SCRATCH/out" "inspect: writer"
expect_grep '^compression: +ZLIB, block size 65536 bytes$' "$SCRATCH/out" "inspect: compression"
expect_grep '^rows: +300$' "$SCRATCH/out" "inspect: rows"
expect_grep '^stripes: +3$' "$SCRATCH/out" "inspect: stripes"
expect_grep '^ +8 +DECIMAL\(10,2\) +decimal$' "$SCRATCH/out" "inspect: a decimal's precision"
expect_grep '^ +10 +LONG +list\._elem$' "$SCRATCH/out" "inspect: a list element's path"
expect_grep '^stripe 2: 100 rows at offset [0-9]+: index [0-9]+ \+ data [0-9]+ \+ footer' \
  "$SCRATCH/out" "inspect: the last stripe"
# The pad column's 70 KB a stripe fill two 64 KiB chunks.
expect_grep '^ +14 +pad +DATA +[0-9]+ +[0-9]+ +2 +[0-9]+$' "$SCRATCH/out" "inspect: pad in 2 chunks"
expect_grep '^ +3 +string +DIRECT_V2 +-$' "$SCRATCH/out" "inspect: a direct string column"

run_expect 0 "inspect --json zlib_v0_12" -- "$TOOL" inspect "$zlib12" --json
cp "$SCRATCH/out" "$SCRATCH/zlib12.json"
json_check "$SCRATCH/zlib12.json" "inspect --json" \
  'd["format"] == "ORC" and d["file_version"] == [0, 12] and d["compression"] == "ZLIB"'
json_check "$SCRATCH/zlib12.json" "inspect --json: rows, no problems" \
  'd["num_rows"] == 300 and d["problems"] == 0'
json_check "$SCRATCH/zlib12.json" "inspect --json: stripes add up" \
  'len(d["stripes"]) == 3 and sum(s["num_rows"] for s in d["stripes"]) == 300'
json_check "$SCRATCH/zlib12.json" "inspect --json: every stored stream has chunks" \
  'all(st["chunks"] >= 1 for st in streams if st["length"] > 0)'
json_check "$SCRATCH/zlib12.json" "inspect --json: one encoding per column" \
  'all(len(s["encodings"]) == len(d["columns"]) == 15 for s in d["stripes"])'
json_check "$SCRATCH/zlib12.json" "inspect --json: streams lie in their stripe" \
  'all(s["offset"] <= st["offset"] <= st["offset"] + st["length"] <= s["offset"]
       + s["index_length"] + s["data_length"] for s in d["stripes"] for st in s["streams"])'

run_expect 0 "inspect --json uncompressed_v0_11" -- "$TOOL" inspect "$plain11" --json
json_check "$SCRATCH/out" "inspect --json of an uncompressed file: no chunks" \
  'd["compression"] == "NONE" and d["file_version"] == [0, 11]
   and all(st["chunks"] is None for st in streams)'
json_check "$SCRATCH/out" "inspect --json of a v0.11 file: RLE v1 encodings" \
  'encodings <= {"DIRECT", "DICTIONARY"}'

# ---- dump
for file in "$FILES"/*.orc; do
  name=$(basename "$file" .orc)
  run_expect 0 "dump $name" -- "$TOOL" dump "$file"
  cp "$SCRATCH/out" "$SCRATCH/$name.dump"
done
# The columns outside the list and the map, in column order; values from make_orc_files.py.
python3 - "$SCRATCH/zlib_v0_12.dump" << 'EOF' || fail "dump zlib_v0_12: values differ"
import datetime, decimal, json, sys
lines = [json.loads(line) for line in open(sys.argv[1])]
assert [c["path"] for c in lines] == ["int", "bigint", "string", "double", "bool", "date",
                                      "timestamp", "decimal", "pad"], [c["path"] for c in lines]
cols = {c["path"]: c for c in lines}
def present(index):
    return [i for i in range(300) if (i + index) % 7 != 3]
def check(name, index, type_, values):
    c = cols[name]
    assert c["type"] == type_ and c["max_def"] == 1 and c["max_rep"] == 0, c["type"]
    assert c["def"] == [0 if (i + index) % 7 == 3 else 1 for i in range(300)], name
    assert c["values"] == values, (name, c["values"][:5], values[:5])
check("int", 0, "INT", [i * 3 - 1000 for i in present(0)])
check("bigint", 1, "LONG", [i * 1_000_003 for i in present(1)])
check("string", 2, "STRING", [f"s{i}".encode().hex() for i in present(2)])
check("double", 3, "DOUBLE", [i * 0.5 for i in present(3)])
check("bool", 4, "BOOLEAN", [i % 3 == 0 for i in present(4)])
check("date", 5, "DATE", [i for i in present(5)])
start = int(datetime.datetime(2024, 1, 1, 12, tzinfo=datetime.timezone.utc).timestamp()) * 10**9
check("timestamp", 6, "TIMESTAMP", [start + i * 10**9 + i * 1000 for i in present(6)])
check("decimal", 7, "DECIMAL", [str(decimal.Decimal(i * 7).scaleb(-2)) for i in present(7)])
assert cols["pad"]["values"] == [("x" * 700).encode().hex()] * 300
EOF
CHECKS=$((CHECKS + 1))
grep -q '"double".*"values":\[0\.5,1\.0,1\.5,' "$SCRATCH/zlib_v0_12.dump" ||
  fail "dump: doubles are not printed as the Parquet dump prints them"
CHECKS=$((CHECKS + 1))
for name in snappy_v0_12 lz4_v0_12 zstd_v0_12 zlib_v0_11; do
  cmp -s "$SCRATCH/$name.dump" "$SCRATCH/zlib_v0_12.dump" ||
    fail "dump $name differs from zlib_v0_12's (the same table)"
  CHECKS=$((CHECKS + 1))
done
run_expect 0 "dump --column string" -- "$TOOL" dump "$zlib12" --column string
[[ $(wc -l < "$SCRATCH/out") -eq 1 ]] && grep -q '^{"path":"string",' "$SCRATCH/out" ||
  fail "dump --column string: not the one column"
CHECKS=$((CHECKS + 1))
run_expect 1 "dump --column of a list element" -- "$TOOL" dump "$zlib12" --column list._elem
expect_one_line_error "dump --column of a list element"
run_expect 1 "dump --column nosuch" -- "$TOOL" dump "$zlib12" --column nosuch
expect_one_line_error "dump --column nosuch"

# ---- recode
run_expect 0 "recode (defaults)" -- "$TOOL" recode "$zlib12" "$out"
summary='^recoded .* \(7[0-9]{3} bytes\) -> .*: 3 stripes, 15 columns, RLE v2, ZLIB \(block 65536\)'
expect_grep "$summary" \
  "$SCRATCH/out" "recode: the summary line"
run_expect 0 "dump of the recoded file" -- "$TOOL" dump "$out"
cmp -s "$SCRATCH/out" "$SCRATCH/zlib_v0_12.dump" || fail "recode (defaults): the dump differs"
CHECKS=$((CHECKS + 1))
for options in "--rle 1" "--rle 2 --compression none" \
  "--rle 1 --compression snappy --block-size 1000" \
  "--compression zstd --compression-level 5 --verify" "--compression lz4 --no-statistics" \
  "--compression lzo --block-size 4096 --verify" \
  "--rle 1 --compression uncompressed --verify --mmap"; do
  for file in "$zlib12" "$plain11"; do
    # shellcheck disable=SC2086  # the options are words
    run_expect 0 "recode $(basename "$file") $options" -- "$TOOL" recode "$file" "$out" $options
    run_expect 0 "dump of recoded $(basename "$file") ($options)" -- "$TOOL" dump "$out"
    cmp -s "$SCRATCH/out" "$SCRATCH/$(basename "$file" .orc).dump" ||
      fail "recode $(basename "$file") $options: the dump differs from the input's"
    CHECKS=$((CHECKS + 1))
    run_expect 0 "inspect --json of recoded ($options)" -- "$TOOL" inspect "$out" --json
    cp "$SCRATCH/out" "$SCRATCH/recoded.json"
    rle=2
    [[ $options == *"--rle 1"* ]] && rle=1
    json_check "$SCRATCH/recoded.json" "recode $options: file version and encodings" \
      "d['file_version'] == [0, 1$rle] and d['problems'] == 0 and d['num_rows'] == 300
       and len(d['stripes']) == 3 and encodings <= ({'DIRECT', 'DICTIONARY'} if $rle == 1
       else {'DIRECT', 'DIRECT_V2', 'DICTIONARY_V2'})"
    json_check "$SCRATCH/recoded.json" "recode $options: no row indexes" \
      'all(s["index_length"] == 0 for s in d["stripes"])'
  done
  if [[ $options == *"--block-size 1000"* ]]; then
    json_check "$SCRATCH/recoded.json" "recode --block-size 1000: chunks of at most 1000 bytes" \
      'd["compression"] == "SNAPPY" and d["compression_block_size"] == 1000'
  fi
  if [[ $options == *"--no-statistics"* ]]; then
    json_check "$SCRATCH/recoded.json" "recode --no-statistics" \
      'd["file_statistics"] == 0 and d["stripe_statistics"] == 0'
  fi
done
run_expect 0 "recode --compression snappy --block-size 1000 (pad)" -- \
  "$TOOL" recode "$zlib12" "$out" --compression snappy --block-size 1000
run_expect 0 "inspect --json, 1000-byte blocks" -- "$TOOL" inspect "$out" --json
json_check "$SCRATCH/out" "recode --block-size 1000: pad's 70 KB in at least 70 chunks" \
  'all(st["chunks"] >= 70 for st in streams if st["column"] == 14 and st["kind"] == "DATA")'
json_check "$SCRATCH/out" "recode: statistics and user metadata kept" \
  'd["file_statistics"] == 15 and d["stripe_statistics"] == 3'
# A recode of a recode.
cp "$out" "$SCRATCH/again-in.orc"
run_expect 0 "recode of a recoded file" -- \
  "$TOOL" recode "$SCRATCH/again-in.orc" "$out" --rle 1 --verify
expect_grep 'RLE v1, SNAPPY \(block 1000\), verified in' "$SCRATCH/out" "recode of a recode"

# ---- options and usage errors (exit 2, nothing written)
rm -f "$out"
run_expect 2 "recode --rle 3" -- "$TOOL" recode "$zlib12" "$out" --rle 3
run_expect 2 "recode --compression brotli" -- "$TOOL" recode "$zlib12" "$out" --compression brotli
expect_grep 'none, zlib, snappy, lzo, lz4 or zstd' "$SCRATCH/err" "recode --compression: ORC's codecs"
run_expect 2 "recode --block-size 0" -- "$TOOL" recode "$zlib12" "$out" --block-size 0
run_expect 2 "recode --block-size 8388608" -- "$TOOL" recode "$zlib12" "$out" --block-size 8388608
run_expect 2 "recode --compression zstd --compression-level 99" -- \
  "$TOOL" recode "$zlib12" "$out" --compression zstd --compression-level 99
for parquet_only in "--encoding plain" "--page-version 2" "--checksum" "--threads 2"; do
  # shellcheck disable=SC2086  # the options are words
  run_expect 2 "recode $parquet_only of ORC" -- "$TOOL" recode "$zlib12" "$out" $parquet_only
  expect_grep 'does not apply to ORC files' "$SCRATCH/err" "recode $parquet_only names the reason"
done
run_expect 2 "dump --rows of ORC" -- "$TOOL" dump "$zlib12" --rows 0:10
expect_grep "'--rows' does not apply to ORC files" "$SCRATCH/err" "dump --rows of ORC"
run_expect 2 "inspect --max-page-size of ORC" -- "$TOOL" inspect "$zlib12" --max-page-size 1M
[[ -e $out ]] && fail "a usage error created $out"
cp "$zlib12" "$SCRATCH/self.orc"
run_expect 2 "recode onto its own input" -- "$TOOL" recode "$SCRATCH/self.orc" "$SCRATCH/./self.orc"
cmp -s "$zlib12" "$SCRATCH/self.orc" || fail "recode onto its own input changed it"
CHECKS=$((CHECKS + 1))
run_expect 2 "recode --rle of Parquet" -- "$TOOL" recode "$MIXED" "$SCRATCH/out.parquet" --rle 2
expect_grep "'--rle' applies to ORC files" "$SCRATCH/err" "recode --rle of Parquet"

# ---- damaged files (exit 1, one line on stderr, no output left behind)
printf 'ORC' > "$SCRATCH/magic-only.orc"
head -c 200 /dev/zero >> "$SCRATCH/magic-only.orc"
head -c 2000 "$zlib12" > "$SCRATCH/truncated.orc"
for damaged in magic-only truncated; do
  for command in inspect dump; do
    run_expect 1 "$command $damaged" -- "$TOOL" "$command" "$SCRATCH/$damaged.orc"
    expect_one_line_error "$command $damaged"
  done
  run_expect 1 "recode $damaged" -- "$TOOL" recode "$SCRATCH/$damaged.orc" "$out"
  expect_one_line_error "recode $damaged"
  [[ -e $out ]] && fail "recode $damaged left $out behind"
done
# A chunk header that claims more bytes than its stream holds: inspect shows the stream's error
# (and everything else) and exits 1; dump and recode stop with one line.
python3 - "$SCRATCH/zlib12.json" "$zlib12" "$SCRATCH/bad-chunk.orc" << 'EOF'
import json, sys
info = json.load(open(sys.argv[1]))
stream = next(st for st in info["stripes"][1]["streams"]
              if st["column"] == 2 and st["kind"] == "DATA")
data = bytearray(open(sys.argv[2], "rb").read())
data[stream["offset"]:stream["offset"] + 3] = b"\xfe\xff\xff"  # length 2^23 - 1, compressed
open(sys.argv[3], "wb").write(data)
EOF
run_expect 1 "inspect of a bad chunk header" -- "$TOOL" inspect "$SCRATCH/bad-chunk.orc"
expect_grep '^ +error: chunk 0 of 8388607 bytes runs past the stream' "$SCRATCH/out" \
  "inspect shows the bad chunk under its stream"
expect_grep '^stripe 2: ' "$SCRATCH/out" "inspect goes on after the bad stream"
expect_one_line_error "inspect of a bad chunk header"
run_expect 1 "inspect --json of a bad chunk header" -- \
  "$TOOL" inspect "$SCRATCH/bad-chunk.orc" --json
json_check "$SCRATCH/out" "inspect --json counts the problem" \
  'd["problems"] == 1 and sum(1 for st in streams if "error" in st) == 1'
run_expect 1 "dump of a bad chunk header" -- "$TOOL" dump "$SCRATCH/bad-chunk.orc"
expect_one_line_error "dump of a bad chunk header"
expect_grep 'stripe 1' "$SCRATCH/err" "dump's error names the stripe"
[[ -s $SCRATCH/out ]] && fail "dump of a bad chunk header printed columns"
run_expect 1 "recode of a bad chunk header" -- "$TOOL" recode "$SCRATCH/bad-chunk.orc" "$out"
expect_one_line_error "recode of a bad chunk header"
# The input is at fault: its name, not the output's, and the stripe said once.
expect_grep "^pqpage recode: $SCRATCH/bad-chunk.orc: ORC stripe 1: column 2 " "$SCRATCH/err" \
  "recode's error names the input and the stripe"
[[ $(grep -o 'stripe 1' "$SCRATCH/err" | wc -l) -eq 1 ]] ||
  fail "recode's error repeats its context: $(cat "$SCRATCH/err")"
grep -q "$out" "$SCRATCH/err" && fail "recode's error names the output for the input's fault"
CHECKS=$((CHECKS + 2))
[[ -e $out ]] && fail "recode of a bad chunk header left $out behind"
run_expect 1 "recode into a missing folder" -- "$TOOL" recode "$zlib12" "$SCRATCH/no/such/dir.orc"
expect_one_line_error "recode into a missing folder"
expect_grep "$SCRATCH/no/such/dir.orc" "$SCRATCH/err" "recode's error names the output"

# ---- the files of ../shared/repro (issue 23), when there: what pyarrow (or, where it refuses a
# file, ORC C++ through pyorc) reads. tests/interop/orc_repro_test.py compares whole files.
REPRO=$SHARED/repro
if [[ -d $REPRO ]]; then
  run_expect 0 "dump of a timestamp root" -- "$TOOL" dump "$REPRO/orc_timestamp_root.orc"
  expect_grep '^\{"path":"","type":"TIMESTAMP","max_def":1,"max_rep":0,"def":\[(1,){11}1\],"values":\[2114380800000999000,' \
    "$SCRATCH/out" "dump of a timestamp root: its 12 values"
  run_expect 0 "inspect of a timestamp root" -- "$TOOL" inspect "$REPRO/orc_timestamp_root.orc"
  run_expect 1 "dump of a time before 1677" -- "$TOOL" dump "$REPRO/orc_out_of_range_timestamp.orc"
  expect_one_line_error "dump of a time before 1677"
  expect_grep 'ORC timestamp of -21143116800 s from 1970' "$SCRATCH/err" \
    "dump's error names the timestamp's seconds"
  [[ -s $SCRATCH/out ]] && fail "dump of a time before 1677 printed values"
  run_expect 1 "dump of columns all under lists" -- \
    "$TOOL" dump "$REPRO/orc_struct_encoding_unset.orc"
  expect_grep 'every column is under a list, map or union' "$SCRATCH/err" \
    "dump says why it prints nothing"
  run_expect 0 "inspect of attributes" -- "$TOOL" inspect "$REPRO/orc_iceberg_attributes.orc"
  expect_grep '^ +1 +INT +id +iceberg.id=1, iceberg.required=false$' "$SCRATCH/out" \
    "inspect shows the type attributes"
  run_expect 0 "inspect of an encrypted file" -- "$TOOL" inspect "$REPRO/orc_encrypted_sample1.orc"
  expect_grep '^ +2 +email +pii v0 +AES_CTR_256 +sha256$' "$SCRATCH/out" \
    "inspect shows the encrypted columns and their masks"
  run_expect 0 "inspect --json of an encrypted file" -- \
    "$TOOL" inspect "$REPRO/orc_encrypted_sample1.orc" --json
  json_check "$SCRATCH/out" "inspect --json: the encryption" \
    '[v["mask"] for v in d["encryption"]["variants"]] == ["nullify", "sha256"] and d["problems"] == 0'
  run_expect 0 "dump of an LZO file" -- "$TOOL" dump "$REPRO/orc_lzo.orc"
  expect_grep '^\{"path":"x","type":"LONG",.*"values":\[-1182032251,' "$SCRATCH/out" \
    "dump of an LZO file: the first value"
  for name in orc_struct_encoding_unset orc_iceberg_attributes orc_out_of_range_timestamp \
    orc_timestamp_root orc_lzo orc_decimal64_v2 orc_encrypted_sample1; do
    run_expect 0 "recode --verify $name" -- "$TOOL" recode "$REPRO/$name.orc" "$out" --verify
    run_expect 0 "inspect --json of $name" -- "$TOOL" inspect "$REPRO/$name.orc" --json
    mv "$SCRATCH/out" "$SCRATCH/in.json"
    run_expect 0 "inspect --json of recoded $name" -- "$TOOL" inspect "$out" --json
    python3 - "$SCRATCH/in.json" "$SCRATCH/out" << 'EOF' ||
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
keep = lambda d: [{k: c.get(k) for k in ("kind", "path", "attributes")} for c in d["columns"]]
sys.exit(0 if keep(a) == keep(b) and a["num_rows"] == b["num_rows"] else 1)
EOF
      fail "recode $name: the schema (attributes included) or the rows changed"
    CHECKS=$((CHECKS + 1))
  done
fi
passed
