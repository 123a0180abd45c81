"""A real `builder` subprocess interrupted at a chosen moment: markers to wait for (a line of its
output, an event in events.log, its signal handlers), its process tree, and what it left alive."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from tests.helpers import builder_argv, clean_env

WAIT_S = 240.0


def _stat(pid: int) -> tuple[int, int, str] | None:
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = raw.rsplit(")", 1)[1].split()
    return int(fields[1]), int(fields[19]), fields[0]


def descendants(root: int) -> set[tuple[int, int]]:
    """(pid, start tick) of every live process below `root`."""
    table = {int(p): s for p in os.listdir("/proc") if p.isdigit() and (s := _stat(int(p))) is not None}
    found, stack = set(), [root]
    while stack:
        parent = stack.pop()
        for pid, (ppid, started, _state) in table.items():
            if ppid == parent and (pid, started) not in found:
                found.add((pid, started))
                stack.append(pid)
    return found


def still_alive(procs: set[tuple[int, int]]) -> set[int]:
    """The ones of `procs` still running (same pid and start tick, not a zombie)."""
    alive = set()
    for pid, started in procs:
        info = _stat(pid)
        if info is not None and info[1] == started and info[2] not in ("Z", "X"):
            alive.add(pid)
    return alive


def loading_harness(pid: int) -> bool:
    """True once `pid` (a Python starting `builder`) loads the harness's modules: the interpreter's
    own start (site) maps no extension module; the harness's first imports (argparse, shutil,
    json …) map some; the new builder also installs its SIGTERM handler first."""
    try:
        if "lib-dynload/" in Path(f"/proc/{pid}/maps").read_text():
            return True
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("SigCgt:"):
                return bool(int(line.split()[1], 16) & (1 << (signal.SIGTERM - 1)))
    except OSError:
        pass
    return False


@dataclass
class Stopped:
    code: int
    seconds: float
    out: str
    err: str
    left: set[int]      # processes of the builder's tree still alive after it exited


class Builder:
    """`builder ARGS` started in its own session, output to files (never a full pipe)."""

    def __init__(self, tmp: Path, *args, env: dict | None = None):
        self.tmp = tmp
        self.out_path, self.err_path = tmp / "out.txt", tmp / "err.txt"
        with open(self.out_path, "wb") as out, open(self.err_path, "wb") as err:
            self.proc = subprocess.Popen(builder_argv(*args), stdout=out, stderr=err, env=clean_env(env),
                                         start_new_session=True)
        self.seen: set[tuple[int, int]] = set()

    def output(self) -> str:
        return self.out_path.read_text(errors="replace")

    def wait_for(self, ready, what: str, timeout: float = WAIT_S) -> None:
        """Poll `ready()` (and note the process tree) until true; fail naming `what` otherwise."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.seen |= descendants(self.proc.pid)
            if ready():
                return
            if self.proc.poll() is not None:
                if ready():
                    return
                raise AssertionError(f"builder ended ({self.proc.returncode}) before {what}:\n"
                                     f"{self.output()[-2000:]}{self.err_path.read_text()[-2000:]}")
            time.sleep(0.005)
        raise AssertionError(f"no {what} within {timeout}s")

    def wait_for_line(self, text: str) -> None:
        self.wait_for(lambda: text in self.output(), repr(text))

    def wait_for_event(self, events_log: Path, stage: str, status: str) -> None:
        def seen() -> bool:
            try:
                lines = events_log.read_text().splitlines()
            except OSError:
                return False
            return any((e := json.loads(line)).get("stage") == stage and e.get("status") == status
                       for line in lines if line.strip().endswith("}"))
        self.wait_for(seen, f"{stage}/{status} event")

    def interrupt(self, sig: int, timeout: float = 30.0, *, twice: bool = False) -> Stopped:
        """Send `sig` (`twice`: again once its first line is printed), wait for the exit; what it
        printed and what of its tree survived."""
        self.seen |= descendants(self.proc.pid)
        start = time.monotonic()
        self.proc.send_signal(sig)
        if twice:
            self.wait_for(lambda: "interrupted" in self.err_path.read_text(), "the interrupt message", 10)
            self.proc.send_signal(sig)
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        seconds = time.monotonic() - start
        left = still_alive(self.seen)
        for pid in left:  # never leave them to the next test
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        return Stopped(self.proc.returncode, seconds, self.output(), self.err_path.read_text(errors="replace"), left)
