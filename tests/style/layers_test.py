#!/usr/bin/env python3
"""Checks that the library's layers include one another in one direction only.

The layers, each a folder of src/, use only the ones before them: common -> bitpack -> codec ->
encodings -> compression / crypto / metadata / schema -> page -> file -> arrow -> cli, with the
Python binding beside the tool. The page layer is three folders: page/read (the page decoder) and page/choice
(the encoding choice) use only the layers below page; page/write (the page builder) uses both
of them too. orc stands on common, bitpack, codec and compression, never on the Parquet
encodings. Every public header belongs to one layer, and including it counts as including that
layer's folder. The tool and the binding use the public headers only.

How the test applies it: ALLOWED lists what each layer may use, PUBLIC_OWNERS which layer owns
each public header (include/pqpage/...); the public headers' own includes are checked against
their owner's rule too. A folder of src/ may include its own headers, Abseil, the standard library
and what its rule allows; the generated Thrift header is for the layers that read or write
metadata, the generated protobuf header for orc. The rule's paragraph above must appear, word for
word, in the README's layout section. Prints every include that breaks the rule, with its file and
line, and fails if there is one.
"""
import os
import re
import sys

PAGE_BELOW = {"common", "bitpack", "codec", "encodings", "compression", "crypto", "metadata"}
ALLOWED = {
    "common": set(),
    "bitpack": {"common"},
    "codec": {"common", "bitpack"},
    "encodings": {"common", "bitpack", "codec"},
    "compression": {"common"},
    "crypto": {"common"},
    "metadata": {"common"},
    "schema": {"common"},
    # The page layer, split by direction: the read side uses neither of the others, the encoding
    # choice does not read or write pages, the write side uses both (its verifier reads back).
    "page/read": PAGE_BELOW,
    "page/choice": PAGE_BELOW,
    "page/write": PAGE_BELOW | {"page/read", "page/choice"},
    "file": {"common", "codec", "encodings", "compression", "crypto", "metadata", "schema", "page/read",
             "page/choice", "page/write"},
    "arrow": {"common", "codec", "encodings", "compression", "crypto", "metadata", "schema", "page/read",
              "page/choice", "page/write", "file"},
    "orc": {"common", "bitpack", "codec", "compression"},
}
# Folders of src/ that hold layers one level down rather than files.
SPLIT = {"page"}
# The tool may use every public header, and no folder of src/ but its own.
TOP = "cli"

