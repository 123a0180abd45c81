"""`pytest --harness-run ID --harness-runs-dir /elsewhere`, run in this checkout, crashed before doing
anything (hostile trial g): pytest takes its rootdir from the path argument, drops pyproject's
`pythonpath = ["tests"]`, still loads the checkout's conftest.py, whose first import of a test helper
failed (`ModuleNotFoundError: No module named 'fake_openai_server'`). A runs dir inside the checkout
worked. Now the re-verifier answers, whatever the runs dir."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_harness_run_with_a_runs_dir_outside_the_checkout_reaches_the_reverifier_bug(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "pytest", "--harness-run", "run_nope", "--harness-runs-dir",
                           str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    out = proc.stdout + proc.stderr
    assert "ModuleNotFoundError" not in out
    assert proc.returncode == 4 and f"no run 'run_nope' in {tmp_path}" in out, out[-2000:]
