"""Helpers for the crash/resume tests: run `builder` for real, snapshot a run directory."""

from __future__ import annotations

import hashlib
import json
import subprocess
from pathlib import Path

from helpers import TODO, builder_argv, clean_env, sandbox_opt_out_without_bwrap  # noqa: F401  (re-exported for the resume tests)


def builder(*args, env: dict | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    """`builder ARGS` for real; the chain builds through a fake model, so without bubblewrap it states
    the documented opt-out (helpers.sandbox_opt_out_without_bwrap); with bubblewrap nothing changes."""
    return subprocess.run(builder_argv(*args), capture_output=True, text=True,
                          env=clean_env({**sandbox_opt_out_without_bwrap(), **(env or {})}), timeout=timeout)


SWEEP_REPORTS = ("killed ", "removed the audit workspace ")  # pipeline._sweep's lines


def unswept(out: str) -> str:
    """A resume's stdout without the sweep's report lines at its start ("killed N process(es) left
    running by an interrupted builder", "removed the audit workspace an interrupted audit left
    behind"): whether a killed builder's warm worker or audit (started beside the runtime check)
    is still there when the resume starts is timing, so a test must not depend on them."""
    lines = out.splitlines(keepends=True)
    while lines and lines[0].startswith(SWEEP_REPORTS):
        lines.pop(0)
    return "".join(lines)


def tree_digest(root: Path) -> dict[str, str]:
    """relative path -> sha256 of every file (and '<dir>' for every directory) under root."""
    out = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        out[rel] = "<dir>" if path.is_dir() else hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def snapshot(run: Path) -> dict:
    """What the tests compare between steps: state, checkpoints (bytes), events, verification."""
    cp_dir = run / "checkpoints"
    names = sorted(p.name for p in cp_dir.iterdir() if not p.name.startswith("."))
    pending = {p.name: p.read_bytes() for p in cp_dir.iterdir() if p.name.endswith(".pending")}
    verification = run / "verification.json"
    return {
        "state": json.loads((run / "state.json").read_text()),
        "names": names,
        "bytes": {n: (cp_dir / n).read_bytes() for n in names},
        "pending": pending,
        "events": [json.loads(line) for line in (run / "events.log").read_text().splitlines() if line.strip()],
        "verification": json.loads(verification.read_text())["results"] if verification.exists() else [],
        "tree": tree_digest(run),
    }


def starts(events: list[dict], task_id: str) -> int:
    """How many times the build of `task_id` was started (events stage build, status started)."""
    return sum(1 for e in events if e["stage"] == "build" and e["status"] == "started" and e["task_id"] == task_id)


def assert_contiguous(names: list[str]) -> None:
    assert [int(n.split("-")[0]) for n in names] == list(range(1, len(names) + 1)), names


def assert_history_kept(before: dict, after: dict) -> None:
    """Every checkpoint of `before` is still there, byte for byte, and the sequence stays contiguous."""
    assert after["names"][:len(before["names"])] == before["names"]
    for name in before["names"]:
        assert after["bytes"][name] == before["bytes"][name], f"{name} was rewritten"
    assert_contiguous(after["names"])
