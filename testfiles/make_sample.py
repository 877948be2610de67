#!/usr/bin/env python3
"""Writes testfiles/sample_trips.csv, the sample column set the demo encodes.

Deterministic (fixed seed, standard library only), so the committed file can be regenerated
byte for byte: python3 testfiles/make_sample.py. The header gives each column as name:TYPE.
"""
import os
import random

ROWS = 4096
rng = random.Random(20261122)
zones = ["Midtown", "Upper East Side", "JFK Airport", "Harlem", "SoHo", "Astoria", "Chelsea",
         "Williamsburg", "LaGuardia", "Financial District"]
paths = ["/trip/receipt", "/trip/rating", "/trip/support/ticket", "/rider/profile"]

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sample_trips.csv")
with open(out, "w", newline="\n") as f:
    f.write("pickup_micros:INT64,vendor_id:INT32,passengers:INT32,distance_km:DOUBLE,"
            "fare:FLOAT,zone:BYTE_ARRAY,receipt_url:BYTE_ARRAY\n")
    t = 1_767_225_600_000_000  # 2026-01-01T00:00:00Z in microseconds
    for i in range(ROWS):
        t += rng.randint(0, 4_000_000)
        vendor = rng.choice([1, 2, 2, 2, 6])
        passengers = rng.choice([1, 1, 1, 1, 2, 2, 3, 4, 5, 6])
        distance = round(rng.expovariate(1 / 4.2), 3)
        fare = round(3.0 + distance * 1.75 + rng.random() * 2, 2)
        zone = rng.choice(zones)
        url = "https://rides.example.com%s?id=%08d" % (rng.choice(paths), 10_000_000 + i * 7)
        f.write("%d,%d,%d,%r,%.2f,%s,%s\n" % (t, vendor, passengers, distance, fare, zone, url))
