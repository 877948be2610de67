#!/usr/bin/env python3
"""Times a whole-file scan of every file of a suite with pqpage and with pyarrow (issue 12).

Usage: time_scan.py SUITE_DIR [--pqpage PATH] [--repeat N] [--threads LIST] [--scan-args ARGS]
                    [--pin-core N] [--json OUT]

For every SUITE_DIR/*.parquet (sorted; make_scan_suite.py writes the suite):
  - pqpage: `PATH scan FILE` (or `PATH scan FILE --threads T` for each T of --threads, e.g. 1,2);
    the figure is the `elapsed: X s` line pqpage prints, best of --repeat runs (default 5);
  - pyarrow: pq.read_table(FILE, use_threads=False) timed with time.perf_counter around the call
    alone, best of --repeat runs, after one untimed read that puts the file in the page cache.
The runs alternate (pqpage, pyarrow, pqpage, pyarrow, ...) so that machine noise falls on both.
Prints a Markdown table (size, best seconds, ratio pyarrow / pqpage per thread count) under a line
naming the machine, the date, pyarrow's version and the pqpage commit; --json OUT also saves every
run's figure. A pqpage run that fails prints its stderr and makes the script exit 1.

--pin-core N runs everything (this script, so pyarrow, and the pqpage it starts) on core N
alone: pyarrow's read_table(use_threads=False) still works on a second thread (unpinned, it uses
about twice its wall time in CPU time on two cores), so a single-thread comparison needs the pin.

Run it with the peers' virtualenv (build/peers-venv/bin/python) on an otherwise idle machine.
"""
import argparse
import datetime
import glob
import json
import os
import re
import subprocess
import sys
import time

import pyarrow
import pyarrow.parquet as pq

from run_info import REPO, commit, machine

ELAPSED = re.compile(r"^elapsed:\s*([0-9.eE+-]+)\s*s\s*$", re.MULTILINE)


def pqpage_seconds(tool, path, threads, extra):
    """The `elapsed:` seconds of one `scan` run; exits 1, printing pqpage's stderr, if it fails."""
    command = [tool, "scan", path] + (["--threads", str(threads)] if threads is not None else [])
    command += extra  # e.g. --mmap
    try:
        result = subprocess.run(command, capture_output=True, text=True)
    except OSError as error:  # no such binary, not executable
        sys.exit(f"FAILED: {' '.join(command)}: {error}")
    match = ELAPSED.search(result.stdout)
    if result.returncode != 0 or match is None:
        sys.stderr.write(f"FAILED: {' '.join(command)} exited {result.returncode}"
                         f"{'' if match else ' without an elapsed: line'}\n{result.stderr}")
        if match is None and result.stdout:
            sys.stderr.write(f"stdout:\n{result.stdout}")
        sys.exit(1)
    return float(match.group(1))


def pyarrow_seconds(path):
    try:
        start = time.perf_counter()
        table = pq.read_table(path, use_threads=False)
        seconds = time.perf_counter() - start
    except (OSError, pyarrow.ArrowException) as error:
        sys.exit(f"FAILED: pyarrow read_table {path}: {error}")
    del table  # freed outside the timed span, before the next run allocates
    return seconds


def parse_threads(text):
    try:
        counts = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        counts = []
    if not counts or min(counts) < 1:
        raise argparse.ArgumentTypeError(f"expected positive integers separated by commas, got {text!r}")
    return counts


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("suite_dir")
    parser.add_argument("--pqpage", default=os.path.join(REPO, "build", "pqpage"))
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--threads", type=parse_threads, default=None,
                        help="thread counts for `scan --threads T`, e.g. 1,2 (default: plain scan)")
    parser.add_argument("--scan-args", default="",
                        help="more scan arguments, e.g. --scan-args=--mmap")
    parser.add_argument("--json", metavar="OUT")
    parser.add_argument("--pin-core", type=int, default=None)
    args = parser.parse_args()
    if args.pin_core is not None:
        # Inherited by every process started from here on.
        os.sched_setaffinity(0, {args.pin_core})
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    paths = sorted(glob.glob(os.path.join(args.suite_dir, "*.parquet")))
    if not paths:
        parser.error(f"no *.parquet in {args.suite_dir}")
    # None stands for a plain `scan FILE` (no --threads argument).
    thread_counts = args.threads or [None]

    results = []
    for path in paths:
        print(f"timing {os.path.basename(path)}", file=sys.stderr)
        pyarrow_seconds(path)  # untimed: the file is in the page cache for both tools from here
        pqpage_runs = {threads: [] for threads in thread_counts}
        pyarrow_runs = []
        for _ in range(args.repeat):
            for threads in thread_counts:
                pqpage_runs[threads].append(
                    pqpage_seconds(args.pqpage, path, threads, args.scan_args.split()))
            pyarrow_runs.append(pyarrow_seconds(path))
        results.append({
            "file": os.path.basename(path), "bytes": os.path.getsize(path),
            "pqpage_s": {str(threads or "default"): runs for threads, runs in pqpage_runs.items()},
            "pyarrow_s": pyarrow_runs,
        })

    header = {"machine": machine(), "date": datetime.date.today().isoformat(),
              "pyarrow": pyarrow.__version__, "pqpage_commit": commit(),
              "pqpage": args.pqpage, "repeat": args.repeat, "pin_core": args.pin_core}
    labels = [f" T={threads}" if threads else "" for threads in thread_counts]
    keys = [str(threads or "default") for threads in thread_counts]
    print(f"Machine: {header['machine']}; date {header['date']}; pyarrow {header['pyarrow']}; "
          f"pqpage {header['pqpage_commit']}; best of {args.repeat}"
          f"{'; scan ' + args.scan_args if args.scan_args else ''}"
          f"{'; all on core %d' % args.pin_core if args.pin_core is not None else ''}\n")
    columns = (["file", "size MB"] + [f"pqpage{label} s" for label in labels] + ["pyarrow s"]
               + [f"pyarrow/pqpage{label}" for label in labels])
    print("| " + " | ".join(columns) + " |")
    print("| --- " + "| ---: " * (len(columns) - 1) + "|")
    for row in results:
        pyarrow_best = min(row["pyarrow_s"])
        pqpage_best = [min(row["pqpage_s"][key]) for key in keys]
        cells = ([row["file"], f"{row['bytes'] / 1e6:.1f}"] + [f"{s:.4f}" for s in pqpage_best]
                 + [f"{pyarrow_best:.4f}"]
                 + [f"{pyarrow_best / s:.2f}" if s > 0 else "n/a" for s in pqpage_best])
        print("| " + " | ".join(cells) + " |")
    if args.json:
        with open(args.json, "w") as out:
            json.dump({**header, "files": results}, out, indent=1)
            out.write("\n")


if __name__ == "__main__":
    main()
