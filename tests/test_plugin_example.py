"""Issue 52: the foreign-project example (examples/plugin_project) gated in CI style: a passing run
writes the evidence and becomes the baseline; a regression fails the gate with an annotation and
the status change; a requirement whose code changed while its tests did not run reads stale."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "plugin_project"


def _gate(project: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HARNESS_", "PYTEST_"))} | {"PYTHON": sys.executable}
    return subprocess.run(["bash", str(project / "ci.sh"), "-p", "no:xdist", "-p", "no:hypothesispytest", *args],
                          cwd=project, env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_example_project_gate_with_baseline(tmp_path):
    project = tmp_path / "plugin_project"
    shutil.copytree(EXAMPLE, project, ignore=shutil.ignore_patterns("evidence", "__pycache__"))
    first = _gate(project)
    assert first.returncode == 0, first.stdout + first.stderr
    assert "harness: 3/3 requirements verified (100%); fail-under 100% met" in first.stdout
    evidence = project / "evidence"
    assert json.loads((evidence / "baseline.json").read_text())["gate"]["passed"] is True
    assert ET.parse(evidence / "requirements.xml").getroot().get("line-rate") == "1.0000"
    assert (evidence / "report.html").read_text().startswith("<!DOCTYPE html>")

    lib = project / "src" / "textkit.py"
    lib.write_text(lib.read_text().replace('"-".join(', '"_".join('))          # TXT-2 regresses
    second = _gate(project)
    assert second.returncode == 1
    assert "baseline: TXT-2 verified -> failing" in second.stdout
    assert "::error file=tests/test_textkit.py,title=TXT-2 failing::" in second.stdout
    assert json.loads((evidence / "baseline.json").read_text())["gate"]["passed"] is True   # kept: the gate failed

    lib.write_text(lib.read_text().replace('"_".join(', '"-".join(').replace("max(1, ", "max(0, "))
    third = _gate(project, "-k", "not reading")                                # TXT-3's code changed, not run
    assert third.returncode == 1
    assert "baseline: TXT-3 stale: verified in the baseline, since changed: src/textkit.py" in third.stdout
    assert "::warning title=TXT-3 stale::" in third.stdout
