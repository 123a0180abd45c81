"""Issue 52, packaging: the plugin as its own distribution (pytest and coverage only), built from
this repository and installed into a fresh virtualenv; a foreign `pytest_harness` is named, not a
traceback in every project."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
FAST = ("-p", "no:cacheprovider", "-p", "no:xdist", "-p", "no:hypothesispytest", "-p", "no:anyio")
PROJECT = {
    "requirements.toml": '[requirements]\nCALC-1 = "adds two numbers"\nCALC-2 = "subtracts"\n',
    "calc.py": "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n",
    "tests/test_calc.py": "import pytest\nfrom calc import add, sub\n\n\n@pytest.mark.req('CALC-1')\n"
                          "def test_add():\n    assert add(2, 3) == 5\n\n\n@pytest.mark.req('CALC-2')\n"
                          "def test_sub():\n    assert sub(3, 2) == 1\n",
    "pytest.ini": "[pytest]\ntestpaths = tests\npythonpath = .\n",
}


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)


def _run(argv: list, cwd: Path, env: dict | None = None, timeout: int = 300) -> subprocess.CompletedProcess:
    return subprocess.run([str(a) for a in argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


def _foreign_shadow(site: Path) -> None:
    """Our package with its __init__ replaced by another distribution's (as pip leaves it)."""
    shutil.copytree(REPO / "pytest_harness", site / "pytest_harness", ignore=shutil.ignore_patterns("__pycache__"))
    (site / "pytest_harness" / "__init__.py").write_text('"""Some other pytest harness."""\nVERSION = "9.9"\n')


@pytest.mark.slow
def test_foreign_pytest_harness_package_is_named_not_a_traceback(tmp_path):
    site, project = tmp_path / "site", tmp_path / "project"
    _foreign_shadow(site)
    _write(project, PROJECT)
    env = {**os.environ, "PYTHONPATH": str(site)}
    asked = _run([sys.executable, "-m", "pytest", *FAST, f"--harness-evidence={tmp_path / 'e.json'}"], project, env)
    assert asked.returncode == 4, asked.stdout + asked.stderr
    assert f"the pytest_harness package at {site / 'pytest_harness'} is not the harness evidence plugin's" in asked.stderr
    assert "Traceback" not in asked.stderr
    inert = _run([sys.executable, "-m", "pytest", *FAST], project, env)
    assert inert.returncode == 0, inert.stdout + inert.stderr   # a project not asking for evidence still runs
    assert "is not the harness evidence plugin's" in inert.stdout


def test_stage_copies_only_the_plugin_package(tmp_path):
    sys.path.insert(0, str(REPO / "packaging" / "plugin"))
    try:
        import stage
    finally:
        sys.path.pop(0)
    dest = stage.stage(tmp_path / "src")
    assert sorted(p.name for p in dest.iterdir()) == ["LICENSE", "README.md", "pyproject.toml", "pytest_harness"]
    assert (dest / "pytest_harness" / "plugin.py").is_file() and not (dest / "harness").exists()


@pytest.mark.slow
def test_plugin_wheel_installs_alone_and_records_evidence(tmp_path):
    """The CI snippet of docs/plugin.md, as written: stage, build the wheel offline, install it with
    pytest and coverage only into a fresh virtualenv, run a small project's tests."""
    src, dist, venv, project = tmp_path / "plugin-src", tmp_path / "dist", tmp_path / "venv", tmp_path / "project"
    staged = _run([sys.executable, REPO / "packaging" / "plugin" / "stage.py", src], REPO)
    assert staged.returncode == 0, staged.stderr
    built = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-w", dist, src], REPO)
    assert built.returncode == 0, built.stdout + built.stderr
    wheel = next(dist.glob("pytest_harness_evidence-0.1.0-*.whl"))
    assert _run([sys.executable, "-m", "venv", venv], tmp_path).returncode == 0
    python = venv / "bin" / "python"
    installed = _run([python, "-m", "pip", "install", "-q", wheel], tmp_path, timeout=600)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    listed = _run([python, "-m", "pip", "list", "--format=json"], tmp_path)
    names = {d["name"].lower() for d in json.loads(listed.stdout)}
    assert {"pytest", "coverage", "pytest-harness-evidence"} <= names
    assert not names & {"fastapi", "uvicorn", "httpx", "pydantic", "app-builder-harness"}
    _write(project, PROJECT)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",) and not k.startswith("HARNESS_")}
    ran = _run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--harness-requirements-file=requirements.toml",
                "--harness-evidence=evidence.json", "--harness-fail-under=100"], project, env)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    doc = json.loads((project / "evidence.json").read_text())
    assert {rid: req["status"] for rid, req in doc["requirements"].items()} == {"CALC-1": "verified",
                                                                                "CALC-2": "verified"}
    assert doc["tests"]["tests/test_calc.py::test_add"]["lines"] == {"calc.py": [2]}
