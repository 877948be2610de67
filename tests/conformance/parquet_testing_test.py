"""Conformance with ../shared/parquet-testing: every data file decodes, `pqpage dump` equals every
golden, every bad_data file ends in a clean error, and the corrupt-checksum file is refused with
verification and read without it.

Called by ctest as: parquet_testing_test.py TOOL SHARED_DIR SCRATCH_DIR. Exits 77 (skipped) when
SHARED_DIR/parquet-testing is missing. Prints one row per file (the conformance table) and every
mismatch; exits 1 if any file fails.

The goldens give integers and floats sometimes as strings ("4", "1.0") and sometimes as JSON
numbers, so values are compared by what they denote: integers as integers, FLOAT and DOUBLE by
their bits after rounding to the column's width (NaN equals NaN), byte arrays as lowercase hex.
The dump's own text is checked separately against shared/DUMP_FORMAT.md.
"""

import json
import math
import os
import struct
import subprocess
import sys

TIMEOUT_SECONDS = 120
KEY_ORDER = ["path", "type", "max_def", "max_rep", "def", "rep", "values"]
FLOAT_STRINGS = {"NaN", "Infinity", "-Infinity"}


def run_dump(tool, path, *extra, output=None):
    """Runs `pqpage dump`; with `output`, stdout goes to that file (a dump can be gigabytes)."""
    if output is None:
        return subprocess.run([tool, "dump", path, *extra], capture_output=True, text=True,
                              timeout=TIMEOUT_SECONDS)
    with open(output, "w") as sink:
        return subprocess.run([tool, "dump", path, *extra], stdout=sink, stderr=subprocess.PIPE,
                              text=True, timeout=TIMEOUT_SECONDS)


def float_bits(value, width):
    """The IEEE bits of a golden or dumped float, rounded to the column's width."""
    if isinstance(value, str):
        if value == "NaN":
            return "NaN"
        number = float(value.replace("Infinity", "inf"))
    else:
        number = float(value)
    if math.isnan(number):
        return "NaN"
    return struct.pack("<f" if width == 4 else "<d", number)


def same_value(physical_type, expected, actual):
    if physical_type == "BOOLEAN":
        return expected is actual
    if physical_type in ("INT32", "INT64"):
        return isinstance(actual, int) and int(expected) == actual
    if physical_type == "FLOAT":
        return float_bits(expected, 4) == float_bits(actual, 4)
    if physical_type == "DOUBLE":
        return float_bits(expected, 8) == float_bits(actual, 8)
    return isinstance(actual, str) and expected.lower() == actual


