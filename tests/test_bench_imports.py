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
import harness.verification.verifier, harness.verification.runtime, harness.audit.ahead
print(json.dumps({"spent": spent, "new": sorted(m for m in set(sys.modules) - before if m.startswith("harness"))}))
"""


def test_the_spec_rules_and_verification_modules_are_imported_before_the_timed_builds():
    """Regression (#19): the first (warm) build of bench --quick paid ~0.6 s importing the offline
    spec rules that the second (cold) build found imported."""
    proc = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["new"] == [] and out["spent"] > 0
