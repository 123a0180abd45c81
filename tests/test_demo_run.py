"""The committed demonstration run (runs/demo_todo) and examples/todo_run stay valid and re-verify."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

from harness.models import AppSpec, Plan, ReviewReport, VerificationResult
from harness.validation.plan_validator import validate_plan
from harness.validation.spec_validator import validate_spec

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "runs" / "demo_todo"
EXAMPLE = ROOT / "examples" / "todo_run"


def test_example_artifacts_validate_and_tell_a_pass():
    spec = AppSpec.model_validate_json((EXAMPLE / "spec.json").read_text())
    plan = Plan.model_validate_json((EXAMPLE / "tasks.json").read_text())
    review = ReviewReport.model_validate_json((EXAMPLE / "review.json").read_text())
    results = [VerificationResult.model_validate(r) for r in json.loads((EXAMPLE / "verification.json").read_text())["results"]]
    assert len(spec.requirements) >= 3 and validate_spec(spec) == []
    assert len(plan.tasks) >= 3 and validate_plan(plan.tasks, spec) == []
    assert review.overall_status == "PASS" and all(r.status == "PASS" for r in review.requirements)
    assert results and all(r.exit_code == 0 for r in results)


def test_demo_run_is_complete_and_matches_the_example():
    for name in ("spec.json", "tasks.json", "verification.json", "review.json"):
        assert (DEMO / name).read_text() == (EXAMPLE / name).read_text(), name
    state = json.loads((DEMO / "state.json").read_text())
    assert state["status"] == "PASS" and state["runtime"]["status"] == "PASS"
    assert (DEMO / "workspace" / "src" / "main.py").exists()


def test_demo_run_reverifies_with_pytest_harness_run(tmp_path):
    runs = tmp_path / "runs"
    shutil.copytree(DEMO, runs / "demo_todo")
    proc = subprocess.run([sys.executable, "-m", "pytest", "--harness-run", "demo_todo", "--harness-runs-dir", str(runs)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "HARNESS RUN PASS: 4/4" in proc.stdout
