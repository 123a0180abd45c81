"""The warm worker's memo of assertion-rewritten plugin code, kept across workers and runs.

Every worker start rewrote the same third-party plugin modules (anyio's pytest plugin and its
backends, REWRITE_ONCE) in a forked helper: ~0.25 s of CPU a worker, a third of its start-up CPU,
for output that depends only on those files' bytes, their paths, pytest and Python. The first
worker writes the helper's memo into its scratch directory before it says ready (no child exists
yet, so nothing generated has run in that sandbox); the harness checks it and keeps it under
`cache_dir()`. Later workers get a copy in their scratch directory (`--rewrite-from`) and skip the
helper; the worker uses the copy only when every file it holds still has exactly those bytes
(`RewriteMemo.read_cache`), and each child re-checks a module's bytes before using its entry, as
with the helper's memo. The file is keyed by Python, pytest, the harness and the rewriting code,
and the module list; HARNESS_CACHE_DIR moves it, and `HARNESS_REWRITE_CACHE=0` turns it off.

What it trusts: the memo is code the children run, so it must come from before any generated code
ran — the worker imports only the preload list from the harness's own environment, never a
workspace module, and writes the file before its ready message (commands, and so children, come
only after it). Under bubblewrap nothing in a sandbox can write the cache directory; under the
fallback (no bubblewrap) generated code runs with the user's rights and could, as it could write
the virtualenv the harness itself runs from: the cache adds no reach that mode does not have.
"""

from __future__ import annotations

import hashlib
import json
import marshal
import os
import shutil
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from harness.sandbox.warm_rewrite import is_memo  # the worker's own check of the file it wrote

ENV_DIR = "HARNESS_CACHE_DIR"
ENV_OFF = "HARNESS_REWRITE_CACHE"   # "0": every worker rewrites with its helper, as before
MAX_BYTES = 64 << 20                # a memo larger than this is not kept (anyio's is ~0.75 MB)
IN_NAME, OUT_NAME = "rewrite-memo.in", "rewrite-memo.out"


def enabled() -> bool:
    return os.environ.get(ENV_OFF, "1").strip() != "0"


def cache_dir() -> Path:
    """HARNESS_CACHE_DIR, else $XDG_CACHE_HOME/app-builder-harness, else ~/.cache/app-builder-harness."""
    if os.environ.get(ENV_DIR):
        return Path(os.environ[ENV_DIR])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "app-builder-harness"


def cache_file(modules: Sequence[str]) -> Path:
    """Where the memo of `modules` is kept: named by everything its content depends on."""
    from _pytest._version import version as pytest_version

    import harness

    rewriting = (Path(__file__).with_name("warm_rewrite.py")).read_bytes()
    key = json.dumps([sys.version, sys.implementation.cache_tag, pytest_version, harness.__version__,
                      hashlib.sha256(rewriting).hexdigest(), list(modules)])
    return cache_dir() / f"rewrite-{hashlib.sha256(key.encode()).hexdigest()[:32]}.marshal"


def worker_options(outroot: Path, modules: Sequence[str]) -> list[str]:
    """The worker's first arguments: `--rewrite-from COPY` when a memo is kept (copied into the
    worker's scratch directory `outroot`, the only place of ours it can read), and `--rewrite-to
    PATH` there, where a worker that could not use a kept memo writes its helper's, which `keep`
    takes once the worker is ready; none when the cache is off."""
    if not enabled() or not modules:
        return []
    try:
        kept = cache_file(modules)
        if kept.is_file():
            shutil.copyfile(kept, outroot / IN_NAME)
            return ["--rewrite-from", str(outroot / IN_NAME), "--rewrite-to", str(outroot / OUT_NAME)]
    except (OSError, RuntimeError, ImportError):  # no home directory, no readable cache: as without one
        pass
    return ["--rewrite-to", str(outroot / OUT_NAME)]


def keep(outroot: Path, modules: Sequence[str]) -> bool:
    """After the worker said ready (before it ran anything): keep the memo it wrote, if it is one.
    Written atomically; the copy in `outroot` is removed either way. True when kept."""
    produced = outroot / OUT_NAME
    (outroot / IN_NAME).unlink(missing_ok=True)
    if not produced.is_file():
        return False
    try:
        data = produced.read_bytes() if produced.stat().st_size <= MAX_BYTES else b""
        produced.unlink()
        if not data or not is_memo(marshal.loads(data)):
            return False
        target = cache_file(modules)
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".rewrite-", dir=target.parent)
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            os.replace(tmp, target)
        finally:
            Path(tmp).unlink(missing_ok=True)   # left only when writing failed
    except (OSError, EOFError, ValueError, TypeError, RuntimeError, ImportError):
        return False
    return True
