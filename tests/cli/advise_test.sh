#!/usr/bin/env bash
# pqpage advise: every column gets every policy measured and one advice, the JSON says the same,
# the advice follows its rule (smallest, or fastest within the tie margin, among the policies no
# peer refuses), and the recode command it prints really writes the bytes it predicts (within 1%)
# without changing a value. The peers refusing a candidate are shown (a BYTE_ARRAY decimal's
# DELTA_LENGTH_BYTE_ARRAY: DuckDB), and auto's interoperable set leaves them out.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

# The sample, MIXED (every physical type, nested and repeated columns) and the peers' delta and
# byte-stream-split files; the reference files add other writers' shapes.
files=("$SAMPLE" "$MIXED" "$PEERS/pyarrow-delta-byte-array-v2-gzip.parquet"
  "$PEERS/pyarrow-byte-stream-split-v1-lz4raw.parquet")
if need_shared "advise of 6 reference files"; then
  files+=("$DATA/alltypes_plain.parquet" "$DATA/nested_lists.snappy.parquet"
    "$DATA/delta_byte_array.parquet" "$DATA/byte_stream_split.zstd.parquet"
    "$DATA/byte_array_decimal.parquet" "$DATA/fixed_length_decimal.parquet")
fi
for in in "${files[@]}"; do
  name=$(basename "$in")
  for version in 1 2; do
    label="advise $name --page-version $version"
    run_expect 0 "$label" -- "$TOOL" advise "$in" --page-version "$version" --compression zstd
    columns=$(grep -c "^column " "$SCRATCH/out")
    [[ $columns -gt 0 ]] || fail "$label: no column shown"
    [[ $(grep -c "<- advised" "$SCRATCH/out") -eq $columns ]] || fail "$label: not one advice per column"
    expect_grep "^apply: pqpage recode " "$SCRATCH/out" "$label: the recode command"
    run_expect 0 "$label --json" -- "$TOOL" advise "$in" --page-version "$version" \
      --compression zstd --json
    cp "$SCRATCH/out" "$SCRATCH/advice.json"
    # The printed command, pointed at a scratch file, must write what was predicted.
    command=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["command"])' \
      "$SCRATCH/advice.json")
    out=$SCRATCH/advised.parquet
    command=${command/OUT.parquet/$out}
    eval "\"\$TOOL\"${command#pqpage}" > /dev/null || fail "$label: the advised command failed"
    run_expect 0 "$label: dump of the advised file" -- "$TOOL" dump "$out"
    mv "$SCRATCH/out" "$SCRATCH/advised.dump"
    "$TOOL" dump "$in" | cmp -s - "$SCRATCH/advised.dump" || fail "$label: values changed"
    run_expect 0 "$label: inspect of the advised file" -- "$TOOL" inspect "$out" --json
    python3 - "$SCRATCH/advice.json" "$SCRATCH/out" "$columns" <<'PY' || fail "$label: advice checks"
import json, sys
advice = json.load(open(sys.argv[1]))
written = json.load(open(sys.argv[2]))
assert len(advice["columns"]) == int(sys.argv[3]), "table and JSON disagree on the columns"
policies = ["plain", "dictionary", "delta", "delta_length_byte_array", "byte_stream_split", "auto"]
for column in advice["columns"]:
    candidates = column["candidates"]
    assert [c["policy"] for c in candidates] == policies, column["path"]
    refusing = column["peers_refusing"]
    assert set(column["interoperable"]) <= {e for e, peers in refusing.items() if not peers}, column
    for c in candidates:
        assert c["refused_by"] == sorted({p for e in c["encodings"] for e1 in e.split("+")
                                          for p in refusing[e1]}), (column["path"], c)
    assert next(c for c in candidates if c["policy"] == "auto")["refused_by"] == [], column
    candidates = [c for c in candidates if not c["refused_by"]]
    smallest = min(c["bytes"] for c in candidates)
    chosen = next(c for c in candidates if c["policy"] == column["advised"])
    assert chosen["bytes"] == column["advised_bytes"], column["path"]
    assert chosen["bytes"] <= smallest * 1.02, (column["path"], chosen, smallest)
    assert "same_as" not in chosen, (column["path"], chosen)
stored = {}
for group in written["row_groups"]:
    for chunk in group["columns"]:
        stored[chunk["path"]] = stored.get(chunk["path"], 0) + chunk["total_compressed_size"]
for column in advice["columns"]:
    predicted, got = column["advised_bytes"], stored[column["path"]]
    assert abs(got - predicted) <= 0.01 * predicted + 8, (column["path"], predicted, got)
PY
    CHECKS=$((CHECKS + 1))
  done
done

# The peers' refusals in the table: DuckDB's of a BYTE_ARRAY decimal's DELTA_LENGTH_BYTE_ARRAY,
# which is smallest there and not advised.
if need_shared "the peers' refusals on byte_array_decimal"; then
  in=$DATA/byte_array_decimal.parquet
  run_expect 0 "advise byte_array_decimal" -- "$TOOL" advise "$in" --compression none
  expect_grep "^column 0 'value' BYTE_ARRAY DECIMAL\(4,2\), uncompressed" "$SCRATCH/out" \
    "the column's logical type"
  expect_grep "^  DELTA_LENGTH_BYTE_ARRAY is refused by duckdb for this type" "$SCRATCH/out" \
    "the encoding DuckDB refuses"
  expect_grep "^  delta_length_byte_array .*DELTA_LENGTH_BYTE_ARRAY  refused by duckdb$" \
    "$SCRATCH/out" "the candidate DuckDB refuses, not advised"
  expect_grep "^  advice: delta," "$SCRATCH/out" "the smallest candidate every peer reads"
fi

# One column, every chunk, and the usage errors.
in=$MIXED
run_expect 0 "advise --column --verbose" -- "$TOOL" advise "$in" --column s_low --verbose
[[ $(grep -c "^column " "$SCRATCH/out") -eq 1 ]] || fail "--column: not exactly one column"
expect_grep "row group 0: now " "$SCRATCH/out" "--verbose: the chunk line"
expect_grep "row group 1: now " "$SCRATCH/out" "--verbose: every chunk's line"
run_expect 2 "advise --column unknown" -- "$TOOL" advise "$in" --column nosuch
expect_grep "no column 'nosuch'" "$SCRATCH/err" "unknown column: message"
run_expect 2 "advise --tie-margin 101" -- "$TOOL" advise "$in" --tie-margin 101
run_expect 2 "advise --compression lzo" -- "$TOOL" advise "$in" --compression lzo
run_expect 2 "advise without FILE" -- "$TOOL" advise
run_expect 1 "advise of a missing file" -- "$TOOL" advise "$SCRATCH/missing.parquet"

passed
