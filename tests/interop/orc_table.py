"""The table the ORC interop test and the ORC size report write with pyarrow.orc (Apache ORC's C++
writer): every column kind pqpage dumps, with nulls, and the integer shapes each RLE v2
sub-encoding is for (extremes, sorted, random, repeated, constant steps, and mostly small values
with rare huge outliers, which ORC writes as PATCHED_BASE), plus the ways to write it: file
versions, compressions and string dictionary thresholds.

A function of (rows, seed) only, so a failure can be reproduced from its file name."""

import datetime
import decimal
import random

import pyarrow as pa

COMPRESSIONS = ["uncompressed", "zlib", "snappy", "lz4", "zstd"]
VERSIONS = ["0.11", "0.12"]
# dictionary_key_size_threshold: 0 never uses a dictionary, 1 always does.
DICTIONARY_THRESHOLDS = [0, 1]

INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1


def write_options(compression, version, threshold, block_size=65536, stripe_size=96 * 1024):
    """pyarrow.orc.write_table keyword arguments: the smallest compression block ORC's C++ writer
    takes (a multiple of its 64 KiB memory block) and small stripes (with the small batches that
    let the writer end a stripe often), so a file of some 20-50k rows has several stripes."""
    return dict(file_version=version, compression=compression,
                compression_block_size=block_size, stripe_size=stripe_size, batch_size=1000,
                dictionary_key_size_threshold=float(threshold))


def _nulls(rng, values, rate=0.08):
    return [None if rng.random() < rate else v for v in values]


