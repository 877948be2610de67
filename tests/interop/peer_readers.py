"""Each peer reading a Parquet file in its own API, into a value that compares NaN-aware.

read(peer, path, columns) returns an opaque value; same(peer, a, b) says whether two reads are
identical, and diff(peer, a, b) names the first difference. Floats are compared by their bits
(NaN == NaN, -0.0 != 0.0) where the peer's result keeps them apart (pyarrow, DuckDB, polars), and
by pandas' equality (NaN == NaN) for fastparquet, whose float32 columns turn nulls into NaN.

classify_error(error) separates a peer's own "I do not support this" from anything else.
"""

import math
import os
import re
import struct
import sys

PEERS = ["pyarrow", "duckdb", "polars", "fastparquet"]

# A peer's own words for "this encoding/codec/type is not implemented here".
UNSUPPORTED = re.compile(
    r"not supported|unsupported|not implemented|notimplemented|unknown encoding|"
    r"not yet implemented|not yet supported|no decoder|unknown codec|unknown compression|"
    r"encoding .* is not|is not a supported|cannot (?:read|decode) .*encoding",
    re.IGNORECASE)


def classify_error(error):
    text = f"{type(error).__name__}: {error}".replace("\n", " ")
    if isinstance(error, NotImplementedError) or UNSUPPORTED.search(text):
        return "unsupported", text[:300]
    return "FAIL", text[:300]


