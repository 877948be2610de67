"""Checks `pqpage lookup --hex --json --rows` on one file against a brute-force scan of its dump.

For every leaf column, values drawn at random from the column (and values it does not hold) are
looked up; "found_rows" must be exactly the rows whose values include the one sought, and every
such row must lie in a range the lookup left (never a false negative, whatever statistics, bloom
filter or page index ruled out). Usage: lookup_check.py TOOL FILE SEED [PROBES]; prints the number
of lookups and how many row groups a bloom filter ruled out, exits 1 with the first difference.
"""
import json
import math
import random
import struct
import subprocess
import sys


def run(tool, args):
    done = subprocess.run([tool] + args, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"FAIL: pqpage {' '.join(args)} exited {done.returncode}: {done.stderr.strip()}")
    return done.stdout


def plain_hex(column_type, value):
    """The dump's value as the hex of its PLAIN bytes, or None for one that has no single form."""
    if column_type == "BOOLEAN":
        return "01" if value else "00"
    if column_type in ("INT32", "INT64"):
        return struct.pack("<i" if column_type == "INT32" else "<q", value).hex()
    if column_type in ("FLOAT", "DOUBLE"):
        if isinstance(value, str) and value == "NaN":
            return None  # NaN has many bit patterns: the C++ tests cover it
        number = float(value) if not isinstance(value, str) else float(value.replace("Infinity", "inf"))
        return struct.pack("<f" if column_type == "FLOAT" else "<d", number).hex()
    return value  # INT96, BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY: already hex


def rows_of_values(column):
    """Per present value, in order: the row it belongs to."""
    levels = column.get("def") or column.get("rep")
    count = len(levels) if levels is not None else len(column["values"])
    rows = []
    row = -1
    for i in range(count):
        if column["max_rep"] == 0 or column["rep"][i] == 0:
            row += 1
        if column["max_def"] == 0 or column["def"][i] == column["max_def"]:
            rows.append(row)
    return rows


def equal(column_type, a, b):
    """The column's equality on two dump values: numbers compare as numbers (0.0 == -0.0)."""
    if column_type in ("FLOAT", "DOUBLE"):
        return a == b or (not isinstance(a, str) and not isinstance(b, str) and float(a) == float(b))
    return a == b


def absent_value(column_type, values, rng):
    for _ in range(100):
        if column_type in ("INT32", "INT64"):
            candidate = rng.randrange(-2**31, 2**31)
        elif column_type in ("FLOAT", "DOUBLE"):
            candidate = rng.uniform(-1e6, 1e6)
        elif column_type == "BOOLEAN":
            return None
        elif column_type in ("INT96", "FIXED_LEN_BYTE_ARRAY"):
            width = len(values[0]) // 2 if values else 12
            candidate = bytes(rng.randrange(256) for _ in range(width)).hex()
        else:
            candidate = ("absent-%d" % rng.randrange(10**9)).encode().hex()
        if not any(equal(column_type, candidate, v) for v in values):
            return candidate
    return None


def main():
    tool, path, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
    probes = int(sys.argv[4]) if len(sys.argv) > 4 else 6
    rng = random.Random(seed)
    lookups = 0
    bloom_ruled_out = 0
    for column in (json.loads(line) for line in run(tool, ["dump", path]).splitlines()):
        column_type = column["type"]
        values = column["values"]
        value_rows = rows_of_values(column)
        wanted = [rng.choice(values) for _ in range(min(probes, len(values)))]
        wanted += [absent_value(column_type, values, rng) for _ in range(probes // 2)]
        for value in wanted:
            if value is None:
                continue
            hex_value = plain_hex(column_type, value)
            if hex_value is None:
                continue
            expected = sorted({value_rows[i] for i, v in enumerate(values)
                               if equal(column_type, v, value)})
            report = json.loads(run(tool, ["lookup", path, column["path"], hex_value, "--hex",
                                           "--json", "--rows"]))
            lookups += 1
            where = f"{path}: column {column['path']}, value {value}"
            if report["found_rows"] != expected:
                sys.exit(f"FAIL: {where}: found rows {report['found_rows'][:10]}..., "
                         f"expected {expected[:10]}... ({len(report['found_rows'])} vs "
                         f"{len(expected)})")
            first_row = 0
            groups = report["row_groups"]
            for group in groups:
                bloom_ruled_out += group["bloom_filter"] == "ruled out"
            starts = []
            for group in groups:
                starts.append(first_row)
                first_row += group["num_rows"]
            for row in expected:
                g = max(i for i, s in enumerate(starts) if s <= row)
                in_group = row - starts[g]
                if not any(b <= in_group < e for b, e in groups[g]["rows"]):
                    sys.exit(f"FAIL: {where}: row {row} was ruled out ({groups[g]})")
    print(f"{lookups} lookups, {bloom_ruled_out} row groups ruled out by a bloom filter")
    if lookups == 0:
        sys.exit(f"FAIL: {path}: no lookup was made")


if __name__ == "__main__":
    main()
