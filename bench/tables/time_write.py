#!/usr/bin/env python3
"""Times writing a file both ways (issue 12's writing goal): `pqpage recode IN OUT` against pyarrow
`read_table(IN, use_threads=False)` + `write_table(OUT)`, with the same codec, for the dictionary
policy and for auto; each run reads and writes the whole table, and runs alternate tool by tool so
machine noise falls on both. Prints best seconds and the ratio pyarrow / pqpage (the goal is >= 2
single-threaded).

usage: time_write.py FILE... [--pqpage PATH] [--runs N] [--codec C] [--threads LIST] [--pin-core N]

--codec is what both write (default snappy, pyarrow's default); --threads LIST (default 1) gives
the recode --threads values to time, e.g. 1,2. --pin-core N runs everything (this script, so
pyarrow, and the pqpage it starts) on core N alone: pyarrow's read_table(use_threads=False) still
works on a second thread (unpinned, it uses about twice its wall time in CPU time on two cores),
so a single-thread comparison needs the pin.

Run it with the peers' virtualenv (build/peers-venv/bin/python) on an otherwise idle machine.
"""

import argparse
import os
import subprocess
import tempfile
import time

import pyarrow
import pyarrow.parquet as pq

from run_info import commit, machine


def best_of(runs, action):
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - start)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--pqpage", default="build/pqpage")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--codec", default="snappy")
    parser.add_argument("--threads", default="1")
    parser.add_argument("--pin-core", type=int, default=None)
    args = parser.parse_args()
    if args.pin_core is not None:
        # Inherited by every process started from here on.
        os.sched_setaffinity(0, {args.pin_core})
    threads = [int(t) for t in args.threads.split(",")]
    print(f"Machine: {machine()}; pyarrow {pyarrow.__version__}; pqpage {commit()}; "
          f"codec {args.codec}; best of {args.runs}"
          f"{'; all on core %d' % args.pin_core if args.pin_core is not None else ''}")
    print()
    header = ["file", "pyarrow read+write s"]
    for policy in ("dictionary", "auto"):
        for t in threads:
            header += [f"recode {policy} T={t} s", f"ratio T={t}"]
    print("| " + " | ".join(header) + " |")
    print("|" + " --- |" * len(header))
    with tempfile.TemporaryDirectory() as scratch:
        out = os.path.join(scratch, "out.parquet")

        def pyarrow_round_trip(path):
            # The whole table goes through Arrow, as pyarrow users rewrite files.
            pq.write_table(pq.read_table(path, use_threads=False), out, compression=args.codec)

        def recode(path, policy, t):
            subprocess.run([args.pqpage, "recode", path, out, "--encoding", policy,
                            "--compression", args.codec, "--threads", str(t)],
                           check=True, capture_output=True)

        for path in args.files:
            pyarrow_round_trip(path)  # warm the page cache
            pyarrow_best = float("inf")
            recode_best = {}
            for _ in range(args.runs):
                pyarrow_best = min(pyarrow_best, best_of(1, lambda: pyarrow_round_trip(path)))
                for policy in ("dictionary", "auto"):
                    for t in threads:
                        key = (policy, t)
                        seconds = best_of(1, lambda: recode(path, policy, t))
                        recode_best[key] = min(recode_best.get(key, float("inf")), seconds)
            row = [os.path.basename(path), f"{pyarrow_best:.3f}"]
            for policy in ("dictionary", "auto"):
                for t in threads:
                    seconds = recode_best[(policy, t)]
                    row += [f"{seconds:.3f}", f"{pyarrow_best / seconds:.2f}"]
            print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