def norm(value):
    """A Python value with floats made bit strings, containers made lists, nulls None."""
    import numpy as np
    import pandas as pd
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (float, np.floating)):
        value = float(value)
        return "NaN" if math.isnan(value) else struct.pack("<d", value).hex()
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (bytes, str)):
        return value
    if isinstance(value, dict):
        return {k: norm(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [norm(v) for v in value]
    if isinstance(value, pd.Timestamp):
        return ("ts", value.value)
    return repr(value)


_FLOAT_VIEWS = {16: "int16", 32: "int32", 64: "int64"}


def _float_bits(array):
    """array with every float inside it, at any depth (lists, maps, structs), viewed as the
    same-width integers, so that equality is bitwise: NaN equals NaN, -0.0 differs from 0.0."""
    import pyarrow as pa
    kind = array.type
    if pa.types.is_floating(kind):
        return array.view(getattr(pa, _FLOAT_VIEWS[kind.bit_width])())
    mask = array.is_null() if array.null_count else None
    if pa.types.is_map(kind):
        return pa.MapArray.from_arrays(array.offsets, _float_bits(array.keys),
                                       _float_bits(array.items), mask=mask)
    if pa.types.is_list(kind) or pa.types.is_large_list(kind):
        cls = pa.ListArray if pa.types.is_list(kind) else pa.LargeListArray
        return cls.from_arrays(array.offsets, _float_bits(array.values), mask=mask)
    if pa.types.is_struct(kind):
        children = [_float_bits(array.field(i)) for i in range(kind.num_fields)]
        fields = [pa.field(kind.field(i).name, c.type, kind.field(i).nullable)
                  for i, c in enumerate(children)]
        return pa.StructArray.from_arrays(children, fields=fields, mask=mask)
    return array


def _has_float(kind):
    import pyarrow as pa
    if pa.types.is_floating(kind):
        return True
    return any(_has_float(kind.field(i).type) for i in range(kind.num_fields))


def _arrow_bits(table):
    """pyarrow Table with its floats, top-level or nested, viewed as same-width ints."""
    import pyarrow as pa
    columns = [pa.chunked_array([_float_bits(c) for c in column.chunks])
               if _has_float(column.type) and column.num_chunks else column
               for column in table.columns]
    return pa.Table.from_arrays(columns, names=table.column_names)


_duckdb = None


def read(peer, path, columns=None, verify_checksums=False):
    if peer == "pyarrow":
        import pyarrow.parquet as pq
        table = pq.read_table(path, columns=columns,
                              page_checksum_verification=verify_checksums)
        return _arrow_bits(table)
    if peer == "duckdb":
        global _duckdb
        import duckdb
        if _duckdb is None:
            _duckdb = duckdb.connect()
        select = ", ".join(f'"{c}"' for c in columns) if columns else "*"
        rows = _duckdb.execute(f"SELECT {select} FROM read_parquet(?)", [path]).fetchall()
        return [norm(row) for row in rows]
    if peer == "polars":
        import polars as pl
        frame = pl.read_parquet(path, columns=columns)
        bits = {}
        for name, dtype in frame.schema.items():
            if dtype in (pl.Float32, pl.Float64):
                bits[name] = [norm(v) for v in frame[name].to_list()]
        return frame, bits
    if peer == "fastparquet":
        import fastparquet
        frame = fastparquet.ParquetFile(path).to_pandas(columns=columns)
        # Values only: fastparquet's dtype for a text column follows the pages' encoding
        # (dictionary-encoded text comes back as 'str', plain text as 'object').
        # Nulls of a text column come back as None or NaN depending on the encoding: both null.
        out = {}
        for name in frame.columns:
            values = [norm(v) for v in frame[name].tolist()]
            if frame[name].dtype.kind != "f":
                values = [None if v == "NaN" else v for v in values]
            out[name] = values
        return out
    raise ValueError(peer)


def same(peer, a, b):
    if peer == "pyarrow":
        return a.schema.equals(b.schema) and a.equals(b)
    if peer == "polars":
        return a[0].equals(b[0], null_equal=True) and a[0].schema == b[0].schema and a[1] == b[1]
    return a == b


def diff(peer, a, b):
    """The first difference, in a few words."""
    if peer == "pyarrow":
        if not a.schema.equals(b.schema):
            return f"schema {b.schema} instead of {a.schema}".replace("\n", ", ")[:300]
        for name in a.column_names:
            if not a.column(name).equals(b.column(name)):
                x, y = a.column(name).to_pylist(), b.column(name).to_pylist()
                k = next((k for k in range(min(len(x), len(y))) if x[k] != y[k]), None)
                return (f"column {name}: row {k} is {str(y[k])[:80]} instead of {str(x[k])[:80]}"
                        if k is not None else f"column {name}: {len(y)} rows instead of {len(x)}")
        return "tables differ"
    if peer == "duckdb":
        if len(a) != len(b):
            return f"{len(b)} rows instead of {len(a)}"
        k = next(k for k in range(len(a)) if a[k] != b[k])
        col = next((j for j in range(len(a[k])) if a[k][j] != b[k][j]), None)
        return f"row {k} column #{col}: {str(b[k][col])[:80]} instead of {str(a[k][col])[:80]}"
    if peer == "polars":
        fa, fb = a[0], b[0]
        if fa.schema != fb.schema:
            return f"schema {fb.schema} instead of {fa.schema}"[:300]
        for name in fa.columns:
            x, y = fa[name].to_list(), fb[name].to_list()
            if a[1].get(name) is not None:
                x, y = a[1][name], b[1][name]
            if x != y:
                k = next((k for k in range(min(len(x), len(y))) if x[k] != y[k]), None)
                return f"column {name}: row {k} is {str(y[k])[:80]} instead of {str(x[k])[:80]}"
        return "frames differ"
    if peer == "fastparquet":
        ca, cb = a, b
        if list(ca) != list(cb):
            return f"columns {list(cb)} instead of {list(ca)}"
        for name in ca:
            x, y = ca[name], cb.get(name)
            if x != y:
                if y is None:
                    return f"column {name} missing"
                k = next((k for k in range(min(len(x), len(y))) if x[k] != y[k]), None)
                return f"column {name}: row {k} is {str(y[k])[:80]} instead of {str(x[k])[:80]}"
        return "frames differ"
    return "differ"


# ---- a worker process per peer: a peer that crashes on a file costs one result, not the run ----

def worker_main(peer, sources):
    """Reads 'SOURCE_NAME\\tPATH\\tVERIFY' lines from stdin; answers one JSON line each:
    {"verdict": "pass"|"unsupported"|"FAIL", "detail": ...}, comparing PATH's read with the
    read of the source file SOURCE_NAME (sources: {name: path})."""
    import json
    baseline, notes, copies = {}, {}, {}
    for name, path in sources.items():
        try:
            copies[name] = read(peer, path + ".pyarrow-copy.parquet")
        except Exception:  # noqa: BLE001
            copies[name] = None
        try:
            baseline[name] = (None, read(peer, path))
        except Exception as error:  # noqa: BLE001
            # The peer cannot read the source file itself: its read of pyarrow's copy of the
            # source (written next to it by the test) is the baseline instead.
            text = classify_error(error)[1]
            try:
                baseline[name] = (None, read(peer, path + ".pyarrow-copy.parquet"))
                notes[name] = f"{text}; baseline: {peer}'s read of pyarrow's copy of the source"
            except Exception as error2:  # noqa: BLE001
                baseline[name] = (f"{text}; pyarrow's copy: {classify_error(error2)[1]}", None)
                notes[name] = baseline[name][0]
    print(json.dumps({"baseline_errors": notes}), flush=True)
    for line in sys.stdin:
        name, path, verify, other = line.rstrip("\n").split("\t")
        if other:
            # Compare two files' reads with each other (a pqpage file and its control).
            try:
                a, b = read(peer, other), read(peer, path)
                result = {"verdict": "pass" if same(peer, a, b) else "FAIL",
                          "detail": "" if same(peer, a, b) else diff(peer, a, b)}
            except Exception as error:  # noqa: BLE001
                result = {"verdict": "FAIL", "detail": classify_error(error)[1]}
            print(json.dumps(result), flush=True)
            continue
        base_error, base = baseline[name]
        try:
            got = read(peer, path, verify_checksums=verify == "1")
        except Exception as error:  # noqa: BLE001
            verdict, text = classify_error(error)
            if base_error is not None:
                verdict, text = "unsupported", f"{text} (the source too: {base_error})"
            result = {"verdict": verdict, "detail": text}
        else:
            if base_error is not None:
                result = {"verdict": "FAIL", "detail": f"reads the rewrite but not the source "
                                                       f"({base_error})"}
            elif same(peer, base, got):
                result = {"verdict": "pass", "detail": ""}
            elif copies[name] is not None and same(peer, copies[name], got):
                # The rewrite reads as pyarrow's copy of the same data; the source does not:
                # the peer misreads the source file.
                result = {"verdict": "peer_bug", "detail": (
                    f"{peer} reads the source file differently from pyarrow's copy of the same "
                    f"data, and the rewrite like pyarrow's copy: {diff(peer, base, got)}")}
            else:
                result = {"verdict": "FAIL", "detail": f"values differ: {diff(peer, base, got)}"}
        print(json.dumps(result), flush=True)


class Worker:
    """The parent's handle of a worker_main process; restarted after a crash."""

    def __init__(self, peer, sources):
        import json
        from peer_worker import PeerProcess
        self.peer, self.sources, self.baseline_errors = peer, sources, {}
        self._process = PeerProcess(os.path.abspath(__file__), [peer, json.dumps(sources)],
                                    ready=self._greeted)

    def _greeted(self, greeting):
        self.baseline_errors = greeting["baseline_errors"]

    def check(self, source_name, path, verify, other=""):
        return self._process.ask([source_name, path, int(verify), other], "reading the file")

    def close(self):
        self._process.close()


if __name__ == "__main__" and len(sys.argv) > 3 and sys.argv[1] == "--worker":
    import json as _json
    worker_main(sys.argv[2], _json.loads(sys.argv[3]))