def check_format(line, column):
    """The dump line's shape as DUMP_FORMAT.md fixes it."""
    problems = []
    keys = list(column.keys())
    expected_keys = [k for k in KEY_ORDER
                     if k not in ("def", "rep")
                     or (k == "def" and column.get("max_def", 0) > 0)
                     or (k == "rep" and column.get("max_rep", 0) > 0)]
    if keys != expected_keys:
        problems.append(f"keys {keys}, expected {expected_keys}")
    physical_type = column.get("type")
    for value in column.get("values", []):
        if physical_type == "BOOLEAN" and not isinstance(value, bool):
            problems.append(f"boolean value {value!r}")
        elif physical_type in ("INT32", "INT64") and (isinstance(value, bool)
                                                      or not isinstance(value, int)):
            problems.append(f"integer value {value!r}")
        elif physical_type in ("FLOAT", "DOUBLE"):
            if isinstance(value, str) and value not in FLOAT_STRINGS:
                problems.append(f"float value {value!r}")
            elif not isinstance(value, (str, float)):
                problems.append(f"float value {value!r} is not written as a float")
        elif physical_type in ("INT96", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"):
            if not isinstance(value, str) or value != value.lower():
                problems.append(f"binary value {value!r}")
        if problems:
            break
    return problems


def compare_with_golden(columns, golden):
    problems = []
    if len(columns) != len(golden):
        return [f"{len(columns)} columns dumped, golden has {len(golden)}"]
    for column, expected in zip(columns, golden):
        name = expected["path"]
        if column is None:
            problems.append(f"{name}: line too long to compare")
            continue
        for key in ("path", "type", "max_def", "max_rep"):
            if column.get(key) != expected[key]:
                problems.append(f"{name}: {key} {column.get(key)!r} != {expected[key]!r}")
        for key in ("def", "rep"):
            if key in expected and column.get(key) != expected[key]:
                got = column.get(key) or []
                first = next((i for i, (a, b) in enumerate(zip(got, expected[key])) if a != b),
                             min(len(got), len(expected[key])))
                problems.append(f"{name}: {key} differs at {first} "
                                f"(lengths {len(got)} / {len(expected[key])})")
        values = column.get("values", [])
        if expected.get("values") is None:
            if len(values) != expected.get("count"):
                problems.append(f"{name}: {len(values)} values, golden count {expected.get('count')}")
            continue
        if len(values) != len(expected["values"]):
            problems.append(f"{name}: {len(values)} values, golden has {len(expected['values'])}")
            continue
        for i, (want, got) in enumerate(zip(expected["values"], values)):
            if not same_value(expected["type"], want, got):
                problems.append(f"{name}: value {i} is {got!r}, golden {want!r}")
                break
    return problems


# Lines longer than this (a column of GiB-sized strings) are checked for their frame only.
MAX_PARSED_LINE = 256 << 20


def parse_dump(dump_path):
    columns = []
    problems = []
    with open(dump_path) as handle:
        for line in handle:
            if len(line) > MAX_PARSED_LINE:
                if not (line.startswith('{"path":"') and line.endswith("]}\n")):
                    problems.append("a long line is not one JSON object")
                columns.append(None)
                continue
            column = json.loads(line)
            problems += [f"{column.get('path')}: {p}" for p in check_format(line, column)]
            columns.append(column)
    return columns, problems


def main():
    tool, shared, scratch = sys.argv[1], sys.argv[2], sys.argv[3]
    root = os.path.join(shared, "parquet-testing")
    if not os.path.isdir(root):
        print(f"skipped: every check needs {root}, which is missing (see README: reference files)")
        return 77
    data_dir = os.path.join(root, "data")
    golden_dir = os.path.join(root, "golden")
    bad_dir = os.path.join(root, "bad_data")
    os.makedirs(scratch, exist_ok=True)
    dump_path = os.path.join(scratch, "dump.jsonl")
    rows = []
    failures = 0

    for name in sorted(os.listdir(data_dir)):
        if not name.endswith(".parquet"):
            continue
        path = os.path.join(data_dir, name)
        problems = []
        verdict = ""
        if name == "datapage_v1-corrupt-checksum.parquet":
            refused = run_dump(tool, path)
            if refused.returncode != 1 or "CRC" not in refused.stderr:
                problems.append(f"with verification: exit {refused.returncode}, "
                                f"stderr {refused.stderr.strip()!r}")
            result = run_dump(tool, path, "--no-verify-checksums", output=dump_path)
            verdict = "refused with CRC check, decodes without"
        else:
            result = run_dump(tool, path, output=dump_path)
        if result.returncode != 0:
            problems.append(f"exit {result.returncode}: {result.stderr.strip().splitlines()[0] if result.stderr.strip() else ''}")
        else:
            columns, format_problems = parse_dump(dump_path)
            problems += format_problems
            golden_path = os.path.join(golden_dir, name[:-len(".parquet")] + ".golden.json")
            if os.path.exists(golden_path):
                with open(golden_path) as handle:
                    problems += compare_with_golden(columns, json.load(handle))
                verdict = verdict or "decodes, equals golden"
            else:
                verdict = verdict or f"decodes ({len(columns)} columns, no golden)"
        if problems:
            failures += 1
            verdict = "FAIL: " + "; ".join(problems[:5])
        rows.append(("data", name, verdict))

    for name in sorted(os.listdir(bad_dir)):
        path = os.path.join(bad_dir, name)
        try:
            result = run_dump(tool, path)
        except subprocess.TimeoutExpired:
            failures += 1
            rows.append(("bad_data", name, "FAIL: hung"))
            continue
        message = result.stderr.strip()
        if result.returncode == 1 and message and "\n" not in message:
            rows.append(("bad_data", name, "clean error: " + message))
        else:
            failures += 1
            rows.append(("bad_data", name,
                         f"FAIL: exit {result.returncode}, stderr {message[:300]!r}"))

    if os.path.exists(dump_path):
        os.remove(dump_path)
    width = max(len(name) for _, name, _ in rows)
    for folder, name, verdict in rows:
        print(f"{folder:9} {name:{width}}  {verdict}")
    print(f"{len(rows) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
