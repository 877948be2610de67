"""The one deterministic table every peer writes, and the exact `pqpage dump` it must give.

Pure standard library: the rows are Python values (None = null), built from a seeded
random.Random, and `expected_dump(profile)` returns, for every leaf column, the object `pqpage dump`
prints (shared/DUMP_FORMAT.md): path, physical type, max_def, max_rep, def, rep and the present
values in their physical form. The levels of the list and struct columns are shredded here by hand
(Dremel rules, standard 3-level LIST layout), not by any peer.

A peer that stores a column differently (DuckDB writes every column OPTIONAL, polars and DuckDB
have no fixed-length binary, timestamps as INT64 instead of INT96, ...) is described by a
PROFILE (see PROFILES below): the expectations change exactly where the profile says so, and
nowhere else.

Columns (ROWS rows):
  b_req        BOOLEAN required
  b_opt        BOOLEAN optional, nulls
  i32_req      INT32 required, high cardinality, INT32 extremes
  i32_low      INT32 optional, low cardinality (5 values), nulls
  i64_req      INT64 required, high cardinality, INT64 extremes
  i64_nulls    INT64 optional; rows NULL_PAGE (a whole page / row group of nulls) all null
  f32          FLOAT optional: NaN, -0.0, +0.0, +/-infinity, nulls
  f64          DOUBLE required: NaN, -0.0, +/-infinity
  s_req        BYTE_ARRAY (UTF8) required: shared prefixes, empty strings, long strings
  s_low        BYTE_ARRAY (UTF8) optional, low cardinality (incl. ""), nulls
  bin          BYTE_ARRAY (binary) optional, arbitrary (non-UTF-8) bytes, empty, nulls
  flba         FIXED_LEN_BYTE_ARRAY(16) optional, nulls
  ts           timestamp (microseconds), optional: INT96 where the peer writes it, else INT64
  lst          optional list<optional int32>: null list, empty list, null elements
  st           optional struct<a: optional int32, b: optional list<optional string>>
"""

import random
import struct

ROWS = 1200
ROW_GROUP_ROWS = 400          # row groups where a peer allows: 3 of them
ROWS_PER_PAGE = 100           # pages where a peer allows (pyarrow max_rows_per_page)
NULL_PAGE = range(400, 600)   # i64_nulls is null here: pages 5..6 (and half of row group 2)
LONG = 3000                   # length of the long strings
FLBA_WIDTH = 16
INT32_MIN, INT32_MAX = -2**31, 2**31 - 1
INT64_MIN, INT64_MAX = -2**63, 2**63 - 1

FLAT = ["b_req", "b_opt", "i32_req", "i32_low", "i64_req", "i64_nulls", "f32", "f64", "s_req",
        "s_low", "bin", "flba", "ts"]
NESTED = ["lst", "st"]
COLUMNS = FLAT + NESTED
REQUIRED = {"b_req", "i32_req", "i64_req", "f64", "s_req"}
PHYSICAL = {"b_req": "BOOLEAN", "b_opt": "BOOLEAN", "i32_req": "INT32", "i32_low": "INT32",
            "i64_req": "INT64", "i64_nulls": "INT64", "f32": "FLOAT", "f64": "DOUBLE",
            "s_req": "BYTE_ARRAY", "s_low": "BYTE_ARRAY", "bin": "BYTE_ARRAY",
            "flba": "FIXED_LEN_BYTE_ARRAY", "ts": "INT96"}

FLOAT_SPECIALS = [float("nan"), -0.0, 0.0, float("inf"), float("-inf")]
TS_BASE_MICROS = -86_400_000_000 * 400  # 1968-11-27: negative and positive timestamps


