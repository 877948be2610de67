"""Shared plumbing of the interop tests: re-running in the peers' virtualenv, running the tool,
and printing the matrix (stdout and SCRATCH_DIR/matrix.md)."""

import json
import os
import subprocess
import time
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "peers"))
from peers_venv import reexec_in_venv  # noqa: E402


def main_in_venv(main):
    """The exit status of main(tool, scratch), run inside the peers' virtualenv (re-executing the
    script there first, or skipping as reexec_in_venv says), for the ctest call
    `TEST TOOL SHARED_DIR SCRATCH_DIR`; the scratch folder is made first."""
    status = reexec_in_venv()
    if status is not None:
        return status
    tool, _shared, scratch = sys.argv[1:4]
    os.makedirs(scratch, exist_ok=True)
    return main(tool, scratch)


def sanitizer_build():
    return os.environ.get("PQPAGE_SANITIZER_BUILD") == "1"


def run_tool(tool, *args, timeout=600):
    return subprocess.run([tool, *args], capture_output=True, text=True, timeout=timeout)


def dump(tool, path):
    """(columns, error): the parsed `pqpage dump` of path."""
    result = run_tool(tool, "dump", path)
    if result.returncode != 0:
        return None, f"pqpage dump exit {result.returncode}: {result.stderr.strip()[:300]}"
    return [json.loads(line) for line in result.stdout.splitlines()], None


def inspect(tool, path):
    """(info, error): the parsed `pqpage inspect --json` of path; with exit status 1 (some page
    could not be decoded) both, when the JSON is there."""
    result = run_tool(tool, "inspect", path, "--json")
    error = None
    if result.returncode != 0:
        error = f"pqpage inspect exit {result.returncode}: {result.stderr.strip()[:300]}"
    try:
        return json.loads(result.stdout), error
    except ValueError:
        return None, error or "pqpage inspect --json printed no JSON"


def page_errors(info):
    """{leaf path: [page error]} of an inspect document."""
    out = {}
    for rg in info["row_groups"]:
        for col in rg["columns"]:
            for page in col.get("pages", []):
                if page.get("error"):
                    out.setdefault(col["path"], []).append(page["error"])
            if col.get("error"):
                out.setdefault(col["path"], []).append(col["error"])
    return out


def page_types(info):
    """The data page versions present: 'v1', 'v2' or 'v1+v2'."""
    kinds = set()
    for rg in info["row_groups"]:
        for col in rg["columns"]:
            for e in col["page_encodings"]:
                if e["page_type"] == "DATA_PAGE":
                    kinds.add("v1")
                elif e["page_type"] == "DATA_PAGE_V2":
                    kinds.add("v2")
    return "+".join(sorted(kinds)) or "no data pages"


def page_encodings(info):
    """{leaf path: sorted set of 'PAGE_TYPE/ENCODING'} over every row group."""
    out = {}
    for rg in info["row_groups"]:
        for col in rg["columns"]:
            s = out.setdefault(col["path"], set())
            for e in col["page_encodings"]:
                s.add(e["encoding"])
    return {k: sorted(v) for k, v in out.items()}


class Matrix:
    def __init__(self, title, headers):
        self.title, self.headers, self.rows = title, headers, []
        self.passed = self.failed = self.unsupported = self.peer_bug = 0

    def add(self, cells, verdict, detail=""):
        """verdict: 'pass', 'unsupported' or 'FAIL'."""
        if verdict == "pass":
            self.passed += 1
        elif verdict == "unsupported":
            self.unsupported += 1
        elif verdict == "peer_bug":
            self.peer_bug += 1
        else:
            self.failed += 1
        text = {"pass": "pass", "unsupported": "peer does not support",
                "peer_bug": "peer bug (proven, not pqpage's fault; see detail)",
                "FAIL": "FAIL"}[verdict]
        row = [str(c) for c in cells] + [text, detail]
        self.rows.append(row)
        print(" | ".join(row), flush=True)

    def summary(self):
        extra = f", {self.unsupported} peer does not support" if self.unsupported else ""
        if self.peer_bug:
            extra += f", {self.peer_bug} peer bug (proven)"
        return f"{self.passed} passed, {self.failed} failed{extra}"

    def finish(self, scratch, start, extra_md=""):
        """Prints the summary and the runtime since `start`, writes matrix.md, and returns the
        test's exit status."""
        print(self.summary())
        print(f"runtime {time.time() - start:.1f}s")
        self.write(scratch, extra_md=extra_md)
        return 1 if self.failed else 0

    def write(self, scratch, name="matrix.md", extra_md=""):
        lines = [f"# {self.title}", "", "| " + " | ".join(self.headers + ["result", "detail"])
                 + " |", "|" + "---|" * (len(self.headers) + 2)]
        for row in self.rows:
            lines.append("| " + " | ".join(c.replace("|", "\\|").replace("\n", " ")
                                           for c in row) + " |")
        lines += ["", self.summary(), "", extra_md]
        with open(os.path.join(scratch, name), "w") as f:
            f.write("\n".join(lines) + "\n")
