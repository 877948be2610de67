#!/usr/bin/env python3
"""Checks that the library's layers include one another in one direction only.

common -> bitpack -> encodings -> compression/metadata -> page -> file -> cli, with orc (the ORC
codecs and files) beside page and file on common, bitpack and compression: a folder of src/ may
include its own headers, the public pqpage/ headers, Abseil, the standard library and the folders
listed for it below; nothing else. The generated Thrift header is for the layers that read or
write metadata. The tool (src/cli) may use only the public API. Prints every include that breaks
the rule, with its file and line, and fails if there is one.
"""
import os
import re
import sys

ALLOWED = {
    "common": set(),
    "bitpack": {"common"},
    "encodings": {"common", "bitpack"},
    "compression": {"common"},
    "metadata": {"common"},
    "schema": {"common"},
    "page": {"common", "bitpack", "encodings", "compression", "metadata"},
    "file": {"common", "compression", "metadata", "schema", "page"},
    "orc": {"common", "bitpack", "compression"},
    "cli": set(),
}
GENERATED_ALLOWED = {"metadata", "schema", "page", "file"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def main():
    root = sys.argv[1]
    src = os.path.join(root, "src")
    problems = []
    for layer in sorted(os.listdir(src)):
        if layer not in ALLOWED:
            problems.append(f"src/{layer}: a folder the layer rule does not know (add it here)")
            continue
        for name in sorted(os.listdir(os.path.join(src, layer))):
            if not name.endswith((".h", ".cc")):
                continue
            path = os.path.join(src, layer, name)
            with open(path, encoding="utf-8") as handle:
                for number, line in enumerate(handle, 1):
                    match = INCLUDE.match(line)
                    if not match:
                        continue
                    target = match.group(1)
                    folder = target.split("/", 1)[0] if "/" in target else None
                    if target == "parquet_types.h":
                        ok = layer in GENERATED_ALLOWED
                    elif target == "orc_metadata.pb.h":
                        ok = layer == "orc"
                    elif folder in ("pqpage", "absl", layer):
                        ok = True
                    else:
                        ok = folder in ALLOWED[layer]
                    if not ok:
                        problems.append(f"src/{layer}/{name}:{number}: includes \"{target}\"")
    for problem in problems:
        print(problem)
    print(f"{len(problems)} include(s) against the layer order")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
