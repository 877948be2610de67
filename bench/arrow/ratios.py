#!/usr/bin/env python3
"""Prints pqpage/Arrow throughput ratios from Google Benchmark JSON runs (one file, or one per side).

Benchmarks are named <direction>/<encoding>/<shape>/<arrow|pqpage>; with repetitions, the median
aggregate is used. A ratio above 1 means pqpage processed more values per second.
"""
import json
import sys


def main(paths):
    rates = {}
    benchmarks = []
    for path in paths:
        with open(path) as f:
            run = json.load(f)
        benchmarks += run["benchmarks"]
    for b in benchmarks:
        name = b.get("run_name", b["name"])
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        prefix, _, impl = name.rpartition("/")
        rates.setdefault(prefix, {})[impl] = b["items_per_second"]
    ctx = run["context"]
    print("machine: %s x %d MHz, %s" % (ctx.get("num_cpus"), ctx.get("mhz_per_cpu"),
                                         ctx.get("host_name")))
    print("%-50s %14s %14s %8s" % ("path", "Arrow M/s", "pqpage M/s", "ratio"))
    slower = []
    for prefix in sorted(rates):
        r = rates[prefix]
        if "arrow" not in r or "pqpage" not in r:
            continue
        ratio = r["pqpage"] / r["arrow"]
        if ratio < 1:
            slower.append(prefix)
        print("%-50s %14.0f %14.0f %7.2fx" % (prefix, r["arrow"] / 1e6, r["pqpage"] / 1e6, ratio))
    if slower:
        print("pqpage is slower on: " + ", ".join(slower))


if __name__ == "__main__":
    main(sys.argv[1:] or ["build-arrow/arrow_comparison.json"])
