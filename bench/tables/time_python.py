#!/usr/bin/env python3
"""Times the Python package (issue 26's goals) against pyarrow, in one process, side by side:

  read   pqpage.read_table(f, threads=T).to_pyarrow() vs pq.read_table(f, use_threads=...),
         one thread each (goal >= 2x) and each side's default threads (goal >= 1.5x);
  write  pqpage.write_table(table, threads=1) vs pq.write_table(table), same codec (goal >= 1.5x),
         and the files' sizes, pqpage's auto against pyarrow's defaults (goal <= 0.9x);
  gil    two Python threads each reading a file (threads=1) against the same two reads one after
         the other: pqpage releases the GIL, so on 2 cores this approaches 2x;
  dask   pqpage.dask.recode of the files on a distributed.LocalCluster of 2 worker processes
         against 1 (goal >= 1.7x).

usage: time_python.py FILE... [--runs N] [--codec C] [--only read|write|gil|dask] [--pin-core N]

FILEs: e.g. the scan suite (make_scan_suite.py). Best of --runs for every timing. --pin-core puts
the one-thread timings on one core (the default-thread and dask timings use every core). Run it
with the peers' virtualenv, where tests/python/install_package.sh installed pqpage, on an
otherwise idle machine.
"""

import argparse
import os
import shutil
import tempfile
import time

import pyarrow
import pyarrow.parquet as pq

import pqpage
from run_info import commit, machine


def best(runs, work):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def time_reads(files, runs, pin_core):
    print("| file | threads | pyarrow s | pqpage s | pyarrow / pqpage |")
    print("|---|---|---|---|---|")
    everything = os.sched_getaffinity(0)
    for path in files:
        for label in ("1", "default"):
            one = label == "1"
            if one and pin_core is not None:
                os.sched_setaffinity(0, {pin_core})
            theirs = best(runs, lambda: pq.read_table(path, use_threads=not one))
            ours = best(runs, lambda: pqpage.read_table(path, threads=1 if one else None)
                        .to_pyarrow())
            os.sched_setaffinity(0, everything)
            print(f"| {os.path.basename(path)} | {label} | {theirs:.3f} | {ours:.3f} | "
                  f"{theirs / ours:.2f} |", flush=True)


def time_writes(files, runs, codec, pin_core, scratch):
    print("| file | rows | pyarrow s | pqpage s | pyarrow / pqpage | pqpage / pyarrow size |")
    print("|---|---|---|---|---|---|")
    if pin_core is not None:
        os.sched_setaffinity(0, {pin_core})
    for path in files:
        table = pq.read_table(path, use_threads=False)
        theirs_path = os.path.join(scratch, "pyarrow.parquet")
        ours_path = os.path.join(scratch, "pqpage.parquet")
        theirs = best(runs, lambda: pq.write_table(table, theirs_path, compression=codec))
        ours = best(runs, lambda: pqpage.write_table(table, ours_path, compression=codec,
                                                     threads=1))
        size = os.path.getsize(ours_path) / os.path.getsize(theirs_path)
        print(f"| {os.path.basename(path)} | {table.num_rows} | {theirs:.3f} | {ours:.3f} | "
              f"{theirs / ours:.2f} | {size:.2f} |", flush=True)


def time_gil(files, runs):
    import concurrent.futures

    print("| file | two reads one after the other s | two Python threads s | speed-up |")
    print("|---|---|---|---|")
    read = lambda path: pqpage.read_table(path, threads=1).to_pyarrow()  # noqa: E731
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        for path in files:
            serial = best(runs, lambda: [read(path) for _ in range(2)])
            parallel = best(runs, lambda: list(pool.map(read, [path, path])))
            print(f"| {os.path.basename(path)} | {serial:.3f} | {parallel:.3f} | "
                  f"{serial / parallel:.2f} |", flush=True)


def time_dask(files, runs, scratch):
    import distributed
    import pqpage.dask

    folder = os.path.join(scratch, "inputs")
    os.makedirs(folder, exist_ok=True)
    for i, path in enumerate(files):
        shutil.copy(path, os.path.join(folder, f"{i:02d}-{os.path.basename(path)}"))
    print("| workers | files | seconds | speed-up |")
    print("|---|---|---|---|")
    first = None
    for workers in (1, 2):
        with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                      dashboard_address=None) as cluster, \
                distributed.Client(cluster):
            out = os.path.join(scratch, f"out{workers}")
            seconds = best(runs, lambda: pqpage.dask.recode(folder, out, compression="zstd"))
        first = first or seconds
        print(f"| {workers} | {len(files)} | {seconds:.3f} | {first / seconds:.2f} |", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--codec", default="zstd")
    parser.add_argument("--only", choices=("read", "write", "gil", "dask"))
    parser.add_argument("--pin-core", type=int, default=None)
    args = parser.parse_args()
    print(f"{machine()}; pyarrow {pyarrow.__version__}; pqpage {commit()}; best of {args.runs}")
    with tempfile.TemporaryDirectory() as scratch:
        if args.only in (None, "read"):
            print("\nReading into pyarrow tables:\n")
            time_reads(args.files, args.runs, args.pin_core)
        if args.only in (None, "write"):
            print(f"\nWriting pyarrow tables ({args.codec}):\n")
            time_writes(args.files, args.runs, args.codec, args.pin_core, scratch)
        if args.only in (None, "gil"):
            print("\nTwo Python threads reading at once:\n")
            time_gil(args.files, args.runs)
        if args.only in (None, "dask"):
            print("\npqpage.dask.recode (zstd, auto):\n")
            time_dask(args.files, args.runs, scratch)


if __name__ == "__main__":
    main()
