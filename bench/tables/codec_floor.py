#!/usr/bin/env python3
"""What decompression costs a scan, against what the codec library alone needs (issue 12).

Issue 12's goal: on compressed files, `pqpage scan` time minus the time of the same file
uncompressed is at most 1.1x the time the codec library alone takes to inflate the same pages.

Usage: codec_floor.py SUITE_DIR [--pqpage PATH] [--floor PATH] [--repeat N] [--scan-args ARGS]

SUITE_DIR is what make_scan_suite.py writes. For each pair of the same data compressed and
uncompressed found there:

  pyarrow_v1_snappy  / pyarrow_v1_uncompressed     duckdb_default / duckdb_uncompressed
  pyarrow_v1_lz4     / pyarrow_v1_uncompressed     polars_default / polars_uncompressed
  pyarrow_v2_snappy  / pyarrow_v1_uncompressed
  pyarrow_v2_zstd    / pyarrow_v1_uncompressed

  - scan: `pqpage scan FILE --threads 1` (plus --scan-args, e.g. --scan-args "--mmap"), the
    `elapsed: X s` it prints, best of --repeat runs (default 5) of the compressed and the
    uncompressed file, run alternately so machine noise falls on both, after one untimed scan of
    each that puts them in the page cache;
  - codec alone: `codec_floor_bench FILE --repeat N` on the compressed file, its library_seconds
    (snappy, lz4 and zstd called directly on every compressed page, held in memory) and
    pqpage_decompress_seconds (pqpage's DecompressIntoBuffer on the same pages, as the page reader
    calls it).

The pyarrow_v2 files are compared with the v1 uncompressed file: pyarrow writes no v2
uncompressed file to the suite; the encodings and values are the same, the page layout differs
slightly (v2 pages keep their levels outside the compressed part, and page boundaries move).

Prints a Markdown table under a line naming the machine, the date and the pqpage commit; the
ratio (scan difference / codec alone) is in bold where it misses the 1.1 goal. A failed run prints
its stderr and makes the script exit 1. Run it on an otherwise idle machine, e.g.
  python3 bench/tables/codec_floor.py /work/scan_suite --repeat 5
"""
import argparse
import datetime
import os
import re
import shlex
import subprocess
import sys

from run_info import REPO, commit, machine

ELAPSED = re.compile(r"^elapsed:\s*([0-9.eE+-]+)\s*s\s*$", re.MULTILINE)
GOAL = 1.1
PAIRS = [
    ("pyarrow_v1_snappy", "pyarrow_v1_uncompressed"),
    ("pyarrow_v1_lz4", "pyarrow_v1_uncompressed"),
    ("pyarrow_v2_snappy", "pyarrow_v1_uncompressed"),
    ("pyarrow_v2_zstd", "pyarrow_v1_uncompressed"),
    ("duckdb_default", "duckdb_uncompressed"),
    ("polars_default", "polars_uncompressed"),
]


def run(command):
    """stdout of `command`; exits 1, printing its stderr, if it fails."""
    try:
        result = subprocess.run(command, capture_output=True, text=True)
    except OSError as error:  # no such binary, not executable
        sys.exit(f"FAILED: {' '.join(command)}: {error}")
    if result.returncode != 0:
        sys.stderr.write(f"FAILED: {' '.join(command)} exited {result.returncode}\n"
                         f"{result.stderr}")
        sys.exit(1)
    return result.stdout


def scan_seconds(tool, path, scan_args):
    command = [tool, "scan", path, "--threads", "1"] + scan_args
    match = ELAPSED.search(run(command))
    if match is None:
        sys.exit(f"FAILED: {' '.join(command)} printed no elapsed: line")
    return float(match.group(1))


def floor_figures(tool, path, repeat):
    """codec_floor_bench's `key: value` lines as a dict."""
    output = run([tool, path, "--repeat", str(repeat)])
    return dict(line.split(": ", 1) for line in output.splitlines() if ": " in line)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("suite_dir")
    parser.add_argument("--pqpage", default=os.path.join(REPO, "build", "pqpage"))
    parser.add_argument("--floor", default=os.path.join(REPO, "build", "codec_floor_bench"))
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--scan-args", default="",
                        help='extra `pqpage scan` flags, e.g. --scan-args "--mmap"')
    # argparse takes a lone value that starts with a dash for an option: `--scan-args --mmap` is
    # joined into `--scan-args=--mmap` first.
    argv = sys.argv[1:]
    if "--scan-args" in argv[:-1]:
        at = argv.index("--scan-args")
        argv[at:at + 2] = [f"--scan-args={argv[at + 1]}"]
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    scan_args = shlex.split(args.scan_args)

    rows = []
    for compressed, uncompressed in PAIRS:
        paths = [os.path.join(args.suite_dir, f"{name}.parquet")
                 for name in (compressed, uncompressed)]
        missing = [path for path in paths if not os.path.exists(path)]
        if missing:
            print(f"skipping {compressed}: no {', '.join(missing)}", file=sys.stderr)
            continue
        print(f"timing {compressed} against {uncompressed}", file=sys.stderr)
        for path in paths:  # untimed: both files in the page cache from here
            scan_seconds(args.pqpage, path, scan_args)
        runs = {path: [] for path in paths}
        for _ in range(args.repeat):
            for path in paths:
                runs[path].append(scan_seconds(args.pqpage, path, scan_args))
        floor = floor_figures(args.floor, paths[0], args.repeat)
        rows.append({"file": compressed, "codec": floor["codecs"],
                     "via_pqpage": floor["library_via_pqpage_decompress"] != "none",
                     "scan_compressed": min(runs[paths[0]]),
                     "scan_uncompressed": min(runs[paths[1]]),
                     "library": float(floor["library_seconds"]),
                     "pqpage_decompress": float(floor["pqpage_decompress_seconds"])})
    if not rows:
        parser.error(f"no compressed/uncompressed pair in {args.suite_dir}")

    extra = f"; scan args {' '.join(scan_args)}" if scan_args else ""
    print(f"Machine: {machine()}; date {datetime.date.today().isoformat()}; pqpage {commit()}; "
          f"best of {args.repeat}; scan --threads 1{extra}\n")
    columns = ["compressed file", "codec", "scan compressed s", "scan uncompressed s",
               "difference s", "codec alone s", f"difference / codec alone (goal <= {GOAL})",
               "pqpage Decompress s"]
    print("| " + " | ".join(columns) + " |")
    print("| --- | --- " + "| ---: " * (len(columns) - 2) + "|")
    for row in rows:
        difference = row["scan_compressed"] - row["scan_uncompressed"]
        if row["library"] > 0:
            ratio = difference / row["library"]
            ratio_cell = f"**{ratio:.3f}**" if ratio > GOAL else f"{ratio:.3f}"
        else:
            ratio_cell = "n/a"
        codec = row["codec"] + ("*" if row["via_pqpage"] else "")
        cells = [row["file"], codec, f"{row['scan_compressed']:.4f}",
                 f"{row['scan_uncompressed']:.4f}", f"{difference:.4f}", f"{row['library']:.4f}",
                 ratio_cell, f"{row['pqpage_decompress']:.4f}"]
        print("| " + " | ".join(cells) + " |")
    if any(row["via_pqpage"] for row in rows):
        print("\n\\* codec alone measured through pqpage::Decompress (no direct library call for "
              "this codec in codec_floor_bench)")


if __name__ == "__main__":
    main()
