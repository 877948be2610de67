"""The nested reference files (lists, maps, structs, legacy list layouts), and the nested peer
files shipped in testfiles/peers, against what pyarrow reads: for every leaf column, the present
values pqpage dumps must be the values pyarrow finds at that leaf, in order, and the rows the
repetition levels start must be pyarrow's rows.

The leaf extraction and the physical-form comparison are tests/peers/leaf_values.py's (shared
with tests/interop/peer_options_test.py).

Called by ctest as: nested_pyarrow_test.py TOOL SHARED_DIR SCRATCH_DIR. It re-runs itself with
the peers' virtualenv (PQPAGE_PEERS_VENV, made by test.sh). Exits 77 (skipped) without the venv
outside CI; in CI a missing venv is a failure. Without SHARED_DIR/parquet-testing only the shipped
files are compared, and one line says the reference files were skipped.
"""

import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "peers"))
from peers_venv import reexec_in_venv  # noqa: E402
from leaf_values import compare_leaves  # noqa: E402

# A map of two 1 GiB strings: its values are checked by parquet_testing_test's decode; comparing
# them through pyarrow would only measure memory.
TOO_LARGE = {"large_string_map.brotli.parquet"}


def check_file(tool, path):
    import pyarrow.parquet as pq
    dump = subprocess.run([tool, "dump", path], capture_output=True, text=True, timeout=300)
    if dump.returncode != 0:
        return [f"dump failed: {dump.stderr.strip()}"], 0
    columns = [json.loads(line) for line in dump.stdout.splitlines()]
    # Leaves whose values pyarrow gives in a logical form are checked by count only.
    problems, compared, _ = compare_leaves(columns, pq.read_table(path))
    return problems, compared


def main():
    tool, shared = sys.argv[1], sys.argv[2]
    status = reexec_in_venv()
    if status is not None:
        return status
    peers = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "testfiles",
                         "peers")
    paths = [os.path.join(peers, name) for name in sorted(os.listdir(peers))]
    data = os.path.join(shared, "parquet-testing", "data")
    if os.path.isdir(data):
        paths += [os.path.join(data, name) for name in sorted(os.listdir(data))]
    else:
        print(f"skipped: the nested reference files, as {data} is missing "
              "(see README: reference files)")
    failures = 0
    checked = 0
    for path in paths:
        name = os.path.basename(path)
        if not name.endswith(".parquet") or name in TOO_LARGE:
            continue
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
