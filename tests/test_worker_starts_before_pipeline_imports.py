"""#46: `builder new` creates its run and starts the run's warm worker before it imports the
pipeline (and, with a plain request, the spec-file parser): those imports (~1-1.5 s on a loaded
machine) then overlap the worker's own instead of delaying it. Checked in a fresh interpreter, as a
user runs it: what had been imported when the worker was spawned."""

import json
import subprocess
import sys

import pytest

PROBE = r'''
import json, sys
from harness.speed.warm import workers
seen = []
real = workers.WarmWorker.__init__
def observed(self, *args, **kwargs):
    seen.append({"workspace": str(args[0]),
                 "pipeline": "harness.orchestration.pipeline" in sys.modules,
                 "spec_file": "harness.offline.spec_file" in sys.modules})
    real(self, *args, **kwargs)
workers.WarmWorker.__init__ = observed
from harness.cli import main
code = main(sys.argv[1:])
print(json.dumps({"code": code, "seen": seen}))
'''


@pytest.mark.slow
def test_the_worker_is_spawned_before_the_pipeline_is_imported(tmp_path):
    env = {"HARNESS_WARM": "1", "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", PROBE, "new", "Build a 3D racing game", "--runs-dir",
                           str(tmp_path), "--run-id", "r1", "--quiet"],
                          capture_output=True, text=True, timeout=300, env=env, check=False)
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["code"] == 1  # the spec stage turns the request down ...
    assert len(report["seen"]) == 1  # ... after the run's worker was started, once
    seen = report["seen"][0]
    assert seen["workspace"].endswith("r1/workspace")
    assert seen["pipeline"] is False and seen["spec_file"] is False


def test_no_speed_starts_no_worker_before_the_pipeline(tmp_path):
    env = {"HARNESS_WARM": "1", "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", PROBE, "new", "Build a 3D racing game", "--runs-dir",
                           str(tmp_path), "--run-id", "r1", "--quiet", "--no-speed"],
                          capture_output=True, text=True, timeout=300, env=env, check=False)
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report == {"code": 1, "seen": []}
