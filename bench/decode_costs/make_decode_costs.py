#!/usr/bin/env python3
"""Measures the decode cost of every (physical type, encoding) and writes the table the page builder
reads (src/page/decode_costs.inc), so the table is never typed by hand.

usage: make_decode_costs.py BENCH_BINARY OUT_INC [--min-time SECONDS]

BENCH_BINARY is a Release build of bench/decode_cost_bench.cc. It is run with
--benchmark_filter=BM_DecodeCost --benchmark_repetitions=3 and JSON output; each benchmark's figure
is the median of its repetitions' ns per value, and each (type, encoding)'s figure is the median of
those over its data shapes. OUT_INC gets one row per (type, encoding), in enum order, under a
comment that says how, where and when it was made; the same figures are printed as a table.

A run that failed is fatal (nothing is written), except a dictionary that filled: a writer falls
back to another encoding there, so no page of that shape is dictionary-encoded, and the shape is
left out of that encoding's median (the comment lists it).
"""
import argparse
import datetime
import json
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import textwrap

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REPETITIONS = 3
# Parquet names to the enumerators of include/pqpage/types.h, in enum order (the rows' order).
TYPES = {
    "BOOLEAN": "kBoolean",
    "INT32": "kInt32",
    "INT64": "kInt64",
    "INT96": "kInt96",
    "FLOAT": "kFloat",
    "DOUBLE": "kDouble",
    "BYTE_ARRAY": "kByteArray",
    "FIXED_LEN_BYTE_ARRAY": "kFixedLenByteArray",
}
ENCODINGS = {
    "PLAIN": "kPlain",
    "PLAIN_DICTIONARY": "kPlainDictionary",
    "RLE": "kRle",
    "BIT_PACKED": "kBitPacked",
    "DELTA_BINARY_PACKED": "kDeltaBinaryPacked",
    "DELTA_LENGTH_BYTE_ARRAY": "kDeltaLengthByteArray",
    "DELTA_BYTE_ARRAY": "kDeltaByteArray",
    "RLE_DICTIONARY": "kRleDictionary",
    "BYTE_STREAM_SPLIT": "kByteStreamSplit",
}
PREFIX = "BM_DecodeCost/"
# The bench's message when a dictionary encoder filled (decode_cost_bench.cc, DecodeCost).
DICTIONARY_FULL = "dictionary full"


def fail(message):
    print(f"make_decode_costs.py: {message}", file=sys.stderr)
    sys.exit(1)


def min_time_flag(bench, seconds):
    """--benchmark_min_time in the syntax of the binary's Google Benchmark: 1.8 wants "0.5s"
    (a bare number is then read as seconds with a warning, or refused), 1.7 and older a bare
    number. Its --help says which."""
    help_text = subprocess.run([bench, "--help"], capture_output=True, text=True).stdout
    suffix = "s" if "<float>s" in help_text else ""
    return f"--benchmark_min_time={seconds:g}{suffix}"


def repo_relative(path):
    full = os.path.abspath(path)
    if os.path.commonpath([full, REPO]) == REPO:
        return os.path.relpath(full, REPO)
    return path


def cpu_description():
    model, cores = "unknown CPU", set()
    physical_id = core_id = None
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                key, _, value = (part.strip() for part in line.partition(":"))
                if key == "model name" and model == "unknown CPU":
                    model = " ".join(value.split())
                elif key == "physical id":
                    physical_id = value
                elif key == "core id":
                    core_id = value
                elif not key:  # a blank line ends one logical CPU's block
                    if core_id is not None:
                        cores.add((physical_id, core_id))
                    physical_id = core_id = None
    except OSError:
        pass
    logical = os.cpu_count() or 0
    core_text = f", {len(cores)} cores" if cores else ""
    return f"{model} ({logical} logical CPUs{core_text})"


