"""The columns of the logical type matrix: every (physical type, logical or converted type) a
Parquet writer produces, each as a flat optional column, as the element of a list and as the value
of a map, in one small source file apiece.

Each source is written by pyarrow with the bare physical type (values chosen in the annotation's
range: days for DATE, times within a day, decimals within their precision, valid JSON and BSON,
...) and then annotated by rewriting its footer (thrift_footer.annotate), which gives the exact
annotations Impala, parquet-mr, HVR, DuckDB or pyarrow put there, converted types alone included.
The rows: physical type, the logical type in `pqpage inspect`'s words (or "converted:NAME" for a
converted type without a logical type), and how to write and annotate it.
"""

import os
import random
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import thrift_footer as F  # noqa: E402

ROWS = 300
NESTINGS = ["flat", "list", "map"]
# The leaf of the matrix's column in each nesting (the map's key is a STRING).
LEAF_PATH = {"flat": "v", "list": "v.list.element", "map": "v.key_value.value"}
LEAF_NAME = {"flat": "v", "list": "element", "map": "value"}


def _decimal_bytes(value, width=None):
    """Big-endian two's complement: minimal (BYTE_ARRAY) or `width` bytes (FIXED_LEN)."""
    if width is None:
        width = max(1, (value.bit_length() + 8) // 8)
    return value.to_bytes(width, "big", signed=True)


def _bson(value):
    body = b"\x10a\x00" + struct.pack("<i", value) + b"\x00"
    return struct.pack("<i", len(body) + 4) + body


def _values(kind, rng):
    """ROWS Python values (None = null) for one of the generators below."""
    out = []
    for i in range(ROWS):
        if i % 11 == 5:
            out.append(None)
            continue
        small = rng.randrange(8)  # repeats, so the dictionary and the deltas have something
        out.append({
            "bool": (i // 60) % 2 == 0,
            "int32": rng.choice([small, rng.randint(-2**31, 2**31 - 1)]),
            "int64": rng.choice([small, rng.randint(-2**63, 2**63 - 1)]),
            "int8": rng.randint(-128, 127),
            "int16": rng.randint(-2**15, 2**15 - 1),
            "uint8": rng.randint(0, 255),
            "uint16": rng.randint(0, 2**16 - 1),
            "uint32": rng.randint(-2**31, 2**31 - 1),  # stored as INT32 bits
            "uint64": rng.randint(-2**63, 2**63 - 1),
            "date": rng.randint(-30000, 30000),
            "time_ms": rng.randint(0, 86_399_999),
            "time_us": rng.randint(0, 86_399_999_999),
            "time_ns": rng.randint(0, 86_399_999_999_999),
            "ts_ms": 1_600_000_000_000 + i * 1_000_003 * small,
            "ts_us": 1_600_000_000_000_000 + i * 1_000_000_007 * (small - 3),
            "ts_ns": 1_600_000_000_000_000_000 + i * 3_600_000_000_017 * (small - 3),
            "dec9": rng.randint(-999_999_999, 999_999_999) if small else 12345,
            "dec18": rng.randint(-10**18 + 1, 10**18 - 1) if small else 1234567,
            "float": rng.randint(-2**20, 2**20) / 8.0,
            "double": rng.uniform(-1e9, 1e9),
            "text": f"item/{small}/{i % 13}" + ("é" if i % 9 == 0 else ""),
            "enum": ["RED", "GREEN", "BLUE"][small % 3],
            "json": f'{{"k": {small}, "i": {i}}}',
            "bson": _bson(small * 1000 + i),
            "bytes": bytes(rng.randrange(256) for _ in range(rng.randrange(0, 9))),
            "dec_bytes": _decimal_bytes(rng.randint(-10**20 + 1, 10**20 - 1) if small else -i),
            "dec_fixed": _decimal_bytes(rng.randint(-10**20 + 1, 10**20 - 1) if small else i, 9),
            "fixed16": bytes(rng.randrange(256) for _ in range(16)),
            "uuid": bytes(rng.randrange(256) for _ in range(16)),
            # Half floats with exact values (no NaN, so every reader compares them alike).
            "float16": struct.pack("<e", rng.randint(-2048, 2048) / 16.0),
            "interval": struct.pack("<III", small, i % 31, i * 1000),
            "int96": 1_600_000_000_000_000 + i * 86_400_000_123 * (small - 3),
        }[kind])
    return out


# (physical, logical, value generator, annotate() keyword arguments). "logical" is what the matrix
# and the library call the column's type: the logical type in pqpage inspect's words, or
# "converted:NAME" where the file has only the converted type.
CASES = [
    ("BOOLEAN", "", "bool", {}),
    ("INT32", "", "int32", {}),
    ("INT32", "INTEGER(8,signed)", "int8", {"logical": "INTEGER(8,signed)", "converted": "INT_8"}),
    ("INT32", "INTEGER(16,signed)", "int16",
     {"logical": "INTEGER(16,signed)", "converted": "INT_16"}),
    ("INT32", "INTEGER(8,unsigned)", "uint8",
     {"logical": "INTEGER(8,unsigned)", "converted": "UINT_8"}),
    ("INT32", "INTEGER(16,unsigned)", "uint16",
     {"logical": "INTEGER(16,unsigned)", "converted": "UINT_16"}),
    ("INT32", "INTEGER(32,unsigned)", "uint32",
     {"logical": "INTEGER(32,unsigned)", "converted": "UINT_32"}),
    ("INT32", "DATE", "date", {"logical": "DATE", "converted": "DATE"}),
    ("INT32", "TIME(MILLIS,UTC)", "time_ms",
     {"logical": "TIME(MILLIS,UTC)", "converted": "TIME_MILLIS"}),
    ("INT32", "TIME(MILLIS,local)", "time_ms", {"logical": "TIME(MILLIS,local)"}),
    ("INT32", "DECIMAL(9,2)", "dec9",
     {"logical": "DECIMAL(9,2)", "converted": "DECIMAL", "precision": 9, "scale": 2}),
    ("INT32", "converted:DECIMAL", "dec9", {"converted": "DECIMAL", "precision": 9, "scale": 2}),
    ("INT64", "", "int64", {}),
    ("INT64", "INTEGER(64,unsigned)", "uint64",
     {"logical": "INTEGER(64,unsigned)", "converted": "UINT_64"}),
    ("INT64", "TIME(MICROS,UTC)", "time_us",
     {"logical": "TIME(MICROS,UTC)", "converted": "TIME_MICROS"}),
    ("INT64", "TIME(MICROS,local)", "time_us", {"logical": "TIME(MICROS,local)"}),
    ("INT64", "TIME(NANOS,UTC)", "time_ns", {"logical": "TIME(NANOS,UTC)"}),
    ("INT64", "TIME(NANOS,local)", "time_ns", {"logical": "TIME(NANOS,local)"}),
    ("INT64", "TIMESTAMP(MILLIS,UTC)", "ts_ms",
     {"logical": "TIMESTAMP(MILLIS,UTC)", "converted": "TIMESTAMP_MILLIS"}),
    ("INT64", "TIMESTAMP(MILLIS,local)", "ts_ms", {"logical": "TIMESTAMP(MILLIS,local)"}),
    ("INT64", "TIMESTAMP(MICROS,UTC)", "ts_us",
     {"logical": "TIMESTAMP(MICROS,UTC)", "converted": "TIMESTAMP_MICROS"}),
    ("INT64", "TIMESTAMP(MICROS,local)", "ts_us", {"logical": "TIMESTAMP(MICROS,local)"}),
    ("INT64", "TIMESTAMP(NANOS,UTC)", "ts_ns", {"logical": "TIMESTAMP(NANOS,UTC)"}),
    ("INT64", "TIMESTAMP(NANOS,local)", "ts_ns", {"logical": "TIMESTAMP(NANOS,local)"}),
    ("INT64", "converted:TIMESTAMP_MICROS", "ts_us", {"converted": "TIMESTAMP_MICROS"}),
    ("INT64", "DECIMAL(18,3)", "dec18",
     {"logical": "DECIMAL(18,3)", "converted": "DECIMAL", "precision": 18, "scale": 3}),
    ("INT64", "converted:DECIMAL", "dec18",
     {"converted": "DECIMAL", "precision": 18, "scale": 3}),
    ("INT96", "", "int96", {}),
    ("FLOAT", "", "float", {}),
    ("DOUBLE", "", "double", {}),
    ("BYTE_ARRAY", "", "bytes", {}),
    ("BYTE_ARRAY", "STRING", "text", {"logical": "STRING", "converted": "UTF8"}),
    ("BYTE_ARRAY", "converted:UTF8", "text", {"converted": "UTF8"}),
    ("BYTE_ARRAY", "ENUM", "enum", {"logical": "ENUM", "converted": "ENUM"}),
    ("BYTE_ARRAY", "JSON", "json", {"logical": "JSON", "converted": "JSON"}),
    ("BYTE_ARRAY", "BSON", "bson", {"logical": "BSON", "converted": "BSON"}),
    ("BYTE_ARRAY", "DECIMAL(20,4)", "dec_bytes",
     {"logical": "DECIMAL(20,4)", "converted": "DECIMAL", "precision": 20, "scale": 4}),
    ("BYTE_ARRAY", "converted:DECIMAL", "dec_bytes",
     {"converted": "DECIMAL", "precision": 20, "scale": 4}),
    ("FIXED_LEN_BYTE_ARRAY", "", "fixed16", {}),
    ("FIXED_LEN_BYTE_ARRAY", "DECIMAL(20,4)", "dec_fixed",
     {"logical": "DECIMAL(20,4)", "converted": "DECIMAL", "precision": 20, "scale": 4}),
    ("FIXED_LEN_BYTE_ARRAY", "converted:DECIMAL", "dec_fixed",
     {"converted": "DECIMAL", "precision": 20, "scale": 4}),
    ("FIXED_LEN_BYTE_ARRAY", "UUID", "uuid", {"logical": "UUID"}),
    ("FIXED_LEN_BYTE_ARRAY", "FLOAT16", "float16", {"logical": "FLOAT16"}),
    ("FIXED_LEN_BYTE_ARRAY", "converted:INTERVAL", "interval", {"converted": "INTERVAL"}),
]

# The encodings pqpage writes for each physical type, as `recode --column-encoding PATH=POLICY`
# asks for them (RLE for booleans: auto over --auto-encodings all, the values having runs).
POLICY_OF = {"PLAIN": "plain", "RLE_DICTIONARY": "dictionary",
             "DELTA_BINARY_PACKED": "delta", "DELTA_LENGTH_BYTE_ARRAY": "delta_length_byte_array",
             "DELTA_BYTE_ARRAY": "delta", "BYTE_STREAM_SPLIT": "byte_stream_split",
             "RLE": "auto"}
ENCODINGS = {
    "BOOLEAN": ["PLAIN", "RLE"],
    "INT32": ["PLAIN", "RLE_DICTIONARY", "DELTA_BINARY_PACKED", "BYTE_STREAM_SPLIT"],
    "INT64": ["PLAIN", "RLE_DICTIONARY", "DELTA_BINARY_PACKED", "BYTE_STREAM_SPLIT"],
    "INT96": ["PLAIN", "RLE_DICTIONARY"],
    "FLOAT": ["PLAIN", "RLE_DICTIONARY", "BYTE_STREAM_SPLIT"],
    "DOUBLE": ["PLAIN", "RLE_DICTIONARY", "BYTE_STREAM_SPLIT"],
    "BYTE_ARRAY": ["PLAIN", "RLE_DICTIONARY", "DELTA_LENGTH_BYTE_ARRAY", "DELTA_BYTE_ARRAY"],
    "FIXED_LEN_BYTE_ARRAY": ["PLAIN", "RLE_DICTIONARY", "DELTA_BYTE_ARRAY", "BYTE_STREAM_SPLIT"],
}


def case_name(physical, logical):
    text = f"{physical}-{logical or 'none'}"
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in text)


def _arrow_type(physical, kind):
    import pyarrow as pa
    if physical == "FIXED_LEN_BYTE_ARRAY":
        return pa.binary({"dec_fixed": 9, "float16": 2, "interval": 12}.get(kind, 16))
    return {"BOOLEAN": pa.bool_(), "INT32": pa.int32(), "INT64": pa.int64(),
            "INT96": pa.timestamp("us"), "FLOAT": pa.float32(), "DOUBLE": pa.float64(),
            "BYTE_ARRAY": pa.binary()}[physical]


def _nest(values, nesting, rng):
    """The column's rows: the values as they are, cut into lists, or as the values of maps."""
    if nesting == "flat":
        return values
    rows, k = [], 0
    while k < len(values):
        size = rng.choice([0, 1, 2, 3, 5])
        part = values[k:k + size]
        k += size
        if rng.randrange(10) == 0:
            rows.append(None)
        elif nesting == "list":
            rows.append(part)
        else:
            rows.append([(f"k{j}", v) for j, v in enumerate(part)])
    return rows


def _column(physical, logical, kind, nesting):
    import pyarrow as pa
    rng = random.Random(f"{physical}/{logical}/{nesting}")
    values = _values(kind, rng)
    leaf = _arrow_type(physical, kind)
    column_type = {"flat": leaf, "list": pa.list_(leaf),
                   "map": pa.map_(pa.string(), leaf)}[nesting]
    # The lists' shape depends on the nesting only, so every case has as many rows.
    return pa.array(_nest(values, nesting, random.Random(nesting)), type=column_type)


def _write(path, columns, physicals):
    import pyarrow as pa
    import pyarrow.parquet as pq
    pq.write_table(pa.table(columns), path, store_schema=False, use_dictionary=False,
                   use_deprecated_int96_timestamps="INT96" in physicals, data_page_version="1.0")


def _leaf_index(k, nesting):
    """The depth-first leaf index of column k's matrix leaf (a map's key is a leaf too)."""
    return 2 * k + 1 if nesting == "map" else k


def write_source(path, physical, logical, kind, annotation, nesting):
    """One source file: column `v` of the case in `nesting`, annotated."""
    _write(path, {"v": _column(physical, logical, kind, nesting)}, {physical})
    if annotation:
        F.annotate(path, {_leaf_index(0, nesting): annotation})


def write_sources(folder, nestings=NESTINGS):
    """[(physical, logical, nesting, path)] of every case's source file, written into folder."""
    os.makedirs(folder, exist_ok=True)
    out = []
    for physical, logical, kind, annotation in CASES:
        for nesting in nestings:
            path = os.path.join(folder, f"{case_name(physical, logical)}-{nesting}.parquet")
            write_source(path, physical, logical, kind, annotation, nesting)
            out.append((physical, logical, nesting, path))
    return out


def combined_column(k):
    return f"c{k:02d}"


def write_combined(path, nesting, skip=()):
    """Every case but the indices in `skip` in one file, case k as column combined_column(k) (for
    `pqpage advise`, which then says what the library thinks of every case in one run)."""
    kept = [(k, case) for k, case in enumerate(CASES) if k not in skip]
    columns = {combined_column(k): _column(physical, logical, kind, nesting)
               for k, (physical, logical, kind, _) in kept}
    _write(path, columns, {case[0] for _, case in kept})
    F.annotate(path, {_leaf_index(n, nesting): case[3]
                      for n, (_, case) in enumerate(kept) if case[3]})
