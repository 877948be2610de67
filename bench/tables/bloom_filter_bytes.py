"""Bytes the bloom filters add to a file: pqpage against pyarrow, on the same table.

A realistic table (ids, timestamps, categories, URLs, free text, money; 1,000,000 rows in row groups
of 250,000) is written by pyarrow with bloom_filter_options on every column (ndv: the column's
distinct values in the whole table, as a user who knows the data would say, and the rate given),
then recoded by pqpage three ways: the same ndv and rate per column (--column-bloom PATH=NDV:FPP),
each chunk's own distinct count at the rate (--bloom all --bloom-fpp), and no filters. Prints the
filters' bytes (the footer's bloom_filter_length summed) and the file sizes.

Usage: bloom_filter_bytes.py [--pqpage build/pqpage] [--rows N] [--fpp 0.01] [--out DIR]
Run with the peers' virtualenv (build/peers-venv/bin/python).
"""
import argparse
import datetime
import os
import random
import subprocess
import tempfile


def make_table(rows, seed=1):
    import pyarrow as pa
    rng = random.Random(seed)
    start = datetime.datetime(2026, 1, 1)
    words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india"]
    return pa.table({
        "id": pa.array(range(10**9, 10**9 + rows), pa.int64()),
        "at": pa.array([start + datetime.timedelta(milliseconds=i * 37 + rng.randrange(37))
                        for i in range(rows)], pa.timestamp("ms")),
        "category": pa.array([f"cat-{rng.randrange(200)}" for _ in range(rows)], pa.string()),
        "url": pa.array([f"https://shop.example.com/item/{rng.randrange(300000)}?ref="
                         f"{rng.randrange(50)}" for _ in range(rows)], pa.string()),
        "text": pa.array([" ".join(rng.choice(words) for _ in range(rng.randrange(3, 9)))
                          for _ in range(rows)], pa.string()),
        "amount": pa.array([rng.randrange(100000) / 100 for _ in range(rows)], pa.float64()),
    })


def filter_bytes(path):
    import pyarrow.parquet as pq
    meta = pq.ParquetFile(path).metadata
    per_column = {}
    for g in range(meta.num_row_groups):
        for c in range(meta.num_columns):
            column = meta.row_group(g).column(c)
            length = column.to_dict().get("bloom_filter_length") or 0
            per_column[column.path_in_schema] = per_column.get(column.path_in_schema, 0) + length
    return per_column


def main():
    import pyarrow.parquet as pq
    parser = argparse.ArgumentParser()
    parser.add_argument("--pqpage", default="build/pqpage")
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--fpp", type=float, default=0.01)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    out = args.out or tempfile.mkdtemp(prefix="bloom_bytes_")
    os.makedirs(out, exist_ok=True)
    table = make_table(args.rows)
    ndv = {name: len(set(table.column(name).to_pylist())) for name in table.column_names}
    pyarrow_path = os.path.join(out, "pyarrow.parquet")
    pq.write_table(table, pyarrow_path, row_group_size=250_000,
                   bloom_filter_options={n: {"ndv": ndv[n], "fpp": args.fpp} for n in ndv})
    same = os.path.join(out, "pqpage_same_ndv.parquet")
    own = os.path.join(out, "pqpage_counted.parquet")
    none = os.path.join(out, "pqpage_none.parquet")
    column_args = []
    for name in ndv:
        column_args += ["--column-bloom", f"{name}={ndv[name]}:{args.fpp}"]
    for path, extra in ((same, column_args), (own, ["--bloom", "all", "--bloom-fpp", str(args.fpp)]),
                        (none, ["--bloom", "none"])):
        subprocess.run([args.pqpage, "recode", pyarrow_path, path, *extra], check=True,
                       capture_output=True)
    files = [("pyarrow (ndv of the table)", pyarrow_path), ("pqpage, same ndv", same),
             ("pqpage, each chunk's count", own), ("pqpage, no filters", none)]
    sizes = {label: (filter_bytes(path), os.path.getsize(path)) for label, path in files}
    print(f"{args.rows} rows, 4 row groups, fpp {args.fpp}; distinct values: "
          + ", ".join(f"{n} {ndv[n]}" for n in ndv))
    print("%-28s" % "filter bytes" + "".join("%12s" % n for n in ndv) + "%12s%14s" % ("total", "file"))
    for label, _ in files:
        per_column, size = sizes[label]
        total = sum(per_column.values())
        print("%-28s" % label + "".join("%12d" % per_column.get(n, 0) for n in ndv)
              + "%12d%14d" % (total, size))


if __name__ == "__main__":
    main()
