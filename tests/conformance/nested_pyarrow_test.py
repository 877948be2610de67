"""The nested reference files (lists, maps, structs, legacy list layouts) against what pyarrow
reads: for every leaf column, the present values pqpage dumps must be the values pyarrow finds at
that leaf, in order, and the rows the repetition levels start must be pyarrow's rows.

pyarrow's leaves, taken depth first, correspond one to one to Parquet's leaf columns. Flattening
a list drops null and empty lists, and flattening a struct applies the struct's own nulls to its
fields, which is exactly "the leaf values whose definition level is the maximum".

Called by ctest as: nested_pyarrow_test.py TOOL SHARED_DIR SCRATCH_DIR. It re-runs itself with
the peers' virtualenv (PQPAGE_PEERS_VENV, made by test.sh). Exits 77 (skipped) without
SHARED_DIR/parquet-testing, or without the venv outside CI; in CI a missing venv is a failure.
"""

import json
import math
import os
import struct
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "peers"))
from peers_venv import reexec_in_venv  # noqa: E402

# A map of two 1 GiB strings: its values are checked by parquet_testing_test's decode; comparing
# them through pyarrow would only measure memory.
TOO_LARGE = {"large_string_map.brotli.parquet"}


def arrow_leaves(array):
    import pyarrow as pa
    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks()
    kind = array.type
    if pa.types.is_dictionary(kind):
        return [array.dictionary_decode()]
    if pa.types.is_map(kind):
        return arrow_leaves(array.keys) + arrow_leaves(array.items)
    if pa.types.is_list(kind) or pa.types.is_large_list(kind) or pa.types.is_fixed_size_list(kind):
        return arrow_leaves(array.flatten())
    if pa.types.is_struct(kind):
        leaves = []
        for field in array.flatten():
            leaves += arrow_leaves(field)
        return leaves
    if pa.types.is_temporal(kind):
        # The stored integers: converting far-out dates to Python objects overflows.
        return [array.cast(pa.int32() if kind.bit_width == 32 else pa.int64())]
    return [array]


def float_bits(value, width):
    if isinstance(value, str):
        if value == "NaN":
            return "NaN"
        value = float(value.replace("Infinity", "inf"))
    if math.isnan(value):
        return "NaN"
    return struct.pack("<f" if width == 4 else "<d", value)


def comparable(arrow_value, physical_type):
    """The dump's form of a pyarrow value, or None when pyarrow applied a logical type."""
    if isinstance(arrow_value, bool):
        return arrow_value if physical_type == "BOOLEAN" else None
    if isinstance(arrow_value, int) and physical_type in ("INT32", "INT64"):
        return arrow_value
    if isinstance(arrow_value, float) and physical_type in ("FLOAT", "DOUBLE"):
        return float_bits(arrow_value, 4 if physical_type == "FLOAT" else 8)
    if isinstance(arrow_value, bytes):
        return arrow_value.hex()
    if isinstance(arrow_value, str) and physical_type == "BYTE_ARRAY":
        return arrow_value.encode("utf-8").hex()
    return None


def check_file(tool, path):
    import pyarrow.parquet as pq
    dump = subprocess.run([tool, "dump", path], capture_output=True, text=True, timeout=300)
    if dump.returncode != 0:
        return [f"dump failed: {dump.stderr.strip()}"], 0
    columns = [json.loads(line) for line in dump.stdout.splitlines()]
    table = pq.read_table(path)
    leaves = []
    for column in table.columns:
        leaves += arrow_leaves(column)
    if len(leaves) != len(columns):
        return [f"pyarrow has {len(leaves)} leaves, pqpage dumped {len(columns)} columns"], 0
    problems = []
    compared = 0
    for column, leaf in zip(columns, leaves):
        name = column["path"]
        if column["max_rep"] > 0:
            rows = sum(1 for level in column["rep"] if level == 0)
        else:
            rows = len(column.get("def", column["values"]))
        if rows != table.num_rows:
            problems.append(f"{name}: {rows} rows, pyarrow {table.num_rows}")
        expected = [v for v in leaf.to_pylist() if v is not None]
        values = column["values"]
        if len(expected) != len(values):
            problems.append(f"{name}: {len(values)} values, pyarrow {len(expected)}")
            continue
        physical_type = column["type"]
        for i, (want, got) in enumerate(zip(expected, values)):
            want = comparable(want, physical_type)
            if want is None:
                break  # a logical type pyarrow applied: the count above is the check
            if physical_type in ("FLOAT", "DOUBLE"):
                got = float_bits(got, 4 if physical_type == "FLOAT" else 8)
            if want != got:
                problems.append(f"{name}: value {i} is {got!r}, pyarrow {want!r}")
                break
        else:
            compared += 1
    return problems, compared


def main():
    tool, shared = sys.argv[1], sys.argv[2]
    data = os.path.join(shared, "parquet-testing", "data")
    if not os.path.isdir(data):
        print(f"skipped: {data} is missing")
        return 77
    status = reexec_in_venv()
    if status is not None:
        return status
    failures = 0
    checked = 0
    for name in sorted(os.listdir(data)):
        if not name.endswith(".parquet") or name in TOO_LARGE:
            continue
        path = os.path.join(data, name)
        dump = subprocess.run([tool, "dump", path], capture_output=True, text=True, timeout=300)
        if dump.returncode != 0:
            continue  # parquet_testing_test reports files that do not decode
        nested = any(json.loads(line)["max_rep"] > 0 or "." in json.loads(line)["path"]
                     for line in dump.stdout.splitlines())
        if not nested:
            continue
        try:
            problems, compared = check_file(tool, path)
        except Exception as error:  # pyarrow refuses some legacy layouts: nothing to compare
            print(f"{name:40} not compared, pyarrow cannot read it: {type(error).__name__}: "
                  f"{error}")
            continue
        checked += 1
        if problems:
            failures += 1
            print(f"{name:40} FAIL: " + "; ".join(problems[:5]))
        else:
            print(f"{name:40} rows and leaf values equal pyarrow's "
                  f"({compared} leaves compared by value)")
    print(f"{checked - failures} passed, {failures} failed")
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
