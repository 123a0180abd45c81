"""The warm worker's memo of assertion-rewritten plugin code, kept for the harness process only.

Every worker start rewrote the same third-party plugin modules (anyio's pytest plugin and its
backends, REWRITE_ONCE) in a forked helper: ~0.25 s of CPU a worker, for output that depends only
on those files' bytes, their paths, pytest and Python. The first worker of a harness process
writes the helper's memo into its scratch directory before it says ready (no child exists yet, so
nothing generated has run in that process); the harness checks it (`is_memo`) and keeps its bytes
in memory. Later workers of the same harness process get a copy in their scratch directory
(`--rewrite-from`) and skip the helper; the worker uses the copy only when every file it holds
still has exactly those bytes (`RewriteMemo.read_cache`).

Nothing is written to disk and nothing crosses runs (#46): until then the memo was kept under
~/.cache/app-builder-harness, where code a run executed without bubblewrap could rewrite it and a
later run — of another workspace, under bubblewrap — executed what it planted. Now every harness
process starts without a memo, and what it keeps came from a worker before any workspace code ran
in it. `HARNESS_REWRITE_CACHE=0` (or HARNESS_SPEED=0) turns the memo off.
"""

from __future__ import annotations

import hashlib
import json
import marshal
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from harness.speed.warm.rewrite_memo import is_memo  # the worker's own check of the file it wrote

ENV_OFF = "HARNESS_REWRITE_CACHE"   # "0": every worker rewrites with its helper, as before
MAX_BYTES = 64 << 20                # a memo larger than this is not kept (anyio's is ~0.75 MB)
IN_NAME, OUT_NAME = "rewrite-memo.in", "rewrite-memo.out"


_KEPT: dict[str, bytes] = {}        # memo key -> the memo's bytes, this harness process only


def enabled() -> bool:
    from harness.utils.speed_switch import speed_on

    return speed_on() and os.environ.get(ENV_OFF, "1").strip() != "0"


def memo_key(modules: Sequence[str]) -> str:
    """Everything the memo's content depends on: Python, pytest, the harness, the rewriting code
    and the module list."""
    from _pytest._version import version as pytest_version

    import harness

    rewriting = (Path(__file__).with_name("rewrite_memo.py")).read_bytes()
    key = json.dumps([sys.version, sys.implementation.cache_tag, pytest_version, harness.__version__,
                      hashlib.sha256(rewriting).hexdigest(), list(modules)])
    return hashlib.sha256(key.encode()).hexdigest()


def forget() -> None:
    """Drop the kept memo (a new harness process starts without one)."""
    _KEPT.clear()


def worker_options(outroot: Path, modules: Sequence[str]) -> list[str]:
    """The worker's first arguments: `--rewrite-from COPY` when this process keeps a memo (copied
    into the worker's scratch directory `outroot`, the only place of ours it can read), and
    `--rewrite-to PATH` there, where a worker that could not use one writes its helper's, which
    `keep` takes once the worker is ready; none when the memo is off."""
    if not enabled() or not modules:
        return []
    try:
        data = _KEPT.get(memo_key(modules))
        if data:
            (outroot / IN_NAME).write_bytes(data)
            return ["--rewrite-from", str(outroot / IN_NAME), "--rewrite-to", str(outroot / OUT_NAME)]
    except (OSError, RuntimeError, ImportError):
        pass
    return ["--rewrite-to", str(outroot / OUT_NAME)]


def keep(outroot: Path, modules: Sequence[str]) -> bool:
    """After the worker said ready (before it ran anything): keep the memo it wrote, if it is one,
    in this process's memory. The copy in `outroot` is removed either way. True when kept."""
    produced = outroot / OUT_NAME
    (outroot / IN_NAME).unlink(missing_ok=True)
    if not produced.is_file():
        return False
    try:
        data = produced.read_bytes() if produced.stat().st_size <= MAX_BYTES else b""
        produced.unlink()
        if not data or not is_memo(marshal.loads(data)):
            return False
        _KEPT[memo_key(modules)] = data
    except (OSError, EOFError, ValueError, TypeError, RuntimeError, ImportError):
        return False
    return True
