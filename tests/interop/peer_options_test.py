"""Direction 1 with the writer options real users set: each peer (pyarrow, DuckDB, polars,
fastparquet) writes a small deterministic table with one option or type (page index, CRCs,
content-defined chunking, bloom filters, page and row-group limits, dictionary limits, per-column
encodings, legacy nested names, decimals as integers, INT96, float16, UUID, INTERVAL, HUGEINT,
ENUM, maps, categoricals, JSON, every codec, zero rows; peer_options_cases.py), and:

1. `pqpage dump` must succeed, and for every leaf column its present values must equal, in order,
   the values a reader finds at that leaf, in their physical form (tests/peers/leaf_values.py);
   its rows (repetition level 0) must be the reader's rows. The reader is pyarrow, or DuckDB for
   a DuckDB file pyarrow cannot read. A leaf whose physical form cannot be derived from the
   reader's value is named in the detail (count and rows still checked).
2. `pqpage inspect --json` must succeed and show that the option had its effect (many pages,
   a dictionary fallback, width-33 delta miniblocks, CRCs, ...): otherwise the case tests nothing
   and fails.
3. `pqpage recode` (defaults, and --page-version 2 --compression zstd) must succeed and dump the
   same levels and values; every peer that reads the original must read the rewrite exactly as it
   reads the original (NaN bitwise). Otherwise pyarrow writes the equivalent file (the reference
   table with the rewrite's encodings, page version and codec: pqpage_writes_peers_read_test's
   control): a peer that fails the same way on it, or reads it exactly as it reads the rewrite
   (so its read of the original is the odd one), has a peer bug, proven; anything else FAILs.

Called by ctest as: peer_options_test.py TOOL SHARED_DIR SCRATCH_DIR; re-runs itself in the
peers' virtualenv (PQPAGE_PEERS_VENV). Under PQPAGE_SANITIZER_BUILD=1 a reduced subset (one
codec per peer). Prints each matrix row as it goes, writes SCRATCH_DIR/matrix.md; exit 0 only
when nothing failed.
"""

import os
import re
import sys
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import interop_common as C  # noqa: E402

RECODES = {"recode defaults": [], "recode v2 zstd": ["--page-version", "2", "--compression", "zstd"]}


def slug(text):
    return re.sub(r"[^A-Za-z0-9]+", "_", text).strip("_")[:60]


def expected_table(case, path):
    """(Arrow table, reader name, note): pyarrow's read; DuckDB's for a DuckDB file pyarrow
    refuses."""
    import pyarrow.parquet as pq
    try:
        return pq.read_table(path), "pyarrow", ""
    except Exception as error:  # noqa: BLE001
        if case["peer"] != "duckdb":
            raise
        import duckdb
        con = duckdb.connect()
        try:
            table = con.sql(f"SELECT * FROM read_parquet('{path}')").to_arrow_table()
        finally:
            con.close()
        return table, "duckdb", f"pyarrow cannot read it ({type(error).__name__}: " \
                                f"{str(error)[:120]}), DuckDB's read is the reference"


def check_dump(case, path, columns):
    """Problems and notes of step 1."""
    import pyarrow.parquet as pq
    from leaf_values import compare_leaves
    table, reader, note = expected_table(case, path)
    schema = pq.ParquetFile(path).schema
    widths = {schema.column(i).path: schema.column(i).length for i in range(len(schema))
              if schema.column(i).physical_type == "FIXED_LEN_BYTE_ARRAY"}
    problems, compared, not_compared = compare_leaves(columns, table, widths)
    notes = [note] if note else []
    notes.append(f"{compared}/{len(columns)} leaves equal {reader}'s by value, {table.num_rows} rows")
    if not_compared:
        notes.append("by count only (no physical form from the reader's value): " +
                     ", ".join(f"{p} ({v})" for p, v in not_compared))
    return problems, notes


