"""Real files from other writers that pqpage once read wrong (../shared/repro, its README says
how), and the same shapes made here, checked through every command against the peers.

- Impala 2.11's BIT_PACKED definition levels (least significant bit first): `dump` puts each null
  on the row pyarrow does, and the recode reads back in pyarrow equal to the source.
- A table of rows and no columns (fastparquet; also written here with fastparquet, so a clone
  without ../shared tests it): `scan` counts its rows, `inspect` and `dump` say it has no columns,
  and the recode still holds its rows in pyarrow.
- A group with no fields (parquet-go): read, shown by `inspect` and `dump`, and kept by `recode`.
- HVR's DECIMAL on BYTE_ARRAY with a zero-length value, which pyarrow refuses: `dump` gives
  DuckDB's values, and the default recode reads back in DuckDB (its interoperable encodings follow
  the logical type: DuckDB refuses DELTA_LENGTH_BYTE_ARRAY for decimals).

Called by ctest as: parquet_repro_test.py TOOL SHARED_DIR SCRATCH_DIR; re-runs itself in the
peers' virtualenv. Without SHARED_DIR/repro the checks of its files are skipped with one line.
"""

import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "peers"))
from interop_common import main_in_venv, run_tool  # noqa: E402
from leaf_values import compare_leaves  # noqa: E402

FAILURES = []
CHECKS = [0]


def check(condition, what):
    CHECKS[0] += 1
    if not condition:
        FAILURES.append(what)
        print(f"FAIL: {what}", flush=True)


def dump_columns(tool, path):
    result = run_tool(tool, "dump", path)
    check(result.returncode == 0, f"dump {path}: exit {result.returncode}: {result.stderr[:300]}")
    return [json.loads(line) for line in result.stdout.splitlines()], result.stderr


def recode(tool, path, scratch, *extra):
    out = os.path.join(scratch, os.path.basename(path) + ".recoded.parquet")
    result = run_tool(tool, "recode", path, out, "--verify", *extra)
    check(result.returncode == 0, f"recode {path}: exit {result.returncode}: {result.stderr[:300]}")
    return out


def same_as_pyarrow(tool, path, label):
    """`pqpage dump` of path against pyarrow's table: values and the rows of the nulls."""
    import pyarrow.parquet as pq
    columns, _ = dump_columns(tool, path)
    problems, _, _ = compare_leaves(columns, pq.read_table(path))
    check(not problems, f"{label}: dump differs from pyarrow: {problems[:3]}")


def check_bit_packed_levels(tool, path, scratch):
    import pyarrow.parquet as pq
    same_as_pyarrow(tool, path, "impala BIT_PACKED levels")
    # The file's nulls, as Impala's test table has them: tinyint_col is null where id % 10 == 0.
    columns, _ = dump_columns(tool, path)
    by_path = {c["path"]: c for c in columns}
    ids = iter(by_path["id"]["values"])
    ids_by_row = [next(ids) if d == 1 else None for d in by_path["id"]["def"]]
    nulls = [ids_by_row[row] for row, d in enumerate(by_path["tinyint_col"]["def"]) if d == 0]
    check(nulls and all(i % 10 == 0 for i in nulls),
          f"impala: tinyint_col null at ids {nulls[:5]}, expected only ids divisible by 10")
    out = recode(tool, path, scratch)
    check(pq.read_table(out).equals(pq.read_table(path)),
          "impala: the recode does not read back in pyarrow equal to the source")
    same_as_pyarrow(tool, out, "impala recode")


