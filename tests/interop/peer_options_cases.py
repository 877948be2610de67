"""The cases of peer_options_test.py: for each peer, the writer options real users set, each with
a small deterministic table and a check that the option really had its effect on the file.

A case is a dict: peer, name, write(path) (the peer writes the file), effect(info, meta) ->
(problem or None, what the file holds), reduced (part of the sanitizer subset). `info` is
`pqpage inspect --json` of the file, `meta` pyarrow's FileMetaData of it (page index, bloom
filters and sorting columns are footer facts inspect does not show).

Data: peer_table.TABLE (nulls, NaN, -0.0, infinities, integer extremes, empty and 3000-byte
strings, lists, structs) plus, per peer, the types that peer offers (float16, decimals, maps,
HUGEINT, UUID, INTERVAL, ENUM, categoricals, JSON ...), every value derived from the row number.
"""

import decimal
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peer_table as T  # noqa: E402
import peer_writers as W  # noqa: E402

ROWS_TYPES = 600


# ---- what a file holds, from inspect ----

def chunks(info):
    return [c for rg in info["row_groups"] for c in rg["columns"]]


def data_pages(chunk):
    return [p for p in chunk["pages"] if p["type"] in ("DATA_PAGE", "DATA_PAGE_V2")]


def encodings_of(info, path):
    return {p["encoding"] for c in chunks(info) if c["path"] == path for p in data_pages(c)}


def dictionary_columns(info):
    return {c["path"] for c in chunks(info)
            if any(p["type"] == "DICTIONARY_PAGE" for p in c["pages"])}


def codecs(info):
    return {c["codec"] for c in chunks(info)}


def max_pages(info):
    return max((len(data_pages(c)) for c in chunks(info)), default=0)


def physical(info, path):
    return next(c["type"] for c in info["columns"] if c["path"] == path)


def expect(condition, holds, problem):
    return (None if condition else problem), holds


# ---- DELTA_BINARY_PACKED miniblock widths, read from the page bytes ----

def _varint(data, pos):
    value = shift = 0
    while True:
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, pos


def dbp_widths(path, info, column_path):
    """The bit widths of the DELTA_BINARY_PACKED miniblocks that hold values, in every
    uncompressed page of the column (v1 pages: the levels' 4-byte lengths skipped)."""
    column = next(c for c in info["columns"] if c["path"] == column_path)
    with open(path, "rb") as f:
        data = f.read()
    widths = set()
    for chunk in chunks(info):
        if chunk["path"] != column_path:
            continue
        for page in data_pages(chunk):
            if page["encoding"] != "DELTA_BINARY_PACKED" or page["is_compressed"]:
                continue
            pos = page["offset"] + page["header_size"]
            if page["type"] == "DATA_PAGE_V2":
                pos += page["repetition_levels_byte_length"] + page["definition_levels_byte_length"]
            else:
                for maximum in (column["max_rep"], column["max_def"]):
                    if maximum:
                        pos += 4 + struct.unpack_from("<I", data, pos)[0]
            block, pos = _varint(data, pos)
            miniblocks, pos = _varint(data, pos)
            left, pos = _varint(data, pos)
            _, pos = _varint(data, pos)   # first value
            left -= 1
            per_miniblock = block // miniblocks
            while left > 0:
                _, pos = _varint(data, pos)   # min delta
                bit_widths = data[pos:pos + miniblocks]
                pos += miniblocks
                for width in bit_widths:
                    if left <= 0:
                        break
                    widths.add(width)
                    pos += width * per_miniblock // 8
                    left -= per_miniblock
    return widths


# ---- pyarrow ----

def _decimals(rows, precision, scale, step):
    top = 10 ** precision - 1
    out = []
    for i in range(rows):
        if i % 11 == 5:
            out.append(None)
            continue
        unscaled = [top, -top, 0, -1, 1][i] if i < 5 else ((i * step) % (2 * top)) - top
        out.append(decimal.Decimal(f"{unscaled}E-{scale}"))  # exact: no 28-digit context
    return out


