"""#19: `builder bench --quick` imports the harness's lazily imported modules before both builds."""

import json
import subprocess
import sys

SCRIPT = """
import json, sys
import harness.benchmarks as bench
spent = bench.import_build_modules()
before = set(sys.modules)
from harness.offline.spec import parse_request
parse_request(bench.TODO_REQUEST)
import harness.verification.verifier, harness.verification.runtime, harness.speed.audit_ahead
print(json.dumps({"spent": spent, "new": sorted(m for m in set(sys.modules) - before if m.startswith("harness"))}))
"""


def test_the_spec_rules_and_verification_modules_are_imported_before_the_timed_builds():
    """Regression (#19): the first (warm) build of bench --quick paid ~0.6 s importing the offline
    spec rules that the second (cold) build found imported."""
    proc = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["new"] == [] and out["spent"] > 0


CLI_IMPORTS = """
import json, sys
import harness.cli, harness.audit.run, harness.audit.dispatch, harness.orchestration.pipeline
print(json.dumps(sorted(m for m in ("pytest", "_pytest") if m in sys.modules)))
"""


def test_the_builder_cli_and_the_audits_harness_side_do_not_import_pytest_bug():
    """Regression (#19): harness.audit.run took the time box's GRACE_FACTOR from the lane plugin
    (pytest_harness.mutation_runner), so every `builder` process, `builder runs` and `--help` too,
    imported pytest first (~50 ms of its ~0.22 s start here). The time box is pytest_harness.time_box."""
    proc = subprocess.run([sys.executable, "-c", CLI_IMPORTS], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == []
