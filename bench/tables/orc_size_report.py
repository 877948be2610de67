#!/usr/bin/env python3
"""Bytes per stream kind per column: ORC's C++ writer (pyarrow.orc) against pqpage's RLE v2
encoders (`pqpage recode --rle 2`), on the same columns and stripes, without compression, so that
the numbers compare the encoders and not the codecs.

Usage (in the peers' virtualenv, build/peers-venv/bin/python):
  orc_size_report.py [--tool build/pqpage] [--rows 24000] [--seed 14] [--out report.md]

For each string setting (dictionary_key_size_threshold 0: direct, 1: dictionary) pyarrow.orc
writes the table of tests/interop/orc_table.py uncompressed with file version 0.12; pqpage
recodes it with --rle 2 --compression none. The recoded file must read back in pyarrow.orc equal
to the original (floats bit for bit) before it is counted; a mismatch is printed and makes the
exit status 1. The sizes come from `pqpage inspect --json` of both files: each stream's stored
length, summed over the stripes. Row indexes (which pqpage does not write) are left out of the
table and reported on their own line.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import OrderedDict

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(REPO, "tests", "interop"))


def inspect(tool, path):
    result = subprocess.run([tool, "inspect", path, "--json"], capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"pqpage inspect {path} exited {result.returncode}: "
                           f"{result.stderr.strip()}")
    return json.loads(result.stdout)


def stream_bytes(info):
    """({(column id, stream kind): bytes over every stripe}, {column id: set of encodings})."""
    sizes, encodings = OrderedDict(), {}
    for stripe in info["stripes"]:
        for stream in stripe["streams"]:
            key = (stream["column"], stream["kind"])
            sizes[key] = sizes.get(key, 0) + stream["length"]
        for column, encoding in enumerate(stripe["encodings"]):
            encodings.setdefault(column, set()).add(encoding["kind"])
    return sizes, encodings


def ratio(ours, theirs):
    if theirs == 0:
        return "-" if ours == 0 else "new"
    return f"{ours / theirs:.3f}"


def report(title, reference, recoded):
    """Markdown lines comparing two inspect documents of files with the same schema."""
    ref_sizes, ref_encodings = stream_bytes(reference)
    our_sizes, our_encodings = stream_bytes(recoded)
    columns = reference["columns"]
    lines = [f"### {title}", "",
             f"{reference['num_rows']} rows in {reference['num_stripes']} stripes, uncompressed.",
             "",
             "| column | kind | encoding (ORC C++ / pqpage) | stream | ORC C++ bytes "
             "| pqpage bytes | pqpage / ORC C++ |",
             "|---|---|---|---|---:|---:|---:|"]
    keys = sorted({k for k in list(ref_sizes) + list(our_sizes) if k[1] != "ROW_INDEX"},
                  key=lambda k: (k[0], k[1]))
    totals = [0, 0]
    for column, kind in keys:
        theirs, ours = ref_sizes.get((column, kind), 0), our_sizes.get((column, kind), 0)
        totals[0] += theirs
        totals[1] += ours
        encoding = (f"{'/'.join(sorted(ref_encodings.get(column, [])))} / "
                    f"{'/'.join(sorted(our_encodings.get(column, [])))}")
        lines.append(f"| {columns[column]['path'] or '(root)'} | {columns[column]['kind']} | "
                     f"{encoding} | {kind} | {theirs} | {ours} | {ratio(ours, theirs)} |")
    lines.append(f"| **all streams** | | | | **{totals[0]}** | **{totals[1]}** | "
                 f"**{ratio(totals[1], totals[0])}** |")
    row_index = sum(v for (_, kind), v in ref_sizes.items() if kind == "ROW_INDEX")
    lines += ["", f"Row indexes: ORC C++ {row_index} bytes, pqpage none. Files: ORC C++ "
              f"{reference['file_size']} bytes, pqpage {recoded['file_size']} bytes.", ""]
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tool", default=os.path.join(REPO, "build", "pqpage"))
    parser.add_argument("--rows", type=int, default=24000)
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--out")
    args = parser.parse_args()

    import pyarrow.orc as orc
    import orc_table as T
    from orc_pyarrow_test import differing_columns

    table = T.make_table(rows=args.rows, seed=args.seed)
    lines = ["## ORC: bytes per stream, ORC C++ (pyarrow.orc) against pqpage recode --rle 2", ""]
    failed = False
    with tempfile.TemporaryDirectory() as scratch:
        for threshold, label in ((0, "strings direct"), (1, "strings in dictionaries")):
            source = os.path.join(scratch, f"orc-cpp-dict{threshold}.orc")
            target = os.path.join(scratch, f"pqpage-dict{threshold}.orc")
            orc.write_table(table, source, **T.write_options("uncompressed", "0.12", threshold))
            result = subprocess.run([args.tool, "recode", source, target, "--rle", "2",
                                     "--compression", "none"], capture_output=True, text=True)
            if result.returncode != 0:
                print(f"pqpage recode failed ({label}): {result.stderr.strip()}", file=sys.stderr)
                failed = True
                continue
            differing = differing_columns(orc.read_table(source), orc.read_table(target))
            if differing:
                print(f"MISMATCH ({label}): pyarrow.orc reads other values in {differing}",
                      file=sys.stderr)
                failed = True
                continue
            lines += report(f"{label} (dictionary_key_size_threshold {threshold})",
                            inspect(args.tool, source), inspect(args.tool, target))
    text = "\n".join(lines)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
