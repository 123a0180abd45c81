"""Issue 18: the sdist carries a LICENSE, metadata and everything its own tests need."""

from __future__ import annotations

import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NEEDED = ("LICENSE", "README.md", "conftest.py", "requirements.txt", "tests/data/plugin_canonical.py",
          "tests/data/pytest_outputs/passing.txt", "tests/fake_openai_server.py", "runs/demo_todo/state.json",
          "pytest_harness/plugin.py", "harness/cli.py")


@pytest.mark.slow
def test_sdist_has_license_metadata_and_what_its_tests_need(tmp_path):
    build = "from setuptools import build_meta; import sys; print(build_meta.build_sdist(sys.argv[1]))"
    proc = subprocess.run([sys.executable, "-c", build, str(tmp_path)], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    archive = tmp_path / proc.stdout.strip().splitlines()[-1]
    with tarfile.open(archive) as tar:
        names = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
        pkg_info = tar.extractfile(next(m for m in tar.getmembers() if m.name.count("/") == 1
                                        and m.name.endswith("PKG-INFO"))).read().decode()
    assert set(NEEDED) <= names, sorted(set(NEEDED) - names)
    assert not [n for n in names if "__pycache__" in n or n.endswith((".pyc", ".db"))]
    assert "License-Expression: MIT" in pkg_info
    assert "Classifier: Framework :: Pytest" in pkg_info
    for label in ("Homepage", "Source", "Issues"):
        assert f"Project-URL: {label}, https://github.com/app-builder-harness/" in pkg_info
    assert "MIT License" in (ROOT / "LICENSE").read_text()
