#!/usr/bin/env python3
"""Draws the include graph of src/ by folder: one node per layer (page split into read, choice and
write), one arrow per pair of folders, labelled with how many includes it stands for, public
headers counted as their owner's folder. Arrows that the layer rule refuses (an arrow running
back up) are drawn red and listed on stderr, and the script then exits 1.

  tests/style/include_graph.py [ROOT] [--text]

Prints Graphviz DOT (render with `dot -Tsvg`), or with --text one line per arrow, "from -> to
(count)", in the layer order.
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import layers_test as rule  # noqa: E402

ORDER = ["common", "bitpack", "codec", "encodings", "compression", "crypto", "metadata", "schema",
         "page/read", "page/choice", "page/write", "file", "arrow", "orc", "cli", "python"]


def target_layer(target):
    """The layer an include of `target` reaches, or None for Abseil, generated headers, etc."""
    parts = target.split("/")
    if len(parts) < 2 or parts[0] == "absl":
        return None
    if parts[0] == "pqpage":
        return rule.owner_of_public("/".join(parts[1:]))
    if parts[0] in rule.SPLIT and len(parts) > 2:
        return "/".join(parts[:2])
    return parts[0] if parts[0] in ORDER else None


def edges(root):
    """{(from, to): [count, refusals]} over every .h/.cc under src/."""
    found = collections.defaultdict(lambda: [0, []])
    src = os.path.join(root, "src")
    for base, _, names in os.walk(src):
        folder = os.path.relpath(base, src).split(os.sep)
        layer = "/".join(folder[:2]) if folder[0] in rule.SPLIT else folder[0]
        if layer not in ORDER:
            continue
        for name in sorted(names):
            if not name.endswith((".h", ".cc")):
                continue
            path = os.path.join(base, name)
            with open(path, encoding="utf-8") as handle:
                for number, line in enumerate(handle, 1):
                    match = rule.INCLUDE.match(line)
                    if not match:
                        continue
                    to = target_layer(match.group(1))
                    if to is None or to == layer:
                        continue
                    entry = found[(layer, to)]
                    entry[0] += 1
                    checked = rule.TOP if layer == "python" else layer
                    if rule.may_include(checked, match.group(1)) is not None:
                        entry[1].append(f"{os.path.relpath(path, root)}:{number}")
    return found


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    root = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    found = edges(root)
    arrows = sorted(found.items(), key=lambda e: (ORDER.index(e[0][0]), ORDER.index(e[0][1])))
    if "--text" in sys.argv:
        for (a, b), (count, bad) in arrows:
            print(f"{a} -> {b} ({count}){'  AGAINST THE ORDER' if bad else ''}")
    else:
        print("digraph includes {\n  rankdir=BT;\n  node [shape=box, fontname=monospace];")
        for (a, b), (count, bad) in arrows:
            colour = ', color=red, fontcolor=red' if bad else ''
            print(f'  "{a}" -> "{b}" [label="{count}"{colour}];')
        print("}")
    refused = [where for _, (_, bad) in arrows for where in bad]
    for where in refused:
        print(f"arrow back up: {where}", file=sys.stderr)
    return 1 if refused else 0


if __name__ == "__main__":
    sys.exit(main())
