"""A real third-party suite for the evidence overhead: the toolz sdist, downloaded once with pip.

`pip download toolz --no-binary :all:` into ~/.cache/harness-bench (HARNESS_BENCH_CACHE overrides),
unpacked next to it; offline (pip fails) the bench says so in one line and goes on.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
from pathlib import Path

PACKAGE = "toolz"
PIP_TIMEOUT_S = 120


def cache_dir() -> Path:
    return Path(os.environ.get("HARNESS_BENCH_CACHE") or Path.home() / ".cache" / "harness-bench")


def _sdists(cache: Path) -> list[Path]:
    return sorted(cache.glob(f"{PACKAGE}-*.tar.gz"), key=lambda p: p.stat().st_mtime)


def toolz_suite() -> tuple[Path | None, str]:
    """(the unpacked toolz source tree, "") or (None, why it is not available)."""
    cache = cache_dir()
    cache.mkdir(parents=True, exist_ok=True)
    if not _sdists(cache):
        try:
            proc = subprocess.run([sys.executable, "-m", "pip", "download", PACKAGE, "--no-deps", "--no-binary",
                                   ":all:", "-q", "-d", str(cache)], capture_output=True, text=True,
                                  timeout=PIP_TIMEOUT_S)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return None, f"pip download {PACKAGE} failed ({exc.__class__.__name__})"
        if proc.returncode != 0 or not _sdists(cache):
            last = (proc.stderr.strip().splitlines() or ["no sdist"])[-1]
            return None, f"pip download {PACKAGE} failed (offline?): {last[:200]}"
    sdist = _sdists(cache)[-1]
    target = cache / sdist.name[: -len(".tar.gz")]
    if not (target / PACKAGE).is_dir():
        with tarfile.open(sdist) as tar:
            tar.extractall(cache, filter="data")
    return target, ""


MARKED_TESTS = 20


def toolz_overhead_line(rounds: int = 1) -> str:
    """The plugin-overhead line on toolz's own suite, or one line saying why it was skipped."""
    from harness.bench_plugin import BenchRoundError, measure, overhead_line

    suite, why = toolz_suite()
    if suite is None:
        return f"plugin overhead  skipped: {why}"
    try:  # toolz's tests carry no req markers: 20 of them are marked, as a project would
        return overhead_line(suite, measure(suite, rounds, [], mark_tests=MARKED_TESTS))
    except BenchRoundError as err:
        return f"plugin overhead  error: {err}"
