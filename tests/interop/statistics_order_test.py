"""Statistics in the column's sort order, as readers use them: a file pqpage writes (a recode of
pyarrow's) must state, for unsigned integers and for decimals with negative values, the min and
max pyarrow computes from the values, and DuckDB's row group pruning by those statistics must
give the counts of the values themselves. Bounds in the physical type's order (signed for
UINT_32, bytewise for a FIXED_LEN_BYTE_ARRAY decimal) made DuckDB skip row groups that held
matching rows. Types whose order pqpage does not implement (FLOAT16) get no bounds.

Called by ctest as: statistics_order_test.py TOOL SHARED_DIR SCRATCH_DIR; re-runs itself in the
peers' virtualenv. Needs no reference file.
"""

import decimal
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from interop_common import main_in_venv, run_tool  # noqa: E402


def main(tool, scratch):
    import duckdb
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = 3000
    u32 = [(i * 2654435761) % (1 << 32) for i in range(rows)]
    u64 = [(i * 11400714819323198485) % (1 << 64) for i in range(rows)]
    dec = [decimal.Decimal(((i * 7919) % 20001) - 10000).scaleb(-2) for i in range(rows)]
    table = pa.table({
        "u32": pa.array(u32, pa.uint32()),
        "u64": pa.array(u64, pa.uint64()),
        "dec": pa.array(dec, pa.decimal128(9, 2)),
        "half": pa.array(np.linspace(-2, 2, rows).astype(np.float16), pa.float16()),
    })
    source = os.path.join(scratch, "source.parquet")
    pq.write_table(table, source, row_group_size=1000)
    failures, checks = [], 0
    for version in ("1", "2"):
        out = os.path.join(scratch, f"recoded-v{version}.parquet")
        result = run_tool(tool, "recode", source, out, "--page-version", version)
        if result.returncode != 0:
            failures.append(f"recode v{version}: {result.stderr.strip()[:300]}")
            continue
        metadata = pq.ParquetFile(out).metadata
        for rg in range(metadata.num_row_groups):
            part = table.slice(rg * 1000, 1000)
            for c, name in enumerate(table.column_names):
                stats = metadata.row_group(rg).column(c).statistics
                checks += 1
                if name == "half":
                    if stats is not None and stats.has_min_max:
                        failures.append(f"v{version} rg {rg} half: bounds for FLOAT16")
                    continue
                values = part.column(name).to_pylist()
                want = (min(values), max(values))
                got = (stats.min, stats.max) if stats is not None and stats.has_min_max else None
                if got != want:
                    failures.append(f"v{version} rg {rg} {name}: statistics {got}, values {want}")
        for query, expected in [
            ("u32 > 3000000000", sum(v > 3000000000 for v in u32)),
            ("u64 > 18000000000000000000", sum(v > 18000000000000000000 for v in u64)),
            ("dec < -90.00", sum(v < decimal.Decimal("-90.00") for v in dec)),
            ("dec between -1.00 and 1.00", sum(-1 <= v <= 1 for v in dec)),
        ]:
            checks += 1
            got = duckdb.sql(f"select count(*) from read_parquet('{out}') where {query}").fetchall()[0][0]
            if got != expected:
                failures.append(f"v{version} DuckDB count where {query}: {got}, the values {expected}")
    for failure in failures:
        print("FAIL:", failure)
    print(f"{checks - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main_in_venv(main))