PUBLIC_OWNERS = {
    "common": ["types.h", "value_type.h", "status_macros.h", "column_descriptor.h",
               "logical_type.h", "byte_source.h", "json_writer.h"],
    "codec": ["codec.h"],
    "encodings": ["codec_factory.h", "plain.h", "dictionary.h", "delta_binary_packed.h",
                  "delta_byte_array.h", "delta_length_byte_array.h", "byte_stream_split.h",
                  "rle_bit_packed_hybrid.h", "bit_packed.h", "group_var_int.h", "bloom_filter.h"],
    "compression": ["compression.h"],
    "crypto": ["encryption.h", "key_management.h"],
    "metadata": ["page.h", "metadata.h", "value_text.h"],
    "schema": ["schema.h"],
    "page/read": ["column_chunk_reader.h", "page_header_iterator.h", "page_index.h",
                  "value_batch.h"],
    "page/choice": ["writer_options.h", "peer_readers.h"],
    "page/write": ["column_chunk_writer.h"],
    "file": ["file.h", "arrow_schema.h", "recode.h", "advise.h", "scan.h", "inspect.h",
             "read_chunks.h", "inspect_json.h", "advise_json.h", "page_runs.h", "lookup.h"],
    "arrow": ["arrow_c_data.h", "arrow_reader.h", "arrow_writer.h"],
    "orc": ["orc/"],
}
GENERATED_ALLOWED = {"metadata", "schema", "page/read", "page/write", "file"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')

# Includes the rule must refuse, whatever the tree holds today: if one passed, the test could not
# catch the mistake it is for.
MUST_REFUSE = [
    ("common", "pqpage/codec.h"),  # a public header of a higher layer
    ("bitpack", "pqpage/byte_stream_split.h"),
    ("codec", "pqpage/plain.h"),
    ("encodings", "pqpage/column_chunk_reader.h"),
    ("page/read", "pqpage/file.h"),
    ("page/write", "pqpage/schema.h"),
    ("page/read", "page/write/chunk_verifier.h"),  # reading never depends on writing
    ("page/read", "pqpage/column_chunk_writer.h"),
    ("page/read", "page/choice/encoding_measure.h"),
    ("page/choice", "page/write/chunk_builder.h"),
    ("page/choice", "pqpage/column_chunk_reader.h"),
    ("common", "pqpage/page_index.h"),
    ("orc", "pqpage/plain.h"),  # ORC on a Parquet encoding, publicly or not
    ("orc", "encodings/plain_decoder.h"),
    ("orc", "pqpage/codec_factory.h"),
    ("orc", "page/read/level_decoder.h"),
    ("cli", "page/read/level_decoder.h"),  # the tool past the public API
    ("metadata", "compression/chunk_codecs.h"),
    ("crypto", "pqpage/metadata.h"),  # encryption knows no footer structures
    ("orc", "crypto/aes_cipher.h"),
    ("common", "pqpage/unplaced.h"),
    ("file", "pqpage/arrow_reader.h"),  # the file layer below the Arrow layer
    ("file", "arrow/assemble.h"),
]


def rule_text():
    """The rule's paragraph of this file's docstring."""
    return __doc__.split("\n\n")[1]


def owner_of_public(name):
    """The layer that owns pqpage/NAME, or None."""
    for layer, names in PUBLIC_OWNERS.items():
        for entry in names:
            if name == entry or (entry.endswith("/") and name.startswith(entry)):
                return layer
    return None


def may_include(layer, target, own=None):
    """None when `layer` may include `target`, else why not; `own` is the including folder when
    it is not the layer itself (the Python binding, ruled as the tool)."""
    if target == "parquet_types.h":
        return None if layer in GENERATED_ALLOWED else "the generated Thrift header"
    if target == "orc_metadata.pb.h":
        return None if layer == "orc" else "the generated ORC header"
    parts = target.split("/")
    folder = parts[0] if len(parts) > 1 else None
    if folder in SPLIT:
        folder = "/".join(parts[:2]) if len(parts) > 2 else folder
    if folder == "absl":
        return None
    if folder == "pqpage":
        owner = owner_of_public(target.split("/", 1)[1])
        if owner is None:
            return "a public header PUBLIC_OWNERS does not place (add it there)"
        if layer == TOP or owner == layer or owner in ALLOWED[layer]:
            return None
        return f"a public header of the {owner} layer"
    if folder == layer or (own is not None and folder == own):
        return None
    if layer == TOP:
        return "a library folder (the tool uses the public API only)"
    if folder in ALLOWED[layer]:
        return None
    return f"the {folder} layer" if folder else "a header outside the layers"


def check_file(layer, path, shown, problems, own=None):
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            match = INCLUDE.match(line)
            if match:
                why = may_include(layer, match.group(1), own)
                if why:
                    problems.append(f"{shown}:{number}: includes \"{match.group(1)}\", {why}")


def main():
    root = sys.argv[1]
    src = os.path.join(root, "src")
    problems = [f"the rule lets {layer} include \"{target}\"" for layer, target in MUST_REFUSE
                if may_include(layer, target) is None]
    for top in sorted(os.listdir(src)):
        if not os.path.isdir(os.path.join(src, top)):
            continue
        layers = [top]
        if top in SPLIT:
            layers = [f"{top}/{sub}" for sub in sorted(os.listdir(os.path.join(src, top)))
                      if sub != "README.md"]
        for layer in layers:
            if not os.path.isdir(os.path.join(src, layer)):
                problems.append(f"src/{layer}: a file beside the {top} layer's folders")
                continue
            if layer not in ALLOWED and layer != TOP and layer != "python":
                problems.append(f"src/{layer}: a folder the layer rule does not know (add it here)")
                continue
            rule = TOP if layer == "python" else layer  # the Python binding sits beside the tool
            for base, _, names in os.walk(os.path.join(src, layer)):
                for name in sorted(names):
                    if name.endswith((".h", ".cc")):
                        path = os.path.join(base, name)
                        check_file(rule, path, os.path.relpath(path, root), problems, layer)
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
    readme = os.path.join(root, "README.md")
    if " ".join(rule_text().split()) not in " ".join(open(readme, encoding="utf-8").read().split()):
        problems.append("README.md: the layout section does not state the rule as this test does")
    for problem in problems:
        print(problem)
    print(f"{len(problems)} include(s) against the layer order")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
