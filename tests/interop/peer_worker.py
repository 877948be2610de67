"""A long-lived worker process that answers one JSON line per request line, for the interop
tests that ask one peer about many files: importing a peer once, rather than once per file, is
what keeps those suites fast, and a peer that crashes on a file takes only its worker with it."""
import json
import subprocess
import sys


class PeerProcess:
    """Runs `script --worker ARGS...` under this interpreter; restarted after a crash.

    `ready` reads the worker's first line when it sends one before answering (a greeting with
    what it learnt at start-up); it is given that line, parsed."""

    def __init__(self, script, args, ready=None):
        self.script, self.args, self.ready, self.process = script, list(args), ready, None

    def _start(self):
        self.process = subprocess.Popen(
            [sys.executable, self.script, "--worker", *self.args], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        if self.ready is not None:
            self.ready(json.loads(self.process.stdout.readline()))

    def ask(self, fields, what=""):
        """The worker's answer to one request (FIELDS joined by tabs), or a crash verdict that
        says what the peer was doing (WHAT, when given) when it died."""
        if self.process is None:
            self._start()
        self.process.stdin.write("\t".join(str(field) for field in fields) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if line:
            return json.loads(line)
        code = self.process.wait()
        self.process = None
        signal = f", signal {-code}" if code < 0 else ""
        detail = f"{self.args[0]} crashed (exit status {code}{signal})"
        return {"verdict": "crash", "detail": f"{detail} {what}" if what else detail}

    def close(self):
        if self.process is not None:
            self.process.stdin.close()
            self.process.wait()
            self.process = None