def source_revision():
    try:
        commit = subprocess.run(["git", "-C", REPO, "rev-parse", "--short=12", "HEAD"],
                                capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", REPO, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None
    return commit + (" with uncommitted changes" if dirty else "")


def warn_unless_release(bench):
    # Debug codecs would make a table of the wrong figures; the build folder says how it was built.
    cache = os.path.join(os.path.dirname(os.path.abspath(bench)), "CMakeCache.txt")
    if not os.path.exists(cache):
        return
    with open(cache, encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("CMAKE_BUILD_TYPE:"):
                build_type = line.split("=", 1)[1].strip()
                if build_type != "Release":
                    print(f"warning: {bench} is a {build_type or 'default'} build, not Release",
                          file=sys.stderr)


def three_digits(value):
    """ns with 3 significant digits, always with a decimal point (a double literal)."""
    rounded = float(f"{value:.3g}")
    decimals = max(0, 2 - math.floor(math.log10(rounded)))
    text = f"{rounded:.{decimals}f}"
    return text if "." in text else text + ".0"


def run_benchmarks(bench, min_time):
    command = [bench, "--benchmark_format=json", "--benchmark_filter=BM_DecodeCost",
               f"--benchmark_repetitions={REPETITIONS}", min_time_flag(bench, min_time)]
    print("running:", " ".join(command), file=sys.stderr)
    result = subprocess.run(command, stdout=subprocess.PIPE, text=True)
    if result.returncode != 0:
        fail(f"{bench} exited with status {result.returncode}")
    return command, json.loads(result.stdout)


def collect(report):
    """{(type, encoding): {shape: [ns per value of each repetition]}}, {(type, encoding, shape):
    stored bytes per value}, and the runs left out with their messages."""
    times, sizes, left_out, errors = {}, {}, {}, []
    for run in report["benchmarks"]:
        if run.get("run_type") != "iteration":
            continue  # the aggregates; the medians are taken here
        name = run.get("run_name", run["name"])
        parts = name[len(PREFIX):].split("/") if name.startswith(PREFIX) else []
        if len(parts) != 3 or parts[0] not in TYPES or parts[1] not in ENCODINGS:
            fail(f"unexpected benchmark name {name!r}")
        type_name, encoding_name, shape = parts
        if run.get("error_occurred"):
            message = run.get("error_message", "")
            if message.startswith(DICTIONARY_FULL):
                left_out[(type_name, encoding_name, shape)] = message
            else:
                errors.append(f"{name}: {message}")
            continue
        if "time_per_value" in run:
            ns = run["time_per_value"] * 1e9
        else:
            ns = 1e9 / run["items_per_second"]
        times.setdefault((type_name, encoding_name), {}).setdefault(shape, []).append(ns)
        sizes[(type_name, encoding_name, shape)] = run.get("stored_bytes_per_value")
    if errors:
        fail("runs failed (no table written):\n  " + "\n  ".join(sorted(set(errors))))
    for (type_name, encoding_name), shapes in times.items():
        for shape, runs in shapes.items():
            if len(runs) != REPETITIONS:
                fail(f"{type_name}/{encoding_name}/{shape}: {len(runs)} runs, not {REPETITIONS}")
    return times, sizes, left_out


def ordered(keys):
    type_order, encoding_order = list(TYPES), list(ENCODINGS)
    return sorted(keys, key=lambda k: (type_order.index(k[0]), encoding_order.index(k[1])))


def comment(paragraph, indent="", hanging=""):
    """`paragraph` as // lines of at most 100 columns (where no word is longer), which
    clang-format's comment reflow leaves alone; `hanging` indents the lines after the first."""
    return ["// " + line for line in
            textwrap.wrap(paragraph, width=97, initial_indent=indent,
                          subsequent_indent=indent + hanging, break_long_words=False,
                          break_on_hyphens=False)]


def render(costs, shapes_by_type, left_out, bench_command, args, load):
    today = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    script = repo_relative(os.path.abspath(__file__))
    command = " ".join([script, repo_relative(args.bench), repo_relative(args.out_inc)] +
                       ([f"--min-time {args.min_time:g}"] if args.min_time_given else []))
    lines = comment("Generated by bench/decode_costs/make_decode_costs.py: do not edit, "
                    "regenerate (bench/decode_costs/README.md says how).")
    lines += comment(f"Command: {command}", hanging="    ")
    lines += comment("Benchmark: " + " ".join([os.path.basename(bench_command[0])] +
                                              bench_command[1:]), hanging="    ")
    lines += comment(f"Machine: {cpu_description()}, {platform.system()} {platform.release()}; "
                     f"load average {load} when the run started.", hanging="    ")
    revision = source_revision()
    lines += comment(f"Date: {today} (UTC)" + (f"; source {revision}." if revision else "."))
    lines += comment("Figures: ns of CPU time per decoded value (Reset + Decode of one page of "
                     "65,536 values through Decoder<T>), the median of "
                     f"{REPETITIONS} repetitions per data shape, then the median over the shapes "
                     "listed:")
    for type_name in TYPES:
        if type_name in shapes_by_type:
            lines += comment(f"{type_name}: {', '.join(shapes_by_type[type_name])}", indent="  ")
    if left_out:
        lines += comment("Left out (the dictionary filled, so a writer falls back and no page of "
                         "that shape is dictionary-encoded):")
        lines += comment(", ".join("/".join(key) for key in sorted(left_out)), indent="  ")
    # The rows are a fragment of an initializer list, which clang-format would indent as
    # continuations of the first row. "off" keeps them one a line, alike, to the end of the file; an
    # "on" after them would itself be indented as a continuation.
    lines.append("// clang-format off")
    for key in ordered(costs):
        type_name, encoding_name = key
        lines.append(f"{{PhysicalType::{TYPES[type_name]}, Encoding::{ENCODINGS[encoding_name]}, "
                     f"{three_digits(costs[key])}}},")
    return "\n".join(lines) + "\n"


def print_table(times, sizes, costs, shapes_by_type, left_out):
    print("ns per decoded value (stored bytes per value); the last column is the table's figure")
    for type_name in TYPES:
        if type_name not in shapes_by_type:
            continue
        shapes = shapes_by_type[type_name]
        width = max(12, *(len(s) for s in shapes))
        print()
        print(f"{type_name:<26}" + "".join(f"{s:>{width + 2}}" for s in shapes) + "   median")
        for key in ordered(k for k in costs if k[0] == type_name):
            cells = []
            for shape in shapes:
                if (*key, shape) in left_out:
                    cells.append("full")
                elif shape in times[key]:
                    size = sizes.get((*key, shape))
                    size_text = f" ({size:.2f})" if size is not None else ""
                    ns = statistics.median(times[key][shape])
                    cells.append(f"{three_digits(ns)}{size_text}")
                else:
                    cells.append("-")
            print(f"  {key[1]:<24}" + "".join(f"{c:>{width + 2}}" for c in cells) +
                  f"   {three_digits(costs[key])}")


def check_format(text, out_inc):
    """clang-format must leave the file as written (the repo's .clang-format, found from the
    file's place in the repo)."""
    tool = shutil.which("clang-format-14") or shutil.which("clang-format")
    if tool is None:
        print("warning: clang-format not found; the output's format is unchecked", file=sys.stderr)
        return
    assumed = os.path.join(REPO, "src", "page", os.path.basename(out_inc))
    result = subprocess.run([tool, "--dry-run", "-Werror", f"--assume-filename={assumed}"],
                            input=text, capture_output=True, text=True)
    if result.returncode != 0:
        fail(f"clang-format would change the output:\n{result.stderr}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bench", metavar="BENCH_BINARY", help="the built decode_cost_bench")
    parser.add_argument("out_inc", metavar="OUT_INC", help="src/page/decode_costs.inc")
    parser.add_argument("--min-time", type=float, default=None,
                        help="seconds per repetition of each benchmark (default 0.5; a shorter "
                             "run only proves the pipeline)")
    args = parser.parse_args()
    args.min_time_given = args.min_time is not None
    if args.min_time is None:
        args.min_time = 0.5
    if not os.access(args.bench, os.X_OK):
        fail(f"{args.bench} is not an executable")
    warn_unless_release(args.bench)

    load = " ".join(f"{x:.2f}" for x in os.getloadavg())  # before the run loads the machine
    bench_command, report = run_benchmarks(args.bench, args.min_time)
    times, sizes, left_out = collect(report)
    if not times:
        fail("no BM_DecodeCost benchmark ran")

    costs = {key: statistics.median(statistics.median(runs) for runs in shapes.values())
             for key, shapes in times.items()}
    # Shapes in the order the bench registers them (its JSON order), not alphabetical.
    shapes_by_type = {}
    for run in report["benchmarks"]:
        if run.get("run_type") == "iteration":
            type_name, _, shape = run.get("run_name", run["name"])[len(PREFIX):].split("/")
            if shape not in shapes_by_type.setdefault(type_name, []):
                shapes_by_type[type_name].append(shape)

    text = render(costs, shapes_by_type, left_out, bench_command, args, load)
    check_format(text, args.out_inc)
    with open(args.out_inc, "w", encoding="utf-8") as handle:
        handle.write(text)
    print_table(times, sizes, costs, shapes_by_type, left_out)
    print(f"\nwrote {len(costs)} rows to {args.out_inc}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
