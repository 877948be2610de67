"""BYTE_ARRAY decimals from other writers, recoded with recode's defaults, read back in DuckDB.

HVR's file with a zero-length decimal (shared/repro/byte_array_decimal_empty_value.parquet:
pyarrow refuses it, DuckDB reads it) and parquet-testing's byte_array_decimal.parquet are recoded
with the default `--encoding auto` in data pages v1 and v2; DuckDB must read every recode exactly
as it reads the source. Before auto followed the logical type it chose DELTA_LENGTH_BYTE_ARRAY
there, which DuckDB refuses for decimals.

Called by ctest as: byte_array_decimal_recode_test.py TOOL SHARED_DIR SCRATCH_DIR. Skips (77)
when the shared files are missing.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import interop_common as C  # noqa: E402

FILES = ["repro/byte_array_decimal_empty_value.parquet",
         "parquet-testing/data/byte_array_decimal.parquet"]


def main(tool, scratch):
    import duckdb
    shared = sys.argv[2]
    connection = duckdb.connect()
    failures = 0
    for name in FILES:
        source = os.path.join(shared, name)
        want = connection.execute("SELECT * FROM read_parquet(?)", [source]).fetchall()
        for version in (1, 2):
            out = os.path.join(scratch, f"{os.path.basename(name)[:-8]}-v{version}.parquet")
            result = C.run_tool(tool, "recode", source, out, "--page-version", str(version))
            label = f"{name} recoded with defaults, v{version}"
            if result.returncode != 0:
                failures += 1
                print(f"FAIL: {label}: exit {result.returncode}: {result.stderr.strip()}")
                continue
            try:
                got = connection.execute("SELECT * FROM read_parquet(?)", [out]).fetchall()
            except Exception as error:  # noqa: BLE001
                failures += 1
                print(f"FAIL: {label}: DuckDB: {error} [reproduce: {tool} recode {source} OUT "
                      f"--page-version {version}]")
                continue
            if got != want:
                failures += 1
                print(f"FAIL: {label}: DuckDB reads {got[:3]}... instead of {want[:3]}...")
            else:
                print(f"{label}: DuckDB reads the {len(got)} rows of the source")
    return 1 if failures else 0


if __name__ == "__main__":
    missing = [f for f in FILES if len(sys.argv) > 2 and
               not os.path.exists(os.path.join(sys.argv[2], f))]
    if len(sys.argv) > 2 and missing:
        print(f"skipped: {os.path.join(sys.argv[2], missing[0])} is missing")
        sys.exit(77)
    sys.exit(C.main_in_venv(main))
