#!/usr/bin/env python3
"""Writes the suite of realistic files that issue 12 (whole-file scan speed) is judged on.

Usage: make_scan_suite.py OUT_DIR [--rows N] [--seed S]

One table, built by make_tables.make_table (the issue 11 table: ints, timestamps, money, floats,
strings, a bool and a list), is written by each peer with the settings users meet in practice:

  pyarrow_v1_snappy.parquet             pyarrow defaults (dictionary, data page v1, snappy)
  pyarrow_v1_uncompressed.parquet       compression="none"
  pyarrow_v1_lz4.parquet                compression="lz4"
  pyarrow_v1_plain_uncompressed.parquet use_dictionary=False, compression="none"
  pyarrow_v2_snappy.parquet             data_page_version="2.0"
  pyarrow_v2_zstd.parquet               data_page_version="2.0", compression="zstd"
  duckdb_default.parquet                COPY ... TO with DuckDB's defaults
  duckdb_uncompressed.parquet           COMPRESSION uncompressed
  polars_default.parquet                write_parquet defaults (zstd)
  polars_uncompressed.parquet           compression="uncompressed"

Every file has several row groups: the row group size is rows // 4 for every writer.

Nulls: make_table nulls only four columns (dep_time_hhmm 3%, is_delayed 10%, item_ids 5%, comment
20%). A scan's definition-level path is the point of the benchmark, so this script nulls every
other column except id_sorted at a random 1..10% (each column its own fraction and positions), from
a generator seeded apart from make_table's, so the table's values are those of make_tables.py with
the same --rows and --seed. id_sorted stays free of nulls and is declared non-nullable, so
pyarrow's files also hold one REQUIRED column (the primary-key case).

Run it with the peers' virtualenv (build/peers-venv/bin/python). Default 1,000,000 rows; any
--rows works (e.g. --rows 20000 for a test). Then time the suite with time_scan.py.
"""
import os

import duckdb
import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from make_tables import make_table, parse_table_arguments, with_nulls

KEY_COLUMN = "id_sorted"  # kept null-free and REQUIRED
NULL_FRACTION_RANGE = (0.01, 0.10)


def add_nulls(table, seed):
    """table with every null-free column except KEY_COLUMN nulled at a random 1..10%."""
    # A generator of its own (seeded from seed and 12, the issue) so that make_table's draws, and
    # so the values, stay those make_tables.py writes.
    rng = np.random.default_rng([seed, 12])
    fields, columns = [], []
    for field, column in zip(table.schema, table.columns):
        if field.name == KEY_COLUMN:
            field = field.with_nullable(False)
        elif column.null_count == 0:
            column = with_nulls(rng, column.combine_chunks(), rng.uniform(*NULL_FRACTION_RANGE))
        fields.append(field)
        columns.append(column)
    return pa.table(columns, schema=pa.schema(fields))


def pyarrow_writer(**options):
    def write(table, path, row_group_size):
        pq.write_table(table, path, row_group_size=row_group_size, **options)
    return write


def duckdb_writer(options):
    def write(table, path, row_group_size):
        con = duckdb.connect()
        # register() exposes the arrow table to SQL without a copy.
        con.register("suite", table)
        quoted = path.replace("'", "''")
        con.execute(f"COPY suite TO '{quoted}' (FORMAT parquet, ROW_GROUP_SIZE {row_group_size}{options})")
        con.close()
    return write


def polars_writer(**options):
    def write(table, path, row_group_size):
        # polars' own (Rust) writer, not pyarrow's: use_pyarrow stays at its default, False.
        pl.from_arrow(table).write_parquet(path, row_group_size=row_group_size, **options)
    return write


WRITERS = [
    ("pyarrow_v1_snappy.parquet", pyarrow_writer()),
    ("pyarrow_v1_uncompressed.parquet", pyarrow_writer(compression="none")),
    ("pyarrow_v1_lz4.parquet", pyarrow_writer(compression="lz4")),
    ("pyarrow_v1_plain_uncompressed.parquet", pyarrow_writer(use_dictionary=False, compression="none")),
    ("pyarrow_v2_snappy.parquet", pyarrow_writer(data_page_version="2.0")),
    ("pyarrow_v2_zstd.parquet", pyarrow_writer(data_page_version="2.0", compression="zstd")),
    ("duckdb_default.parquet", duckdb_writer("")),
    ("duckdb_uncompressed.parquet", duckdb_writer(", COMPRESSION uncompressed")),
    ("polars_default.parquet", polars_writer()),
    ("polars_uncompressed.parquet", polars_writer(compression="uncompressed")),
]


def describe(path):
    """Row group count and the codecs of the file's column chunks, to check each writer's settings."""
    metadata = pq.ParquetFile(path).metadata
    codecs = {metadata.row_group(g).column(c).compression
              for g in range(metadata.num_row_groups) for c in range(metadata.num_columns)}
    return metadata.num_row_groups, "/".join(sorted(codecs))


def main():
    args = parse_table_arguments(__doc__.splitlines()[0])
    os.makedirs(args.out_dir, exist_ok=True)
    table = add_nulls(make_table(args.rows, args.seed), args.seed)
    row_group_size = max(1, args.rows // 4)
    nulled = sum(column.null_count > 0 for column in table.columns)
    print(f"{table.num_rows} rows, {table.num_columns} columns ({nulled} with nulls), "
          f"row group size {row_group_size}")
    for name, write in WRITERS:
        path = os.path.join(args.out_dir, name)
        write(table, path, row_group_size)
        row_groups, codecs = describe(path)
        print(f"{name:40} {os.path.getsize(path):>12,} bytes  {row_groups} row groups  {codecs}")


if __name__ == "__main__":
    main()