def types_table(rows=ROWS_TYPES):
    """The Arrow types beyond peer_table's: float16, large_string, dictionary, duration,
    decimal128/256, map, list of lists, all-null columns, date, time, tz timestamp, UUID, and
    floats nested in a list and a struct."""
    import numpy as np
    import pyarrow as pa
    f16 = [float("nan"), -0.0, 0.0, float("inf"), float("-inf"), 65504.0, -65504.0, 6e-08]
    f16_values = np.array([f16[i % 8] if i % 20 < 8 else (i - 300) / 16 for i in range(rows)],
                          dtype=np.float16)
    strings = T.TABLE["s_req"][:rows]
    uuids = pa.array([None if i % 13 == 2 else struct.pack(">QQ", i * 0x9E3779B97F4A7C15 % 2**64, i)
                      for i in range(rows)], pa.binary(16))
    columns = {
        "f16": pa.array(f16_values, pa.float16(), mask=np.array([i % 17 == 9 for i in range(rows)])),
        "ls": pa.array([None if i % 7 == 3 else s for i, s in enumerate(strings)], pa.large_string()),
        "dict": pa.array(T.TABLE["s_low"][:rows], pa.string()).dictionary_encode(),
        "dur": pa.array([None if i % 9 == 1 else
                         [T.INT64_MAX, T.INT64_MIN, 0][i] if i < 3 else i * 123_456_789 - 2**40
                         for i in range(rows)], pa.duration("us")),
        "dec9": pa.array(_decimals(rows, 9, 2, 7919), pa.decimal128(9, 2)),
        "dec18": pa.array(_decimals(rows, 18, 4, 1_000_000_007 * 97), pa.decimal128(18, 4)),
        "dec38": pa.array(_decimals(rows, 38, 10, 10**30 + 7), pa.decimal128(38, 10)),
        "dec76": pa.array(_decimals(rows, 76, 20, 10**70 + 3), pa.decimal256(76, 20)),
        "mp": pa.array([[None, [], [("a", 1)], [(f"k{i}", i), ("z", None)]][i % 4]
                        for i in range(rows)], pa.map_(pa.string(), pa.int64())),
        "ll": pa.array([[None, [], [None], [[]], [[i, -i], [None, 3]],
                         [[T.INT32_MIN], [T.INT32_MAX, i]]][i % 6] for i in range(rows)],
                       pa.list_(pa.list_(pa.int32()))),
        "nulls": pa.nulls(rows),
        "nulls_i64": pa.array([None] * rows, pa.int64()),
        "d32": pa.array([None if i % 10 == 0 else (i - 300) * 977 for i in range(rows)], pa.date32()),
        "t64": pa.array([None if i % 10 == 1 else i * 86_399_999_999 // rows for i in range(rows)],
                        pa.time64("us")),
        "tsz": pa.array([None if i % 10 == 2 else (i - 300) * 3_600_123 for i in range(rows)],
                        pa.timestamp("ms", tz="UTC")),
        "uuid": pa.ExtensionArray.from_storage(pa.uuid(), uuids),
        "fsb5": pa.array([None if i % 5 == 0 else bytes([i % 256, 0, 255, i // 256, 7])
                          for i in range(rows)], pa.binary(5)),
        # Floats inside lists and structs: NaN, -0.0 and infinities must survive bit for bit there
        # too (the read-back comparison views nested floats as integers).
        "lf": pa.array([[None, [], [float("nan"), -0.0, None], [0.0, float("inf")],
                         [float("-inf"), (i - 300) / 8]][i % 5] for i in range(rows)],
                       pa.list_(pa.float64())),
        "sf": pa.array([None if i % 11 == 4 else
                        {"x": [float("nan"), -0.0, 0.0, None][i % 4] if i % 3 else i / 4, "n": i}
                        for i in range(rows)], pa.struct([("x", pa.float32()), ("n", pa.int32())])),
    }
    return pa.table(columns)


def base_table():
    return W.arrow_table()


def dictionary_typed_table(rows=ROWS_TYPES):
    """Dictionary-typed (pd.Categorical-like) columns whose values share long prefixes: measured
    alone, DELTA_BYTE_ARRAY would store them smallest, which Arrow cannot read into a dictionary;
    the recode must keep them dictionary or PLAIN. One nested in a list, one plain string beside."""
    import pyarrow as pa
    urls = [None if i % 11 == 5 else f"https://shop.example.com/catalog/item/{i * 7919 % 100000:06d}"
            for i in range(rows)]
    return pa.table({
        "url_dict": pa.array(urls).dictionary_encode(),
        "tags": pa.array([None if i % 9 == 0 else [urls[i] or "x", f"tag-{i % 300:05d}-suffix"]
                          for i in range(rows)],
                         pa.list_(pa.dictionary(pa.int32(), pa.string()))),
        "url": pa.array(urls),
    })


def _effect_dictionary_typed(info, meta):
    return expect({"url_dict", "tags.list.element"} <= dictionary_columns(info),
                  "dictionary-typed columns dictionary-encoded", "a dictionary type without pages")


def _pyarrow(name, table, effect, reduced=False, **options):
    def write(path):
        import pyarrow.parquet as pq
        pq.write_table(table(), path, **options)
    return {"peer": "pyarrow", "name": name, "write": write, "effect": effect,
            "reduced": reduced, "options": options}


def _effect_page_index(info, meta):
    rgs = [meta.row_group(i) for i in range(meta.num_row_groups)]
    ok = all(rg.column(j).has_column_index and rg.column(j).has_offset_index
             for rg in rgs for j in range(rg.num_columns))
    return expect(ok, "column and offset index on every chunk", "no page index in the footer")


def _effect_checksum(info, meta):
    pages = [p for c in chunks(info) for p in c["pages"]]
    ok = all(p["crc_present"] and p["crc_valid"] for p in pages)
    return expect(ok, f"CRC present and valid in all {len(pages)} pages", "a page lacks a valid CRC")


def _effect_cdc(info, meta):
    counts = [[p["num_values"] for p in data_pages(c)] for c in chunks(info)]
    varied = [c for c in counts if len(c) >= 3 and len(set(c[:-1])) > 1]
    return expect(varied, f"content-defined pages: {len(varied)} chunks with >=3 pages of "
                  f"varying sizes", "no chunk was split into content-defined pages")


def _effect_bloom(paths):
    def effect(info, meta):
        rg = meta.row_group(0)
        have = {rg.column(j).path_in_schema for j in range(rg.num_columns)
                if rg.column(j).bloom_filter_offset is not None}
        return expect(set(paths) <= have, f"bloom filters on {sorted(have)}",
                      f"bloom filters only on {sorted(have)}, asked for {paths}")
    return effect


def _effect_rows_per_page(limit):
    def effect(info, meta):
        rows = [p.get("num_rows") for c in chunks(info) for p in data_pages(c)]
        ok = all(r is not None and r <= limit for r in rows) and max_pages(info) >= 12
        return expect(ok, f"{len(rows)} data pages, at most {max(rows)} rows each",
                      f"pages of up to {max(r or 0 for r in rows)} rows")
    return effect


def _effect_many_pages(minimum):
    def effect(info, meta):
        n = max_pages(info)
        return expect(n >= minimum, f"up to {n} data pages per chunk", f"only {n} pages per chunk")
    return effect


def _effect_fallback(info, meta):
    fell = sorted({c["path"] for c in chunks(info) if c["dictionary_fallback"]})
    return expect(fell, f"dictionary fallback mid-chunk in {fell}", "no dictionary fallback")


COLUMN_ENCODING = {"i32_req": "DELTA_BINARY_PACKED", "i64_nulls": "DELTA_BINARY_PACKED",
                   "s_req": "DELTA_BYTE_ARRAY", "bin": "DELTA_LENGTH_BYTE_ARRAY",
                   "f64": "BYTE_STREAM_SPLIT", "flba": "BYTE_STREAM_SPLIT", "b_req": "RLE",
                   "st.b.list.element": "DELTA_BYTE_ARRAY"}


def _effect_column_encoding(info, meta):
    wrong = {p: sorted(encodings_of(info, p)) for p, e in COLUMN_ENCODING.items()
             if encodings_of(info, p) != {e}}
    return expect(not wrong, "v2 pages, " + ", ".join(f"{p}={e}" for p, e in COLUMN_ENCODING.items()),
                  f"columns not in the asked encoding: {wrong}")


def _effect_noncompliant(info, meta):
    items = [c["path"] for c in info["columns"] if c["path"].endswith(".list.item")]
    return expect(items, f"legacy list element names: {items}", "no '.list.item' leaf")


def _effect_decimal_integers(info, meta):
    kinds = {p: physical(info, p) for p in ("dec9", "dec18", "dec38", "dec76")}
    ok = kinds["dec9"] == "INT32" and kinds["dec18"] == "INT64"
    return expect(ok, f"decimals as {kinds}", f"decimals stored as {kinds}")


def _effect_types(info, meta):
    kinds = {p: physical(info, p) for p in ("f16", "dec9", "dec18", "dec76", "uuid", "nulls")}
    return expect(kinds["f16"] == "FIXED_LEN_BYTE_ARRAY" and kinds["dec9"] == "FIXED_LEN_BYTE_ARRAY",
                  f"{page_kinds(info)}; {kinds}", f"unexpected physical types {kinds}")


def page_kinds(info):
    kinds = set()
    for c in chunks(info):
        for p in data_pages(c):
            kinds.add("v2" if p["type"] == "DATA_PAGE_V2" else "v1")
    return "+".join(sorted(kinds)) or "no data pages"


def _effect_sorting(info, meta):
    sorting = meta.row_group(0).sorting_columns
    return expect(sorting, f"sorting_columns {sorting}", "no sorting_columns in the footer")


def _effect_int96(info, meta):
    return expect(physical(info, "ts") == "INT96", "ts as INT96, format version 1.0",
                  f"ts stored as {physical(info, 'ts')}")


def _effect_no_statistics(info, meta):
    with_stats = sorted({c["path"] for c in chunks(info) if c.get("statistics")}
                        | {c["path"] for c in chunks(info) for p in c["pages"]
                           if p.get("statistics")})
    return expect(not with_stats, "no statistics in chunks or pages",
                  f"statistics on {with_stats}")


def _effect_zero_rows(info, meta):
    rows = info["num_rows"]
    return expect(rows == 0, f"0 rows, {info['num_row_groups']} row groups, "
                  f"{len(info['columns'])} columns", f"{rows} rows")


def _effect_codec(codec):
    def effect(info, meta):
        found = codecs(info)
        want = {"NONE": "UNCOMPRESSED", "LZ4": "LZ4_RAW"}.get(codec.upper(), codec.upper())
        return expect(found <= {want, "LZ4"} if want == "LZ4_RAW" else found == {want},
                      f"{page_kinds(info)} pages, {'+'.join(sorted(found))}",
                      f"codecs {found}, asked for {codec}")
    return effect


def pyarrow_cases():
    from pyarrow.parquet import SortingColumn
    base, types = base_table, types_table
    sorted_base = lambda: base_table().sort_by([("i64_req", "ascending")])  # noqa: E731
    return [
        _pyarrow("write_page_index=True", base, _effect_page_index, write_page_index=True),
        _pyarrow("write_page_checksum=True", base, _effect_checksum, reduced=True,
                 write_page_checksum=True, data_page_size=4096),
        _pyarrow("use_content_defined_chunking (2-8 KiB chunks)", base, _effect_cdc,
                 use_content_defined_chunking={"min_chunk_size": 2048, "max_chunk_size": 8192}),
        _pyarrow("bloom_filter_options", base, _effect_bloom(["i64_req", "s_req"]),
                 bloom_filter_options={"i64_req": {"ndv": 1200, "fpp": 0.01}, "s_req": True}),
        _pyarrow("max_rows_per_page=100", base, _effect_rows_per_page(100), reduced=True,
                 max_rows_per_page=100),
        _pyarrow("data_page_size=256", base, _effect_many_pages(20), data_page_size=256,
                 write_batch_size=32),
        _pyarrow("dictionary_pagesize_limit=512", base, _effect_fallback, reduced=True,
                 dictionary_pagesize_limit=512, write_batch_size=64),
        _pyarrow("column_encoding per column, v2 pages", base, _effect_column_encoding,
                 reduced=True, use_dictionary=False, column_encoding=COLUMN_ENCODING,
                 data_page_version="2.0", compression="zstd"),
        _pyarrow("use_compliant_nested_type=False", types, _effect_noncompliant,
                 use_compliant_nested_type=False),
        _pyarrow("store_decimal_as_integer=True", types, _effect_decimal_integers, reduced=True,
                 store_decimal_as_integer=True),
        _pyarrow("sorting_columns", sorted_base, _effect_sorting,
                 sorting_columns=[SortingColumn(4), SortingColumn(0, descending=True)]),
        _pyarrow('version="1.0" + int96 timestamps', base, _effect_int96, reduced=True,
                 version="1.0", use_deprecated_int96_timestamps=True),
        _pyarrow("write_statistics=False", base, _effect_no_statistics, write_statistics=False),
        _pyarrow("types (float16, decimals, map, ...) v1", types, _effect_types, reduced=True),
        _pyarrow("dictionary types (ARROW:schema) of shared-prefix strings",
                 dictionary_typed_table, _effect_dictionary_typed, reduced=True),
        _pyarrow("types v2 pages zstd", types, _effect_types, data_page_version="2.0",
                 compression="zstd"),
        _pyarrow("zero rows (table.slice(0, 0))", lambda: base_table().slice(0, 0),
                 _effect_zero_rows, reduced=True),
        _pyarrow("zero rows, types table", lambda: types_table().slice(0, 0), _effect_zero_rows),
    ]


# ---- DuckDB ----

DUCKDB_CODECS = W.DUCKDB_CODECS

# Every value a function of i (the row number); NULLs and specials at fixed residues.
DUCKDB_SELECT = """
SELECT
  CASE WHEN i % 7 = 3 THEN NULL ELSE ((i * 2654435761) % 4294967296 - 2147483648)::INTEGER END AS i32,
  CASE WHEN i < 4 THEN [-9223372036854775808, 9223372036854775807, 0, -1][i + 1]
       ELSE (i * 1000003 - 1099511627776)::BIGINT END AS i64,
  CASE WHEN i % 13 = 5 THEN NULL WHEN i % 40 < 5
       THEN ['NaN', '-0.0', '0.0', 'inf', '-inf'][i % 40 + 1]::REAL ELSE (i - 600) / 8 END::REAL AS f32,
  CASE WHEN i % 40 < 5 THEN ['NaN', '-0.0', '0.0', 'inf', '-inf'][i % 40 + 1]::DOUBLE
       ELSE (i * 7919.0 - 4e6) / 3 END AS f64,
  CASE WHEN i % 11 = 3 THEN NULL WHEN i % 30 = 0 THEN '' WHEN i % 199 = 0 THEN repeat('z', 3000)
       ELSE 'prefix/' || (i % 17) || '/item-' || i END AS s,
  CASE WHEN i % 6 = 0 THEN NULL ELSE ['red', 'green', 'blue', '', 'red/dark'][i % 5 + 1] END AS low,
  CASE WHEN i % 8 = 0 THEN NULL ELSE unhex(lpad(to_hex(i * 7919), 8, '0') || 'ff00') END AS blb,
  CASE WHEN i % 9 = 4 THEN NULL WHEN i < 2
       THEN [170141183460469231731687303715884105727, -170141183460469231731687303715884105727][i + 1]::HUGEINT
       ELSE i::HUGEINT * 10000000000000000000 END AS h,
  CASE WHEN i % 9 = 2 THEN NULL ELSE md5(i::VARCHAR)::UUID END AS u,
  CASE WHEN i % 10 = 7 THEN NULL
       ELSE to_months(i % 25) + to_days(i % 40) + to_milliseconds(i * 1234) END AS iv,
  CAST(['lo', 'mid', 'hi'][i % 3 + 1] AS ENUM('lo', 'mid', 'hi')) AS e,
  CASE i % 5 WHEN 0 THEN NULL WHEN 1 THEN []::INTEGER[] WHEN 2 THEN [NULL]::INTEGER[]
       ELSE [i, -i, 2147483647, -2147483648] END AS l,
  CASE WHEN i % 8 = 0 THEN NULL ELSE {'a': CASE WHEN i % 3 = 0 THEN NULL ELSE i - 600 END,
       'b': CASE i % 4 WHEN 0 THEN NULL WHEN 1 THEN [] ELSE ['x' || (i % 10), NULL, ''] END} END AS st,
  CASE i % 4 WHEN 0 THEN NULL WHEN 1 THEN MAP {}::MAP(VARCHAR, INTEGER)
       ELSE MAP {'k' || i: i, 'z': NULL} END AS m,
  (((i % 1200 - 600) * 7) / 10)::DECIMAL(4, 1) AS d4,
  CASE WHEN i % 5 = 1 THEN NULL ELSE ((i - 600) * 1000003)::DECIMAL(18, 3) / 1000 END AS d18,
  ((i - 600)::DECIMAL(38, 10) * 12345678901.123) AS d38,
  CASE WHEN i % 10 = 0 THEN NULL ELSE DATE '1970-01-01' + ((i - 600) * 97)::INTEGER END AS dt,
  TIMESTAMP '1968-11-27 00:00:00' + to_microseconds(i * 3600123457) AS ts,
  CASE WHEN i % 7 = 0 THEN NULL ELSE i % 3 = 0 END AS bo
FROM range({rows}) r(i)
"""

# INT32 deltas that overflow 32 bits (INT32_MIN next to INT32_MAX), high cardinality so DuckDB
# does not dictionary-encode them: PARQUET_VERSION V2 writes DELTA_BINARY_PACKED with miniblocks
# of bit width 33 for i32 (and wide ones for i64).
DUCKDB_EXTREMES = """
SELECT CASE WHEN i % 2 = 0 THEN -2147483648 + i ELSE 2147483647 - i END::INTEGER AS i32x,
       CASE WHEN i % 2 = 0 THEN -9223372036854775808 + i ELSE 9223372036854775807 - i END::BIGINT
         AS i64x,
       CASE WHEN i % 5 = 2 THEN NULL WHEN i % 2 = 0 THEN -2147483648 ELSE 2147483647 END::INTEGER
         AS i32x_nulls
FROM range(3000) r(i)
"""


def _duckdb(name, effect, options, select=None, rows=1200, reduced=False):
    def write(path):
        import duckdb
        con = duckdb.connect()
        con.execute("SET threads = 1")  # row order = range order
        query = (select or DUCKDB_SELECT).replace("{rows}", str(rows))
        opts = ", ".join(f"{k} {v}" for k, v in {"FORMAT": "PARQUET", **options}.items())
        con.execute(f"COPY ({query}) TO '{path}' ({opts})")
        con.close()
    return {"peer": "duckdb", "name": name, "write": write, "effect": effect, "reduced": reduced,
            "options": options}


def _effect_dictionary_limit(high, low):
    def effect(info, meta):
        dicts = dictionary_columns(info)
        return expect(high not in dicts and low in dicts,
                      f"{high} without dictionary, {low} with; dictionaries: {sorted(dicts)}",
                      f"dictionaries on {sorted(dicts)}: expected {low} only, not {high}")
    return effect


def _effect_row_groups(minimum):
    def effect(info, meta):
        n = info["num_row_groups"]
        return expect(n >= minimum, f"{n} row groups", f"only {n} row groups")
    return effect


def _effect_width33(path_holder):
    def effect(info, meta):
        path = path_holder["path"]
        w32 = dbp_widths(path, info, "i32x")
        w64 = dbp_widths(path, info, "i64x")
        ok = 33 in w32 and encodings_of(info, "i32x") == {"DELTA_BINARY_PACKED"}
        return expect(ok, f"DELTA_BINARY_PACKED i32x miniblock widths {sorted(w32)}, i64x "
                      f"{sorted(w64)}", f"i32x has no width-33 miniblock (widths {sorted(w32)}, "
                      f"encodings {sorted(encodings_of(info, 'i32x'))})")
    return effect


def duckdb_cases(reduced):
    out = []
    for version in ("V1", "V2"):
        codecs_ = DUCKDB_CODECS if not reduced else (["snappy"] if version == "V1" else ["zstd"])
        for codec in codecs_:
            out.append(_duckdb(f"PARQUET_VERSION {version}, COMPRESSION {codec}",
                               _effect_codec(codec), {"PARQUET_VERSION": version,
                                                      "COMPRESSION": codec}, reduced=True))
    holder = {}
    width33 = _duckdb("V2 INT32/INT64 extremes (width-33 miniblocks)", _effect_width33(holder),
                      {"PARQUET_VERSION": "V2", "COMPRESSION": "uncompressed"},
                      select=DUCKDB_EXTREMES, reduced=True)
    write = width33["write"]

    def write_and_remember(path):
        holder["path"] = path
        write(path)
    width33["write"] = write_and_remember
    out += [
        width33,
        _duckdb("DICTIONARY_SIZE_LIMIT 8", _effect_dictionary_limit("s", "low"),
                {"DICTIONARY_SIZE_LIMIT": 8}),
        _duckdb("STRING_DICTIONARY_PAGE_SIZE_LIMIT 64", _effect_dictionary_limit("s", "low"),
                {"STRING_DICTIONARY_PAGE_SIZE_LIMIT": 64, "PARQUET_VERSION": "V2"}),
        _duckdb("ROW_GROUP_SIZE 2048 (5000 rows)", _effect_row_groups(3),
                {"ROW_GROUP_SIZE": 2048}, rows=5000),
        _duckdb("zero rows V1", _effect_zero_rows, {}, rows=0, reduced=True),
        _duckdb("zero rows V2", _effect_zero_rows, {"PARQUET_VERSION": "V2"}, rows=0),
    ]
    return out


# ---- polars ----

def polars_frame():
    import polars as pl
    frame = pl.from_arrow(base_table())
    return frame.with_columns(pl.col("s_low").cast(pl.Categorical).alias("cat"))


def _polars(name, effect, reduced=False, rows=None, **options):
    def write(path):
        frame = polars_frame()
        if rows is not None:
            frame = frame.head(rows)
        frame.write_parquet(path, **options)
    return {"peer": "polars", "name": name, "write": write, "effect": effect, "reduced": reduced,
            "options": options}


def _effect_categorical(info, meta):
    return expect("cat" in dictionary_columns(info), "cat dictionary-encoded",
                  "cat has no dictionary page")


def polars_cases(reduced):
    out = []
    for codec in (W.POLARS_CODECS if not reduced else ["zstd"]):
        out.append(_polars(f"compression={codec}", _effect_codec(codec), reduced=True,
                           compression=codec))
    out += [
        _polars("data_page_size=256", _effect_many_pages(10), data_page_size=256),
        _polars("row_group_size=100", _effect_row_groups(12), reduced=True, row_group_size=100),
        _polars("statistics=False", _effect_no_statistics, statistics=False),
        _polars("categorical column", _effect_categorical),
        _polars("zero rows", _effect_zero_rows, reduced=True, rows=0),
    ]
    return out


# ---- fastparquet ----

def fastparquet_frame(rows=None):
    import pandas as pd
    frame = W.pandas_frame()
    if rows is not None:
        frame = frame.iloc[:rows].copy()  # pandas_frame(0) cannot build its masked float column
    n = len(frame)
    frame["js"] = pd.Series([None if i % 7 == 0 else [i, {"k": str(i)}, None] if i % 2 else
                             {"a": i, "s": "é" * (i % 3)} for i in range(n)], dtype=object)
    return frame


FASTPARQUET_BASE = {"has_nulls": [c for c in T.FLAT if c not in T.REQUIRED] + ["js"],
                    "fixed_text": {"flba": T.FLBA_WIDTH},
                    "object_encoding": {"s_req": "utf8", "s_low": "utf8", "bin": "bytes",
                                        "flba": "bytes", "js": "json"}}


def _fastparquet(name, effect, reduced=False, rows=None, **options):
    def write(path):
        import fastparquet
        fastparquet.write(path, fastparquet_frame(rows), **{**FASTPARQUET_BASE, **options})
    return {"peer": "fastparquet", "name": name, "write": write, "effect": effect,
            "reduced": reduced, "options": options}


def _effect_object_encodings(info, meta):
    schema = meta.schema
    logical = {schema.column(i).path: str(schema.column(i).logical_type)
               for i in range(len(schema)) if schema.column(i).path in ("s_req", "bin", "js")}
    ok = "String" in logical["s_req"] and "JSON" in logical["js"] and "None" in logical["bin"]
    return expect(ok, f"object encodings: {logical}", f"logical types {logical}")


def fastparquet_cases(reduced):
    return [
        _fastparquet('times="int96"', _effect_int96, reduced=True, times="int96",
                     compression="SNAPPY"),
        _fastparquet("object_encoding utf8/bytes/json", _effect_object_encodings, times="int96",
                     compression="ZSTD"),
        _fastparquet("row_group_offsets=100", _effect_row_groups(12), times="int96",
                     row_group_offsets=100),
        _fastparquet("zero rows", _effect_zero_rows, reduced=True, rows=0, times="int96"),
    ]


def all_cases(reduced):
    cases = (pyarrow_cases() + duckdb_cases(reduced) + polars_cases(reduced)
             + fastparquet_cases(reduced))
    return [c for c in cases if c["reduced"] or not reduced]
