"""#52: `--harness-mutate` for any project — a per-requirement mutation audit of the lines its tests
ran, the requirement's files taken from the requirements file's `[files]`. On a copy of
examples/plugin_project: the honest tests meet the bar; a hollow test (`is not None`) for TXT-3
does not — the requirement is demoted to weak and the gate fails. Before, the flag did not exist."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "plugin_project"
HONEST = "    assert reading_minutes(\"word \" * words) == minutes\n"
HOLLOW = "    assert reading_minutes(\"word \" * words) is not None\n"


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "plugin_project"
    shutil.copytree(EXAMPLE, project, ignore=shutil.ignore_patterns("evidence", "__pycache__"))
    return project


def _pytest(project: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HARNESS_", "PYTEST_"))}
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:xdist",
                           "--harness-requirements-file=requirements.toml", *args],
                          cwd=project, env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_the_honest_example_meets_the_mutation_bar(tmp_path):
    """Asked from the ini file this time: the audit's own session reads the same ini and must not
    audit itself again (it records no evidence: mutation_runner's session)."""
    project = _project(tmp_path)
    ini = project / "pytest.ini"
    ini.write_text(ini.read_text() + "harness_mutate = true\n")
    done = _pytest(project, "--harness-fail-under=100", "--harness-evidence=ev.json")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    # 4 of its own (#47: more behaviour-changing sites of its two own lines; word_count's line, which
    # TXT-1's tests run too, is shared and comes last); `words = word_count(text)` dropped ends the
    # test with a NameError out of the code under test: a crash, not a kill (invalid; before, killed)
    assert "harness mutation: TXT-3 3/3 killed (100%, 1 invalid); bar 50%: meets the bar" in done.stdout
    assert "harness: 3/3 requirements verified (100%); fail-under 100% met" in done.stdout
    block = json.loads((project / "ev.json").read_text())["mutation"]
    kinds = [d["kind"] for d in block["requirements"]["TXT-3"]["details"]]
    assert kinds[0] in ("compare", "negate") and "return" not in kinds[:1]   # behaviour-changing first
    original = (EXAMPLE / "src" / "textkit.py").read_bytes()
    assert (project / "src" / "textkit.py").read_bytes() == original   # mutants only in a copy


@pytest.mark.slow
def test_a_hollow_test_fails_the_mutation_bar_and_the_gate(tmp_path):
    project = _project(tmp_path)
    tests = project / "tests" / "test_textkit.py"
    assert HONEST in tests.read_text()
    tests.write_text(tests.read_text().replace(HONEST, HOLLOW))
    plain = _pytest(project, "--harness-fail-under=100")
    assert plain.returncode == 0 and "3/3 requirements verified" in plain.stdout   # the hollow test passes
    done = _pytest(project, "--harness-mutate", "--harness-fail-under=100", "--harness-evidence=ev.json")
    assert done.returncode == 1, done.stdout[-3000:]
    line = next(x for x in done.stdout.splitlines() if x.startswith("harness mutation: TXT-3 "))
    # the NameError of a dropped `words = ...` was its one kill before (#47: a crash is not a kill)
    assert line.endswith("bar 50%: below the bar") and "0/2 killed (0%, 1 invalid)" in line, line
    assert "harness mutation: TXT-1 " in done.stdout and "harness mutation: TXT-2 " in done.stdout
    document = json.loads((project / "ev.json").read_text())
    assert document["requirements"]["TXT-3"]["status"] == "weak"
    assert "TXT-3: weak" in document["gate"]["reasons"] and not document["gate"]["passed"]
    survivors = [d for d in document["mutation"]["requirements"]["TXT-3"]["details"] if d["result"] == "passed"]
    assert survivors and all(d["file"] == "src/textkit.py" and d["line"] and d["kind"] for d in survivors)


def test_mutate_without_the_requirements_files_is_one_clear_line(tmp_path):
    project = _project(tmp_path)
    toml = project / "requirements.toml"
    toml.write_text(toml.read_text().split("\n# Which files implement")[0] + "\n")
    done = _pytest(project, "--harness-mutate")
    assert done.returncode == 4
    assert "--harness-mutate: the mutation audit needs each requirement's files" in done.stderr
    assert "Traceback" not in done.stderr
