"""Writes the table of peer_table.py with every peer, with every encoding, page version and codec
the peer can be asked for, and a manifest (manifest.json) naming for each file: peer, profile (the
expectations in peer_table.PROFILES), encoding options, page version and codec.

Runs inside the peers' virtualenv (pyarrow, duckdb, polars, fastparquet).
  python peer_writers.py OUT_DIR [--reduced] [--peers pyarrow,duckdb,...]
or from Python: write_all(out_dir, reduced=False) -> manifest list.

Reduced tables (documented per peer):
- fastparquet writes no nested columns from pandas (lst and st need pyarrow's nested types; its own
  writer only knows flat columns or JSON/BSON-encoded objects, which are not a Parquet LIST or
  struct), so its table is the FLAT columns.
- DuckDB and polars have no fixed-length binary type: flba becomes BYTE_ARRAY (kept, per-peer
  expectation); neither can write INT96, so ts is INT64 micros (per-peer expectation).
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peer_table as T  # noqa: E402

PYARROW_CODECS = ["none", "snappy", "gzip", "brotli", "zstd", "lz4"]
DUCKDB_CODECS = ["uncompressed", "snappy", "gzip", "zstd", "brotli", "lz4_raw"]
POLARS_CODECS = ["uncompressed", "snappy", "gzip", "lz4", "zstd", "brotli"]
FASTPARQUET_CODECS = [None, "SNAPPY", "GZIP", "BROTLI", "LZ4", "ZSTD"]

INT_LEAVES = ["i32_req", "i32_low", "i64_req", "i64_nulls"]
STRING_LEAVES = ["s_req", "s_low", "bin"]

# pyarrow encoding variants: name -> (write_table keyword arguments, profile, timestamps as INT96)
PYARROW_VARIANTS = {
    "dictionary": ({"use_dictionary": True}, "pyarrow", True),
    "no_dictionary": ({"use_dictionary": False}, "pyarrow", True),
    "PLAIN": ({"use_dictionary": False, "column_encoding": "PLAIN"}, "pyarrow", True),
    "DELTA_BINARY_PACKED": ({"use_dictionary": False, "column_encoding": {
        **{c: "DELTA_BINARY_PACKED" for c in INT_LEAVES + ["ts", "lst.list.element", "st.a"]}}},
        "pyarrow_int64_ts", False),
    "DELTA_LENGTH_BYTE_ARRAY": ({"use_dictionary": False, "column_encoding": {
        **{c: "DELTA_LENGTH_BYTE_ARRAY" for c in STRING_LEAVES + ["st.b.list.element"]}}},
        "pyarrow", True),
    "DELTA_BYTE_ARRAY": ({"use_dictionary": False, "column_encoding": {
        **{c: "DELTA_BYTE_ARRAY" for c in STRING_LEAVES + ["flba", "st.b.list.element"]}}},
        "pyarrow", True),
    "BYTE_STREAM_SPLIT": ({"use_dictionary": False, "column_encoding": {
        **{c: "BYTE_STREAM_SPLIT" for c in INT_LEAVES + ["f32", "f64", "flba", "ts"]}}},
        "pyarrow_int64_ts", False),
    "RLE_booleans": ({"use_dictionary": False, "column_encoding": {"b_req": "RLE", "b_opt": "RLE"}},
                     "pyarrow", True),
    "use_byte_stream_split": ({"use_dictionary": False, "use_byte_stream_split": ["f32", "f64"]},
                              "pyarrow", True),
}


def arrow_table(columns=None, rows=None):
    import pyarrow as pa
    types = {"b_req": pa.bool_(), "b_opt": pa.bool_(), "i32_req": pa.int32(),
             "i32_low": pa.int32(), "i64_req": pa.int64(), "i64_nulls": pa.int64(),
             "f32": pa.float32(), "f64": pa.float64(), "s_req": pa.string(),
             "s_low": pa.string(), "bin": pa.binary(), "flba": pa.binary(T.FLBA_WIDTH),
             "ts": pa.timestamp("us"), "lst": pa.list_(pa.int32()),
             "st": pa.struct([("a", pa.int32()), ("b", pa.list_(pa.string()))])}
    fields, arrays = [], []
    for name in columns or T.COLUMNS:
        fields.append(pa.field(name, types[name], nullable=name not in T.REQUIRED))
        arrays.append(pa.array(T.TABLE[name][:rows], type=types[name]))
    return pa.Table.from_arrays(arrays, schema=pa.schema(fields))


def _entry(out_dir, file, peer, profile, encoding, page_version, codec, options):
    return {"file": file, "path": os.path.join(out_dir, file), "peer": peer, "profile": profile,
            "encoding": encoding, "page_version": page_version, "codec": codec,
            "options": options}


def write_pyarrow(out_dir, reduced):
    import pyarrow.parquet as pq
    table = arrow_table()
    out = []
    variants = PYARROW_VARIANTS
    for variant, (kwargs, profile, int96) in variants.items():
        for version in ("1.0", "2.0"):
            codecs = PYARROW_CODECS
            if reduced:
                codecs = ["snappy"] if version == "1.0" else ["zstd"]
            for codec in codecs:
                file = f"pyarrow-{variant}-v{version[0]}-{codec}.parquet"
                options = dict(kwargs, compression=codec, data_page_version=version,
                               row_group_size=T.ROW_GROUP_ROWS, max_rows_per_page=T.ROWS_PER_PAGE,
                               data_page_size=2048, write_batch_size=50,
                               use_deprecated_int96_timestamps=int96)
                pq.write_table(table, os.path.join(out_dir, file), **options)
                out.append(_entry(out_dir, file, "pyarrow", profile, variant, int(version[0]),
                                  codec, options))
    return out


def write_duckdb(out_dir, reduced):
    import duckdb
    table = arrow_table()  # noqa: F841 (scanned by name below)
    con = duckdb.connect()
    con.register("t", table)
    out = []
    for version in ("V1", "V2"):
        codecs = DUCKDB_CODECS
        if reduced:
            codecs = ["snappy"] if version == "V1" else ["zstd"]
        for codec in codecs:
            file = f"duckdb-default-{version.lower()}-{codec}.parquet"
            path = os.path.join(out_dir, file)
            options = {"FORMAT": "PARQUET", "PARQUET_VERSION": version, "COMPRESSION": codec,
                       "ROW_GROUP_SIZE": T.ROW_GROUP_ROWS}
            opts = ", ".join(f"{k} {v}" for k, v in options.items())
            con.execute(f"COPY t TO '{path}' ({opts})")
            profile = "duckdb" if version == "V1" else "duckdb_v2"
            # PARQUET_VERSION V2 means v2 encodings (DELTA_*, BYTE_STREAM_SPLIT), not v2 pages:
            # the matrix shows the page versions each file really holds.
            out.append(_entry(out_dir, file, "duckdb", profile, f"PARQUET_VERSION {version}",
                              1,
                              codec, options))
    con.close()
    return out


def write_polars(out_dir, reduced):
    import polars as pl
    frame = pl.from_arrow(arrow_table())
    out = []
    codecs = ["snappy", "zstd"] if reduced else POLARS_CODECS
    for statistics in (True, False):
        for codec in codecs:
            file = f"polars-stats{int(statistics)}-v1-{codec}.parquet"
            options = {"compression": codec, "statistics": statistics, "use_pyarrow": False,
                       "row_group_size": T.ROW_GROUP_ROWS, "data_page_size": 2048}
            frame.write_parquet(os.path.join(out_dir, file), **options)
            out.append(_entry(out_dir, file, "polars", "polars",
                              "statistics" if statistics else "no_statistics", 1, codec, options))
    return out


def pandas_frame(rows=None):
    import pandas as pd
    table = arrow_table(T.FLAT, rows)
    frame = {}
    for name in T.FLAT:
        column = table.column(name)
        if name in ("b_opt",):
            frame[name] = pd.array(T.TABLE[name][:rows], dtype="boolean")
        elif name in ("i32_low",):
            frame[name] = pd.array(T.TABLE[name][:rows], dtype="Int32")
        elif name in ("i64_nulls",):
            frame[name] = pd.array(T.TABLE[name][:rows], dtype="Int64")
        elif name == "f32":
            # A masked array: a plain float32 Series would turn nulls into NaN (and fastparquet
            # writes NaN of an optional float column as null).
            from pandas.arrays import FloatingArray
            import numpy as np
            values = np.array([0.0 if v is None else v for v in T.TABLE[name][:rows]], dtype="float32")
            mask = np.array([v is None for v in T.TABLE[name][:rows]])
            frame[name] = FloatingArray(values, mask)
        elif name == "ts":
            # nanoseconds: fastparquet 2026.9 takes a datetime64[us] column's integers for
            # nanoseconds (its INT96 values come out 1000 times too small).
            frame[name] = column.to_pandas().astype("datetime64[ns]")
        elif name in ("s_req", "s_low", "bin", "flba"):
            frame[name] = pd.Series(T.TABLE[name][:rows], dtype=object)
        else:
            frame[name] = column.to_pandas()
    return pd.DataFrame(frame)


def write_fastparquet(out_dir, reduced):
    import fastparquet
    frame = pandas_frame()
    out = []
    codecs = ["SNAPPY", "ZSTD"] if reduced else FASTPARQUET_CODECS
    variants = {
        "default": {"stats": True},
        "no_statistics": {"stats": False},
        "categorical_dictionary": {"stats": True, "categorical": True},
    }
    for variant, base in variants.items():
        for codec in codecs:
            file = f"fastparquet-{variant}-v1-{codec or 'none'}.parquet"
            data = frame
            if base.get("categorical"):
                data = frame.copy()
                data["s_low"] = data["s_low"].astype("category")
                data["i32_low"] = data["i32_low"].astype("category")
            options = {"compression": codec, "row_group_offsets": T.ROW_GROUP_ROWS,
                       "has_nulls": [c for c in T.FLAT if c not in T.REQUIRED],
                       "times": "int96", "stats": base["stats"],
                       "fixed_text": {"flba": T.FLBA_WIDTH},
                       "object_encoding": {"s_req": "utf8", "s_low": "utf8", "bin": "bytes",
                                           "flba": "bytes"}}
            fastparquet.write(os.path.join(out_dir, file), data, **options)
            options["categorical"] = bool(base.get("categorical"))
            out.append(_entry(out_dir, file, "fastparquet", "fastparquet", variant, 1,
                              codec or "none", options))
    return out


WRITERS = {"pyarrow": write_pyarrow, "duckdb": write_duckdb, "polars": write_polars,
           "fastparquet": write_fastparquet}


def write_all(out_dir, reduced=False, peers=None):
    os.makedirs(out_dir, exist_ok=True)
    manifest = []
    for peer, writer in WRITERS.items():
        if peers and peer not in peers:
            continue
        manifest += writer(out_dir, reduced)
    with open(os.path.join(out_dir, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1, default=str)
    return manifest


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    peers = None
    for a in sys.argv[1:]:
        if a.startswith("--peers="):
            peers = a.split("=", 1)[1].split(",")
    m = write_all(args[0], reduced="--reduced" in sys.argv, peers=peers)
    print(f"{len(m)} files written into {args[0]}")
