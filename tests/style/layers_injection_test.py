#!/usr/bin/env python3
"""Proves the layer test and the include graph catch an arrow running back up: copies src/,
include/ and the README to a temporary tree, injects one wrong include at a time, and expects
tests/style/layers_test.py to fail naming the file and line, and include_graph.py to draw the
arrow red and exit 1. The untouched copy must pass both."""
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..")

# (file to inject into, the include): each breaks the rule in a different way.
INJECTIONS = [
    ("src/codec/value_request.cc", "pqpage/page_header_iterator.h"),  # a page header in codec
    ("src/common/byte_source.cc", "pqpage/column_chunk_reader.h"),  # I/O on the reader above it
    ("src/orc/varint.cc", "encodings/plain_decoder.h"),  # ORC on a Parquet encoding
    ("src/orc/byte_rle.cc", "pqpage/plain.h"),
    ("src/page/read/page_walker.cc", "page/write/chunk_verifier.h"),  # reading on writing
    ("src/page/choice/encoding_choice.cc", "pqpage/column_chunk_writer.h"),
    ("src/file/file_reader.cc", "pqpage/orc/file.h"),  # the Parquet file layer on ORC
]


def run(script, tree, *extra):
    return subprocess.run([sys.executable, os.path.join(HERE, script), tree, *extra],
                          capture_output=True, text=True)


def main():
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        tree = os.path.join(tmp, "tree")
        for part in ("src", "include"):
            shutil.copytree(os.path.join(ROOT, part), os.path.join(tree, part))
        shutil.copy(os.path.join(ROOT, "README.md"), tree)
        for script in ("layers_test.py", "include_graph.py"):
            if run(script, tree).returncode != 0:
                failures.append(f"{script} fails on the untouched tree")
        for path, include in INJECTIONS:
            target = os.path.join(tree, path)
            if not os.path.exists(target):
                failures.append(f"{path}: missing (update INJECTIONS)")
                continue
            original = open(target, encoding="utf-8").read()
            lines = original.count("\n")
            with open(target, "a", encoding="utf-8") as handle:
                handle.write(f'#include "{include}"\n')
            where = f"{path}:{lines + 1}"
            layers = run("layers_test.py", tree)
            if layers.returncode == 0 or where not in layers.stdout:
                failures.append(f"layers_test.py passed {where} including \"{include}\"")
            graph = run("include_graph.py", tree)
            if graph.returncode == 0 or where not in graph.stderr or "color=red" not in graph.stdout:
                failures.append(f"include_graph.py drew {where} including \"{include}\" as allowed")
            with open(target, "w", encoding="utf-8") as handle:
                handle.write(original)
    for failure in failures:
        print(failure)
    print(f"{len(INJECTIONS)} injected includes, {len(failures)} problem(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
