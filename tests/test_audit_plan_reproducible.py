"""The mutation audit's verdict varied between two builds of one spec (examples/contacts_import.toml
with csv_export). The mutant choice is not what varies: it is seeded with the fixed seed and the
requirement id (pytest_harness/mutation_plan.py), so the same workspace bytes and evidence give the
same mutants in every process. What the time box lets run can differ (docs/evidence.md).

Here: a generated workspace planned twice in this process, and in two processes with different
hash seeds, chooses the same mutants (files, lines, kinds, sites); their guard ids are fresh random
draws each time (#47: an id must not tell a mutant from the original code)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from harness.audit.plan import _CANDIDATES, make_plan
from harness.offline.generator import generate_files
from harness.offline.spec_file import load_spec_file
from helpers import write_files

ROOT = Path(__file__).resolve().parents[1]
FILES = ("src/api_contact.py", "src/models.py")


def _workspace(tmp_path: Path) -> tuple[Path, dict]:
    """The contacts app with csv_export, and evidence whose export test ran every line of its files."""
    text = (ROOT / "examples" / "contacts_import.toml").read_text(encoding="utf-8")
    spec_path = tmp_path / "contacts.toml"
    spec_path.write_text(text.replace('features = ["search"]\n', 'features = ["search", "csv_export"]\n', 1),
                         encoding="utf-8")
    ws = write_files(generate_files(load_spec_file(spec_path)), tmp_path / "ws")
    node = "tests/test_api_contact.py::test_csv_export_lists_every_record"
    lines = {rel: list(range(1, len((ws / rel).read_text(encoding="utf-8").splitlines()) + 1)) for rel in FILES}
    evidence = {"requirements": {"REQ-005": {"status": "verified", "files": list(FILES), "tests": [node]}},
                "tests": {node: {"outcome": "passed", "lines": lines, "duration_s": 0.1}}}
    return ws, evidence


def _chosen(ws: Path, evidence: dict) -> list[list]:
    plan = make_plan(evidence, ws, 4)
    return [[c.file, c.mutant.line, c.mutant.kind, c.mutant.key] for c in   # the guard ids: fresh draws (#47)
            sorted(plan.chosen.values(), key=lambda c: (c.file, c.mutant.key))]


def test_the_same_workspace_bytes_plan_the_same_mutants(tmp_path):
    ws, evidence = _workspace(tmp_path)
    first = _chosen(ws, evidence)
    _CANDIDATES.clear()   # no cached sites: the second plan reads the files afresh
    assert len(first) == 4 and {row[0] for row in first} <= set(FILES)
    assert _chosen(ws, evidence) == first


@pytest.mark.slow
def test_two_processes_with_different_hash_seeds_plan_the_same_mutants(tmp_path):
    ws, evidence = _workspace(tmp_path)
    (tmp_path / "evidence.json").write_text(json.dumps(evidence), encoding="utf-8")
    code = ("import json, sys\nfrom pathlib import Path\nfrom harness.audit.plan import make_plan\n"
            "plan = make_plan(json.loads(Path(sys.argv[2]).read_text()), Path(sys.argv[1]), 4)\n"
            "print(json.dumps([[c.file, c.mutant.line, c.mutant.kind, c.mutant.key]"
            " for c in sorted(plan.chosen.values(), key=lambda c: (c.file, c.mutant.key))]))\n")
    runs = [subprocess.run([sys.executable, "-c", code, str(ws), str(tmp_path / "evidence.json")], cwd=ROOT,
                           capture_output=True, text=True, timeout=120,
                           env={**os.environ, "PYTHONHASHSEED": seed}) for seed in ("1", "2")]
    assert [r.returncode for r in runs] == [0, 0], [r.stderr[-2000:] for r in runs]
    plans = [json.loads(r.stdout) for r in runs]
    assert plans[0] == plans[1] == _chosen(ws, evidence)
