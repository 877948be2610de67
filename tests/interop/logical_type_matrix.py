"""The logical type matrix: which of pyarrow, DuckDB and polars read each (physical type, logical
type, nesting, data page version, encoding) that pqpage writes, with the right values.

For every case of logical_type_cases.py, its source file (written by pyarrow, PLAIN, annotated)
is recoded by pqpage with the case's leaf in each encoding pqpage writes for its physical type
(`recode --encoding plain --column-encoding LEAF=POLICY --page-version V`; `pqpage inspect`
confirms the leaf's data pages use exactly that encoding). Each peer reads every file (in a
worker process of its own, so a crash costs one cell) and compares it with its own read of the
source. A cell is:
  reads     the same values as from the source
  refuses   an error (the peer's words are kept in "why")
  wrong     other values than from the source, without an error
  crashes   the peer's process died
  no type   the peer does not read the source itself: it does not know the type in any encoding

The committed table is logical_type_matrix.json (one row per line); regenerate it with
  PQPAGE_PEERS_VENV=... python3 tests/interop/logical_type_matrix.py TOOL
and logical_type_matrix_test.py checks both that the peers still behave as it says and that the
library's PeersRefusing (through `pqpage advise --json`) says the same.
"""

import json
import os
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import interop_common as C  # noqa: E402
import logical_type_cases as L  # noqa: E402

PEERS = ["pyarrow", "duckdb", "polars"]
TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "logical_type_matrix.json")
# A cell's verdicts that mean the peer does not read the encoding for the column.
NOT_READ = ("refuses", "wrong", "crashes")


def row_key(row):
    return (row["physical"], row["logical"], row["nesting"], row["page_version"],
            row["encoding"])


def _recode(tool, source, out, nesting, encoding, version):
    """None, or why pqpage did not write the leaf in `encoding`."""
    leaf = L.LEAF_PATH[nesting]
    args = ["recode", source, out, "--encoding", "plain", "--compression", "uncompressed",
            "--page-version", str(version),
            "--column-encoding", f"{leaf}={L.POLICY_OF[encoding]}"]
    if encoding == "RLE":
        args += ["--auto-encodings", "all"]
    result = C.run_tool(tool, *args)
    if result.returncode != 0:
        return f"pqpage recode exit {result.returncode}: {result.stderr.strip()[:300]}"
    info, error = C.inspect(tool, out)
    if error:
        return error
    written = sorted({e["encoding"] for rg in info["row_groups"] for col in rg["columns"]
                      if col["path"] == leaf for e in col["page_encodings"]
                      if e["page_type"] != "DICTIONARY_PAGE"})
    if written != [encoding]:
        return f"pqpage wrote {written} for {leaf}, not {encoding}"
    return None


def worker_main(peer):
    """Reads 'BASELINE\tPATH' lines from stdin and answers one JSON line each: PATH empty, whether
    the peer reads BASELINE ({"verdict": "pass"} or the error); else PATH's read compared with
    BASELINE's ({"verdict": "pass" | "FAIL" | "unsupported", "detail": ...})."""
    import peer_readers as R
    baselines = {}
    for line in sys.stdin:
        baseline, path = line.rstrip("\n").split("\t")
        try:
            if baseline not in baselines:
                baselines[baseline] = R.read(peer, baseline)
            if not path:
                result = {"verdict": "pass", "detail": ""}
            else:
                got = R.read(peer, path)
                same = R.same(peer, baselines[baseline], got)
                result = {"verdict": "pass" if same else "FAIL",
                          "detail": "" if same else
                          f"values differ: {R.diff(peer, baselines[baseline], got)}"}
        except Exception as error:  # noqa: BLE001
            verdict, text = R.classify_error(error)
            result = {"verdict": verdict, "detail": text}
        print(json.dumps(result), flush=True)


class Worker:
    """A worker_main process of one peer, started again after a crash."""

    def __init__(self, peer):
        from peer_worker import PeerProcess
        self.peer = peer
        self._process = PeerProcess(os.path.abspath(__file__), [peer])

    def ask(self, baseline, path=""):
        return self._process.ask([baseline, path])

    def close(self):
        self._process.close()


