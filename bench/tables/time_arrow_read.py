#!/usr/bin/env python3
"""Times the Arrow reader of two builds against each other and against a plain scan (issue 25's
"cost over scan"), one thread: for every file of a suite, `pqpage scan FILE --threads 1` of the
after build, and `pqpage scan FILE --threads 1 --arrow` of both builds, interleaved run by run so
that machine noise falls on all three. The figure is the `elapsed: X s` line pqpage prints, best
of --runs. Prints a Markdown table: the three times, before / after, and each build's Arrow time
over the scan.

usage: time_arrow_read.py BEFORE_PQPAGE AFTER_PQPAGE SUITE_DIR [--runs N] [--pin-core N]

BEFORE_PQPAGE and AFTER_PQPAGE are `pqpage` binaries of two Release builds (a git worktree at the
older commit, built with -DPQPAGE_BUILD_TESTS=OFF -DPQPAGE_BUILD_BENCHMARKS=OFF, gives the first).
Run it on a quiet machine: nothing else building or benchmarking.
"""
import argparse
import os
import re
import subprocess

from run_info import machine

ELAPSED = re.compile(r"^elapsed: ([0-9.]+) s$", re.MULTILINE)


def elapsed(command, pin_core):
    if pin_core is not None:
        command = ["taskset", "-c", str(pin_core)] + command
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return float(ELAPSED.search(out).group(1))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("suite_dir")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--pin-core", type=int, default=None)
    args = parser.parse_args()
    files = sorted(f for f in os.listdir(args.suite_dir) if f.endswith(".parquet"))
    print(f"{machine()}; best of {args.runs}, one thread"
          + (f", core {args.pin_core}" if args.pin_core is not None else ""))
    print()
    print("| file | scan s | --arrow before s | --arrow after s | before / after "
          "| before / scan | after / scan |")
    print("|---|---|---|---|---|---|---|")
    for name in files:
        path = os.path.join(args.suite_dir, name)
        scan = before = after = float("inf")
        for _ in range(args.runs):
            scan = min(scan, elapsed([args.after, "scan", path, "--threads", "1"], args.pin_core))
            before = min(before, elapsed([args.before, "scan", path, "--threads", "1", "--arrow"],
                                         args.pin_core))
            after = min(after, elapsed([args.after, "scan", path, "--threads", "1", "--arrow"],
                                       args.pin_core))
        print(f"| {name[:-len('.parquet')]} | {scan:.3f} | {before:.3f} | {after:.3f} | "
              f"{before / after:.2f} | {before / scan:.2f} | {after / scan:.2f} |")


if __name__ == "__main__":
    main()