def check_no_columns(tool, path, scratch, rows):
    import pyarrow.parquet as pq
    label = os.path.basename(path)
    scan = run_tool(tool, "scan", path)
    check(scan.returncode == 0 and f"\nrows: {rows}\n" in scan.stdout,
          f"{label}: scan does not count {rows} rows: {scan.stdout[:300]} {scan.stderr[:200]}")
    inspect = run_tool(tool, "inspect", path)
    check("no column chunks (the schema has no leaf columns)" in inspect.stdout,
          f"{label}: inspect does not say the row group has no column chunks")
    columns, note = dump_columns(tool, path)
    check(columns == [] and f"no leaf columns; {rows} rows" in note,
          f"{label}: dump printed {columns[:1]} with note {note!r}")
    out = recode(tool, path, scratch)
    check(pq.read_table(out).num_rows == rows,
          f"{label}: the recode holds {pq.read_table(out).num_rows} rows in pyarrow, not {rows}")
    scan = run_tool(tool, "scan", out)
    check(f"\nrows: {rows}\n" in scan.stdout, f"{label}: scan of the recode: {scan.stdout[:200]}")


def check_empty_group(tool, path, scratch):
    import pyarrow.parquet as pq
    same_as_pyarrow(tool, path, "empty group")
    inspect = run_tool(tool, "inspect", path, "--json")
    check(inspect.returncode == 0 and
          json.loads(inspect.stdout).get("empty_groups") == ["nested.inner"],
          f"empty group: inspect --json: {inspect.stdout[:200]} {inspect.stderr[:200]}")
    _, note = dump_columns(tool, path)
    check("group 'nested.inner' has no fields" in note, f"empty group: dump's note {note!r}")
    out = recode(tool, path, scratch)
    check(pq.read_table(out).equals(pq.read_table(path)),
          "empty group: the recode does not read back in pyarrow equal to the source")
    check(pq.ParquetFile(out).schema.equals(pq.ParquetFile(path).schema),
          f"empty group: the recode's schema is\n{pq.ParquetFile(out).schema}")


def check_byte_array_decimal(tool, path, scratch):
    import duckdb
    columns, _ = dump_columns(tool, path)
    # DuckDB's decimals against the dump's big-endian two's complement bytes (zero bytes: 0).
    for column in columns:
        name = column["path"]
        rows = duckdb.sql(f"select \"{name}\" from read_parquet('{path}')").fetchall()
        theirs = [int(value.scaleb(-value.as_tuple().exponent)) for (value,) in rows
                  if value is not None]
        ours = [int.from_bytes(bytes.fromhex(v), "big", signed=True) for v in column["values"]]
        check(ours == theirs, f"decimal {name}: pqpage {ours[:5]}..., DuckDB {theirs[:5]}...")
    out = recode(tool, path, scratch)
    query = "select * from read_parquet('{}')"
    try:
        same = duckdb.sql(query.format(out)).fetchall() == duckdb.sql(query.format(path)).fetchall()
        check(same, "decimal: DuckDB reads the recode with other values than the source")
    except duckdb.Error as error:
        check(False, f"decimal: DuckDB refuses the default recode: {str(error)[:200]}")


def main(tool, scratch):
    import fastparquet
    import pandas as pd
    made = os.path.join(scratch, "fastparquet-no-columns.parquet")
    fastparquet.write(made, pd.DataFrame(index=range(3)), write_index=False)
    check_no_columns(tool, made, scratch, 3)

    repro = os.path.join(sys.argv[2], "repro")
    if os.path.isdir(repro):
        check_bit_packed_levels(
            tool, os.path.join(repro, "impala_alltypes_agg_bitpacked_def_levels.parquet"), scratch)
        check_no_columns(tool, os.path.join(repro, "fastparquet_no_columns.parquet"), scratch, 2)
        check_empty_group(tool, os.path.join(repro, "empty_group_test.parquet"), scratch)
        check_byte_array_decimal(
            tool, os.path.join(repro, "byte_array_decimal_empty_value.parquet"), scratch)
    else:
        print(f"skipped: the files of {repro}, as it is missing (see README: reference files)")
    print(f"{CHECKS[0] - len(FAILURES)} passed, {len(FAILURES)} failed")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main_in_venv(main))
