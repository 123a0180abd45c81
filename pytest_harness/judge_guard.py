"""`pytest --harness-run`: the judge's own process never imports workspace code.

Hostile trial i (2026-12-07, B1): `cd runs/<id>/workspace && pytest --harness-run <id>
--harness-runs-dir ../..` imported the workspace's `tests/conftest.py` into the judge itself,
outside any sandbox, and that conftest replaced the re-verifier: a broken app passed, exit 0.

pytest imports the initial conftests (the rootdir's, its `testpaths`') in the
`pytest_load_initial_conftests` hook, whose loader is pytest's own trylast implementation; the
plugin's tryfirst implementation calls `guard` before it, which
- sets `noconftest`: no conftest.py is imported in a `--harness-run` process, wherever it starts;
- refuses in one line (a usage error, exit 4) when the invocation directory, the rootdir or the ini
  file lies inside the judged run's directory or inside any run's workspace: the ini file there is
  the workspace's, and pytest has already applied its `addopts` and `pythonpath` to this process.

What it cannot prevent (docs/plugin.md): before any plugin hook runs, pytest reads the ini file,
applies its `addopts` and `pythonpath`, and imports every `-p NAME` plugin (from the command line,
`addopts`, `PYTEST_ADDOPTS` or `PYTEST_PLUGINS`) that is importable. A workspace's `-p` module
started from inside the workspace is refused by this guard only after it was imported. Start
`--harness-run` from outside the runs (the directory holding `runs/`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

RUN_MARKER = "state.json"   # a run directory holds its state.json beside its workspace/


def _inside(place: Path, root: Path) -> bool:
    return place == root or root in place.parents


def workspace_of(place: Path) -> Path | None:
    """The run workspace `place` lies in (a `workspace` folder beside a run's state.json), or None."""
    for candidate in (place, *place.parents):
        if candidate.name == "workspace" and (candidate.parent / RUN_MARKER).is_file():
            return candidate
    return None


def guard(early_config: pytest.Config, run_id: str, runs_dir: str) -> None:
    """No conftest in this process; a usage error when it was started inside a run or a workspace."""
    early_config.known_args_namespace.noconftest = True
    invocation = Path(early_config.invocation_params.dir)
    run_dir = (invocation / runs_dir / run_id).resolve()
    places = (("the current directory", invocation), ("the rootdir", early_config.rootpath),
              ("the ini file", early_config.inipath))
    for what, place in places:
        if place is None:
            continue
        real = Path(place).resolve()
        inside = run_dir if _inside(real, run_dir) else workspace_of(real)
        if inside is not None:
            raise pytest.UsageError(
                f"--harness-run {run_id}: refused: {what} ({place}) lies inside {inside}, whose files must not "
                f"configure or run in the judge; start it from outside the runs, e.g. "
                f"cd {run_dir.parent.parent} && pytest --harness-run {run_id} --harness-runs-dir={run_dir.parent}")
