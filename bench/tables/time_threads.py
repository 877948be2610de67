#!/usr/bin/env python3
"""Thread scaling of `pqpage scan` and `pqpage recode` (issue 27), for one or two builds side by side.

usage: time_threads.py FILE TOOL [TOOL...] [--threads 1,2] [--runs N] [--codec C]
                       [--encodings auto,dictionary,plain]

For each TOOL (a `pqpage` binary, e.g. build/pqpage and a worktree's build of an earlier commit)
and each thread count T, times the whole process, best of --runs (default 7):
  - `TOOL scan FILE --threads T`;
  - `TOOL recode FILE OUT --threads T --compression C --encoding E` for every E of --encodings.
The tools run alternately, run by run, so machine noise falls on all of them. Prints one Markdown
table: the best seconds per tool and thread count, and each tool's speed-up of its highest thread
count over 1 thread.

Two files show the two kinds of parallelism:
  - many chunks: make_tables.py OUT --rows 160000 --seed 3, rewritten by pyarrow in row groups of
    20,000 rows (20 columns x 8 row groups, as issue 27 measured);
  - one large chunk: a single column of 4,000,000 strings in one row group, which scan can only
    spread over threads by runs of its pages (pqpage/page_runs.h).
Run it on a quiet machine: nothing else building or benchmarking.
"""
import argparse
import os
import subprocess
import tempfile
import time

from run_info import commit, machine


def timed(command):
    """Wall seconds of one run of `command` (its output discarded; a failure raises)."""
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("tools", nargs="+")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--codec", default="zstd")
    parser.add_argument("--encodings", default="auto,dictionary,plain")
    args = parser.parse_args()
    threads = [int(t) for t in args.threads.split(",")]
    with tempfile.TemporaryDirectory() as scratch:
        out = os.path.join(scratch, "out.parquet")
        jobs = [("scan", ["scan", args.file])]
        for encoding in args.encodings.split(","):
            jobs.append((f"recode {encoding}",
                         ["recode", args.file, out, "--compression", args.codec,
                          "--encoding", encoding]))
        best = {}
        for _ in range(args.runs):
            for name, job in jobs:
                for count in threads:
                    for tool in args.tools:
                        seconds = timed([tool] + job + ["--threads", str(count)])
                        key = (name, tool, count)
                        best[key] = min(best.get(key, seconds), seconds)
    print(f"{machine()}; pqpage {commit()}; {os.path.basename(args.file)}; best of {args.runs}")
    print()
    header = ["job"]
    for tool in args.tools:
        header += [f"{tool} T={count}" for count in threads] + [f"{tool} speed-up"]
    print("| " + " | ".join(header) + " |")
    print("|" + " --- |" + " ---: |" * (len(header) - 1))
    for name, _ in jobs:
        row = [name]
        for tool in args.tools:
            row += [f"{best[(name, tool, count)]:.4f}" for count in threads]
            row.append(f"{best[(name, tool, threads[0])] / best[(name, tool, threads[-1])]:.2f}x")
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