def make_table(rows=24000, seed=1):
    rng = random.Random(seed)
    n = range(rows)

    def ints(bits):
        lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
        return [rng.randint(lo, hi) for _ in n]

    extremes8 = [rng.choice([-128, 127, 0, -1, 1, rng.randint(-128, 127)]) for _ in n]
    sorted16 = sorted(ints(16))
    ext64 = [rng.choice([INT64_MIN, INT64_MAX, 0, -1, rng.randint(INT64_MIN, INT64_MAX)])
             for _ in n]
    acc, sorted64 = -10**12, []
    for _ in n:
        acc += rng.randint(0, 1000)
        sorted64.append(acc)
    repeated, value = [], 0
    while len(repeated) < rows:
        if rng.random() < 0.3:
            value = rng.randint(INT64_MIN >> 8, INT64_MAX >> 8)
        repeated += [value] * rng.randint(1, 700)
    repeated = repeated[:rows]
    patched = [rng.randint(10**12, 1 << 62) if rng.random() < 1 / 150 else rng.randint(0, 100)
               for _ in n]
    steps, start, step = [], 0, 7
    for i in n:
        if i % 900 == 0:
            start, step = rng.randint(-10**9, 10**9), rng.randint(-50, 50)
        steps.append(start + step * (i % 900))

    specials = [float("nan"), float("inf"), float("-inf"), -0.0, 0.0, 0.1, 1e-45, 3.4e38]
    floats = [rng.choice(specials) if rng.random() < 0.05 else rng.uniform(-1e6, 1e6) for _ in n]
    doubles = [rng.choice(specials + [5e-324, 1.7976931348623157e308])
               if rng.random() < 0.05 else rng.gauss(0, 1e10) for _ in n]
    words = [f"w{i}-{'x' * (i % 13)}" for i in range(300)] + ["", "é", "日本語", "a\"b\\c"]
    strings = [rng.choice(words) if rng.random() < 0.8 else f"u{rng.getrandbits(48):x}"
               for _ in n]
    binaries = [bytes(rng.getrandbits(8) for _ in range(rng.randint(0, 12))) for _ in n]
    dates = [datetime.date(1970, 1, 1) + datetime.timedelta(days=rng.randint(-700000, 1000000))
             for _ in n]
    sub_ms = [-1, -999_999, -1_000_001, -1_500_000_123, -86_400_000_000_001, 1, 999_999_999]
    stamps = []
    for _ in n:
        r = rng.random()
        if r < 0.1:
            stamps.append(rng.choice(sub_ms))
        elif r < 0.4:  # whole milliseconds: the trailing-zero form of the nanoseconds
            stamps.append(rng.randint(-3 * 10**9, 3 * 10**9) * 10**6)
        else:
            stamps.append(rng.randint(-3 * 10**18, 3 * 10**18))
    big = 10**38 - 1
    # From text, which is exact (arithmetic would round to the context's 28 digits).
    unscaled38 = [rng.choice([big, -big, 0, rng.randint(-big, big), rng.randint(-10**12, 10**12)])
                  for _ in n]
    dec38 = [decimal.Decimal(f"{u}E-10") for u in unscaled38]
    dec10 = [decimal.Decimal(f"{rng.randint(-(10**10 - 1), 10**10 - 1)}E-2") for _ in n]
    # Lists and maps are not dumped (they have no definition levels of DUMP_FORMAT's kind here),
    # but a recode re-encodes them too: their lengths, and their children's slots.
    lists = [None if rng.random() < 0.05 else
             [rng.choice([None, rng.randint(-5, 5), rng.randint(INT64_MIN, INT64_MAX)])
              for _ in range(rng.randint(0, 4))] for _ in n]
    maps = [None if rng.random() < 0.05 else
            [(rng.choice(words), rng.randint(-10, 10)) for _ in range(rng.randint(0, 3))]
            for _ in n]
    struct_rows = [None if rng.random() < 0.05 else
                   {"a": None if rng.random() < 0.1 else rng.randint(-1000, 1000),
                    "b": None if rng.random() < 0.1 else rng.choice(words)} for _ in n]

    return pa.table({
        "bool": pa.array(_nulls(rng, [rng.random() < 0.3 for _ in n]), pa.bool_()),
        "i8_extremes": pa.array(_nulls(rng, extremes8), pa.int8()),
        "i16_sorted": pa.array(_nulls(rng, sorted16), pa.int16()),
        "i32_random": pa.array(_nulls(rng, ints(32)), pa.int32()),
        "i64_extremes": pa.array(_nulls(rng, ext64), pa.int64()),
        "i64_sorted": pa.array(_nulls(rng, sorted64, 0.01), pa.int64()),
        "i64_random": pa.array(_nulls(rng, ints(64)), pa.int64()),
        "i64_repeated": pa.array(_nulls(rng, repeated, 0.0), pa.int64()),
        "i64_patched": pa.array(_nulls(rng, patched, 0.0), pa.int64()),
        "i64_steps": pa.array(steps, pa.int64()),
        "f32": pa.array(_nulls(rng, floats), pa.float32()),
        "f64": pa.array(_nulls(rng, doubles), pa.float64()),
        "string": pa.array(_nulls(rng, strings), pa.string()),
        "binary": pa.array(_nulls(rng, binaries), pa.binary()),
        "date": pa.array(_nulls(rng, dates), pa.date32()),
        "ts_ns": pa.array(_nulls(rng, stamps), pa.timestamp("ns")),
        "dec38": pa.array(_nulls(rng, dec38), pa.decimal128(38, 10)),
        "dec10": pa.array(_nulls(rng, dec10), pa.decimal128(10, 2)),
        "st": pa.array(struct_rows, pa.struct([("a", pa.int32()), ("b", pa.string())])),
        "lst": pa.array(lists, pa.list_(pa.int64())),
        "mp": pa.array(maps, pa.map_(pa.string(), pa.int32())),
    })


def make_pre1970_table(rows=5000, seed=2):
    """Times before 1970 with fractions of a second (and sub-millisecond nanoseconds), on their
    own. Arrow hands such a time to ORC's writer as seconds rounded toward zero and negative
    nanoseconds, which the writer stores as they are (outside the spec's 0 <= nanos < 10^9) and
    its reader reads back: the one place where ORC C++'s files leave the spec, so it has files
    of its own, where a reader that refuses them fails those rows of the matrix, not all."""
    rng = random.Random(seed)
    stamps = [rng.choice([-1, -999_999, -1_000_001, -1_500_000_123, -86_400_000_000_001,
                          -10**9, -10**9 - 1, rng.randint(-3 * 10**18, -1),
                          rng.randint(-10**12, -1) * 1000]) for _ in range(rows)]
    return pa.table({"id": pa.array(range(rows), pa.int64()),
                     "ts_ns": pa.array(_nulls(rng, stamps), pa.timestamp("ns"))})
