"""Arrow tables of every type that has a Parquet form, for tests/interop/arrow_write_test.py: flat
types in every width and unit, nested types (lists of each kind, structs, maps, and nestings of
them), dictionaries, nulls at every level, sliced arrays, all-null and empty columns.

tables() -> [(name, pyarrow.Table)]. Values are deterministic (a seeded random.Random)."""

import datetime
import decimal
import random

ROWS = 257  # not a multiple of a batch or a byte of bits


def _maybe(rng, value, null_share=0.2):
    return None if rng.random() < null_share else value


def _flat(pa, rng):
    n = ROWS

    def ints(lo, hi):
        return [_maybe(rng, rng.randint(lo, hi)) for _ in range(n)]

    def strings(alphabet="abcdefghij", longest=20):
        return [_maybe(rng, "".join(rng.choice(alphabet) for _ in range(rng.randint(0, longest))))
                for _ in range(n)]

    def decimals(precision, scale):
        top = 10 ** precision - 1
        return [_maybe(rng, decimal.Decimal(rng.randint(-top, top)).scaleb(-scale))
                for _ in range(n)]

    columns = {
        "bool": pa.array([_maybe(rng, rng.random() < 0.5) for _ in range(n)], pa.bool_()),
        "int8": pa.array(ints(-128, 127), pa.int8()),
        "uint8": pa.array(ints(0, 255), pa.uint8()),
        "int16": pa.array(ints(-2**15, 2**15 - 1), pa.int16()),
        "uint16": pa.array(ints(0, 2**16 - 1), pa.uint16()),
        "int32": pa.array(ints(-2**31, 2**31 - 1), pa.int32()),
        "uint32": pa.array(ints(0, 2**32 - 1), pa.uint32()),
        "int64": pa.array(ints(-2**63, 2**63 - 1), pa.int64()),
        "uint64": pa.array(ints(0, 2**64 - 1), pa.uint64()),
        "float16": pa.array([_maybe(rng, rng.uniform(-100, 100)) for _ in range(n)],
                            pa.float32()).cast(pa.float16()),
        "float32": pa.array([_maybe(rng, rng.uniform(-1e6, 1e6)) for _ in range(n)], pa.float32()),
        "float64": pa.array([_maybe(rng, rng.choice([rng.gauss(0, 1e9), float("nan"), -0.0,
                                                     float("inf")]))
                             for _ in range(n)], pa.float64()),
        "utf8": pa.array(strings("aé€😀xyz"), pa.string()),
        "large_utf8": pa.array(strings(), pa.large_string()),
        "utf8_view": pa.array(strings(longest=30), pa.string_view()),
        "binary": pa.array([None if s is None else s.encode() for s in strings()], pa.binary()),
        "large_binary": pa.array([None if s is None else s.encode() for s in strings()],
                                 pa.large_binary()),
        "binary_view": pa.array([None if s is None else s.encode() for s in strings(longest=30)],
                                pa.binary_view()),
        "fixed_binary": pa.array([_maybe(rng, bytes(rng.randrange(256) for _ in range(5)))
                                  for _ in range(n)], pa.binary(5)),
        "decimal32": pa.array(decimals(7, 2), pa.decimal32(7, 2)),
        "decimal64": pa.array(decimals(15, 3), pa.decimal64(15, 3)),
        "decimal128_9": pa.array(decimals(9, 0), pa.decimal128(9, 0)),
        "decimal128_18": pa.array(decimals(18, 4), pa.decimal128(18, 4)),
        "decimal128_38": pa.array(decimals(38, 10), pa.decimal128(38, 10)),
        "date32": pa.array(ints(-100000, 100000), pa.int32()).cast(pa.date32()),
        "date64": pa.array([None if d is None else d * 86400000 for d in ints(-100000, 100000)],
                           pa.int64()).cast(pa.date64()),
        "time32_s": pa.array(ints(0, 86399), pa.int32()).cast(pa.time32("s")),
        "time32_ms": pa.array(ints(0, 86399999), pa.int32()).cast(pa.time32("ms")),
        "time64_us": pa.array(ints(0, 86399999999), pa.int64()).cast(pa.time64("us")),
        "time64_ns": pa.array(ints(0, 86399999999999), pa.int64()).cast(pa.time64("ns")),
        "null": pa.nulls(n),
    }
    for unit in ("s", "ms", "us", "ns"):
        values = pa.array(ints(-2**40, 2**40), pa.int64())
        columns[f"timestamp_{unit}"] = values.cast(pa.timestamp(unit))
        columns[f"timestamp_{unit}_utc"] = values.cast(pa.timestamp(unit, tz="UTC"))
        columns[f"timestamp_{unit}_paris"] = values.cast(pa.timestamp(unit, tz="Europe/Paris"))
        columns[f"duration_{unit}"] = values.cast(pa.duration(unit))
    return pa.table(columns)


