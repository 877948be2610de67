#!/usr/bin/env python3
"""Stored bytes per column of one table under every pqpage encoding policy and the peers' writers.

Usage: size_report.py TABLE.parquet [--tool PATH] [--codec zstd] [--out report.md] [--json report.json]

Writes TABLE with `pqpage recode` under each --encoding policy for data page v1 and v2 (codec
--codec), with pyarrow (defaults; v2 + zstd), DuckDB (default; zstd) and polars (default), then
reads each file's footer with pyarrow: a column's stored bytes are the sum over row groups of its
chunks' total_compressed_size. Every pqpage file is read back with pyarrow and compared with TABLE
before it is counted; a mismatch is printed, marked in the report and makes the exit status 1.
Prints the Markdown report (issue 11's figures) and optionally saves it and the raw figures.
Run it with the peers' virtualenv (build/peers-venv/bin/python).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter

import duckdb
import polars as pl
import pyarrow.parquet as pq

POLICIES = ["auto", "plain", "dictionary", "delta", "delta_length_byte_array", "byte_stream_split",
            "auto_all"]
FIXED_POLICIES = POLICIES[1:-1]
# auto_all: auto choosing among every encoding the format allows (--auto-encodings all), not only
# what pyarrow, DuckDB and polars all read; it shows what the interoperable default gives up.
POLICY_ARGS = {"auto_all": ["--encoding", "auto", "--auto-encodings", "all"]}
TIMED_POLICIES = ("auto", "dictionary")  # best of 3: the choice's cost is judged against these
TIMING_RUNS = 3
SHORT_POLICY = {"dictionary": "dict", "delta_length_byte_array": "dlba", "byte_stream_split": "bss"}
SHORT_ENCODING = {"PLAIN": "PL", "PLAIN_DICTIONARY": "DICT", "RLE_DICTIONARY": "DICT", "RLE": "RLE",
                  "BIT_PACKED": "BP", "DELTA_BINARY_PACKED": "DBP", "DELTA_LENGTH_BYTE_ARRAY": "DLBA",
                  "DELTA_BYTE_ARRAY": "DBA", "BYTE_STREAM_SPLIT": "BSS"}
TOLERANCE = 1.02  # issue 11: auto within 2% of the smallest fixed policy, per column
TOTAL_TARGET = 0.85  # issue 11: auto + zstd total <= 0.85x pyarrow v2 + zstd


def pqpage_name(policy, page_version):
    return f"{SHORT_POLICY.get(policy, policy)} v{page_version}"


def recode(tool, source, target, policy, page_version, codec):
    """Runs one `pqpage recode`; returns its wall-clock seconds, or raises with its stderr."""
    command = [tool, "recode", source, target, *POLICY_ARGS.get(policy, ["--encoding", policy]),
               "--page-version", str(page_version), "--compression", codec]
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exited {result.returncode}: {result.stderr.strip()}")
    return seconds


def peer_writers():
    """(name, write(table, source_path, target_path)) for each peer variant, in report order."""
    def duckdb_copy(options):
        def write(_table, source, target):
            quoted = [path.replace("'", "''") for path in (source, target)]
            duckdb.connect().execute(
                f"COPY (SELECT * FROM read_parquet('{quoted[0]}')) TO '{quoted[1]}' ({options})")
        return write

    return [
        ("pyarrow default", lambda table, _source, target: pq.write_table(table, target)),
        ("pyarrow v2 zstd", lambda table, _source, target: pq.write_table(
            table, target, data_page_version="2.0", compression="zstd")),
        ("duckdb default", duckdb_copy("FORMAT parquet")),
        ("duckdb zstd", duckdb_copy("FORMAT parquet, COMPRESSION zstd")),
        ("polars default", lambda _table, source, target: pl.read_parquet(source).write_parquet(target)),
    ]


def chunk_figures(path, num_columns):
    """Per leaf column: stored bytes summed over row groups and the footer's `encodings` (union)."""
    metadata = pq.ParquetFile(path).metadata
    if metadata.num_columns != num_columns:
        raise RuntimeError(f"{path}: {metadata.num_columns} leaf columns, the input has {num_columns}")
    sizes, encodings = [0] * num_columns, [set() for _ in range(num_columns)]
    for row_group in range(metadata.num_row_groups):
        for column in range(num_columns):
            chunk = metadata.row_group(row_group).column(column)
            sizes[column] += chunk.total_compressed_size
            encodings[column].update(chunk.encodings)
    return sizes, [sorted(found) for found in encodings]


