"""Checks `pqpage dump --rows A:B` and `pqpage scan --rows A:B` on one file against its full dump.

For each range, every column's levels and values must be exactly the rows [A, B) of the full dump
(a row begins at each repetition level of 0, or at every level of a column without repetition),
and scan must count B - A rows. Usage: rows_check.py TOOL FILE SEED; prints the number of ranges
checked, exits 1 with the first difference.
"""
import json
import random
import subprocess
import sys


def run(tool, args):
    done = subprocess.run([tool] + args, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"FAIL: pqpage {' '.join(args)} exited {done.returncode}: {done.stderr.strip()}")
    return done.stdout


def row_slices(column):
    """Per row: its first level and the values before it; one more entry for the end."""
    levels = column.get("def") or column.get("rep")
    count = len(levels) if levels is not None else len(column["values"])
    starts, values_before = [], []
    present = 0
    for i in range(count):
        if column["max_rep"] == 0 or column["rep"][i] == 0:
            starts.append(i)
            values_before.append(present)
        if column["max_def"] == 0 or column["def"][i] == column["max_def"]:
            present += 1
    starts.append(count)
    values_before.append(present)
    return starts, values_before


def expected(column, table, begin, end):
    starts, values_before = table
    a, b = starts[begin], starts[end]
    out = {k: column[k] for k in ("path", "type", "max_def", "max_rep")}
    if column["max_def"] > 0:
        out["def"] = column["def"][a:b]
    if column["max_rep"] > 0:
        out["rep"] = column["rep"][a:b]
    out["values"] = column["values"][values_before[begin]:values_before[end]]
    return out


def main():
    tool, path, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
    full = [json.loads(line) for line in run(tool, ["dump", path]).splitlines()]
    tables = [row_slices(c) for c in full]
    rows = len(tables[0][0]) - 1 if tables else 0
    # Row group boundaries and page first rows come from inspect.
    report = json.loads(run(tool, ["inspect", path, "--json"]))
    interesting = {0, 1, rows - 1, rows}
    first = 0
    for group in report.get("row_groups", []):
        interesting.update({first - 1, first, first + 1})
        for chunk in group.get("columns", []):
            for entry in (chunk.get("page_index") or {}).get("pages", []):
                r = entry.get("first_row_index")
                if isinstance(r, int):
                    interesting.update({first + r - 1, first + r, first + r + 1})
        first += group["num_rows"]
    interesting = sorted(r for r in interesting if 0 <= r <= rows)
    rng = random.Random(seed)
    ranges = [(0, rows), (0, 0), (rows, rows)]
    for _ in range(6):
        a, b = sorted(rng.choice(interesting) for _ in range(2))
        ranges.append((a, b))
        a, b = sorted(rng.randint(0, rows) for _ in range(2))
        ranges.append((a, b))
    for a, b in ranges:
        got = [json.loads(line) for line in run(tool, ["dump", path, "--rows", f"{a}:{b}"]).splitlines()]
        if len(got) != len(full):
            sys.exit(f"FAIL: {path} --rows {a}:{b}: {len(got)} columns, the full dump has {len(full)}")
        for column, table, actual in zip(full, tables, got):
            want = expected(column, table, a, b)
            if actual != want:
                for key in want:
                    if actual.get(key) != want[key]:
                        sys.exit(f"FAIL: {path} --rows {a}:{b}, column {column['path']}: '{key}' "
                                 f"differs: got {str(actual.get(key))[:200]}, "
                                 f"expected {str(want[key])[:200]}")
                sys.exit(f"FAIL: {path} --rows {a}:{b}, column {column['path']}: {actual}")
        scan = run(tool, ["scan", path, "--rows", f"{a}:{b}"])
        if f"rows: {b - a}\n" not in scan:
            sys.exit(f"FAIL: {path} scan --rows {a}:{b}: expected 'rows: {b - a}' in\n{scan}")
    print(len(ranges))


if __name__ == "__main__":
    main()
