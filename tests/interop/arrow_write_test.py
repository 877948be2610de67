"""pqpage's Arrow writer (pqpage/arrow_writer.h) read back by pyarrow, DuckDB and polars.

Each table of arrow_write_tables.py (every Arrow type with a Parquet form, nested, dictionaries,
sliced, all-null, empty) is written as an Arrow IPC stream in batches of 100 rows; ipc_to_parquet
(Arrow C++ reads the stream and exports it through the C stream interface to
pqpage::WriteArrowStream) writes it as Parquet under several option sets. pyarrow also writes the
table itself (pq.write_table). Then, for each of pqpage's files:
  - pyarrow: read_table of pqpage's file equals read_table of pyarrow's own (schema with field and
    schema metadata, so the restored Arrow types; values, floats bit for bit);
  - DuckDB and polars: what each reads of pqpage's file equals what it reads of pyarrow's; where a
    peer refuses pyarrow's file too, it must refuse pqpage's (the row says so).
And the writer's errors: a type with no Parquet form (an interval) is refused with exit 1.

Prints one line per table and option set. Called by ctest as arrow_write_test.py TOOL SHARED_DIR
SCRATCH_DIR; ipc_to_parquet is found beside TOOL. Skipped (77) without the peers' virtualenv or
where ipc_to_parquet was not built (no PQPAGE_ARROW_DIR, or a sanitizer build).
"""

import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import interop_common as C  # noqa: E402

# name -> ipc_to_parquet's options.
OPTION_SETS = {
    "default": [],
    "small_groups_v2_zstd_threads": ["--row-group-rows", "37", "--page-version", "2",
                                     "--compression", "ZSTD", "--threads", "2"],
    "plain_uncompressed": ["--encoding", "plain", "--compression", "UNCOMPRESSED"],
    "bytes_cut_groups": ["--row-group-bytes", "2000", "--encoding", "dictionary"],
}
BATCH_ROWS = 100


def same_tables(expected, got):
    """None when both tables hold the same schema and values; else why not."""
    import arrow_read_test as R
    if not got.schema.equals(expected.schema, check_metadata=True):
        return f"schema differs:\n{got.schema}\nvs pyarrow's\n{expected.schema}"
    for name in expected.column_names:
        why = R.same_values(R.whole(expected[name]), R.whole(got[name]))
        if why:
            return f"column {name}: {why}"
    return None


def duckdb_rows(path):
    import duckdb
    with duckdb.connect() as connection:
        return connection.execute("SELECT * FROM read_parquet(?)", [path]).fetchall()


def polars_frame(path):
    import polars
    return polars.read_parquet(path)


def peer_verdict(read, reference, candidate, same):
    """'' when the peer reads both files alike (or refuses both); else why not."""
    # BaseException: polars refuses some types with a Rust panic, which Python raises as one.
    try:
        expected = read(reference)
    except (Exception, BaseException) as error:  # noqa: BLE001 - any refusal counts
        if isinstance(error, KeyboardInterrupt):
            raise
        try:
            read(candidate)
        except (Exception, BaseException):  # noqa: BLE001
            return ""
        return f"reads pqpage's file but refuses pyarrow's ({str(error)[:80]})"
    try:
        got = read(candidate)
    except (Exception, BaseException) as error:  # noqa: BLE001
        if isinstance(error, KeyboardInterrupt):
            raise
        return f"refuses pqpage's file: {str(error)[:200]}"
    return "" if same(expected, got) else "values differ"


def frames_equal(a, b):
    return a.schema == b.schema and a.equals(b, null_equal=True)


def rows_equal(a, b):
    # NaN != NaN in Python: compare the rows' reprs, which spell NaN alike.
    return repr(a) == repr(b)


def check(program, scratch, name, table, option_name, options):
    import pyarrow as pa
    import pyarrow.parquet as pq
    stream = os.path.join(scratch, f"{name}.arrows")
    reference = os.path.join(scratch, f"{name}.pyarrow.parquet")
    if not os.path.exists(stream):
        with pa.OSFile(stream, "wb") as sink, pa.ipc.new_stream(sink, table.schema) as writer:
            for batch in table.to_batches(max_chunksize=BATCH_ROWS):
                writer.write_batch(batch)
        pq.write_table(table, reference)
    out = os.path.join(scratch, f"{name}.{option_name}.parquet")
    run = subprocess.run([program, stream, out, *options], capture_output=True, text=True,
                         timeout=300)
    if run.returncode != 0:
        return f"ipc_to_parquet exit {run.returncode}: {run.stderr.strip()[:300]}"
    expected = pq.read_table(reference)
    try:
        got = pq.read_table(out)
    except Exception as error:  # noqa: BLE001
        return f"pyarrow refuses pqpage's file: {error}"
    problems = []
    why = same_tables(expected, got)
    if why:
        problems.append(f"pyarrow: {why}")
    for peer, read, same in (("duckdb", duckdb_rows, rows_equal),
                             ("polars", polars_frame, frames_equal)):
        why = peer_verdict(read, reference, out, same)
        if why:
            problems.append(f"{peer}: {why}")
    if option_name == "small_groups_v2_zstd_threads" and table.num_rows > 0:
        groups = pq.ParquetFile(out).metadata.num_row_groups
        if groups != -(-table.num_rows // 37):
            problems.append(f"{groups} row groups, not one per 37 rows")
    return "; ".join(problems)


def check_refusals(program, scratch):
    """Failures of the writer's refusals (a list of strings)."""
    import pyarrow as pa
    failures = []
    stream = os.path.join(scratch, "interval.arrows")
    table = pa.table({"i": pa.array([(1, 2, 3)], pa.month_day_nano_interval())})
    with pa.OSFile(stream, "wb") as sink, pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    run = subprocess.run([program, stream, os.path.join(scratch, "interval.parquet")],
                         capture_output=True, text=True, timeout=60)
    if run.returncode != 1 or "has no Parquet form" not in run.stderr:
        failures.append(f"an interval column: exit {run.returncode}, {run.stderr.strip()}")
    return failures


def main(tool, scratch):
    start = time.time()
    program = os.path.join(os.path.dirname(os.path.abspath(tool)), "ipc_to_parquet")
    if not os.path.exists(program):
        print("ipc_to_parquet not built (no PQPAGE_ARROW_DIR, or a sanitizer build): skipped")
        return 77
    import arrow_write_tables
    failed = 0
    checked = 0
    for name, table in arrow_write_tables.tables():
        for option_name, options in OPTION_SETS.items():
            why = check(program, scratch, name, table, option_name, options)
            checked += 1
            failed += bool(why)
            print(f"{name} [{option_name}]: {'FAIL: ' + why if why else 'ok'}", flush=True)
    for why in check_refusals(program, scratch):
        failed += 1
        print(f"FAIL: {why}")
    print(f"{checked - failed} of {checked} table writes read back alike; "
          f"runtime {time.time() - start:.1f}s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(C.main_in_venv(main))
