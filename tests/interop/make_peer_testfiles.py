"""Regenerates testfiles/peers/: a handful of small files the peers write (the first ROWS rows of
peer_table.py's table), each with its golden `pqpage dump` (FILE.dump.jsonl), so C++-side tests can
check them without the peers. A golden is written only after the dump has been checked against
peer_table's independent expectations (values and levels); otherwise the script fails.

Usage (in the peers' virtualenv): python make_peer_testfiles.py TOOL [OUT_DIR]
(OUT_DIR defaults to testfiles/peers of the repository.)
"""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import peer_table as T  # noqa: E402
import peer_writers as W  # noqa: E402

ROWS = 100   # NaN, -0.0, infinities, INT32/INT64 extremes, empty strings, nulls, lists, structs
# (the 3000-byte strings start at row 199: the interop tests cover them)
# Zero-row files, as each peer writes the empty result of a filter: pyarrow one row group of 0 rows
# whose chunks lie at offset 0 with 0 bytes (no dictionary) or hold an empty dictionary page;
# DuckDB and polars no row group at all.
ZERO_ROW_FILES = ["pyarrow-zero-rows-plain-v1.parquet",
                  "pyarrow-zero-rows-dictionary-v2-zstd.parquet", "duckdb-zero-rows.parquet",
                  "polars-zero-rows.parquet"]


def files(out):
    import duckdb
    import fastparquet
    import polars as pl
    import pyarrow.parquet as pq
    table = W.arrow_table(rows=ROWS)
    small = {"row_group_size": 50, "max_rows_per_page": 25, "write_batch_size": 25}
    pq.write_table(table, f"{out}/pyarrow-dictionary-v1-snappy.parquet", compression="snappy",
                   use_deprecated_int96_timestamps=True, **small)
    yield "pyarrow-dictionary-v1-snappy.parquet", "pyarrow"
    kwargs, profile, int96 = W.PYARROW_VARIANTS["DELTA_BINARY_PACKED"]
    pq.write_table(table, f"{out}/pyarrow-delta-binary-packed-v2-zstd.parquet",
                   compression="zstd", data_page_version="2.0",
                   use_deprecated_int96_timestamps=int96, **kwargs, **small)
    yield "pyarrow-delta-binary-packed-v2-zstd.parquet", profile
    kwargs, profile, int96 = W.PYARROW_VARIANTS["DELTA_BYTE_ARRAY"]
    pq.write_table(table, f"{out}/pyarrow-delta-byte-array-v2-gzip.parquet",
                   compression="gzip", data_page_version="2.0",
                   use_deprecated_int96_timestamps=int96, **kwargs, **small)
    yield "pyarrow-delta-byte-array-v2-gzip.parquet", profile
    kwargs, profile, int96 = W.PYARROW_VARIANTS["BYTE_STREAM_SPLIT"]
    pq.write_table(table, f"{out}/pyarrow-byte-stream-split-v1-lz4raw.parquet",
                   compression="lz4", use_deprecated_int96_timestamps=int96, **kwargs, **small)
    yield "pyarrow-byte-stream-split-v1-lz4raw.parquet", profile
    con = duckdb.connect()
    con.register("t", table)
    con.execute(f"COPY t TO '{out}/duckdb-v1-brotli.parquet' "
                f"(FORMAT PARQUET, PARQUET_VERSION V1, COMPRESSION brotli)")
    yield "duckdb-v1-brotli.parquet", "duckdb"
    pl.from_arrow(table).write_parquet(f"{out}/polars-zstd.parquet", compression="zstd",
                                       data_page_size=1024, row_group_size=50)
    yield "polars-zstd.parquet", "polars"
    fastparquet.write(f"{out}/fastparquet-lz4-hadoop.parquet", W.pandas_frame(ROWS),
                      compression="LZ4", row_group_offsets=50, times="int96",
                      has_nulls=[c for c in T.FLAT if c not in T.REQUIRED],
                      fixed_text={"flba": T.FLBA_WIDTH},
                      object_encoding={"s_req": "utf8", "s_low": "utf8", "bin": "bytes",
                                       "flba": "bytes"})
    yield "fastparquet-lz4-hadoop.parquet", "fastparquet"
    empty = W.arrow_table(rows=0)
    pq.write_table(empty, f"{out}/{ZERO_ROW_FILES[0]}", use_dictionary=False, compression="none",
                   use_deprecated_int96_timestamps=True)
    yield ZERO_ROW_FILES[0], "pyarrow"
    pq.write_table(empty, f"{out}/{ZERO_ROW_FILES[1]}", compression="zstd",
                   data_page_version="2.0", use_deprecated_int96_timestamps=True)
    yield ZERO_ROW_FILES[1], "pyarrow"
    con.register("empty", empty)
    con.execute(f"COPY empty TO '{out}/{ZERO_ROW_FILES[2]}' (FORMAT PARQUET)")
    yield ZERO_ROW_FILES[2], "duckdb"
    pl.from_arrow(empty).write_parquet(f"{out}/{ZERO_ROW_FILES[3]}")
    yield ZERO_ROW_FILES[3], "polars"


def main():
    tool = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "..", "..", "testfiles",
                                                             "peers")
    out = os.path.abspath(out)
    os.makedirs(out, exist_ok=True)
    failed = 0
    for name, profile in files(out):
        path = os.path.join(out, name)
        dump = subprocess.run([tool, "dump", path], capture_output=True, text=True, check=False)
        rows = 0 if name in ZERO_ROW_FILES else ROWS
        problems = [dump.stderr.strip()] if dump.returncode else T.compare_dump(
            T.expected_dump(T.PROFILES[profile], rows=rows),
            [json.loads(line) for line in dump.stdout.splitlines()])
        if problems:
            failed += 1
            print(f"{name}: NOT written as golden: {'; '.join(problems[:4])}")
            continue
        with open(path + ".dump.jsonl", "w") as f:
            f.write(dump.stdout)
        print(f"{name}: {os.path.getsize(path)} bytes, golden dump checked against peer_table")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
