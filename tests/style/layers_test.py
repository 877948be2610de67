#!/usr/bin/env python3
"""Checks that the library's layers include one another in one direction only.

The order (each layer may use those before it that are listed for it in ALLOWED):
common -> bitpack -> codec -> encodings -> compression / metadata / schema -> page -> file -> cli,
with orc (the ORC codecs and files) on common, bitpack, codec and compression, never on the
Parquet encodings. Every public header (include/pqpage/...) belongs to one layer, PUBLIC_OWNERS
says which, and including it counts as including that layer's folder; the public headers' own
includes are checked against their owner's rule too. A folder of src/ may include its own
headers, Abseil, the standard library and what its rule allows; the generated Thrift header is
for the layers that read or write metadata, the generated protobuf header for orc. The tool
(src/cli) is the top: it may include any public header, and no library folder. Prints every
include that breaks the rule, with its file and line, and fails if there is one.
"""
import os
import re
import sys

ALLOWED = {
    "common": set(),
    "bitpack": {"common"},
    "codec": {"common", "bitpack"},
    "encodings": {"common", "bitpack", "codec"},
    "compression": {"common"},
    "metadata": {"common"},
    "schema": {"common"},
    "page": {"common", "bitpack", "codec", "encodings", "compression", "metadata"},
    "file": {"common", "codec", "encodings", "compression", "metadata", "schema", "page"},
    "orc": {"common", "bitpack", "codec", "compression"},
}
# The tool may use every public header, and no folder of src/ but its own.
TOP = "cli"

PUBLIC_OWNERS = {
    "common": ["types.h", "value_type.h", "status_macros.h", "column_descriptor.h",
               "logical_type.h", "byte_source.h"],
    "codec": ["codec.h"],
    "encodings": ["codec_factory.h", "plain.h", "dictionary.h", "delta_binary_packed.h",
                  "delta_byte_array.h", "delta_length_byte_array.h", "byte_stream_split.h",
                  "rle_bit_packed_hybrid.h", "bit_packed.h", "group_var_int.h"],
    "compression": ["compression.h"],
    "metadata": ["page.h", "metadata.h"],
    "schema": ["schema.h"],
    "page": ["column_chunk_reader.h", "column_chunk_writer.h", "page_header_iterator.h",
             "page_index.h", "peer_readers.h"],
    "file": ["file.h", "arrow_schema.h", "recode.h", "advise.h"],
    "orc": ["orc/"],
}
GENERATED_ALLOWED = {"metadata", "schema", "page", "file"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')

# Includes the rule must refuse, whatever the tree holds today: if one passed, the test could not
# catch the mistake it is for.
MUST_REFUSE = [
    ("common", "pqpage/codec.h"),  # a public header of a higher layer
    ("bitpack", "pqpage/byte_stream_split.h"),
    ("codec", "pqpage/plain.h"),
    ("encodings", "pqpage/column_chunk_reader.h"),
    ("page", "pqpage/file.h"),
    ("page", "pqpage/schema.h"),
    ("orc", "pqpage/plain.h"),  # ORC on a Parquet encoding, publicly or not
    ("orc", "encodings/plain_decoder.h"),
    ("orc", "pqpage/codec_factory.h"),
    ("orc", "page/level_decoder.h"),
    ("cli", "page/level_decoder.h"),  # the tool past the public API
    ("metadata", "compression/chunk_codecs.h"),
    ("common", "pqpage/unplaced.h"),
]


def owner_of_public(name):
    """The layer that owns pqpage/NAME, or None."""
    for layer, names in PUBLIC_OWNERS.items():
        for entry in names:
            if name == entry or (entry.endswith("/") and name.startswith(entry)):
                return layer
    return None


def may_include(layer, target):
    """None when `layer` may include `target`, else why not."""
    if target == "parquet_types.h":
        return None if layer in GENERATED_ALLOWED else "the generated Thrift header"
    if target == "orc_metadata.pb.h":
        return None if layer == "orc" else "the generated ORC header"
    folder = target.split("/", 1)[0] if "/" in target else None
    if folder == "absl":
        return None
    if folder == "pqpage":
        owner = owner_of_public(target.split("/", 1)[1])
        if owner is None:
            return "a public header PUBLIC_OWNERS does not place (add it there)"
        if layer == TOP or owner == layer or owner in ALLOWED[layer]:
            return None
        return f"a public header of the {owner} layer"
    if folder == layer:
        return None
    if layer == TOP:
        return "a library folder (the tool uses the public API only)"
    if folder in ALLOWED[layer]:
        return None
    return f"the {folder} layer" if folder else "a header outside the layers"


def check_file(layer, path, shown, problems):
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            match = INCLUDE.match(line)
            if match:
                why = may_include(layer, match.group(1))
                if why:
                    problems.append(f"{shown}:{number}: includes \"{match.group(1)}\", {why}")


def main():
    root = sys.argv[1]
    src = os.path.join(root, "src")
    problems = [f"the rule lets {layer} include \"{target}\"" for layer, target in MUST_REFUSE
                if may_include(layer, target) is None]
    for layer in sorted(os.listdir(src)):
        if layer not in ALLOWED and layer != TOP and layer != "python":
            problems.append(f"src/{layer}: a folder the layer rule does not know (add it here)")
            continue
        rule = TOP if layer == "python" else layer  # the Python binding sits beside the tool
        for base, _, names in os.walk(os.path.join(src, layer)):
            for name in sorted(names):
                if name.endswith((".h", ".cc")):
                    path = os.path.join(base, name)
                    check_file(rule, path, os.path.relpath(path, root), problems)
    public = os.path.join(root, "include", "pqpage")
    for base, _, names in os.walk(public):
        for name in sorted(names):
            if not name.endswith(".h"):
                continue
            path = os.path.join(base, name)
            relative = os.path.relpath(path, public)
            owner = owner_of_public(relative)
            shown = os.path.relpath(path, root)
            if owner is None:
                problems.append(f"{shown}: a public header PUBLIC_OWNERS does not place")
                continue
            check_file(owner, path, shown, problems)
    for problem in problems:
        print(problem)
    print(f"{len(problems)} include(s) against the layer order")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
