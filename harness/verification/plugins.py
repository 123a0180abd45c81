"""Which installed pytest plugins a workspace's session loads.

The workspace's tests run on the harness's interpreter, so pytest would auto-load every pytest11
plugin installed next to the harness (its dev tools: pytest-xdist, hypothesis, pytest-json-report,
pytest-metadata, ...). Those are not part of the app under test: a session loads the plugins of
the distributions the workspace's requirements.txt declares and of what they depend on (fastapi →
starlette → anyio keeps anyio's plugin), plus the two the harness itself drives (its evidence
plugin and pytest-timeout). Every other plugin is disabled with `-p no:NAME` — the same for cold
and warm runs and for the floor `builder bench` measures. Importing them cost each session ~1 s
(hypothesis) and ~0.1–0.3 s (xdist/execnet, json-report, metadata).
"""

from __future__ import annotations

import re
import threading
from functools import lru_cache
from importlib import metadata

from harness.utils.requirements_txt import requirement_names

HARNESS_DISTS = frozenset({"app-builder-harness", "pytest-timeout"})  # their own plugins only, not their deps
_REQ_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def dependency_closure(names: frozenset[str]) -> frozenset[str]:
    """`names` and every distribution they require (not optional extras), as installed here."""
    seen: set[str] = set()
    stack = [_norm(n) for n in names]
    while stack:
        name = stack.pop()
        if name in seen:
            continue
        seen.add(name)
        for req in _requires(name):
            if "extra ==" in req.replace("extra==", "extra =="):
                continue
            match = _REQ_NAME.match(req)
            if match:
                stack.append(_norm(match.group(1)))
    return frozenset(seen)


@lru_cache(maxsize=256)
def _requires(name: str) -> tuple[str, ...]:
    """The requirement strings of installed distribution `name` (none when it is not installed)."""
    try:
        return tuple(metadata.distribution(name).requires or ())
    except metadata.PackageNotFoundError:
        return ()


@lru_cache(maxsize=1)
def _pytest11() -> tuple[tuple[str, str | None], ...]:
    """(entry-point name, normalised distribution name or None) of every installed pytest plugin."""
    found = []
    for ep in metadata.entry_points(group="pytest11"):
        dist = getattr(ep, "dist", None)
        found.append((ep.name, _norm(dist.metadata["Name"] or "") if dist is not None else None))
    return tuple(found)


@lru_cache(maxsize=64)
def foreign_plugins(requirements_text: str) -> tuple[str, ...]:
    """Entry-point names of the installed pytest plugins the workspace did not ask for, sorted."""
    keep = dependency_closure(frozenset(requirement_names(requirements_text)) | {"pytest"}) | HARNESS_DISTS
    return tuple(sorted({name for name, dist in _pytest11() if dist is None or dist not in keep}))


# The stack every spec defaults to (FastAPI + uvicorn + httpx + pytest): what `prefetch` reads ahead.
DEFAULT_STACK = "fastapi\nuvicorn\nhttpx\npytest\n"


def prefetch(requirements_text: str = DEFAULT_STACK) -> threading.Thread:
    """Read the installed plugins' metadata in a background thread, started with the run: reading
    it took 0.15-0.35 s on the first verification's critical path. The thread mostly runs while
    the run waits (fsync, the worker's imports); `foreign_plugins` later answers any requirements
    text from the same cached metadata (`_pytest11`, `_requires`)."""
    thread = threading.Thread(target=foreign_plugins, args=(requirements_text,), name="plugin-metadata", daemon=True)
    thread.start()
    return thread


def disable_args(requirements_text: str) -> list[str]:
    """`-p no:NAME` for each foreign plugin."""
    return [arg for name in foreign_plugins(requirements_text) for arg in ("-p", f"no:{name}")]
