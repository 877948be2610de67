"""Bloom filters both ways against the peers (issue 28).

pqpage writes, peers read: a table of the types pyarrow writes (integers of several widths,
floats, strings, binary, fixed-size binary, dates, timestamps, decimals, nulls, a list of
strings), written by pyarrow without filters in 4 row groups and recoded by pqpage with
`--bloom all --bloom-fpp 0.01`. DuckDB's parquet_bloom_probe must not exclude any row group that
holds a present value, and must exclude most row groups for values that are absent; pyarrow and
polars must read the file back equal to the table.

Peers write, pqpage reads: pyarrow (bloom_filter_options, ndv and fpp per column) and DuckDB (its
default filters on dictionary-encoded columns). `pqpage lookup --hex --json` must never rule out
a row group holding a present value, and over 10,000 absent values its false-positive rate (row
groups the filter did not exclude, of those it was asked about) must be within 2x of the rate the
filter was made for.

Called by ctest as: bloom_filter_peers_test.py TOOL SHARED_DIR SCRATCH_DIR; runs in the peers'
virtualenv (skipped, 77, where there is none).
"""

import datetime
import decimal
import json
import os
import random
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import interop_common as C  # noqa: E402

ROWS = 4000
ROW_GROUP = 1000


def made_table():
    import pyarrow as pa
    rng = random.Random(5)
    epoch = datetime.datetime(2026, 1, 1)
    return pa.table({
        "id": pa.array([i * 3 for i in range(ROWS)], pa.int64()),
        "small": pa.array([rng.randrange(-100, 100) for _ in range(ROWS)], pa.int8()),
        "count": pa.array([None if i % 9 == 0 else rng.randrange(10**6) for i in range(ROWS)],
                          pa.int32()),
        "ratio": pa.array([rng.randrange(5000) / 8 for _ in range(ROWS)], pa.float64()),
        "level": pa.array([rng.randrange(2000) / 4 for _ in range(ROWS)], pa.float32()),
        "name": pa.array([None if i % 7 == 0 else f"user-{rng.randrange(1500)}"
                          for i in range(ROWS)], pa.string()),
        "blob": pa.array([bytes([rng.randrange(256) for _ in range(rng.randrange(1, 9))])
                          for _ in range(ROWS)], pa.binary()),
        "key": pa.array([rng.randrange(2**64).to_bytes(8, "little") * 2 for _ in range(ROWS)],
                        pa.binary(16)),
        "day": pa.array([datetime.date(2020, 1, 1) + datetime.timedelta(days=rng.randrange(900))
                         for _ in range(ROWS)], pa.date32()),
        "at": pa.array([epoch + datetime.timedelta(seconds=rng.randrange(10**6))
                        for _ in range(ROWS)], pa.timestamp("us")),
        "price": pa.array([decimal.Decimal(rng.randrange(-10**6, 10**6)) / 100
                           for _ in range(ROWS)], pa.decimal128(12, 2)),
        "tags": pa.array([[f"t{rng.randrange(300)}" for _ in range(i % 3)] for i in range(ROWS)],
                         pa.list_(pa.string())),
    })


def absent_values(name, present, rng, count):
    """Values of column `name`'s type that the column does not hold."""
    out = []
    while len(out) < count:
        if name == "id":
            value = rng.randrange(ROWS * 3) * 3 + 1
        elif name == "small":
            return out  # every value of a 200-value range is present
        elif name == "count":
            value = rng.randrange(10**6, 2 * 10**6)
        elif name in ("ratio", "level"):
            value = rng.randrange(5000) / 8 + 1 / 64
        elif name in ("name", "tags"):
            value = f"nobody-{rng.randrange(10**9)}"
        elif name == "blob":
            value = bytes([rng.randrange(256) for _ in range(12)])
        elif name == "key":
            value = rng.randrange(2**64).to_bytes(8, "little") * 2
        elif name == "day":
            value = datetime.date(2030, 1, 1) + datetime.timedelta(days=rng.randrange(900))
        elif name == "at":
            value = datetime.datetime(2026, 1, 1) + datetime.timedelta(
                seconds=rng.randrange(10**6), microseconds=1)
        elif name == "price":
            value = decimal.Decimal(rng.randrange(-10**6, 10**6)) / 100 + decimal.Decimal("0.005")
        else:
            raise ValueError(name)
        if value not in present:
            out.append(value)
    return out


