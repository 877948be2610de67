#!/usr/bin/env bash
# Bloom filters from the tool's side: recode's --bloom, --bloom-fpp and --column-bloom, inspect's
# "bloom filter" line, and pqpage lookup, whose answers must match a brute-force scan of the dump
# (lookup_check.py: never a false negative, exactly the rows holding the value) on files recoded
# with filters here (every physical type, nested and repeated columns) and on the reference files
# with parquet-mr's filters; a damaged filter is a warning, not a wrong answer.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
HERE=$(dirname "$0")

sample=$SCRATCH/sample_bloom.parquet
mixed=$SCRATCH/mixed_bloom.parquet
run_expect 0 "recode --bloom all (sample)" -- "$TOOL" recode "$SAMPLE" "$sample" --bloom all \
  --page-size 2000 --column-bloom vendor_id=off --column-bloom zone=4:0.01
run_expect 0 "recode --bloom all (mixed)" -- "$TOOL" recode "$MIXED" "$mixed" --bloom all \
  --page-size 300 --bloom-fpp 0.02

# inspect: one line per chunk with a filter; the zone filter sized for 100 values at 1%.
run_expect 0 "inspect a file with filters" -- "$TOOL" inspect "$sample"
count=$(grep -Ec '^    bloom filter: [0-9]+ bytes \([0-9]+ blocks\), split-block, xxHash64' \
  "$SCRATCH/out")
[[ $count -eq 12 ]] || fail "inspect: $count bloom filter lines, expected 12 (6 columns x 2)"
run_expect 0 "inspect --json" -- "$TOOL" inspect "$sample" --json
python3 - "$SCRATCH/out" <<'PY' || fail "inspect --json: bloom_filter members"
import json, sys
doc = json.load(open(sys.argv[1]))
for group in doc["row_groups"]:
    for chunk in group["columns"]:
        bloom = chunk.get("bloom_filter")
        if chunk["path"] == "vendor_id":
            assert bloom is None, chunk["path"]
            continue
        assert bloom["bytes"] == 32 * bloom["blocks"] and bloom["length"] > bloom["bytes"], bloom
        if chunk["path"] == "zone":
            assert bloom["bytes"] == 32, bloom  # sized for 4 zones at 1%: one block
        if chunk["path"] == "receipt_url":
            assert bloom["bytes"] == 2048, bloom  # 2048 distinct URLs at 5%
PY
run_expect 0 "inspect a file without filters" -- "$TOOL" inspect "$SAMPLE"
grep -q 'bloom filter' "$SCRATCH/out" && fail "inspect: a bloom filter line for a file with none"

# recode keeps the filters by default, drops them with --bloom none.
run_expect 0 "recode keeps filters" -- "$TOOL" recode "$sample" "$SCRATCH/kept.parquet"
run_expect 0 "inspect kept" -- "$TOOL" inspect "$SCRATCH/kept.parquet"
kept=$(grep -c '^    bloom filter:' "$SCRATCH/out" || true)
[[ $kept -eq 12 ]] || fail "recode (keep): $kept filters, expected 12"
run_expect 0 "recode --bloom none" -- "$TOOL" recode "$sample" "$SCRATCH/none.parquet" --bloom none
run_expect 0 "inspect none" -- "$TOOL" inspect "$SCRATCH/none.parquet"
grep -q 'bloom filter' "$SCRATCH/out" && fail "recode --bloom none left a filter"

# lookup, typed values: a zone that is there, one that is not (ruled out by the filters).
run_expect 0 "lookup a present zone" -- "$TOOL" lookup "$sample" zone Midtown --rows
expect_grep "^column 'zone', value Midtown: 2 of 2 row groups may hold it" "$SCRATCH/out" \
  "lookup Midtown"
expect_grep '^found in [1-9][0-9]* rows: 0, ' "$SCRATCH/out" "lookup Midtown: rows found"
run_expect 0 "lookup an absent zone" -- "$TOOL" lookup "$sample" zone Nowhere
expect_grep '^  row group 1 \(2048 rows\): statistics may hold, bloom filter ruled out$' \
  "$SCRATCH/out" "lookup Nowhere: the filter rules it out"
