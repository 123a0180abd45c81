"""The generated workspace's layout: which paths are tests, config or implementation, what is skipped.

One module owns these rules; the plan validator, the repair strategies, re-verification, the
matrix, the sandbox and the runtime check all ask it instead of keeping their own lists.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Literal

Role = Literal["test", "config", "implementation"]
Layer = Literal["schema", "auth", "components", "pages", "routes", "other"]

TESTS_DIR = "tests/"
PACKAGE_INIT = "src/__init__.py"
# Directories no tool walks into: caches, virtualenvs, VCS data.
SKIP_DIRS = frozenset({
    "__pycache__", ".pytest_cache", ".hypothesis", ".git", ".mypy_cache", ".ruff_cache",
    ".venv", "venv", "node_modules",
})
SKIP_SUFFIXES = (".pyc", ".pyo")
_CONFIG = re.compile(r"(^|/)(requirements[^/]*\.txt|pyproject\.toml|setup\.cfg|pytest\.ini|tox\.ini|"
                     r"conftest\.py|package\.json|\.env\.example)$")


def is_config_file(path: str) -> bool:
    """Dependency, build and test-runner configuration (conftest.py included)."""
    return _CONFIG.search(path) is not None


def is_test_file(path: str) -> bool:
    """A test module: tests/**/test_*.py (a conftest or helper under tests/ is not one)."""
    return path.startswith(TESTS_DIR) and path.rsplit("/", 1)[-1].startswith("test_")


def role(path: str) -> Role:
    """test, config or implementation — every workspace path is exactly one."""
    if is_test_file(path):
        return "test"
    if is_config_file(path):
        return "config"
    return "implementation"


def code_files(paths: list[str]) -> list[str]:
    """The paths a code repair may patch: neither tests nor config (the package __init__ included)."""
    return [p for p in paths if role(p) == "implementation"]


def implementation_files(paths: list[str]) -> list[str]:
    """The files that implement a requirement: code files other than the empty package __init__."""
    return [p for p in code_files(paths) if p != PACKAGE_INIT]


def layer(path: str) -> Layer:
    """The architectural layer of an implementation file (the plan's ordering rules use it)."""
    if path in ("src/models.py", "src/db.py", "src/database.py") or "schema" in path:
        return "schema"
    if path == "src/auth.py":
        return "auth"
    if path.startswith("src/components/") or path == "src/schemas.py":
        return "components"
    if path == "src/pages.py" or path.startswith(("src/pages/", "templates/")):
        return "pages"
    if path.startswith("src/api_") or path in ("src/main.py", "src/dashboard.py"):
        return "routes"
    return "other"


# Which layers a file's task must come after (schema before logic; components/auth before users).
LAYER_NEEDS: dict[str, tuple[str, ...]] = {
    "routes": ("schema", "auth", "components"), "pages": ("schema", "auth", "components"),
    "auth": ("schema",),
}


def is_skipped_dir(name: str) -> bool:
    return name in SKIP_DIRS


def workspace_files(root: Path) -> list[str]:
    """Sorted relative POSIX paths of the files under `root`, skipped directories and suffixes left out."""
    root = Path(root)
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
        rel_dir = Path(dirpath).relative_to(root)
        found.extend((rel_dir / name).as_posix() for name in filenames if not name.endswith(SKIP_SUFFIXES))
    return sorted(found)
