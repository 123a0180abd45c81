"""#46: `pytest --harness-run` re-runs the mutation audit of an audited run on the evidence it just
wrote; the stored audit.json's mutant outcomes are never read as evidence of the bytes re-verified."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

DEMO = Path(__file__).resolve().parent.parent / "runs" / "demo_todo"


@pytest.mark.slow
def test_harness_run_does_not_answer_from_a_stored_audit(tmp_path):
    """A stored audit.json that says REQ-001's tests killed none of its mutants (what an old audit of
    hollow tests would say) is re-executed: the demo's real tests kill them, so the re-run passes
    and audit.json is rewritten from what ran now. Reading the stored document would FAIL it."""
    runs = tmp_path / "runs"
    shutil.copytree(DEMO, runs / "demo_todo")
    audit_path = runs / "demo_todo" / "audit.json"
    stored = json.loads(audit_path.read_text())
    req = stored["requirements"]["REQ-001"]
    req["killed"] = 0
    req["survived"] = [d["id"] for d in req["details"]]
    for detail in req["details"]:
        detail["result"] = "passed"
    audit_path.write_text(json.dumps(stored))
    proc = subprocess.run([sys.executable, "-m", "pytest", "--harness-run", "demo_todo", "--harness-runs-dir", str(runs)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "mutation audit re-run:" in proc.stdout
    fresh = json.loads(audit_path.read_text())
    assert fresh["requirements"]["REQ-001"]["killed"] > 0
    # the re-audit ran beside the runtime check (speed on), not after it: it started before the
    # check's result was recorded (regression: --harness-run ran the two one after the other)
    events = [json.loads(line) for line in (runs / "demo_todo" / "events.log").read_text().splitlines()]
    runtime = [e for e in events if e["stage"] == "runtime" and e["agent"] == "pytest --harness-run"][-1]
    audit_started = [e for e in events if e["stage"] == "audit" and e["status"] == "started"][-1]
    assert events.index(audit_started) < events.index(runtime), (audit_started, runtime)
    assert audit_started["timestamp"] < runtime["timestamp"]