def data_page_choices(tool, path, num_columns):
    """Per leaf column: the data pages' encodings with counts, from `pqpage inspect --json` (the
    page walk, so a dictionary that fell back shows as e.g. 'DICT x3 + PL x12')."""
    result = subprocess.run([tool, "inspect", path, "--json"], capture_output=True, text=True)
    if result.returncode != 0:
        print(f"FAILED pqpage inspect {path}: {result.stderr.strip()}", file=sys.stderr)
        return ["inspect FAILED"] * num_columns
    report = json.loads(result.stdout)
    counts = [Counter() for _ in range(num_columns)]
    for row_group in report["row_groups"]:
        for chunk in row_group["columns"]:
            for entry in chunk["page_encodings"]:
                if entry["page_type"] != "DICTIONARY_PAGE":
                    encoding = SHORT_ENCODING.get(entry["encoding"], entry["encoding"])
                    counts[chunk["column"]][encoding] += entry["count"]
    return [" + ".join(f"{name} x{count}" for name, count in found.most_common()) for found in counts]


def mismatched_columns(expected, path, cast):
    """Names of the columns of the file at path whose values or types differ from expected's, or
    why it cannot be compared at all. cast: compare after casting to expected's types (the peers
    pick their own string, list and decimal types); pqpage files must match exactly."""
    try:
        actual = pq.read_table(path)
        if cast:
            actual = actual.cast(expected.schema)
    except Exception as error:  # a file that does not read back is a mismatch, reported as such
        return [f"cannot read or cast: {error}"]
    if actual.num_rows != expected.num_rows or actual.column_names != expected.column_names:
        return ["shape: rows or column names differ"]
    return [name for name in expected.column_names
            if not actual.column(name).equals(expected.column(name)) or
            actual.schema.field(name).type != expected.schema.field(name).type]


def measure(args, expected, leaf_count, work_dir):
    """Writes every variant; returns {name: figures} in report order."""
    variants = {}
    for page_version in (1, 2):
        for policy in POLICIES:
            name = pqpage_name(policy, page_version)
            target = os.path.join(work_dir, f"{policy}_v{page_version}.parquet")
            runs = TIMING_RUNS if policy in TIMED_POLICIES else 1
            try:
                seconds = min(recode(args.tool, args.table, target, policy, page_version, args.codec)
                              for _ in range(runs))
            except RuntimeError as error:
                print(f"FAILED {name}: {error}", file=sys.stderr)
                variants[name] = {"writer": "pqpage", "failed": str(error)}
                continue
            variants[name] = {"writer": "pqpage", "policy": policy, "page_version": page_version,
                              "seconds": seconds, "timing_runs": runs, "path": target,
                              "mismatches": mismatched_columns(expected, target, cast=False),
                              "page_choices": data_page_choices(args.tool, target, leaf_count)}
    for name, write in peer_writers():
        target = os.path.join(work_dir, name.replace(" ", "_") + ".parquet")
        start = time.perf_counter()
        write(expected, args.table, target)
        variants[name] = {"writer": "peer", "seconds": time.perf_counter() - start, "timing_runs": 1,
                          "path": target,
                          "mismatches": mismatched_columns(expected, target, cast=True)}
    for name, figures in variants.items():
        if "failed" in figures:
            continue
        figures["bytes"], figures["encodings"] = chunk_figures(figures["path"], leaf_count)
        figures["file_bytes"] = os.path.getsize(figures["path"])
        if figures["mismatches"]:
            print(f"MISMATCH {name}: {', '.join(figures['mismatches'])} differ from {args.table}",
                  file=sys.stderr)
    return variants


def counted(figures):
    """Whether a variant's sizes count: measured, and for pqpage, read back equal to the input."""
    return "bytes" in figures and not (figures["writer"] == "pqpage" and figures["mismatches"])


def smallest_fixed(variants, page_version, column):
    """(name, bytes) of the smallest counted fixed pqpage policy for a column at a page version.
    Ties go to the earlier policy in FIXED_POLICIES, so a policy that fell back to PLAIN for this
    type is never named instead of plain itself."""
    candidates = [(variants[name]["bytes"][column], order, name) for order, name in
                  enumerate(pqpage_name(policy, page_version) for policy in FIXED_POLICIES)
                  if counted(variants[name])]
    size, _, name = min(candidates)
    return name, size


def markdown_table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def ratio_cell(ratio, limit):
    return f"**{ratio:.3f}**" if ratio > limit else f"{ratio:.3f}"


def size_section(variants, leaves):
    names = list(variants)
    measured = [name for name in names if "bytes" in variants[name]]

    def cell(name, values):
        if name not in measured:
            return "FAILED"
        return f"{values(variants[name])}" + (" MISMATCH" if variants[name]["mismatches"] else "")

    rows = [[leaf["path"], leaf["type"]] + [cell(name, lambda v, c=column: v["bytes"][c]) for name in names]
            for column, leaf in enumerate(leaves)]
    rows.append(["**total (chunks)**", ""] + [cell(name, lambda v: sum(v["bytes"])) for name in names])
    rows.append(["file bytes", ""] + [cell(name, lambda v: v["file_bytes"]) for name in names])
    return "## Stored bytes per column\n\n" + markdown_table(["column", "type"] + names, rows)


