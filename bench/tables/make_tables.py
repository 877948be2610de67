#!/usr/bin/env python3
"""Writes the realistic table that issue 11 (encoding chosen by measurement) is judged on.

Usage: make_tables.py OUT_DIR [--rows N] [--seed S]

Writes OUT_DIR/realistic.parquet with pyarrow's defaults (dictionary, data page v1, snappy), so it
is the kind of file any user already has. Everything comes from one seeded numpy generator: the
same --rows and --seed give the same values (and, with the same pyarrow, the same bytes).
Strings are assembled with pyarrow compute kernels rather than Python loops, so a million rows take
seconds. Run it with the peers' virtualenv (build/peers-venv/bin/python).
"""
import argparse
import os

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

START_US = 1_709_251_200_000_000  # 2024-03-01 00:00:00 UTC in microseconds
SECOND_US = 1_000_000

# A small vocabulary for the free text; drawn with Zipf weights, so the first words dominate as
# they do in real prose.
WORDS = (
    "the of and to a in is it you that he was for on are with as his they be at one have this "
    "from or had by not word but what some we can out other were all there when up use your how "
    "said an each she which do their time if will way about many then them write would like so "
    "these her long make thing see him two has look more day could go come did number sound no "
    "most people my over know water than call first who may down side been now find any new work "
    "part take get place made live where after back little only round man year came show every "
    "good me give our under name very through just form sentence great think say help low line "
    "delay gate flight crew late seat bag arrived checked boarding weather refund"
).split()

CARRIERS = ["AA", "DL", "UA", "WN", "B6", "AS", "NK", "F9", "G4", "HA", "SY", "MQ", "OO", "YX", "9E"]
URL_SITES = ["https://www.shop-example.com", "https://shop-example.com", "https://m.shop-example.com",
             "https://blog.shop-example.com", "https://partner.example.org"]
URL_SECTIONS = ["/products/electronics/", "/products/home-garden/", "/products/toys/",
                "/products/books/", "/search/", "/cart/", "/articles/2024/"]
UTM_SOURCES = ["google", "newsletter", "facebook", "bing", "partner", "direct"]


def zipf_choice(rng, count, n, exponent=1.1):
    """n indices into range(count) with Zipf weights: a few values are common, most are rare."""
    weights = 1.0 / np.arange(1, count + 1) ** exponent
    return rng.choice(count, size=n, p=weights / weights.sum())


def with_nulls(rng, values, null_fraction):
    """values (a pyarrow array) with about null_fraction of its rows nulled at random positions."""
    nulled = pa.array(rng.random(len(values)) < null_fraction)
    return pc.if_else(nulled, pa.nulls(len(values), values.type), values)


def hex_strings(rng, n, num_bytes):
    """n random lowercase hex strings of 2 * num_bytes characters, built in numpy (no Python loop)."""
    pairs = np.array([f"{i:02x}".encode() for i in range(256)], dtype="S2")
    raw = pairs[rng.integers(0, 256, size=(n, num_bytes))]
    return pa.array(raw.view(f"S{2 * num_bytes}").ravel()).cast(pa.string())