def duckdb_probe(con, path, column, value):
    """Per row group: whether DuckDB's probe excludes `value`."""
    rows = con.execute("SELECT row_group_id, bloom_filter_excludes FROM "
                       "parquet_bloom_probe(?, ?, ?) ORDER BY row_group_id",
                       [path, column, value]).fetchall()
    return [excludes for _, excludes in rows]


def pqpage_writes(tool, scratch, failures):
    import duckdb
    import polars
    import pyarrow.parquet as pq
    table = made_table()
    source = os.path.join(scratch, "source.parquet")
    pq.write_table(table, source, row_group_size=ROW_GROUP)
    path = os.path.join(scratch, "pqpage_bloom.parquet")
    result = C.run_tool(tool, "recode", source, path, "--bloom", "all", "--bloom-fpp", "0.01")
    if result.returncode != 0:
        failures.append(f"recode --bloom all: {result.stderr.strip()[:300]}")
        return
    if not pq.read_table(path).equals(table):
        failures.append("pyarrow reads the file with filters differently")
    if not polars.read_parquet(path).equals(polars.from_arrow(table)):
        failures.append("polars reads the file with filters differently")
    # The same table with pyarrow's own filters (same rate, each sized for its column's distinct
    # values), to hold DuckDB's answers on pqpage's filters against.
    theirs = os.path.join(scratch, "pyarrow_same.parquet")
    pq.write_table(table, theirs, row_group_size=ROW_GROUP, bloom_filter_options={
        name: {"ndv": max(1, len(set(table.column(name).to_pylist()))), "fpp": 0.01}
        for name in table.column_names if name != "tags"})
    con = duckdb.connect()
    rng = random.Random(8)
    probed = 0
    for name in table.column_names:
        if name == "tags":
            continue  # parquet_bloom_probe takes a top-level column
        column = table.column(name).to_pylist()
        holders = {}
        for row, value in enumerate(column):
            if value is not None:
                holders.setdefault(value, set()).add(row // ROW_GROUP)
        present = list(holders)
        for value in rng.sample(present, min(40, len(present))):
            try:
                excludes = duckdb_probe(con, path, name, value)
            except duckdb.Error as error:
                failures.append(f"DuckDB cannot probe column {name}: {str(error)[:200]}")
                break
            probed += 1
            for group in holders[value]:
                if excludes[group]:
                    failures.append(f"DuckDB's probe excludes present {name}={value!r} "
                                    f"from row group {group}")
        asked = ours = pyarrows = 0
        for value in absent_values(name, holders, rng, 40):
            excludes = duckdb_probe(con, path, name, value)
            asked += len(excludes)
            ours += sum(excludes)
            pyarrows += sum(duckdb_probe(con, theirs, name, value))
        if asked == 0:
            continue
        print(f"  {name}: DuckDB excludes {ours} of {asked} absent probes on pqpage's filters, "
              f"{pyarrows} on pyarrow's")
        # DuckDB's probe ignores some types' filters (DECIMAL: it excludes nothing on pyarrow's
        # either); where it uses pyarrow's, it must use pqpage's as well.
        if ours < min(pyarrows, asked * 0.95):
            failures.append(f"DuckDB excluded {ours} of {asked} absent {name} values with "
                            f"pqpage's filters, {pyarrows} with pyarrow's")
    print(f"pqpage wrote, DuckDB probed: {probed} present values never excluded")


def plain_hex(arrow_type, value):
    """A value as the hex of its PLAIN bytes, for `pqpage lookup --hex`."""
    import pyarrow as pa
    if pa.types.is_int64(arrow_type):
        return struct.pack("<q", value).hex()
    if pa.types.is_int32(arrow_type):
        return struct.pack("<i", value).hex()
    if pa.types.is_float64(arrow_type):
        return struct.pack("<d", value).hex()
    if pa.types.is_string(arrow_type):
        return value.encode().hex()
    raise ValueError(arrow_type)


def pqpage_reads(tool, path, column, arrow_type, values_by_group, absent, fpp, label, failures):
    """Looks up every present value and `absent` with pqpage; checks no false negative and the
    false-positive rate."""
    present = list(values_by_group)
    values = [plain_hex(arrow_type, v) for v in present + absent]
    result = C.run_tool(tool, "lookup", path, column, *values, "--hex", "--json")
    if result.returncode != 0:
        failures.append(f"{label}: lookup: {result.stderr.strip()[:300]}")
        return
    docs = json.loads(result.stdout)
    for value, doc in zip(present, docs):
        for group in values_by_group[value]:
            if doc["row_groups"][group]["bloom_filter"] == "ruled out":
                failures.append(f"{label}: the filter rules out present {value!r} in row group "
                                f"{group}")
    asked = passed = 0
    for doc in docs[len(present):]:
        for group in doc["row_groups"]:
            if group["bloom_filter"] in ("may hold", "ruled out"):
                asked += 1
                passed += group["bloom_filter"] == "may hold"
    rate = passed / asked if asked else 1.0
    print(f"{label}: {len(present)} present values found; false positives {passed} of {asked} "
          f"({rate:.4f}, made for {fpp})")
    if asked < len(absent) // 2 or rate > 2 * fpp:
        failures.append(f"{label}: false-positive rate {rate:.4f} over {asked} probes, made for "
                        f"{fpp}")


def holders_of(table, name, row_group_rows):
    holders = {}
    for row, value in enumerate(table.column(name).to_pylist()):
        if value is not None:
            holders.setdefault(value, set()).add(row // row_group_rows)
    return holders


def peers_write(tool, scratch, failures):
    import duckdb
    import pyarrow as pa
    import pyarrow.parquet as pq
    rng = random.Random(9)
    n = 20000
    table = pa.table({
        "id": pa.array([i * 2 for i in range(n)], pa.int64()),
        "code": pa.array([rng.randrange(50000) * 2 for _ in range(n)], pa.int32()),
        "score": pa.array([rng.randrange(10**6) / 4 for _ in range(n)], pa.float64()),
        "word": pa.array([f"w{rng.randrange(4000)}" for _ in range(n)], pa.string()),
    })
    path = os.path.join(scratch, "pyarrow_bloom.parquet")
    options = {"id": {"ndv": n, "fpp": 0.05}, "code": {"ndv": n, "fpp": 0.01},
               "score": {"ndv": n, "fpp": 0.05}, "word": {"ndv": 4000, "fpp": 0.01}}
    pq.write_table(table, path, row_group_size=n // 2, bloom_filter_options=options)
    for name, option in options.items():
        holders = holders_of(table, name, n // 2)
        if name == "id":
            absent = [rng.randrange(n) * 2 + 1 for _ in range(10000)]
        elif name == "code":
            absent = [rng.randrange(50000) * 2 + 1 for _ in range(10000)]
        elif name == "score":
            absent = [rng.randrange(10**6) / 4 + 1 / 16 for _ in range(10000)]
        else:
            # Inside the statistics' bounds ("w0".."w999"), so that the filter is asked.
            absent = [f"w{4000 + rng.randrange(10**9)}" for _ in range(10000)]
        present = dict(rng.sample(sorted(holders.items()), min(2000, len(holders))))
        pqpage_reads(tool, path, name, table.schema.field(name).type, present, absent,
                     option["fpp"], f"pyarrow's filter on {name}", failures)

    duck = os.path.join(scratch, "duckdb_bloom.parquet")
    con = duckdb.connect()
    # DuckDB writes filters for the columns it keeps dictionary-encoded: few distinct keys.
    con.execute(f"COPY (SELECT 'k' || (range * 7919 % 800) AS k, range AS r FROM range({n})) "
                f"TO '{duck}' (FORMAT parquet, ROW_GROUP_SIZE {n // 2})")
    keys = [f"k{(r * 7919) % 800}" for r in range(n)]
    holders = {}
    for row, key in enumerate(keys):
        holders.setdefault(key, set()).add(row // (n // 2))
    absent = [f"k{800 + rng.randrange(10**9)}" for _ in range(10000)]  # inside "k0".."k99"
    # DuckDB's default false-positive ratio for the filters it writes is 0.01.
    pqpage_reads(tool, duck, "k", pa.string(), holders, absent, 0.01, "DuckDB's filter on k",
                 failures)


def main(tool, scratch):
    failures = []
    pqpage_writes(tool, scratch, failures)
    peers_write(tool, scratch, failures)
    for failure in failures:
        print("FAIL:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(C.main_in_venv(main))
