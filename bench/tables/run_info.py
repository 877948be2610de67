"""What the timing scripts of this folder print above their tables: the machine and the pqpage
commit the figures belong to."""
import os
import re
import subprocess

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def machine():
    """lscpu's model name and the logical CPU count, e.g. 'AMD EPYC 7B13, 2 CPUs'."""
    try:
        lscpu = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        model = re.search(r"^Model name:\s*(.+)$", lscpu, re.MULTILINE).group(1).strip()
    except (OSError, AttributeError):
        model = "unknown CPU"
    return f"{model}, {os.cpu_count()} CPUs"


def commit():
    """pqpage's short commit, marked when tracked files differ from it (the binaries may too)."""
    git = ["git", "-C", REPO]
    result = subprocess.run(git + ["rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    if result.returncode != 0:
        return "unknown"
    dirty = subprocess.run(git + ["diff", "--quiet", "HEAD"]).returncode != 0
    return result.stdout.strip() + (" (with uncommitted changes)" if dirty else "")
