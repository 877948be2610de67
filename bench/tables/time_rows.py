#!/usr/bin/env python3
"""Reading a few rows through the page index (issue 13): how much of a file `pqpage scan --rows A:B`
reads, and how long it takes, against a scan of the whole file.

Usage: time_rows.py FILE... [--pqpage PATH] [--fraction F] [--repeat N]

For each FILE: a whole scan, then windows of F of its rows (default 0.01) at its start, a third
and two thirds in, and its end, each with `scan --rows A:B --threads 1`. Prints a Markdown table
per file: the window, the file bytes read (`file bytes read:` of scan) as a share of the file, and
the best-of-N (default 5) elapsed time against the whole scan's. A file without a page index is
read page after page (pages before the window are not decompressed, but they are read).
Run on an otherwise idle machine.
"""
import argparse
import os
import re
import subprocess
import sys

from run_info import REPO, commit, machine

ELAPSED = re.compile(r"^elapsed:\s*([0-9.eE+-]+)\s*s\s*$", re.MULTILINE)
BYTES_READ = re.compile(r"^file bytes read: (\d+) of (\d+)$", re.MULTILINE)
ROWS = re.compile(r"^rows: (\d+)$", re.MULTILINE)


def scan(tool, path, extra):
    """(elapsed seconds, bytes read, rows) of one `scan --threads 1` run; exits 1 if it fails."""
    command = [tool, "scan", path, "--threads", "1"] + extra
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"FAILED: {' '.join(command)}: {result.stderr}")
    return (float(ELAPSED.search(result.stdout).group(1)),
            int(BYTES_READ.search(result.stdout).group(1)), int(ROWS.search(result.stdout).group(1)))


def best(tool, path, extra, repeat):
    runs = [scan(tool, path, extra) for _ in range(repeat)]
    return min(r[0] for r in runs), runs[0][1], runs[0][2]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--pqpage", default=os.path.join(REPO, "build", "pqpage"))
    parser.add_argument("--fraction", type=float, default=0.01)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"{machine()}; pqpage {commit()}; best of {args.repeat}, one thread\n")
    for path in args.files:
        size = os.path.getsize(path)
        whole_seconds, whole_bytes, rows = best(args.pqpage, path, [], args.repeat)
        width = max(1, int(rows * args.fraction))
        print(f"### {os.path.basename(path)}: {rows} rows, {size} bytes; whole scan "
              f"{whole_seconds:.4f} s, {whole_bytes} bytes read\n")
        print("| rows | bytes read | share of the file | seconds | share of the whole scan |")
        print("| --- | ---: | ---: | ---: | ---: |")
        for begin in (0, rows // 3, 2 * rows // 3, rows - width):
            end = begin + width
            seconds, read, got = best(args.pqpage, path, ["--rows", f"{begin}:{end}"], args.repeat)
            if got != width:
                sys.exit(f"FAILED: --rows {begin}:{end} of {path} read {got} rows, not {width}")
            print(f"| {begin}:{end} | {read} | {100.0 * read / size:.2f}% | {seconds:.4f} | "
                  f"{100.0 * seconds / whole_seconds:.1f}% |")
        print()


if __name__ == "__main__":
    main()
