"""Is the `pytest_harness` package Python imports this plugin's own?

Another distribution on PyPI also ships a top-level `pytest_harness`. Installed over this one it
replaces `pytest_harness/__init__.py`; uninstalled again it deletes the files both claimed, and
pytest then failed in every project at plugin load. This module imports nothing from the package's
`__init__`, so the plugin still loads and can say what is wrong: `shadowed()` names the package
folder and the distributions that claim it when the package's marker is missing or the package
was imported from another folder.
"""

from __future__ import annotations

import sys
from pathlib import Path

VERSION = "0.1.0"
MARK = "__harness_evidence__"
HERE = Path(__file__).resolve().parent


def _claimants() -> list[str]:
    try:
        from importlib.metadata import packages_distributions
        return sorted(set(packages_distributions().get("pytest_harness", [])))
    except Exception:  # broken metadata of some other distribution: say nothing about claimants
        return []


def shadowed() -> str | None:
    """None when `pytest_harness` is this plugin's package; else a one-line explanation."""
    package = sys.modules.get("pytest_harness")
    where = Path(getattr(package, "__file__", None) or next(iter(getattr(package, "__path__", [])), "") or "?")
    folder = where.resolve().parent if where.name == "__init__.py" else where.resolve()
    if package is not None and getattr(package, MARK, None) is True and folder == HERE:
        return None
    claimants = _claimants()
    by = f" (claimed by: {', '.join(claimants)})" if claimants else ""
    return (f"the pytest_harness package at {folder} is not the harness evidence plugin's{by}: another package "
            "ships a top-level pytest_harness. Uninstall it, then reinstall the plugin "
            "(pip install --force-reinstall pytest-harness-evidence, or app-builder-harness)")