def step_pqpage(tool, case, path, out_dir):
    """Steps 1, 2 and the recodes of step 3 (pqpage only): a dict of results."""
    import pyarrow.parquet as pq
    result = {"dump": None, "holds": "", "problems": [], "notes": [], "outs": {}}
    columns, error = C.dump(tool, path)
    if error:
        result["problems"].append(error)
    else:
        try:
            problems, notes = check_dump(case, path, columns)
            result["problems"] += problems
            result["notes"] += notes
        except Exception as error:  # noqa: BLE001
            result["problems"].append(f"no reader could read the file: {type(error).__name__}: "
                                      f"{str(error)[:200]}")
    info, error = C.inspect(tool, path)
    if error or info is None:
        result["problems"].append(error or "pqpage inspect failed")
    else:
        try:
            problem, holds = case["effect"](info, pq.ParquetFile(path).metadata)
        except Exception as error:  # noqa: BLE001
            problem, holds = f"effect check failed: {type(error).__name__}: {error}", ""
        encodings = sorted({e for es in C.page_encodings(info).values() for e in es})
        result["holds"] = f"{holds}; {C.page_types(info)}: {' '.join(encodings)}"
        if problem:
            result["problems"].append(f"the option had no effect: {problem}")
    for name, args in RECODES.items():
        out = os.path.join(out_dir, f"{os.path.basename(path)[:-8]}.{slug(name)}.parquet")
        run = C.run_tool(tool, "recode", path, out, *args)
        entry = {"path": out, "error": None, "info": None,
                 "command": f"{tool} recode {path} {out} {' '.join(args)}".strip()}
        if run.returncode != 0:
            entry["error"] = f"pqpage recode exit {run.returncode}: {run.stderr.strip()[:300]}"
        else:
            recoded, error = C.dump(tool, out)
            entry["info"], error2 = C.inspect(tool, out)
            if error or error2:
                entry["error"] = error or error2
            elif columns is not None and recoded != columns:
                bad = [a["path"] for a, b in zip(columns, recoded) if a != b]
                entry["error"] = f"the rewrite dumps differently from the original: {bad[:4]}"
        result["outs"][name] = entry
    result["dump"] = columns
    return result


def peer_reads(peer, jobs):
    """For every (original, [rewrites]): whether peer reads the original, and its verdict on each
    rewrite (read in a worker process of its own: a crash costs one result)."""
    import peer_readers as R
    worker = R.Worker(peer, {})
    answers = []
    for original, rewrites in jobs:
        own = worker.check("", original, False, original)
        if own["verdict"] != "pass":
            answers.append((own["detail"], None))
            continue
        verdicts = []
        for out in rewrites:
            if out is None:
                verdicts.append(None)
                continue
            answer = worker.check("", out, False, original)
            if answer["verdict"] == "FAIL":
                # A read error, or values that differ? Reading the rewrite alone tells.
                alone = worker.check("", out, False, out)
                if alone["verdict"] != "pass":
                    answer = {"verdict": "error", "detail": alone["detail"]}
            verdicts.append(answer)
        answers.append((None, verdicts))
    worker.close()
    return answers


class Controls:
    """pyarrow's equivalent of each rewrite (the reference table written with the rewrite's
    per-column encodings, page version and codec: pqpage_writes_peers_read_test's control),
    read by the peer that failed on the rewrite, in a worker process of its own."""

    def __init__(self, scratch):
        self.dir = os.path.join(scratch, "controls")
        os.makedirs(self.dir, exist_ok=True)
        self.workers, self.files = {}, {}

    def file(self, case, path, out, info, args):
        """(control path, None) or (None, why there is none)."""
        if out not in self.files:
            import pyarrow.parquet as pq
            import pqpage_writes_peers_read_test as P
            version = 2 if "2" in args else 1
            codec = "zstd" if "zstd" in args else "snappy"
            has_int96 = any(c["type"] == "INT96" for c in info["columns"])
            options = P.control_options(info, ("auto", version, codec, False), has_int96)
            # Decimals the original stores as integers stay integers (the rewrite keeps them so,
            # and may have given them an integer encoding).
            parquet_schema = pq.ParquetFile(path).schema
            if any(parquet_schema.column(i).logical_type.type == "DECIMAL" and
                   parquet_schema.column(i).physical_type in ("INT32", "INT64")
                   for i in range(len(parquet_schema))):
                options["store_decimal_as_integer"] = True
            control = os.path.join(self.dir, "control-" + os.path.basename(out))
            try:
                pq.write_table(expected_table(case, path)[0], control, **options)
                self.files[out] = (control, None)
            except Exception as error:  # noqa: BLE001
                self.files[out] = (None, f"no pyarrow control could be written: "
                                         f"{type(error).__name__}: {str(error)[:150]}")
        return self.files[out]

    def read(self, peer, path, other):
        import peer_readers as R
        if peer not in self.workers:
            self.workers[peer] = R.Worker(peer, {})
        return self.workers[peer].check("", path, False, other)

    def close(self):
        for worker in self.workers.values():
            worker.close()


