"""Writes the small ORC files of testfiles/orc/ with pyarrow (Apache ORC's C++ writer), which
tests/orc_file_test.cc reads: one table, a struct of int, bigint, string, double, boolean, date,
timestamp, decimal(10,2), list<bigint>, map<string,int> and string ("pad") columns with nulls,
written with each compression kind and both file versions, 300 rows in 3 stripes of 100 (each
with its row index), about 75 KB in all.

Usage (in the peers' virtualenv): python make_orc_files.py [OUT_DIR]
(OUT_DIR defaults to the folder of this script.)

The table is a function of the row number only, so the test can recompute what the streams hold:
row i is null in column c (0 for "int" ... 9 for "map") when (i + c) % 7 == 3; "double" holds
i * 0.5 and "string" "s" followed by i in decimal, and as the writer is told never to use a
dictionary, their DATA streams are the non-null values one after another; "pad" is 700 "x" a row
in the compressed files (so that its streams span two 64 KiB chunks) and empty in the others.
"""
import datetime
import decimal
import os
import sys

import pyarrow as pa
import pyarrow.orc as orc

# (file name, compression, file version)
FILES = [
    ("zlib_v0_12.orc", "zlib", "0.12"),
    ("snappy_v0_12.orc", "snappy", "0.12"),
    ("lz4_v0_12.orc", "lz4", "0.12"),
    ("zstd_v0_12.orc", "zstd", "0.12"),
    ("uncompressed_v0_11.orc", "uncompressed", "0.11"),
    ("zlib_v0_11.orc", "zlib", "0.11"),
]


def column(index, values):
    return [None if (i + index) % 7 == 3 else value for i, value in enumerate(values)]


def table(rows, pad):
    """`rows` rows; the "pad" column holds `pad` bytes of "x" a row (see main)."""
    rows = range(rows)
    epoch = datetime.date(1970, 1, 1)
    start = datetime.datetime(2024, 1, 1, 12, 0, 0)
    return pa.table({
        "int": pa.array(column(0, [i * 3 - 1000 for i in rows]), pa.int32()),
        "bigint": pa.array(column(1, [i * 1_000_003 for i in rows]), pa.int64()),
        "string": pa.array(column(2, [f"s{i}" for i in rows]), pa.string()),
        "double": pa.array(column(3, [i * 0.5 for i in rows]), pa.float64()),
        "bool": pa.array(column(4, [i % 3 == 0 for i in rows]), pa.bool_()),
        "date": pa.array(column(5, [epoch + datetime.timedelta(days=i) for i in rows]),
                         pa.date32()),
        "timestamp": pa.array(
            column(6, [start + datetime.timedelta(seconds=i, microseconds=i) for i in rows]),
            pa.timestamp("ns")),
        "decimal": pa.array(column(7, [decimal.Decimal(i * 7) / 100 for i in rows]),
                            pa.decimal128(10, 2)),
        "list": pa.array(column(8, [list(range(i % 4)) for i in rows]), pa.list_(pa.int64())),
        "map": pa.array(column(9, [[(f"k{i % 5}", i)] for i in rows]),
                        pa.map_(pa.string(), pa.int32())),
        "pad": pa.array(["x" * pad for _ in rows], pa.string()),
    })


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    for name, compression, version in FILES:
        # The writer ends a stripe once its streams hold stripe_size bytes, counting a compressed
        # stream only when one of its 64 KiB blocks is compressed: with a stripe size of 1 byte,
        # a pad column of 70 KB a batch (which compresses to almost nothing) ends a stripe after
        # every batch of 100 rows. An uncompressed stream counts as it grows: no pad is needed.
        pad = 0 if compression == "uncompressed" else 700
        data = table(300, pad)
        path = os.path.join(out, name)
        orc.write_table(data, path, file_version=version, compression=compression,
                        compression_block_size=65536, batch_size=100, stripe_size=1,
                        row_index_stride=1000, dictionary_key_size_threshold=0.0)
        back = orc.read_table(path)
        assert back.equals(data), name
        stripes = orc.ORCFile(path).nstripes
        assert stripes >= 2, (name, stripes)
        print(f"{name}: {os.path.getsize(path)} bytes, {stripes} stripes")


if __name__ == "__main__":
    main()
