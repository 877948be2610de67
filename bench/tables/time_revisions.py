#!/usr/bin/env python3
"""Times two builds of pqpage against each other, interleaved run by run so that both see the same
machine: `column_chunk_bench` (the page builder and decoder per column shape), `pqpage scan FILE`
on one and two threads, and `pqpage recode FILE` with the default (auto) policy and zstd. Prints
the best time of each build per path and the ratio after/before (below 1: the after build is
faster).

usage: time_revisions.py BEFORE_DIR AFTER_DIR FILE [--runs N] [--bench-filter REGEX]

Each DIR holds `pqpage` and `column_chunk_bench` of one build (Release), e.g. copied from build/
at two commits. Run it on a quiet machine: nothing else building or benchmarking.
"""
import argparse
import json
import os
import re
import subprocess
import tempfile
import time


def bench(directory, pattern):
    """{benchmark: real ns per iteration} of one column_chunk_bench run."""
    out = subprocess.run(
        [os.path.join(directory, "column_chunk_bench"), f"--benchmark_filter={pattern}",
         "--benchmark_format=json", "--benchmark_min_time=0.3"],
        check=True, capture_output=True, text=True).stdout
    return {b["name"]: b["real_time"] for b in json.loads(out)["benchmarks"]}


def tool_seconds(directory, args):
    start = time.perf_counter()
    subprocess.run([os.path.join(directory, "pqpage"), *args], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("file")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--bench-filter", default=".")
    args = parser.parse_args()
    builds = {"before": args.before, "after": args.after}
    best = {}

    def keep(path, build, seconds):
        slot = best.setdefault(path, {})
        slot[build] = min(slot.get(build, float("inf")), seconds)

    with tempfile.TemporaryDirectory() as scratch:
        jobs = {
            "scan, 1 thread": ["scan", args.file, "--threads", "1"],
            "scan, 2 threads": ["scan", args.file, "--threads", "2"],
            "recode auto zstd, 1 thread": ["recode", args.file, os.path.join(scratch, "out.parquet"),
                                           "--compression", "zstd", "--threads", "1"],
        }
        for _ in range(args.runs):
            for name, build in builds.items():
                for benchmark, ns in bench(build, args.bench_filter).items():
                    keep(benchmark, name, ns / 1e9)
            for path, job in jobs.items():
                for name, build in builds.items():
                    keep(path, name, tool_seconds(build, job))
    print(f"{'path':<48} {'before':>12} {'after':>12} {'after/before':>13}")
    ratios = []
    for path, slot in best.items():
        ratio = slot["after"] / slot["before"]
        ratios.append(ratio)
        unit = 1e3 if re.match(r"BM_", path) else 1
        print(f"{path:<48} {slot['before'] * unit:>12.4f} {slot['after'] * unit:>12.4f} "
              f"{ratio:>13.3f}")
    geomean = 1.0
    for ratio in ratios:
        geomean *= ratio
    print(f"geometric mean of after/before over {len(ratios)} paths: "
          f"{geomean ** (1 / len(ratios)):.3f} (times: bench in ms, tools in s; best of {args.runs})")


if __name__ == "__main__":
    main()