run_expect 0 "lookup a sorted timestamp" -- "$TOOL" lookup "$sample" pickup_micros 1767225605023633 \
  --rows
expect_grep '^  row group 1 \(2048 rows\): statistics ruled out$' "$SCRATCH/out" \
  "lookup pickup_micros: statistics"
expect_grep '^found in 1 row: 1$' "$SCRATCH/out" "lookup pickup_micros: the row"

# Several values in one call: a JSON array, one object per value, in order.
run_expect 0 "lookup of several values" -- "$TOOL" lookup "$sample" zone Midtown Nowhere Midtown \
  --json --rows
python3 - "$SCRATCH/out" <<'PY' || fail "lookup of several values: the array"
import json, sys
docs = json.load(open(sys.argv[1]))
assert len(docs) == 3, docs
assert docs[0] == docs[2] and docs[0]["found_rows"], docs[0]
assert docs[1]["found_rows"] == [] and docs[1]["rows_to_read"] == 0, docs[1]
PY

# Against the dumps: random present and absent values of every column.
run_expect 0 "lookup_check sample" -- python3 "$HERE/lookup_check.py" "$TOOL" "$sample" 1 8
run_expect 0 "lookup_check mixed" -- python3 "$HERE/lookup_check.py" "$TOOL" "$mixed" 2 6
expect_grep '^[0-9]+ lookups, [1-9][0-9]* row groups ruled out by a bloom filter$' \
  "$SCRATCH/out" "lookup_check mixed: filters rule out"
run_expect 0 "lookup_check without filters" -- python3 "$HERE/lookup_check.py" "$TOOL" "$MIXED" 3 4
if need_shared "lookup on parquet-mr's bloom filters"; then
  for name in data_index_bloom_encoding_stats data_index_bloom_encoding_with_length; do
    run_expect 0 "lookup_check $name" -- python3 "$HERE/lookup_check.py" "$TOOL" \
      "$DATA/$name.parquet" 4 20
    expect_grep '^[0-9]+ lookups, [1-9][0-9]* row groups ruled out by a bloom filter$' \
      "$SCRATCH/out" "lookup_check $name: filters rule out"
  done
fi

# A damaged filter: inspect reports it, lookup warns and still answers right.
python3 "$DAMAGE" "$TOOL" "$sample" "$SCRATCH/damaged.parquet" bloom zone 1 > /dev/null
run_expect 0 "inspect a damaged filter" -- "$TOOL" inspect "$SCRATCH/damaged.parquet"
expect_grep '^    bloom filter: UNREADABLE: .*48 bytes' "$SCRATCH/out" "inspect: damaged filter"
run_expect 0 "lookup with a damaged filter" -- "$TOOL" lookup "$SCRATCH/damaged.parquet" zone \
  Midtown --rows
expect_grep "warning: .*bloom filter.*not used" "$SCRATCH/err" "lookup: warns of the damage"
run_expect 0 "lookup_check damaged" -- python3 "$HERE/lookup_check.py" "$TOOL" \
  "$SCRATCH/damaged.parquet" 5 4

# Usage errors (2) and an unreadable file (1).
run_expect 2 "lookup without VALUE" -- "$TOOL" lookup "$sample" zone
run_expect 2 "lookup of an unknown column" -- "$TOOL" lookup "$sample" nope 1
run_expect 2 "lookup of text in an INT64 column" -- "$TOOL" lookup "$sample" pickup_micros abc
expect_grep "'abc' is not an integer" "$SCRATCH/err" "lookup abc: the error quotes the text"
run_expect 2 "lookup --hex of the wrong size" -- "$TOOL" lookup "$sample" vendor_id 0102 --hex
run_expect 1 "lookup of a missing file" -- "$TOOL" lookup "$SCRATCH/missing.parquet" zone x
expect_one_line_error "lookup of a missing file"
for bad in "--bloom some" "--bloom-fpp 1.5" "--bloom-fpp x" "--column-bloom zone=x" \
  "--column-bloom zone=10:2" "--column-bloom nope"; do
  # shellcheck disable=SC2086
  run_expect 2 "recode $bad" -- "$TOOL" recode "$SAMPLE" "$SCRATCH/bad.parquet" $bad
done
passed
