"""Direction 1: files the peers write, pqpage reads.

Every peer (pyarrow, DuckDB, polars, fastparquet) writes the table of peer_table.py with every
encoding, page version and codec it can be asked for (peer_writers.py); `pqpage dump` of each file
must equal, column by column, the physical values and levels peer_table.expected_dump gives for
that peer's profile. `pqpage inspect --json` records the encodings each file really holds, so the
matrix shows what was tested.

Called by ctest as: peers_write_pqpage_reads_test.py TOOL SHARED_DIR SCRATCH_DIR. Re-runs itself
in the peers' virtualenv (PQPAGE_PEERS_VENV). Under PQPAGE_SANITIZER_BUILD=1 a reduced matrix
(one codec per page version).
"""

import json
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import interop_common as C  # noqa: E402


def check_nonconformant(tool, entry, expected, bad):
    """A file with columns the peer wrote invalidly: each column dumped on its own; the invalid
    ones must be refused by pqpage with the expected error and by pyarrow too."""
    import pyarrow.parquet as pq
    import peer_table as T
    problems, notes, columns = [], [], []
    for want in expected:
        path = want["path"]
        result = C.run_tool(tool, "dump", entry["path"], "--column", path)
        if path in bad:
            if result.returncode == 0 or bad[path] not in result.stderr:
                problems.append(f"{path}: expected pqpage to refuse it with '{bad[path]}', got "
                                f"exit {result.returncode} {result.stderr.strip()[:200]!r}")
                continue
            try:
                pq.read_table(entry["path"], columns=[path.split(".")[0]])
                problems.append(f"{path}: pqpage refuses it ({bad[path]}) but pyarrow reads it")
            except OSError as error:
                notes.append(f"{path} non-conformant, refused by pqpage ('{bad[path]}') and by "
                             f"pyarrow ('{error}')")
            continue
        if result.returncode != 0:
            problems.append(f"{path}: pqpage dump exit {result.returncode}: "
                            f"{result.stderr.strip()[:300]}")
            continue
        columns.append(json.loads(result.stdout))
        problems += T.compare_dump([want], columns[-1:])
    return problems, notes


def check(tool, entry):
    import peer_table as T
    p = T.PROFILES[entry["profile"]]
    expected = T.expected_dump(p)
    notes = []
    if p["nonconformant"]:
        problems, notes = check_nonconformant(tool, entry, expected, p["nonconformant"])
    else:
        columns, error = C.dump(tool, entry["path"])
        if error:
            return "FAIL", error, ""
        problems = T.compare_dump(expected, columns)
    info, error = C.inspect(tool, entry["path"])
    if info is not None and error and p["nonconformant"]:
        unexpected = {path: errors for path, errors in C.page_errors(info).items()
                      if path not in p["nonconformant"]}
        error = f"pqpage inspect: pages not decoded: {unexpected}" if unexpected else None
    if error or info is None:
        problems.append(error)
        encodings = ""
    else:
        found = set()
        for encs in C.page_encodings(info).values():
            found.update(encs)
        codecs = {c["codec"] for rg in info["row_groups"] for c in rg["columns"]}
        encodings = (f"{C.page_types(info)} pages, {'+'.join(sorted(codecs))}: "
                     f"{' '.join(sorted(found))}")
    if problems:
        return "FAIL", "; ".join(problems[:6]), encodings
    if notes:
        return "peer_bug", "; ".join(notes), encodings
    return "pass", "", encodings


def main():
    status = C.reexec_in_venv()
    if status is not None:
        return status
    import peer_writers as W
    tool, _shared, scratch = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(scratch, exist_ok=True)
    start = time.time()
    reduced = C.sanitizer_build()
    files = os.path.join(scratch, "peer_files")
    manifest = W.write_all(files, reduced=reduced)
    print(f"{len(manifest)} peer files written in {time.time() - start:.1f}s "
          f"({'reduced' if reduced else 'full'} matrix)")
    matrix = C.Matrix("Direction 1: peers write, pqpage dump reads (values and levels equal the "
                      "expected physical table)",
                      ["peer", "encoding options", "page version", "codec",
                       "file holds (codec: page encodings)"])
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda e: check(tool, e), manifest))
    for entry, (verdict, detail, encodings) in zip(manifest, results):
        if verdict == "FAIL":
            detail = (f"{detail} [reproduce: {tool} dump {entry['path']}; file written by "
                      f"peer_writers.py, {entry['peer']} options {entry['options']}]")
        matrix.add([entry["peer"], entry["encoding"], f"v{entry['page_version']}",
                    entry["codec"], encodings], verdict, detail)
    print(matrix.summary())
    print(f"runtime {time.time() - start:.1f}s")
    matrix.write(scratch)
    return 1 if matrix.failed else 0


if __name__ == "__main__":
    sys.exit(main())
