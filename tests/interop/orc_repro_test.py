"""The ORC files of issue 23 (../shared/repro, real files of other writers) against pyarrow.orc
(Apache ORC C++), both ways.

Reading: for every ORC file pyarrow reads, `pqpage dump` must equal what pyarrow reads, column
by column (orc_pyarrow_test.py's comparison: definition levels, values exactly). A file pyarrow
refuses is held to what ORC's own readers do, as the repro README says: the timestamp root dumps
its 12 values (those ORC C++ reads, through pyorc); the timestamp before 1677, which int64
nanoseconds cannot hold, is refused with an error naming its seconds, not printed wrapped; a file
whose columns are all under lists says so instead of printing nothing.

Writing: `pqpage recode` of every file must read back in pyarrow equal to the original, schema
metadata included (pyarrow shows the ORC type attributes as field metadata), and `pqpage inspect
--json` of the recode must show the same columns and attributes (for the files pyarrow refuses
too). LZO is also recoded to zstd, and the encrypted file keeps its masked values.

Called by ctest as: orc_repro_test.py TOOL SHARED_DIR SCRATCH_DIR; exit 77 without
SHARED_DIR/repro.
"""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import interop_common as C  # noqa: E402
import orc_pyarrow_test as P  # noqa: E402

# pyarrow reads ORC's TIMESTAMP_INSTANT (Iceberg's timestamptz) as a timestamp in UTC.
P.ORC_KIND["timestamp[ns, tz=UTC]"] = "TIMESTAMP_INSTANT"

# The files pyarrow refuses, and what pqpage dump must do instead.
TIMESTAMP_ROOT = "orc_timestamp_root.orc"
OUT_OF_RANGE = "orc_out_of_range_timestamp.orc"
# ORC C++ (pyorc 0.12, in UTC; its datetimes stop at microseconds) reads the timestamp root, written
# in US/Pacific, as these microseconds from 1970.
TIMESTAMP_ROOT_MICROS = [
    2114380800000999, 1041379200000000, 915148800999999, 788918400688888, 1009843200100000,
    1267488000000009, 1104537600000002, 1136073600900203, 1041379200800000, 838944000723100,
    909964800857340, 1222905600000000]


def schema_of(tool, path):
    """[(kind, path, attributes)] from `pqpage inspect --json`, or the error."""
    info, error = C.inspect(tool, path)
    if error:
        return None, error
    return [(c["kind"], c["path"], c.get("attributes")) for c in info["columns"]], None


def check_refused_files(tool, repro, matrix):
    columns, error = C.dump(tool, os.path.join(repro, TIMESTAMP_ROOT))
    problem = error or ""
    if not problem:
        if [c["path"] for c in columns] != [""] or columns[0]["type"] != "TIMESTAMP":
            problem = f"columns {[(c['path'], c['type']) for c in columns]}"
        elif [v // 1000 for v in columns[0]["values"]] != TIMESTAMP_ROOT_MICROS or \
                columns[0]["def"] != [1] * 12:
            problem = f"values {columns[0]['values']}"
    matrix.add([TIMESTAMP_ROOT, "pqpage dump = ORC C++ (pyarrow refuses a non-struct root)"],
               "FAIL" if problem else "pass", problem)

    result = C.run_tool(tool, "dump", os.path.join(repro, OUT_OF_RANGE))
    problem = ""
    if result.returncode != 1 or result.stdout:
        problem = f"exit {result.returncode}, {len(result.stdout)} bytes printed"
    elif "-21143116800 s" not in result.stderr:
        problem = f"the error does not name the seconds: {result.stderr.strip()}"
    matrix.add([OUT_OF_RANGE, "pqpage dump refuses it, naming the seconds (pyarrow refuses it)"],
               "FAIL" if problem else "pass", problem)


def check_recode(tool, scratch, path, name, matrix, original, args):
    import pyarrow.orc as orc
    out = os.path.join(scratch, name + ".recoded.orc")
    result = C.run_tool(tool, "recode", path, out, "--verify", *args)
    check = " ".join(["recode --verify", *args])
    if result.returncode != 0:
        matrix.add([name, check], "FAIL", f"exit {result.returncode}: {result.stderr.strip()}")
        return
    want, error = schema_of(tool, path)
    got, error_out = schema_of(tool, out)
    problem = error or error_out or ("" if want == got else f"inspect shows {got}, not {want}")
    if not problem and original is not None:
        try:
            recoded = orc.read_table(out)
            if not recoded.schema.equals(original.schema, check_metadata=True):
                problem = f"pyarrow reads the schema {recoded.schema}, not {original.schema}"
            elif P.differing_columns(original, recoded):
                problem = f"pyarrow reads other values in {P.differing_columns(original, recoded)}"
        except Exception as e:  # noqa: BLE001 - any reader error is the finding
            problem = f"pyarrow.orc cannot read it: {e}"
    reader = "pyarrow.orc and pqpage inspect" if original is not None else "pqpage inspect"
    matrix.add([name, f"{check}, read back by {reader}"], "FAIL" if problem else "pass", problem)
    os.remove(out)


def main(tool, scratch):
    import pyarrow.orc as orc

    start = time.time()
    repro = os.path.join(sys.argv[2], "repro")
    matrix = C.Matrix("ORC: issue 23's files, pqpage against pyarrow.orc", ["file", "check"])
    check_refused_files(tool, repro, matrix)
    for name in sorted(n for n in os.listdir(repro) if n.endswith(".orc")):
        path = os.path.join(repro, name)
        try:
            original = orc.read_table(path)
        except Exception:  # noqa: BLE001 - pyarrow refuses it: checked above, recode still is
            original = None
        if original is not None and not P.leaves(original):
            # Every column is under a list: dump prints none and must say so.
            result = C.run_tool(tool, "dump", path)
            problem = "" if result.returncode == 1 and "under a list" in result.stderr \
                else f"exit {result.returncode}: {result.stderr.strip()}"
            matrix.add([name, "pqpage dump says it prints no list (pyarrow reads lists)"],
                       "FAIL" if problem else "pass", problem)
        elif original is not None:
            try:
                problem = P.compare_dump(tool, path, original)
            except Exception as e:  # noqa: BLE001 - a dump the check cannot parse fails it
                problem = f"comparing the dump raised {type(e).__name__}: {e}"
            matrix.add([name, "pqpage dump = pyarrow.orc"], "FAIL" if problem else "pass",
                       problem)
        check_recode(tool, scratch, path, name, matrix, original, [])
        if "lzo" in name:
            check_recode(tool, scratch, path, name, matrix, original, ["--compression", "zstd"])
    return matrix.finish(scratch, start)


if __name__ == "__main__":
    if len(sys.argv) >= 3 and not os.path.isdir(os.path.join(sys.argv[2], "repro")):
        print(f"SKIP: {os.path.join(sys.argv[2], 'repro')} is missing")
        sys.exit(77)
    sys.exit(C.main_in_venv(main))