def letter_codes(rng, count, length):
    """count distinct upper-case codes of length letters (airport codes, tail-number suffixes)."""
    alphabet = np.array(list("ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
    chosen = rng.choice(26 ** length, size=count, replace=False)
    digits = [(chosen // 26 ** k) % 26 for k in reversed(range(length))]
    return ["".join(letters) for letters in zip(*(alphabet[d] for d in digits))]


def ids_and_times(rng, n):
    """Integer columns: ids, timestamps, clock times, small ranges, money in cents."""
    # Sorted ids with gaps: mostly +1, 5% of steps skip 1..~30 (deleted rows, sharded allocators).
    steps = 1 + (rng.random(n) < 0.05) * rng.geometric(0.1, n)
    # Departure clock times HHMM (517 = 05:17), busy from 05:00 to 23:59 with morning and evening
    # peaks, in random order like a flights table; ~3% null (cancelled flights).
    hour_weights = np.array([0, 0, 0, 0, 0, 2, 6, 9, 9, 8, 7, 7, 7, 7, 7, 7, 8, 9, 9, 8, 6, 4, 3, 2], float)
    dep_hour = rng.choice(24, size=n, p=hour_weights / hour_weights.sum())
    dep_time = pa.array((dep_hour * 100 + rng.integers(0, 60, n)).astype(np.int32))
    # Hour of an event: the same day shape, but no hour is empty.
    event_hour = rng.choice(24, size=n, p=(hour_weights + 1) / (hour_weights + 1).sum())
    return {
        "id_sorted": pa.array(10_000_000 + np.cumsum(steps), pa.int64()),
        # Random 63-bit ids (hashes, snowflakes without order): incompressible by any encoding.
        "id_random": pa.array(rng.integers(0, 2 ** 63 - 1, n, dtype=np.int64)),
        # One event per second exactly (a meter's log): delta encodes it in almost nothing.
        "ts_steady": pa.array(START_US + SECOND_US * np.arange(n, dtype=np.int64), pa.timestamp("us")),
        # One per second with ~150 ms of clock jitter: close to sorted but not monotonic.
        "ts_jitter": pa.array(START_US + SECOND_US * np.arange(n, dtype=np.int64)
                              + rng.normal(0, 150_000, n).astype(np.int64), pa.timestamp("us")),
        "dep_time_hhmm": with_nulls(rng, dep_time, 0.03),
        # Small ranges: hour of day (diurnal weights) and minute (uniform), both int32.
        "hour": pa.array(event_hour.astype(np.int32)),
        "minute": pa.array(rng.integers(0, 60, n, dtype=np.int32)),
    }


def money(rng, n):
    """Money: fares in int64 cents and the same fares as decimal(12,2); bills as two-decimal doubles."""
    # Fares: log-normal around $200, whole cents.
    fare_cents = np.round(np.exp(rng.normal(5.3, 0.6, n)) * 100).astype(np.int64)
    # decimal128 storage is 16-byte little-endian two's complement; the fares are positive, so the
    # high word is 0. Built from buffers to avoid a million Python Decimal objects.
    words = np.zeros((n, 2), dtype=np.int64)
    words[:, 0] = fare_cents
    fare_decimal = pa.Array.from_buffers(pa.decimal128(12, 2), n, [None, pa.py_buffer(words.tobytes())])
    # Restaurant bills: log-normal around $25, rounded to cents but stored as double (the common
    # mistake), so the doubles are not exact and their low mantissa bytes look random.
    bill = np.round(np.exp(rng.normal(3.2, 0.7, n)), 2)
    return {"fare_cents": pa.array(fare_cents), "fare_decimal": fare_decimal, "bill_double": pa.array(bill)}


def sensor(rng, n):
    """A float32 temperature sensor: a slow random walk around 21.5 C plus measurement noise."""
    walk = 21.5 + np.cumsum(rng.normal(0, 0.01, n)) + rng.normal(0, 0.05, n)
    return {"sensor_temp": pa.array(walk.astype(np.float32))}


def categorical_strings(rng, n):
    """Low cardinality (carriers, airports), medium (tail numbers) and unique (uuids) strings."""
    airports = pa.array(letter_codes(rng, 300, 3))
    tails = pa.array([f"N{number}{suffix}" for number, suffix in
                      zip(rng.integers(100, 9999, 6000), rng.choice(letter_codes(rng, 400, 2), 6000))])
    hex32 = hex_strings(rng, n, 16)
    # uuid layout 8-4-4-4-12 (version and variant nibbles are not forced: only the shape matters).
    pieces = [pc.utf8_slice_codeunits(hex32, start, stop) for start, stop in
              ((0, 8), (8, 12), (12, 16), (16, 20), (20, 32))]
    return {
        "carrier": pa.array(CARRIERS).take(pa.array(zipf_choice(rng, len(CARRIERS), n, 0.8))),
        "origin_airport": airports.take(pa.array(zipf_choice(rng, 300, n))),
        "tail_number": tails.take(pa.array(zipf_choice(rng, 6000, n, 0.6))),
        "uuid": pc.binary_join_element_wise(*pieces, "-"),
    }


def prefixed_strings(rng, n):
    """Strings with shared prefixes: URLs in random order, and partition file paths in time order."""
    def pick(choices, weights_exponent=1.0):
        return pa.array(choices).take(pa.array(zipf_choice(rng, len(choices), n, weights_exponent)))

    product = pc.cast(pa.array(rng.integers(1000, 250_000, n)), pa.string())
    # 60% of URLs carry tracking parameters with a random session id.
    query = pc.binary_join_element_wise("?utm_source=", pick(UTM_SOURCES), "&utm_medium=cpc&session=",
                                        hex_strings(rng, n, 6), "")
    query = pc.if_else(pa.array(rng.random(n) < 0.6), query, "")
    url = pc.binary_join_element_wise(pick(URL_SITES), pick(URL_SECTIONS), product, query, "")
    # Rows are in time order (one per second), a new part file starts every ~1000 rows, so
    # consecutive values are equal or share everything up to the part number.
    seconds = np.arange(n, dtype=np.int64)
    day = pc.strftime(pa.array(START_US + SECOND_US * seconds, pa.timestamp("us")), "date=%Y-%m-%d/hour=%H")
    part = pc.utf8_lpad(pc.cast(pa.array(seconds // 1000 % 100_000), pa.string()), 5, "0")
    path = pc.binary_join_element_wise("s3://lake-prod/warehouse/events/", day, "/part-", part,
                                       ".parquet", "")
    return {"url": url, "file_path": path}


def free_text(rng, n):
    """Comments: sentences of Zipf-drawn words, 1..60 words (log-normal, median ~9); 20% null."""
    lengths = np.clip(np.round(np.exp(rng.normal(2.2, 0.6, n))), 1, 60).astype(np.int32)
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32)
    words = pa.array(WORDS).take(pa.array(zipf_choice(rng, len(WORDS), int(offsets[-1]), 1.0)))
    sentences = pc.binary_join(pa.ListArray.from_arrays(pa.array(offsets), words), " ")
    text = pc.binary_join_element_wise(pc.utf8_capitalize(sentences), ".", "")
    return {"comment": with_nulls(rng, text, 0.2)}


def flags_and_lists(rng, n):
    """A boolean (30% true, ~10% null) and a list<int32> of item ids (~5% null, ~8% empty)."""
    flag = with_nulls(rng, pa.array(rng.random(n) < 0.3), 0.10)
    lengths = rng.poisson(2.5, n).astype(np.int32)
    offsets = pa.array(np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32))
    items = pa.array((zipf_choice(rng, 5000, int(offsets[-1].as_py()), 0.9) + 1).astype(np.int32))
    null_rows = pa.array(rng.random(n) < 0.05)
    return {"is_delayed": flag, "item_ids": pa.ListArray.from_arrays(offsets, items, mask=null_rows)}


def make_table(rows, seed):
    rng = np.random.default_rng(seed)
    columns = {}
    for part in (ids_and_times, money, sensor, categorical_strings, prefixed_strings, free_text,
                 flags_and_lists):
        columns.update(part(rng, rows))
    return pa.table(columns)


def parse_table_arguments(description):
    """OUT_DIR, --rows and --seed, which every script that writes this table takes."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("out_dir")
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=11)
    return parser.parse_args()


def main():
    args = parse_table_arguments(__doc__.splitlines()[0])
    os.makedirs(args.out_dir, exist_ok=True)
    path = os.path.join(args.out_dir, "realistic.parquet")
    table = make_table(args.rows, args.seed)
    pq.write_table(table, path)  # pyarrow's defaults on purpose: the input users have
    print(f"{path}: {table.num_rows} rows, {table.num_columns} columns, {os.path.getsize(path)} bytes")


if __name__ == "__main__":
    main()