def _rows():
    rng = random.Random(20261123)
    t = {name: [] for name in COLUMNS}
    for i in range(ROWS):
        t["b_req"].append(i % 3 == 0)
        t["b_opt"].append(None if i % 7 == 0 else (i % 2 == 0 or i % 5 == 0))
        extremes32 = [INT32_MIN, INT32_MAX, 0, -1, 1, INT32_MIN + 1, INT32_MAX - 1]
        if i < len(extremes32):
            t["i32_req"].append(extremes32[i])
        elif i % 97 == 0:
            t["i32_req"].append(INT32_MIN if i % 2 else INT32_MAX)
        else:
            t["i32_req"].append(rng.randint(INT32_MIN, INT32_MAX))
        t["i32_low"].append(None if i % 5 == 0 else [-7, 0, 3, 1000, -2][i % 5 - 1 + (i // 5) % 2])
        extremes64 = [INT64_MIN, INT64_MAX, 0, -1, 1, INT64_MIN + 1, INT64_MAX - 1]
        if i < len(extremes64):
            t["i64_req"].append(extremes64[i])
        elif i % 89 == 0:
            t["i64_req"].append(INT64_MIN if i % 2 else INT64_MAX)
        else:
            t["i64_req"].append(rng.randint(INT64_MIN, INT64_MAX))
        t["i64_nulls"].append(None if i in NULL_PAGE or i % 11 == 0 else i * 1_000_003 - 2**40)
        if i % 13 == 0:
            t["f32"].append(None)
        elif i % 50 < len(FLOAT_SPECIALS):
            t["f32"].append(FLOAT_SPECIALS[i % 50])
        else:
            t["f32"].append(rng.randint(-2**20, 2**20) / 8.0)  # exact in a float32
        if i % 40 < len(FLOAT_SPECIALS):
            t["f64"].append(FLOAT_SPECIALS[i % 40])
        else:
            t["f64"].append(rng.uniform(-1e9, 1e9))
        if i % 30 == 0:
            s = ""
        elif i % 199 == 0:
            s = "long/" + "".join(chr(97 + (i + k) % 26) for k in range(LONG))
        else:
            s = f"prefix/common/path/{i % 17:02d}/item-{i:05d}" + ("é" if i % 9 == 0 else "")
        t["s_req"].append(s)
        t["s_low"].append(None if i % 6 == 0 else ["red", "green", "blue", "", "red/dark"][i % 5])
        if i % 8 == 0:
            t["bin"].append(None)
        else:
            t["bin"].append(bytes(rng.randrange(256) for _ in range(rng.randrange(0, 12)))
                            + (b"\xff\x00" if i % 3 == 0 else b""))
        t["flba"].append(None if i % 9 == 4 else
                         (i * 7919).to_bytes(8, "big") + struct.pack(">q", -i))
        t["ts"].append(None if i % 10 == 3 else TS_BASE_MICROS + i * 3_600_123_457)
        k = i % 6
        t["lst"].append([None, [], [None], [i, i + 1], [i, None, -i], [INT32_MIN, INT32_MAX]][k])
        if i % 8 == 0:
            t["st"].append(None)
        else:
            b = [None, [], ["x%d" % (i % 10), None, ""], ["y" * (i % 4)]][i % 4]
            t["st"].append({"a": None if i % 3 == 0 else i - 600, "b": b})
    return t


TABLE = _rows()


# ---- physical forms ----

def float_token(value, physical):
    """A float as the dump prints it, reduced to something compared by bits: 'NaN' or the hex of
    its IEEE bytes (so -0.0 and 0.0 differ). Accepts the dump's strings too."""
    if isinstance(value, str):
        if value == "NaN":
            return "NaN"
        value = {"Infinity": float("inf"), "-Infinity": float("-inf")}[value]
    if value != value:
        return "NaN"
    return struct.pack("<f" if physical == "FLOAT" else "<d", value).hex()


def int96_hex(micros):
    """An INT96 timestamp: nanoseconds of the day (LE u64) then the Julian day (LE u32)."""
    day, micros_of_day = divmod(micros, 86_400_000_000)
    return (struct.pack("<q", micros_of_day * 1000) + struct.pack("<i", 2440588 + day)).hex()


def physical_value(value, physical, column, profile):
    if physical == "BOOLEAN":
        return bool(value)
    if physical in ("INT32", "INT64"):
        if column == "ts":
            return value * profile.get("ts_scale", 1)
        return int(value)
    if physical in ("FLOAT", "DOUBLE"):
        return float_token(value, physical)
    if physical == "INT96":
        return int96_hex(value)
    if isinstance(value, str):
        value = value.encode("utf-8")
    return value.hex()


# ---- profiles: how each peer stores the table ----

BASE_PROFILE = {
    "columns": COLUMNS,          # the columns the peer writes (reduced tables drop some)
    "required": REQUIRED,        # the columns it writes REQUIRED
    "types": {},                 # physical type overrides
    "ts_scale": 1,               # INT64 timestamps: 1 = micros, 1000 = nanos
    "list_names": ("list", "element"),   # the repeated group's and the element's names
}


def profile(**changes):
    p = dict(BASE_PROFILE)
    p.update(changes)
    return p


PROFILES = {
    # pyarrow: everything as declared; INT96 with use_deprecated_int96_timestamps.
    "pyarrow": profile(),
    "pyarrow_int64_ts": profile(types={"ts": "INT64"}),
    # DuckDB: every column OPTIONAL, FIXED_SIZE_BINARY becomes BLOB (BYTE_ARRAY), TIMESTAMP INT64.
    "duckdb": profile(required=set(), types={"flba": "BYTE_ARRAY", "ts": "INT64"}),
    # DuckDB's PARQUET_VERSION V2 writes DELTA_BINARY_PACKED for integers, computing INT32 deltas
    # in 64 bits: where INT32_MIN meets INT32_MAX (i32_req, lst) its miniblocks are 33 bits wide,
    # which PARQUET-2435 tells readers to accept. Stored like V1 otherwise.
    "duckdb_v2": profile(required=set(), types={"flba": "BYTE_ARRAY", "ts": "INT64"}),
    # polars: no fixed-size binary (Binary, BYTE_ARRAY); datetime[us] INT64; lists' element is "item".
    "polars": profile(required=set(), types={"flba": "BYTE_ARRAY", "ts": "INT64"}),
    # fastparquet: no nested columns written from pandas (lst, st dropped); FLBA via fixed_text;
    # INT96 with times='int96'.
    "fastparquet": profile(columns=FLAT),
}


def _flat_expectation(name, p, t):
    physical = p["types"].get(name, PHYSICAL[name])
    values = t[name]
    required = name in p["required"]
    out = {"path": name, "type": physical, "max_def": 0 if required else 1, "max_rep": 0}
    if not required:
        out["def"] = [0 if v is None else 1 for v in values]
    out["values"] = [physical_value(v, physical, name, p) for v in values if v is not None]
    return out


def _lst_expectation(p, t):
    # lst (optional) / list (repeated) / element (optional): max_def 3, max_rep 1.
    defs, reps, values = [], [], []
    for row in t["lst"]:
        if row is None:
            defs.append(0); reps.append(0)
        elif not row:
            defs.append(1); reps.append(0)
        else:
            for k, v in enumerate(row):
                reps.append(0 if k == 0 else 1)
                defs.append(2 if v is None else 3)
                if v is not None:
                    values.append(v)
    group, element = p["list_names"]
    return {"path": f"lst.{group}.{element}", "type": "INT32", "max_def": 3, "max_rep": 1,
            "def": defs, "rep": reps, "values": values}


def _st_expectations(p, t):
    # st (optional) / a (optional): max_def 2.
    a_defs, a_values = [], []
    # st (optional) / b (optional) / list (repeated) / element (optional): max_def 4, max_rep 1.
    b_defs, b_reps, b_values = [], [], []
    for row in t["st"]:
        if row is None:
            a_defs.append(0)
            b_defs.append(0); b_reps.append(0)
            continue
        if row["a"] is None:
            a_defs.append(1)
        else:
            a_defs.append(2); a_values.append(row["a"])
        b = row["b"]
        if b is None:
            b_defs.append(1); b_reps.append(0)
        elif not b:
            b_defs.append(2); b_reps.append(0)
        else:
            for k, v in enumerate(b):
                b_reps.append(0 if k == 0 else 1)
                b_defs.append(3 if v is None else 4)
                if v is not None:
                    b_values.append(v.encode("utf-8").hex())
    group, element = p["list_names"]
    return [{"path": "st.a", "type": "INT32", "max_def": 2, "max_rep": 0, "def": a_defs,
             "values": a_values},
            {"path": f"st.b.{group}.{element}", "type": "BYTE_ARRAY", "max_def": 4, "max_rep": 1,
             "def": b_defs, "rep": b_reps, "values": b_values}]


def table(rows=None):
    """The table's columns, or their first `rows` rows."""
    return {name: values[:rows] for name, values in TABLE.items()}


def expected_dump(p, rows=None):
    """The list of `pqpage dump` objects (schema order) for a file written under profile p (of the
    first `rows` rows when given), with float values as float_token()s."""
    t = table(rows)
    out = []
    for name in p["columns"]:
        if name == "lst":
            out.append(_lst_expectation(p, t))
        elif name == "st":
            out.extend(_st_expectations(p, t))
        else:
            out.append(_flat_expectation(name, p, t))
    return out


def normalise_dump(column):
    """A dumped column with its float values made float_token()s, ready to compare."""
    if column["type"] in ("FLOAT", "DOUBLE"):
        column = dict(column)
        column["values"] = [float_token(v, column["type"]) for v in column["values"]]
    return column


def compare_dump(expected, dumped):
    """Differences between expected and dumped columns (lists of dicts), as short messages."""
    problems = []
    if [c["path"] for c in expected] != [c["path"] for c in dumped]:
        return [f"columns differ: expected {[c['path'] for c in expected]}, "
                f"dumped {[c['path'] for c in dumped]}"]
    for want, got in zip(expected, dumped):
        got = normalise_dump(got)
        for key in ("type", "max_def", "max_rep", "def", "rep", "values"):
            a, b = want.get(key), got.get(key)
            if a == b:
                continue
            if isinstance(a, list) and isinstance(b, list):
                if len(a) != len(b):
                    problems.append(f"{want['path']}: {key} has {len(b)} entries, expected "
                                    f"{len(a)}")
                else:
                    k = next(k for k in range(len(a)) if a[k] != b[k])
                    problems.append(f"{want['path']}: {key}[{k}] is {str(b[k])[:60]!r}, "
                                    f"expected {str(a[k])[:60]!r}")
            else:
                problems.append(f"{want['path']}: {key} is {str(b)[:60]!r}, expected "
                                f"{str(a)[:60]!r}")
    return problems
