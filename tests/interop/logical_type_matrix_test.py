"""The logical type matrix (logical_type_matrix.py) measured again and held to its committed table,
tests/interop/logical_type_matrix.json, and the library held to the table too.

1. Peers: every case of logical_type_cases.py, in every encoding pqpage writes for its physical
   type, flat, in a list and in a map, in data pages v1 and v2, is read by pyarrow, DuckDB and
   polars; each cell (reads / refuses / wrong / crashes / no type) must be the table's. A
   difference means a peer changed: regenerate the table (logical_type_matrix.py) and make the
   library agree.
2. Library: `pqpage advise --json` on one file holding every case (per nesting and page version)
   lists, per column, the peers refusing each encoding (pqpage/peer_readers.h PeersRefusing) and
   the encodings auto's interoperable set offers. The peers refusing must be exactly the table's
   (a "no type" peer reads no encoding of the type and is not listed), and the interoperable set
   exactly the encodings no peer refuses, less RLE booleans in data page v1 (kept out on purpose:
   see InteroperableEncoding).
3. The promise itself: `pqpage recode` with its defaults (auto, interoperable) of the file of
   every case, v1 and v2, reads in every peer column by column as the source does. The cases
   whose type a peer reads in no encoding are left out of that file (DuckDB refuses a whole file
   with a BSON column, whichever columns are asked for).

Needs only the tool and the peers (files are generated here), not ../shared.
Called by ctest as: logical_type_matrix_test.py TOOL SHARED_DIR SCRATCH_DIR. Under
PQPAGE_SANITIZER_BUILD=1 only the flat columns are measured.
"""

import json
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import interop_common as C  # noqa: E402
import logical_type_cases as L  # noqa: E402
import logical_type_matrix as M  # noqa: E402

VERSIONS = (1, 2)


def check_peers(rows, table, nestings):
    """Differences between the rows measured and the table's rows for the same nestings."""
    want = {M.row_key(r): r for r in table if r["nesting"] in nestings}
    got = {M.row_key(r): r for r in rows}
    problems = []
    for key in sorted(set(want) | set(got), key=str):
        if key not in got:
            problems.append(f"{key}: in the table, not measured")
        elif key not in want:
            problems.append(f"{key}: measured, not in the table")
        else:
            for peer in M.PEERS:
                if want[key][peer] != got[key][peer]:
                    problems.append(f"{key}: {peer} {got[key][peer]}, the table says "
                                    f"{want[key][peer]} ({got[key].get('why', {}).get(peer, '')})")
    return problems


def check_library(tool, scratch, table, nestings):
    """Differences between pqpage advise's peers_refusing / interoperable and the table."""
    problems = []
    jobs = []
    for nesting in nestings:
        path = os.path.join(scratch, f"combined-{nesting}.parquet")
        L.write_combined(path, nesting)
        jobs += [(nesting, path, version) for version in VERSIONS]
    # advise times every candidate's decode for 20 ms at least: two at a time.
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda job: C.run_tool(tool, "advise", job[1], "--json",
                                                       "--page-version", str(job[2])), jobs))
    for (nesting, path, version), result in zip(jobs, results):
        if result.returncode != 0:
            problems.append(f"advise {path} exit {result.returncode}: "
                            f"{result.stderr.strip()[:300]}")
            continue
        columns = {c["path"]: c for c in json.loads(result.stdout)["columns"]}
        for k, (physical, logical, _, _) in enumerate(L.CASES):
            leaf = L.LEAF_PATH[nesting].replace("v", L.combined_column(k), 1)
            column = columns.get(leaf)
            where = f"{physical} {logical or '(none)'} {nesting} v{version}"
            if column is None or "peers_refusing" not in column:
                problems.append(f"{where}: advise shows no peers_refusing for {leaf}")
                continue
            rows = [r for r in table if (r["physical"], r["logical"], r["nesting"],
                                         r["page_version"]) ==
                    (physical, logical, nesting, version)]
            readable = set()
            for row in rows:
                want = [p for p in M.PEERS if row[p] in M.NOT_READ]
                got = column["peers_refusing"].get(row["encoding"])
                if got != want:
                    problems.append(f"{where} {row['encoding']}: the library says "
                                    f"{got} refuse, the table {want}")
                if not want:
                    readable.add(row["encoding"])
            if version == 1:
                readable.discard("RLE")  # not offered in v1 pages on purpose
            offered = set(column.get("interoperable", []))
            if offered != readable:
                problems.append(f"{where}: auto's interoperable set {sorted(offered)}, "
                                f"every peer reads {sorted(readable)}")
    return problems


def check_auto(tool, scratch, table, nestings):
    """Columns of auto's recodes that a peer reads otherwise than the source."""
    import peer_readers as R
    problems = []
    no_type = {(r["physical"], r["logical"], r["nesting"]) for r in table
               if any(r[p] == "no type" for p in M.PEERS)}
    for nesting in nestings:
        source = os.path.join(scratch, f"readable-{nesting}.parquet")
        skip = {k for k, case in enumerate(L.CASES) if (case[0], case[1], nesting) in no_type}
        L.write_combined(source, nesting, skip)
        for version in VERSIONS:
            out = os.path.join(scratch, f"combined-{nesting}-auto-v{version}.parquet")
            result = C.run_tool(tool, "recode", source, out, "--page-version", str(version))
            if result.returncode != 0:
                problems.append(f"recode {source} exit {result.returncode}: "
                                f"{result.stderr.strip()[:300]}")
                continue
            for peer in M.PEERS:
                for k, (physical, logical, _, _) in enumerate(L.CASES):
                    if k in skip:
                        continue
                    column = L.combined_column(k)
                    try:
                        want = R.read(peer, source, [column])
                        got = R.read(peer, out, [column])
                        verdict = "" if R.same(peer, want, got) else R.diff(peer, want, got)
                    except BaseException as error:  # noqa: BLE001 (polars panics are not Exceptions)
                        verdict = f"{type(error).__name__}: {str(error)[:200]}"
                    if verdict:
                        problems.append(f"auto v{version} {physical} {logical or '(none)'} "
                                        f"{nesting}: {peer}: {verdict} [reproduce: {tool} recode "
                                        f"{source} OUT --page-version {version}]")
    return problems


def main(tool, scratch):
    start = time.time()
    nestings = ["flat"] if C.sanitizer_build() else L.NESTINGS
    table = M.load()
    rows, problems = M.measure(tool, scratch, nestings, VERSIONS)
    problems = [f"pqpage did not write {p}" for p in problems]
    peer_problems = check_peers(rows, table, nestings)
    library_problems = check_library(tool, scratch, table, nestings)
    library_problems += check_auto(tool, scratch, table, nestings)
    for problem in problems + peer_problems + library_problems:
        print(f"FAIL: {problem}")
    refused = sum(1 for r in rows if any(r[p] in M.NOT_READ for p in M.PEERS))
    print(f"{len(rows)} cells measured ({refused} with a peer that does not read); "
          f"{len(peer_problems)} differ from the table, {len(library_problems)} library "
          f"disagreements; runtime {time.time() - start:.1f}s")
    return 1 if problems or peer_problems or library_problems else 0


if __name__ == "__main__":
    sys.exit(C.main_in_venv(main))