def _verdict(answer, baseline):
    """The cell for a peer's answer on a file, given its answer on the source."""
    if baseline["verdict"] != "pass":
        return "no type", baseline["detail"]
    verdict, detail = answer["verdict"], answer["detail"]
    if verdict == "pass":
        return "reads", ""
    if verdict == "crash":
        return "crashes", detail
    if detail.startswith("values differ"):
        return "wrong", detail
    return "refuses", detail


def measure(tool, scratch, nestings=L.NESTINGS, versions=(1, 2)):
    """(rows, problems): the matrix's rows, sorted, and the cases pqpage could not write."""
    start = time.time()
    sources = L.write_sources(os.path.join(scratch, "sources"), nestings)
    out_dir = os.path.join(scratch, "written")
    os.makedirs(out_dir, exist_ok=True)
    jobs = []
    for physical, logical, nesting, source in sources:
        for version in versions:
            for encoding in L.ENCODINGS[physical]:
                name = os.path.basename(source)[:-len(".parquet")]
                out = os.path.join(out_dir, f"{name}-v{version}-{encoding}.parquet")
                jobs.append(((physical, logical, nesting, version, encoding), source, out))
    with ThreadPoolExecutor(max_workers=2) as pool:
        made = list(pool.map(lambda job: _recode(tool, job[1], job[2], job[0][2], job[0][4],
                                                 job[0][3]), jobs))
    print(f"{len(jobs)} files written by pqpage in {time.time() - start:.1f}s", flush=True)

    def read_all(peer):
        worker = Worker(peer)
        baselines = {source: worker.ask(source) for *_, source in sources}
        answers = [None if error else (worker.ask(source, out), baselines[source])
                   for (_, source, out), error in zip(jobs, made)]
        worker.close()
        return answers

    with ThreadPoolExecutor(max_workers=len(PEERS)) as pool:
        reads = dict(zip(PEERS, pool.map(read_all, PEERS)))
    print(f"read by {', '.join(PEERS)} after {time.time() - start:.1f}s", flush=True)
    rows, problems = [], []
    for k, ((key, source, out), error) in enumerate(zip(jobs, made)):
        if error:
            problems.append(f"{key}: {error}")
            continue
        row = dict(zip(("physical", "logical", "nesting", "page_version", "encoding"), key))
        why = {}
        for peer in PEERS:
            row[peer], detail = _verdict(*reads[peer][k])
            if detail:
                why[peer] = detail[:160]
        if why:
            row["why"] = why
        rows.append(row)
    rows.sort(key=lambda r: (list(L.ENCODINGS).index(r["physical"]), r["logical"],
                             L.NESTINGS.index(r["nesting"]), r["page_version"],
                             L.ENCODINGS[r["physical"]].index(r["encoding"])))
    return rows, problems


def save(rows, path=TABLE):
    with open(path, "w") as handle:
        handle.write("[\n")
        handle.write(",\n".join(json.dumps(row, ensure_ascii=False) for row in rows))
        handle.write("\n]\n")


def load(path=TABLE):
    with open(path) as handle:
        return json.load(handle)


def main(tool, scratch):
    rows, problems = measure(tool, scratch)
    for problem in problems:
        print(f"not written: {problem}")
    if problems:
        return 1
    save(rows)
    refused = [r for r in rows if any(r[p] in NOT_READ for p in PEERS)]
    print(f"{len(rows)} rows written to {TABLE}; {len(refused)} with a peer that does not read")
    return 0


if __name__ == "__main__" and len(sys.argv) == 3 and sys.argv[1] == "--worker":
    worker_main(sys.argv[2])
elif __name__ == "__main__":
    # python3 logical_type_matrix.py TOOL [SCRATCH]: regenerates logical_type_matrix.json.
    if len(sys.argv) == 2:
        sys.argv.append("-")
    if len(sys.argv) == 3:
        sys.argv.append(tempfile.mkdtemp(prefix="logical_type_matrix-"))
    sys.exit(C.main_in_venv(main))
