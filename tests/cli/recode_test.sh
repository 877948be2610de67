#!/usr/bin/env bash
# pqpage recode: the shipped files (and the reference files, where ../shared has them) re-encoded
# with every encoding policy x page version, over the codecs, must dump exactly as their input does
# (`pqpage dump` prints every level and value), and keep row groups, row counts and key-value
# metadata while taking pqpage's created_by. The writer's options must show in the output (inspect
# --json): page version, encodings, CRCs, statistics, page size.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
CHECK=$(dirname "$0")/inspect_check.py

policies=(auto plain dictionary delta delta_length_byte_array byte_stream_split)
codecs=(snappy uncompressed zstd gzip lz4_raw brotli)
# Options rotated over the combinations, so each is exercised with several encodings.
extras=("" "--checksum" "--page-size 512" "--no-statistics" "--verify" "--compression-level 1")

# The sample and the peers' files with rows: every physical type, nested and repeated columns,
# dictionary, delta and byte-stream-split pages of v1 and v2, Hadoop LZ4, brotli, zstd, gzip.
files=("$SAMPLE")
for path in "$PEERS"/*.parquet; do
  [[ $path == *zero-rows* ]] || files+=("$path")
done
if need_shared "recode matrix of 22 reference files"; then
  for file in alltypes_plain.parquet alltypes_dictionary.parquet \
    alltypes_tiny_pages_plain.parquet datapage_v2.snappy.parquet delta_byte_array.parquet \
    delta_binary_packed.parquet delta_length_byte_array.parquet \
    delta_encoding_required_column.parquet nested_lists.snappy.parquet \
    nested_structs.rust.parquet byte_stream_split.zstd.parquet fixed_length_decimal.parquet \
    int96_from_spark.parquet nulls.snappy.parquet rle_boolean_encoding.parquet \
    list_columns.parquet null_list.parquet repeated_no_annotation.parquet \
    float16_nonzeros_and_nans.parquet nan_in_stats.parquet binary.parquet \
    hadoop_lz4_compressed.parquet; do
    files+=("$DATA/$file")
  done
fi

combination=0
for in in "${files[@]}"; do
  file=$(basename "$in")
  run_expect 0 "dump $file" -- "$TOOL" dump "$in"
  mv "$SCRATCH/out" "$SCRATCH/in.dump"
  run_expect 0 "inspect --json $file" -- "$TOOL" inspect "$in" --json
  mv "$SCRATCH/out" "$SCRATCH/in.json"
  for policy in "${policies[@]}"; do
    for version in 1 2; do
      codec=${codecs[$((combination % ${#codecs[@]}))]}
      extra=${extras[$((combination / 2 % ${#extras[@]}))]}
      combination=$((combination + 1))
      label="recode $file --encoding $policy --page-version $version --compression $codec $extra"
      out=$SCRATCH/out.parquet
      # shellcheck disable=SC2086  # $extra is zero or more words
      run_expect 0 "$label" -- "$TOOL" recode "$in" "$out" --encoding "$policy" \
        --page-version "$version" --compression "$codec" $extra
      expect_grep "^recoded .*encoding $policy, data page v$version" "$SCRATCH/out" \
        "$label: summary"
      run_expect 0 "$label: dump of the output" -- "$TOOL" dump "$out"
      cmp -s "$SCRATCH/in.dump" "$SCRATCH/out" || {
        diff <(cut -c1-200 "$SCRATCH/in.dump") <(cut -c1-200 "$SCRATCH/out") | head -10 >&2
        fail "$label: dump of the output differs from dump of the input"
      }
      CHECKS=$((CHECKS + 1))
      run_expect 0 "$label: inspect --json of the output" -- "$TOOL" inspect "$out" --json
      mkdir -p "$SCRATCH/json"
      mv "$SCRATCH/out" "$SCRATCH/json/$combination.json"
      page_type=DATA_PAGE
      [[ $version == 2 ]] && page_type=DATA_PAGE_V2
      # Recode keeps row groups, their rows, the leaf columns and the key-value keys.
      expectations=(clean exact_chunks consistent_rows "created_by=pqpage version "
        "only_data_page=$page_type" "same_shape=$SCRATCH/in.json")
      case $extra in
        --checksum) expectations+=(crc=ok) ;;
        *) expectations+=(crc=none) ;;
      esac
      [[ $extra == --no-statistics ]] && expectations+=(no_statistics)
      [[ $policy == plain ]] && expectations+=(only_encoding=PLAIN)
      # Checked all at once after the loop: python's start-up would dominate the test's time.
      (IFS=$'\t'; echo "$label"$'\t'"$SCRATCH/json/$combination.json"$'\t'"${expectations[*]}") \
        >> "$SCRATCH/manifest"
    done
  done
  # same_shape needs this file's input JSON while it is still there.
  python3 "$CHECK" --manifest "$SCRATCH/manifest" || fail "$file: checks of the outputs failed"
  CHECKS=$((CHECKS + $(wc -l < "$SCRATCH/manifest")))
  rm -f "$SCRATCH/manifest"
done

# The policies choose the encodings they name where the type allows them.
run_expect 0 "recode delta" -- "$TOOL" recode "$MIXED" "$SCRATCH/d.parquet" --encoding delta
run_expect 0 "inspect delta" -- "$TOOL" inspect "$SCRATCH/d.parquet" --json
python3 "$CHECK" "$SCRATCH/out" encoding=DELTA_BINARY_PACKED encoding=DELTA_BYTE_ARRAY ||
  fail "--encoding delta: no DELTA_BINARY_PACKED / DELTA_BYTE_ARRAY pages"
run_expect 0 "recode byte_stream_split" -- "$TOOL" recode "$MIXED" "$SCRATCH/b.parquet" \
  --encoding byte_stream_split
run_expect 0 "inspect byte_stream_split" -- "$TOOL" inspect "$SCRATCH/b.parquet" --json
python3 "$CHECK" "$SCRATCH/out" encoding=BYTE_STREAM_SPLIT || fail "--encoding byte_stream_split"
run_expect 0 "recode dictionary" -- "$TOOL" recode "$MIXED" "$SCRATCH/y.parquet" \
  --encoding dictionary
run_expect 0 "inspect dictionary" -- "$TOOL" inspect "$SCRATCH/y.parquet" --json
python3 "$CHECK" "$SCRATCH/out" dictionary encoding=RLE_DICTIONARY || fail "--encoding dictionary"
# MIXED's BYTE_ARRAY columns (its others keep the types' own encodings).
run_expect 0 "recode delta_length_byte_array" -- "$TOOL" recode "$MIXED" \
  "$SCRATCH/l.parquet" --encoding delta_length_byte_array
run_expect 0 "inspect delta_length_byte_array" -- "$TOOL" inspect "$SCRATCH/l.parquet" --json
python3 - "$SCRATCH/out" <<'PY' || fail "--encoding delta_length_byte_array"
import json, sys
chunks = [c for rg in json.load(open(sys.argv[1]))["row_groups"] for c in rg["columns"]
          if c["type"] == "BYTE_ARRAY"]
assert len(chunks) == 8, len(chunks)
for chunk in chunks:
    encodings = {p["encoding"] for p in chunk["pages"] if p["type"].startswith("DATA_PAGE")}
    assert encodings == {"DELTA_LENGTH_BYTE_ARRAY"}, (chunk["path"], encodings)
PY
CHECKS=$((CHECKS + 1))
if need_shared "--encoding delta_length_byte_array on binary.parquet"; then
  run_expect 0 "recode delta_length_byte_array" -- "$TOOL" recode "$DATA/binary.parquet" \
    "$SCRATCH/l.parquet" --encoding delta_length_byte_array
  run_expect 0 "inspect delta_length_byte_array" -- "$TOOL" inspect "$SCRATCH/l.parquet" --json
  python3 "$CHECK" "$SCRATCH/out" only_encoding=DELTA_LENGTH_BYTE_ARRAY ||
    fail "--encoding delta_length_byte_array"
fi
# A small page size makes more pages.
run_expect 0 "recode --page-size 256" -- "$TOOL" recode "$SAMPLE" \
  "$SCRATCH/small.parquet" --page-size 256 --encoding plain
run_expect 0 "recode default page size" -- "$TOOL" recode \
  "$SAMPLE" "$SCRATCH/big.parquet" --encoding plain
"$TOOL" inspect "$SCRATCH/small.parquet" --json > "$SCRATCH/small.json"
"$TOOL" inspect "$SCRATCH/big.parquet" --json > "$SCRATCH/big.json"
python3 - "$SCRATCH/small.json" "$SCRATCH/big.json" <<'PY' || fail "--page-size 256: few pages"
import json, sys
def pages(p):
    return sum(c["num_pages"] for rg in json.load(open(p))["row_groups"] for c in rg["columns"])
small, big = pages(sys.argv[1]), pages(sys.argv[2])
assert small > 2 * big, (small, big)
PY
CHECKS=$((CHECKS + 1))

# Content-defined chunking (--cdc, --cdc=MIN:MAX): the values come out unchanged, and a value
# after --cdc that is not MIN:MAX is a usage error. (content_defined_chunking_test measures the
# pages an edit leaves as they were.)
for cdc in --cdc --cdc=2K:16K; do
  run_expect 0 "recode $cdc" -- "$TOOL" recode "$SAMPLE" "$SCRATCH/cdc.parquet" "$cdc" \
    --page-size 8192 --encoding plain --checksum
  run_expect 0 "dump recode $cdc" -- "$TOOL" dump "$SCRATCH/cdc.parquet"
  "$TOOL" dump "$SAMPLE" | cmp -s - "$SCRATCH/out" || fail "recode $cdc: dump differs from the input's"
done
for bad in --cdc=16K --cdc=16K:2K --cdc=x:1M "--cdc 2K:16K"; do
  # shellcheck disable=SC2086
  run_expect 2 "recode $bad" -- "$TOOL" recode "$SAMPLE" "$SCRATCH/bad.parquet" $bad
done

# Per-column settings win for their column only; a path naming no column is a usage error.
run_expect 0 "recode --column-encoding/--column-compression" -- "$TOOL" recode \
  "$MIXED" "$SCRATCH/c.parquet" --encoding plain --compression snappy \
  --column-encoding i32_req=delta --column-encoding s_low=dictionary \
  --column-compression i32_req=zstd:5 --column-compression i64_req=gzip
run_expect 0 "dump per-column recode" -- "$TOOL" dump "$SCRATCH/c.parquet"
"$TOOL" dump "$MIXED" | cmp -s - "$SCRATCH/out" ||
  fail "per-column recode: dump differs from the input's"
run_expect 0 "inspect per-column recode" -- "$TOOL" inspect "$SCRATCH/c.parquet" --json
python3 - "$SCRATCH/out" <<'PY' || fail "per-column settings not applied as asked"
import json, sys
chunks = {c["path"]: c for rg in json.load(open(sys.argv[1]))["row_groups"] for c in rg["columns"]}
def value_encodings(chunk):
    return {p["encoding"] for p in chunk["pages"] if p["type"].startswith("DATA_PAGE")}
assert value_encodings(chunks["i32_req"]) == {"DELTA_BINARY_PACKED"}, chunks["i32_req"]["pages"]
assert chunks["i32_req"]["codec"] == "ZSTD", chunks["i32_req"]["codec"]
assert value_encodings(chunks["s_low"]) == {"RLE_DICTIONARY"}
assert chunks["i64_req"]["codec"] == "GZIP" and value_encodings(chunks["i64_req"]) == {"PLAIN"}
assert chunks["f32"]["codec"] == "SNAPPY" and value_encodings(chunks["f32"]) == {"PLAIN"}
PY
CHECKS=$((CHECKS + 1))
run_expect 2 "recode --column-encoding with an unknown path" -- "$TOOL" recode \
  "$MIXED" "$SCRATCH/u.parquet" --column-encoding nosuch=delta
expect_grep "no column 'nosuch'" "$SCRATCH/err" "unknown column path: message"
[[ ! -e $SCRATCH/u.parquet ]] || fail "unknown column path: OUT was written"
run_expect 2 "recode --column-encoding without =" -- "$TOOL" recode \
  "$MIXED" "$SCRATCH/u.parquet" --column-encoding i32_req
run_expect 2 "recode --column-compression with a bad level" -- "$TOOL" recode \
  "$MIXED" "$SCRATCH/u.parquet" --column-compression i32_req=gzip:99

# The dictionary switch per column wins over the policy, both ways; auto's options are checked.
run_expect 0 "recode --column-dictionary" -- "$TOOL" recode \
  "$MIXED" "$SCRATCH/d.parquet" --encoding dictionary \
  --column-dictionary i32_req=off --column-dictionary s_low=off \
  --column-encoding i64_req=delta --column-dictionary i64_req=on \
  --auto-encodings all --tie-margin 5
run_expect 0 "inspect --column-dictionary recode" -- "$TOOL" inspect "$SCRATCH/d.parquet" --json
python3 - "$SCRATCH/out" <<'PY' || fail "--column-dictionary not applied as asked"
import json, sys
chunks = {c["path"]: c for rg in json.load(open(sys.argv[1]))["row_groups"] for c in rg["columns"]}
def value_encodings(chunk):
    return {p["encoding"] for p in chunk["pages"] if p["type"].startswith("DATA_PAGE")}
assert value_encodings(chunks["i32_req"]) == {"PLAIN"}, chunks["i32_req"]["pages"]
assert value_encodings(chunks["s_low"]) == {"PLAIN"}
assert value_encodings(chunks["i64_req"]) == {"RLE_DICTIONARY"}
assert value_encodings(chunks["f32"]) == {"RLE_DICTIONARY"}
PY
CHECKS=$((CHECKS + 1))
run_expect 2 "recode --column-dictionary neither on nor off" -- "$TOOL" recode \
  "$MIXED" "$SCRATCH/u.parquet" --column-dictionary i32_req=yes
run_expect 2 "recode --auto-encodings of an unknown set" -- "$TOOL" recode \
  "$MIXED" "$SCRATCH/u.parquet" --auto-encodings some
run_expect 2 "recode --tie-margin over 100" -- "$TOOL" recode \
  "$MIXED" "$SCRATCH/u.parquet" --tie-margin 101
run_expect 2 "recode --threads 0" -- "$TOOL" recode \
  "$MIXED" "$SCRATCH/u.parquet" --threads 0
run_expect 2 "recode --threads over 256" -- "$TOOL" recode \
  "$MIXED" "$SCRATCH/u.parquet" --threads 257

# A damaged input fails the same way whatever the thread count: the first bad chunk in file
# order is reported, and no output is left behind. A copy of MIXED with bad CRCs in two chunks
# (row group 0's must be the one reported), one whose levels do not decode, then
# parquet-testing's corrupt and bad files.
run_expect 0 "recode with CRCs" -- "$TOOL" recode "$MIXED" "$SCRATCH/crc.parquet" \
  --checksum --encoding plain --compression uncompressed
python3 "$DAMAGE" "$TOOL" "$SCRATCH/crc.parquet" "$SCRATCH/bad1.parquet" crc s_req 1 > /dev/null
python3 "$DAMAGE" "$TOOL" "$SCRATCH/bad1.parquet" "$SCRATCH/corrupt-checksum.parquet" crc \
  i64_req 0 > /dev/null
run_expect 0 "recode without CRCs" -- "$TOOL" recode "$MIXED" "$SCRATCH/plain.parquet" \
  --encoding plain --compression uncompressed
python3 "$DAMAGE" "$TOOL" "$SCRATCH/plain.parquet" "$SCRATCH/bad-levels.parquet" levels \
  st.a 1 > /dev/null
damaged=("$SCRATCH/corrupt-checksum.parquet" "$SCRATCH/bad-levels.parquet")
if need_shared "recode --threads of parquet-testing's corrupt and bad files"; then
  damaged+=("$DATA/datapage_v1-corrupt-checksum.parquet"
    "$SHARED"/parquet-testing/bad_data/*.parquet)
fi
for path in "${damaged[@]}"; do
  file=$(basename "$path")
  first=""
  for threads in 1 2 4; do
    rm -f "$SCRATCH/bad.parquet"
    status=0
    "$TOOL" recode "$path" "$SCRATCH/bad.parquet" --threads $threads > /dev/null \
      2> "$SCRATCH/err" || status=$?
    [[ $status -eq 1 ]] || fail "recode $file --threads $threads: exit $status, expected 1"
    [[ ! -e $SCRATCH/bad.parquet ]] || fail "recode $file --threads $threads left its output"
    if [[ -z $first ]]; then
      first=$(cat "$SCRATCH/err")
    elif [[ $(cat "$SCRATCH/err") != "$first" ]]; then
      fail "recode $file: --threads $threads reports '$(cat "$SCRATCH/err")', --threads 1 '$first'"
    fi
    CHECKS=$((CHECKS + 1))
  done
  [[ $path != "$SCRATCH/corrupt-checksum.parquet" || $first == *"'i64_req'"*"row group 0"* ]] ||
    fail "recode $file: the first bad chunk in file order is not the one reported: $first"
done

# Every shipped file, and every reference file, whose input dumps: recode with the defaults dumps
# identically.
recode_each() {
  local least=$1 path
  shift
  RECODED=0
  for path in "$@"; do
    recode_one "$path"
  done
  [[ $RECODED -ge $least ]] || fail "only $RECODED of the files recoded, expected $least"
}
recode_one() {
  local path=$1 file policy
  file=$(basename "$path")
  "$TOOL" dump "$path" > "$SCRATCH/in.dump" 2> /dev/null || {
    echo "note: $file does not dump; not recoded"
    return 0
  }
  # Pages decoded in place from a mapped file read the same as pages copied out of it.
  run_expect 0 "dump --mmap $file" -- "$TOOL" dump "$path" --mmap
  cmp -s "$SCRATCH/in.dump" "$SCRATCH/out" || fail "dump --mmap $file differs from dump"
  run_expect 0 "recode $file (defaults)" -- "$TOOL" recode "$path" "$SCRATCH/all.parquet"
  run_expect 0 "dump recoded $file" -- "$TOOL" dump "$SCRATCH/all.parquet"
  cmp -s "$SCRATCH/in.dump" "$SCRATCH/out" || fail "recode $file (defaults): dump differs"
  # Chunks are encoded in parallel but written in order: the file must not depend on --threads.
  run_expect 0 "recode $file --threads 3" -- "$TOOL" recode "$path" "$SCRATCH/t3.parquet" \
    --threads 3
  run_expect 0 "recode $file --threads 1" -- "$TOOL" recode "$path" "$SCRATCH/t1.parquet" \
    --threads 1
  cmp -s "$SCRATCH/all.parquet" "$SCRATCH/t3.parquet" ||
    fail "recode $file: --threads 3 writes a different file than the default"
  cmp -s "$SCRATCH/all.parquet" "$SCRATCH/t1.parquet" ||
    fail "recode $file: --threads 1 writes a different file than the default"
  # Dictionary-encoded pages reach the writer as indices into the input's dictionary, except
  # with --verify, which reads values: the two must write the same file.
  for policy in auto dictionary; do
    run_expect 0 "recode $file --encoding $policy" -- "$TOOL" recode "$path" \
      "$SCRATCH/i.parquet" --encoding $policy
    run_expect 0 "recode $file --encoding $policy --verify" -- "$TOOL" recode "$path" \
      "$SCRATCH/v.parquet" --encoding $policy --verify
    cmp -s "$SCRATCH/i.parquet" "$SCRATCH/v.parquet" ||
      fail "recode $file --encoding $policy: indices and values write different files"
  done
  RECODED=$((RECODED + 1))
}
recode_each 11 "$SAMPLE" "$PEERS"/*.parquet
if need_shared "recode with the defaults of every reference file"; then
  reference=()
  for path in "$DATA"/*.parquet; do
    # A 1 GiB string: seconds and gigabytes for every pass (inspect_test covers the file).
    [[ $(basename "$path") == large_string_map.brotli.parquet ]] || reference+=("$path")
  done
  recode_each 30 "${reference[@]}"
fi

passed
