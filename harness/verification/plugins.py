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
from functools import lru_cache
from importlib import metadata

from harness.sandbox.warm import requirement_names

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
        try:
            requires = metadata.distribution(name).requires or []
        except metadata.PackageNotFoundError:
            continue
        for req in requires:
            if "extra ==" in req.replace("extra==", "extra =="):
                continue
            match = _REQ_NAME.match(req)
            if match:
                stack.append(_norm(match.group(1)))
    return frozenset(seen)


@lru_cache(maxsize=64)
def foreign_plugins(requirements_text: str) -> tuple[str, ...]:
    """Entry-point names of the installed pytest plugins the workspace did not ask for, sorted."""
    keep = dependency_closure(frozenset(requirement_names(requirements_text)) | {"pytest"}) | HARNESS_DISTS
    names = set()
    for ep in metadata.entry_points(group="pytest11"):
        dist = getattr(ep, "dist", None)
        if dist is None or _norm(dist.metadata["Name"] or "") not in keep:
            names.add(ep.name)
    return tuple(sorted(names))


def disable_args(requirements_text: str) -> list[str]:
    """`-p no:NAME` for each foreign plugin."""
    return [arg for name in foreign_plugins(requirements_text) for arg in ("-p", f"no:{name}")]