def choice_section(variants, leaves):
    """Per column and page version: auto's data-page encodings, the smallest fixed policy, the ratio."""
    page_versions = [v for v in (1, 2) if counted(variants[pqpage_name("auto", v)])]
    header, rows = ["column"], []
    for page_version in page_versions:
        header += [f"auto v{page_version} data pages", f"smallest fixed v{page_version}",
                   f"auto/smallest v{page_version}", f"auto_all/smallest v{page_version}"]
    auto_total, best_total = Counter(), Counter()
    for column, leaf in enumerate(leaves):
        row = [leaf["path"]]
        for page_version in page_versions:
            auto = variants[pqpage_name("auto", page_version)]
            name, size = smallest_fixed(variants, page_version, column)
            widened = variants[pqpage_name("auto_all", page_version)]
            row += [auto["page_choices"][column], f"{name}: {size}",
                    ratio_cell(auto["bytes"][column] / size, TOLERANCE),
                    ratio_cell(widened["bytes"][column] / size, TOLERANCE)
                    if counted(widened) else "FAILED"]
            auto_total[page_version] += auto["bytes"][column]
            best_total[page_version] += size
        rows.append(row)
    total_row = ["**total** (vs the best fixed policy of each column)"]
    for page_version in page_versions:
        total_row += ["", str(best_total[page_version]),
                      ratio_cell(auto_total[page_version] / best_total[page_version], TOLERANCE), ""]
    rows.append(total_row)
    return ("## auto's choices against the smallest fixed policy (bold: more than 2% larger)\n\n"
            + markdown_table(header, rows))


def totals_section(variants):
    reference = sum(variants["pyarrow v2 zstd"]["bytes"])
    lines = ["## Totals", ""]
    for name, figures in variants.items():
        if name.startswith("auto") and counted(figures):
            ratio = sum(figures["bytes"]) / reference
            verdict = "meets" if ratio <= TOTAL_TARGET else "misses"
            lines.append(f"- {name} / pyarrow v2 zstd = {sum(figures['bytes'])} / {reference} = "
                         f"**{ratio:.3f}** ({verdict} the {TOTAL_TARGET} target)")
    return "\n".join(lines)


def time_section(variants):
    rows = [[name, f"{figures['seconds']:.3f}", figures["timing_runs"]]
            for name, figures in variants.items() if "seconds" in figures]
    return ("## Write times (s; pqpage: whole `recode` incl. reading the input; peers: the write "
            "alone, pyarrow from memory, DuckDB and polars from the file)\n\n"
            + markdown_table(["variant", "seconds", "runs (best of)"], rows))


def encoding_section(variants, leaves):
    names = [name for name in variants if "encodings" in variants[name]]
    rows = [[leaf["path"]] + ["/".join(SHORT_ENCODING.get(e, e) for e in variants[name]["encodings"][column])
                              for name in names] for column, leaf in enumerate(leaves)]
    return ("## Footer `encodings` per chunk (value and level encodings, union over row groups)\n\n"
            + markdown_table(["column"] + names, rows))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("table")
    default_tool = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "build", "pqpage")
    parser.add_argument("--tool", default=default_tool)
    parser.add_argument("--codec", default="zstd")
    parser.add_argument("--out")
    parser.add_argument("--json")
    args = parser.parse_args()

    expected = pq.read_table(args.table)
    schema = pq.ParquetFile(args.table).metadata.schema
    leaves = [{"path": schema.column(i).path, "type": schema.column(i).physical_type}
              for i in range(len(schema))]
    with tempfile.TemporaryDirectory(prefix="size_report_") as work_dir:
        variants = measure(args, expected, len(leaves), work_dir)
    for figures in variants.values():
        figures.pop("path", None)

    failures = [name for name, figures in variants.items()
                if figures["writer"] == "pqpage" and not counted(figures)]
    title = (f"# Size report: {os.path.basename(args.table)}, {expected.num_rows} rows, "
             f"pqpage codec {args.codec}\n")
    if failures:
        title += f"\n**FAILED or MISMATCHED pqpage variants: {', '.join(failures)}** (see stderr)\n"
    sections = [title, size_section(variants, leaves), choice_section(variants, leaves),
                totals_section(variants), time_section(variants), encoding_section(variants, leaves)]
    report = "\n\n".join(sections) + "\n"
    print(report)
    if args.out:
        with open(args.out, "w") as out:
            out.write(report)
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"table": args.table, "rows": expected.num_rows, "codec": args.codec,
                       "columns": leaves, "variants": variants}, out, indent=1)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
