"""From a test's executed lines to its proof: real checks in test code, lines run in implementation code.

Test code is every conftest.py, every test_*.py / *_test.py and anything under a `tests`/`test`
directory; everything else under the root is implementation code. Check sites are read from test
files only (never library code), once per file.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Mapping
from pathlib import Path, PurePosixPath

from pytest_harness.checks import Site, executed_sites, find_sites, sites_in_tree

_TEST_DIRS = frozenset({"tests", "test"})


def is_test_code(rel: str) -> bool:
    """True for a POSIX relpath that is test code (see module docstring)."""
    path = PurePosixPath(rel)
    name = path.name
    return (name == "conftest.py" or (name.startswith("test_") and name.endswith(".py"))
            or name.endswith("_test.py") or any(part in _TEST_DIRS for part in path.parts[:-1]))


# Check sites of test files the warm worker parsed before forking (forgery.prime), by absolute
# path: (tree, sites). `seed` uses an entry only for that very tree object, i.e. the same source.
_PRIMED: dict[str, tuple[ast.Module, list[Site]]] = {}


def remember_sites(path: str, rel: str, tree: ast.Module) -> None:
    """Record the check sites of a parsed test file (others are ignored) for later sessions."""
    if is_test_code(rel) and rel.endswith(".py"):
        _PRIMED[path] = (tree, sites_in_tree(tree))
    else:
        _PRIMED.pop(path, None)


def forget_sites(path: str) -> None:
    _PRIMED.pop(path, None)


class SiteCache:
    """Check sites per test file under `root`: seeded from the session-start parse, else parsed on first use."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self._sites: dict[str, list[Site]] = {}

    def seed(self, rel: str, tree: ast.Module) -> None:
        """Record the sites of a test file already parsed (other files are ignored)."""
        if is_test_code(rel) and rel.endswith(".py"):
            hit = _PRIMED.get(os.path.join(os.path.abspath(self.root), rel))
            self._sites[rel] = hit[1] if hit is not None and hit[0] is tree else sites_in_tree(tree)

    def sites(self, rel: str) -> list[Site]:
        if rel not in self._sites:
            try:
                source = (self.root / rel).read_text(encoding="utf-8", errors="replace")
            except OSError:
                source = ""
            self._sites[rel] = find_sites(source) if rel.endswith(".py") else []
        return self._sites[rel]


def make_proof(lines_by_file: Mapping[str, set[int]], cache: SiteCache) -> dict:
    """One test's proof: real checks executed, fake ones named, implementation lines it ran."""
    checks = 0
    fake: list[str] = []
    executed: dict[str, int] = {}
    lines: dict[str, list[int]] = {}
    for rel in sorted(lines_by_file):
        ran = lines_by_file[rel]
        if is_test_code(rel):
            for site in executed_sites(cache.sites(rel), ran):
                if site.fake is None:
                    checks += 1
                else:
                    fake.append(f"{rel}:{site.first} {site.fake}")
        elif rel.endswith(".py") and ran:
            executed[rel] = len(ran)
            lines[rel] = sorted(ran)
    return {"checks": checks, "fake_checks": fake, "executed": executed, "lines": lines}


def unmeasured_proof() -> dict:
    """The proof of a test when nothing was measured (coverage.py unavailable): unknown, not zero."""
    return {"checks": None, "fake_checks": [], "executed": None, "lines": None}
