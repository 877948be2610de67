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


def duckdb_disagreements(entry, columns):
    """DuckDB's own read of its file against pqpage's dump, for the INT32 columns whose V2 delta
    miniblocks are 33 bits wide: both must hold the same values (and the table's)."""
    import duckdb
    dumped = {c["path"]: c["values"] for c in columns}
    problems = []
    con = duckdb.connect()
    for path, query in (("i32_req", "SELECT i32_req FROM read_parquet(?)"),
                        ("lst.list.element", "SELECT unnest(lst) AS v FROM read_parquet(?)")):
        values = [row[0] for row in con.execute(query, [entry["path"]]).fetchall()
                  if row[0] is not None]
        if values != dumped.get(path):
            problems.append(f"{path}: DuckDB reads {values[:5]}..., pqpage dumps "
                            f"{(dumped.get(path) or [])[:5]}...")
    con.close()
    return problems


def check(tool, entry):
    import peer_table as T
    p = T.PROFILES[entry["profile"]]
    expected = T.expected_dump(p)
    columns, error = C.dump(tool, entry["path"])
    if error:
        return "FAIL", error, ""
    problems = T.compare_dump(expected, columns)
    if entry["profile"] == "duckdb_v2":
        problems += duckdb_disagreements(entry, columns)
    info, error = C.inspect(tool, entry["path"])
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
    return "pass", "", encodings


def main(tool, scratch):
    import peer_writers as W
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
    return matrix.finish(scratch, start)


if __name__ == "__main__":
    sys.exit(C.main_in_venv(main))