def judge(peer, answer, case, path, entry, args, controls):
    """(verdict, text) of a peer's read of a rewrite that was not equal to its read of the
    original."""
    import pqpage_writes_peers_read_test as P
    control, why = controls.file(case, path, entry["path"], entry["info"], args)
    if answer["verdict"] == "FAIL":
        text = f"values differ from its read of the original: {answer['detail']}"
        if control is None:
            return "FAIL", f"{text} ({why})"
        # The peer reads pqpage's rewrite exactly as pyarrow's equivalent file: its read of the
        # original is what differs (and the original's dump equals the reference, step 1).
        same = controls.read(peer, entry["path"], control)
        if same["verdict"] == "pass":
            return "peer_bug", (f"{text} -- but it reads pyarrow's equivalent file {control} "
                                f"exactly as the rewrite: {peer} misreads the original")
        return "FAIL", f"{text} -- and pyarrow's equivalent {control} reads otherwise: " \
                       f"{same['detail']}"
    text = f"cannot read the rewrite: {answer['detail'][:200]}"
    if control is None:
        return "FAIL", f"{text} ({why})"
    alone = controls.read(peer, control, control)
    if alone["verdict"] != "pass" and (alone["verdict"] == answer["verdict"] == "crash"
                                       or P.same_error(alone["detail"], answer["detail"])):
        return "peer_bug", f"{text} -- the same on pyarrow's equivalent file {control}"
    return "FAIL", f"{text} -- pyarrow's equivalent file {control}: {alone['verdict']} " \
                   f"{alone['detail'][:150]}"


def main(tool, scratch):
    import peer_options_cases as K
    import peer_readers as R
    start = time.time()
    reduced = C.sanitizer_build()
    files = os.path.join(scratch, "files")
    outs = os.path.join(scratch, "recoded")
    os.makedirs(files, exist_ok=True)
    os.makedirs(outs, exist_ok=True)
    matrix = C.Matrix("Peers' writer options: pqpage dump equals the reader's leaf values, the "
                      "option's effect is in the file, pqpage's rewrites read back identically",
                      ["writer", "case", "check", "file holds"])
    cases = K.all_cases(reduced)
    written = []
    for case in cases:
        path = os.path.join(files, f"{case['peer']}-{slug(case['name'])}.parquet")
        try:
            case["write"](path)
        except Exception as error:  # noqa: BLE001
            verdict, text = R.classify_error(error)
            matrix.add([case["peer"], case["name"], "write", ""],
                       "unsupported" if verdict == "unsupported" else "FAIL",
                       f"the peer cannot write this: {text}")
            continue
        written.append((case, path))
    print(f"{len(written)} files written in {time.time() - start:.1f}s "
          f"({'reduced' if reduced else 'full'} set)", flush=True)

    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda cp: step_pqpage(tool, cp[0], cp[1], outs), written))
    print(f"pqpage dump/inspect/recode done after {time.time() - start:.1f}s", flush=True)

    jobs = [(path, [None if r["outs"][n]["error"] else r["outs"][n]["path"] for n in RECODES])
            for (case, path), r in zip(written, results)]
    with ThreadPoolExecutor(max_workers=2) as pool:
        reads = dict(zip(R.PEERS, pool.map(lambda peer: peer_reads(peer, jobs), R.PEERS)))
    print(f"peers read the rewrites after {time.time() - start:.1f}s", flush=True)

    controls = Controls(scratch)
    for k, ((case, path), result) in enumerate(zip(written, results)):
        cells = [case["peer"], case["name"]]
        repro = f" [reproduce: {tool} dump {path}; written with {case['options']}]"
        detail = "; ".join(result["problems"][:5] + result["notes"])
        matrix.add(cells + ["dump + inspect", result["holds"]],
                   "FAIL" if result["problems"] else "pass",
                   detail + (repro if result["problems"] else ""))
        for j, name in enumerate(RECODES):
            entry = result["outs"][name]
            holds = ""
            if entry["info"] is not None:
                holds = f"{C.page_types(entry['info'])}: " + " ".join(sorted(
                    {e for es in C.page_encodings(entry["info"]).values() for e in es}))
            if entry["error"]:
                matrix.add(cells + [name, holds], "FAIL",
                           f"{entry['error']} [reproduce: {entry['command']}]")
                continue
            verdicts, parts = [], []
            for peer in R.PEERS:
                cannot, answers = reads[peer][k]
                if cannot is not None:
                    parts.append(f"{peer}: cannot read the original either ({cannot[:120]})")
                    continue
                answer = answers[j]
                if answer["verdict"] == "pass":
                    verdicts.append("pass")
                    parts.append(f"{peer}: equal")
                    continue
                verdict, text = judge(peer, answer, case, path, entry, RECODES[name],
                                      controls)
                verdicts.append(verdict)
                parts.append(f"{peer}: {'peer bug: ' if verdict == 'peer_bug' else 'FAIL '}"
                             f"{text}")
            verdict = ("FAIL" if "FAIL" in verdicts or not verdicts else
                       "peer_bug" if "peer_bug" in verdicts else "pass")
            if not verdicts:
                parts.append("no peer reads the original")
            detail = "; ".join(parts)
            if verdict == "FAIL":
                detail += f" [reproduce: {entry['command']}]"
            matrix.add(cells + [name, holds], verdict, detail)
    controls.close()
    return matrix.finish(scratch, start)


if __name__ == "__main__":
    sys.exit(C.main_in_venv(main))
