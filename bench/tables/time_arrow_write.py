#!/usr/bin/env python3
"""Times writing Arrow data to Parquet both ways (issue 25's writing goal): pqpage's Arrow writer
(pqpage::WriteArrowStream, through build/ipc_to_parquet --repeat) against pyarrow's
pq.write_table, with the same codec, one thread each, on the same in-memory table; and compares
the sizes of the files: pqpage's `auto` against pyarrow's defaults (the goal: writing >= 1.5x
pyarrow, auto files <= 0.9x pyarrow's size).

usage: time_arrow_write.py FILE... [--program PATH] [--runs N] [--codec C] [--pin-core N]

Each FILE (a Parquet file, e.g. of the scan suite make_scan_suite.py writes) is read by pyarrow
into a table, which is what both write: pyarrow by write_table (timed around the call alone),
pqpage from the same batches (ipc_to_parquet reads them from an IPC stream into memory before
timing WriteArrowStream alone). Best of --runs each, each side in one process (warm allocators on
both sides). --pin-core N runs everything on core N.

Run it with the peers' virtualenv (build/peers-venv/bin/python) on an otherwise idle machine.
"""

import argparse
import os
import re
import subprocess
import tempfile
import time

import pyarrow
import pyarrow.parquet as pq

from run_info import commit, machine

SECONDS = re.compile(r"^write seconds: ([0-9.]+)$", re.MULTILINE)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--program", default="build/ipc_to_parquet")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--codec", default="snappy")
    parser.add_argument("--pin-core", type=int, default=None)
    args = parser.parse_args()
    if args.pin_core is not None:
        os.sched_setaffinity(0, {args.pin_core})
    print(f"{machine()}; pyarrow {pyarrow.__version__}; pqpage {commit()}; codec {args.codec}; "
          f"best of {args.runs}")
    print()
    print("| file | rows | pyarrow s | pqpage s | pyarrow / pqpage | pyarrow MB | pqpage MB |"
          " pqpage / pyarrow size |")
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as scratch:
        for path in args.files:
            table = pq.read_table(path, use_threads=False)
            stream = os.path.join(scratch, "in.arrows")
            with pyarrow.OSFile(stream, "wb") as sink:
                with pyarrow.ipc.new_stream(sink, table.schema) as writer:
                    for batch in table.to_batches(max_chunksize=64 * 1024):
                        writer.write_batch(batch)
            theirs = os.path.join(scratch, "pyarrow.parquet")
            ours = os.path.join(scratch, "pqpage.parquet")
            # Each side's best of --runs in one warm process: pyarrow's writes run in this
            # process one after another, pqpage's in ipc_to_parquet's (--repeat).
            best_theirs = float("inf")
            for _ in range(args.runs):
                start = time.perf_counter()
                pq.write_table(table, theirs, compression=args.codec)
                best_theirs = min(best_theirs, time.perf_counter() - start)
            run = subprocess.run([args.program, stream, ours, "--compression", args.codec.upper(),
                                  "--repeat", str(args.runs)],
                                 capture_output=True, text=True, check=False)
            if run.returncode != 0:
                raise SystemExit(f"{args.program} failed on {path}: {run.stderr}")
            best_ours = float(SECONDS.search(run.stdout).group(1))
            size_theirs = os.path.getsize(theirs)
            size_ours = os.path.getsize(ours)
            print(f"| {os.path.basename(path)} | {table.num_rows} | {best_theirs:.3f} | "
                  f"{best_ours:.3f} | {best_theirs / best_ours:.2f} | {size_theirs / 1e6:.2f} | "
                  f"{size_ours / 1e6:.2f} | {size_ours / size_theirs:.2f} |", flush=True)


if __name__ == "__main__":
    main()
