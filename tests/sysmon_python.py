"""A Python >= 3.12 to run the plugin's sys.monitoring (`sysmon`) tracer core on, for tests.

The project's own venv may be older (3.11: the C tracer), so a test that must see the sysmon
path run looks for another interpreter: `HARNESS_SYSMON_PYTHON`, this interpreter when it is
3.12 or newer, `python3.12`... on PATH, then pyenv's versions. That interpreter need not have
pytest or coverage installed: `borrowed_path` gives it this environment's own pytest and
coverage (pure Python; coverage's sysmon core needs no compiled part) and this checkout's
plugin, so both runs use the same versions of everything but Python.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

SYSMON_FROM = (3, 12)
# What pytest, coverage and the plugin import beyond the standard library (pygments: optional).
BORROWED = ("pytest", "_pytest", "pluggy", "iniconfig", "packaging", "coverage", "pygments", "py")
PLUGIN = Path(__file__).resolve().parent.parent / "pytest_harness"


def _candidates() -> list[str]:
    found = [os.environ.get("HARNESS_SYSMON_PYTHON", ""), sys.executable]
    found += [shutil.which(f"python3.{minor}") or "" for minor in range(12, 20)]
    for root in {os.environ.get("PYENV_ROOT", ""), str(Path.home() / ".pyenv")} - {""}:
        found += sorted(str(p) for p in Path(root, "versions").glob("3.*/bin/python3"))
    return [c for c in dict.fromkeys(found) if c]


def _version(python: str) -> tuple[int, int] | None:
    try:
        out = subprocess.run([python, "-c", "import sys; print(*sys.version_info[:2])"],
                             capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    parts = out.stdout.split()
    return (int(parts[0]), int(parts[1])) if out.returncode == 0 and len(parts) == 2 else None


def find() -> str | None:
    """The first interpreter of Python >= 3.12 found, or None when this machine has none."""
    for python in _candidates():
        version = _version(python)
        if version is not None and version >= SYSMON_FROM:
            return python
    return None


def borrowed_path(into: Path) -> Path:
    """A folder of links to this environment's pytest, coverage and their dependencies, and to
    this checkout's plugin, for another interpreter's PYTHONPATH."""
    into.mkdir(parents=True, exist_ok=True)
    for name in BORROWED:
        spec = importlib.util.find_spec(name)
        if spec is None or spec.origin is None:
            continue
        origin = Path(spec.origin)
        source = origin.parent if origin.name == "__init__.py" else origin
        (into / source.name).symlink_to(source)
    (into / PLUGIN.name).symlink_to(PLUGIN)
    return into
