#!/usr/bin/env python3
"""Times `pqpage recode` of one table with two builds of the tool, interleaved run by run so that
both see the same machine, for the policies plain, dictionary and auto; prints the best time of
each and the ratios (after/before, and auto/dictionary for each build).

usage: time_recode.py BEFORE_TOOL AFTER_TOOL TABLE [--runs N] [--codec C] [--page-version V]

BEFORE_TOOL is typically a build of an earlier commit in a worktree:
  git worktree add --detach /tmp/before COMMIT
  cmake -S /tmp/before -B /tmp/before/build -DCMAKE_BUILD_TYPE=Release
  cmake --build /tmp/before/build -j --target pqpage_tool
Run it on a quiet machine: nothing else building or benchmarking.
"""

import argparse
import os
import subprocess
import tempfile
import time

POLICIES = ("plain", "dictionary", "auto")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("table")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--codec", default="zstd")
    parser.add_argument("--page-version", default="1")
    args = parser.parse_args()
    tools = {"before": args.before, "after": args.after}
    best = {}
    with tempfile.TemporaryDirectory() as scratch:
        for _ in range(args.runs):
            for policy in POLICIES:
                for name, tool in tools.items():
                    out = os.path.join(scratch, f"{name}-{policy}.parquet")
                    start = time.perf_counter()
                    subprocess.run([tool, "recode", args.table, out, "--encoding", policy,
                                    "--compression", args.codec, "--page-version",
                                    args.page_version], check=True, capture_output=True)
                    seconds = time.perf_counter() - start
                    best[name, policy] = min(seconds, best.get((name, policy), seconds))
    for policy in POLICIES:
        before, after = best["before", policy], best["after", policy]
        print(f"{policy:10s} before {before:.3f} s  after {after:.3f} s  "
              f"after/before {after / before:.3f}")
    for name in tools:
        print(f"auto/dictionary {name}: {best[name, 'auto'] / best[name, 'dictionary']:.3f}")


if __name__ == "__main__":
    main()