def _nested(pa, rng):
    n = ROWS

    def int_list(longest=4):
        return _maybe(rng, [_maybe(rng, rng.randint(-9, 9)) for _ in range(rng.randint(0, longest))])

    def word():
        return "".join(rng.choice("pqrs") for _ in range(rng.randint(0, 6)))

    point = pa.struct([("x", pa.int32()), ("label", pa.string())])
    points = [_maybe(rng, [_maybe(rng, {"x": _maybe(rng, rng.randint(0, 99)), "label": word()})
                           for _ in range(rng.randint(0, 3))]) for _ in range(n)]
    return pa.table({
        "list": pa.array([int_list() for _ in range(n)], pa.list_(pa.int32())),
        "large_list": pa.array([int_list() for _ in range(n)], pa.large_list(pa.int64())),
        "fixed_list": pa.array([_maybe(rng, [_maybe(rng, rng.random()) for _ in range(3)])
                                for _ in range(n)], pa.list_(pa.float64(), 3)),
        "list_of_lists": pa.array([_maybe(rng, [int_list(3) for _ in range(rng.randint(0, 3))])
                                   for _ in range(n)], pa.list_(pa.list_(pa.int32()))),
        "list_of_strings": pa.array([_maybe(rng, [_maybe(rng, word())
                                                  for _ in range(rng.randint(0, 4))])
                                     for _ in range(n)], pa.list_(pa.string())),
        "struct": pa.array([_maybe(rng, {"a": _maybe(rng, rng.randint(0, 9)),
                                         "b": {"c": _maybe(rng, word()),
                                               "d": int_list()}})
                            for _ in range(n)],
                           pa.struct([("a", pa.int64()),
                                      ("b", pa.struct([("c", pa.string()),
                                                       ("d", pa.list_(pa.int32()))]))])),
        "list_of_structs": pa.array(points, pa.list_(point)),
        "map": pa.array([_maybe(rng, [(word() + str(k), _maybe(rng, rng.randint(0, 99)))
                                      for k in range(rng.randint(0, 3))])
                         for _ in range(n)], pa.map_(pa.string(), pa.int32())),
        "map_of_lists": pa.array([_maybe(rng, [(k, int_list()) for k in range(rng.randint(0, 2))])
                                  for _ in range(n)], pa.map_(pa.int64(), pa.list_(pa.int32()))),
        "list_of_maps": pa.array([_maybe(rng, [_maybe(rng, [(word(), word())])
                                               for _ in range(rng.randint(0, 2))])
                                  for _ in range(n)], pa.list_(pa.map_(pa.string(), pa.string()))),
    })


def _beyond_polars(pa, rng):
    """Types polars refuses to read in any file (a decimal of more than 38 digits; list views):
    apart, so that polars still checks the other tables."""
    n = ROWS
    top = 10 ** 60 - 1
    return pa.table({
        "decimal256_60": pa.array([_maybe(rng, decimal.Decimal(rng.randint(-top, top)).scaleb(-5))
                                   for _ in range(n)], pa.decimal256(60, 5)),
        "list_view": pa.array([_maybe(rng, [_maybe(rng, rng.randint(-9, 9))
                                            for _ in range(rng.randint(0, 4))])
                               for _ in range(n)], pa.list_view(pa.int16())),
    })


def _dictionaries(pa, rng):
    n = ROWS
    words = ["alpha", "beta", "gamma", "delta", "epsilon"]
    values = [_maybe(rng, rng.choice(words)) for _ in range(n)]
    return pa.table({
        "dict_utf8": pa.array(values).dictionary_encode(),
        "dict_int8_index": pa.array(values, pa.dictionary(pa.int8(), pa.string())),
        "dict_uint16_index": pa.array(values, pa.dictionary(pa.uint16(), pa.large_string())),
        "dict_int64_values": pa.array([None if v is None else len(v) for v in values],
                                      pa.dictionary(pa.int32(), pa.int64())),
        "dict_in_list": pa.array([_maybe(rng, [rng.choice(words) for _ in range(rng.randint(0, 3))])
                                  for _ in range(n)],
                                 pa.list_(pa.dictionary(pa.int32(), pa.string()))),
    })


def _not_nullable(pa, rng):
    n = ROWS
    schema = pa.schema([
        pa.field("id", pa.int64(), nullable=False),
        pa.field("name", pa.string(), nullable=False),
        pa.field("tags", pa.list_(pa.field("item", pa.string(), nullable=False)), nullable=False),
        pa.field("pair", pa.struct([pa.field("k", pa.int32(), nullable=False),
                                    pa.field("v", pa.float64())]), nullable=False),
    ], metadata={"origin": "arrow_write_tables"})
    return pa.table({
        "id": list(range(n)),
        "name": [f"n{i}" for i in range(n)],
        "tags": [[f"t{j}" for j in range(i % 3)] for i in range(n)],
        "pair": [{"k": i, "v": _maybe(rng, i / 7)} for i in range(n)],
    }, schema=schema)


def _extensions(pa, rng):
    n = ROWS
    uuids = [_maybe(rng, bytes(rng.randrange(256) for _ in range(16))) for _ in range(n)]
    docs = [_maybe(rng, '{"k": %d}' % rng.randint(0, 9)) for _ in range(n)]
    return pa.table({
        "uuid": pa.ExtensionArray.from_storage(pa.uuid(), pa.array(uuids, pa.binary(16))),
        "json": pa.ExtensionArray.from_storage(pa.json_(), pa.array(docs, pa.string())),
    })


def tables():
    import pyarrow as pa
    rng = random.Random(25)
    flat = _flat(pa, rng)
    nested = _nested(pa, rng)
    out = [
        ("flat", flat),
        ("nested", nested),
        ("beyond_polars", _beyond_polars(pa, rng)),
        ("dictionaries", _dictionaries(pa, rng)),
        ("not_nullable", _not_nullable(pa, rng)),
        ("extensions", _extensions(pa, rng)),
        # Arrays whose offset is not 0 (and not a multiple of 8, for the bitmaps).
        ("flat_sliced", flat.slice(13, 200)),
        ("nested_sliced", nested.slice(5, 111)),
        ("all_null", pa.table({name: pa.nulls(ROWS, flat[name].type)
                               for name in ("int32", "utf8", "decimal128_38", "timestamp_us")}
                              | {"list": pa.nulls(ROWS, pa.list_(pa.int32())),
                                 "struct": pa.nulls(ROWS, pa.struct([("a", pa.int8())]))})),
        ("empty", flat.slice(0, 0)),
        ("no_columns", pa.table({}).append_column("x", pa.array([], pa.int8())).drop(["x"])),
    ]
    return out
