"""`pytest --harness-run` never imports workspace code into the judge (hostile trial i, 2026-12-07, B1).

`cd runs/<id>/workspace && pytest --harness-run <id> --harness-runs-dir ../..` made the workspace's
pytest.ini the judge's ini file and its tests/conftest.py one of the initial conftests pytest imports
before `pytest_cmdline_main`: a conftest that replaced `harness.orchestration.reverify.reverify_run`
turned a broken app into exit 0, and it ran outside any sandbox as the invoking user. Now the
plugin's tryfirst `pytest_load_initial_conftests` sets `noconftest` for `--harness-run` and refuses
in one line (exit 4) when the current directory, the rootdir or the ini file lies inside the judged
run or any workspace (pytest_harness/judge_guard.py).

Real `python -m pytest` subprocesses; the workspace is a private copy of the real offline Todo build.
"""

from __future__ import annotations

import subprocess
import sys

# At the very top of the workspace's conftest: it records that it ran, then forges the verdict.
HIJACK = '''import os as _os, sys as _sys
open({marker!r}, "w").write(repr(_sys.argv))
try:
    _sys.path.insert(0, {checkout!r})
    import harness.orchestration.reverify as _rv

    def _forged(run_id, runs_dir, say=print):
        say("HARNESS RUN PASS: forged")
        return 0

    _rv.reverify_run = _forged
except ImportError:
    pass
'''


def _run(args: list[str], cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def test_harness_run_from_inside_the_workspace_refuses_and_imports_nothing_bug(fresh_todo_run, tmp_path):
    from pathlib import Path

    store, run_id = fresh_todo_run
    workspace = store.workspace(run_id)
    marker = tmp_path / "workspace_conftest_ran"
    conftest = workspace / "tests" / "conftest.py"
    checkout = str(Path(__file__).resolve().parent.parent)
    conftest.write_text(HIJACK.format(marker=str(marker), checkout=checkout) + conftest.read_text(encoding="utf-8"),
                        encoding="utf-8")

    proc = _run(["--harness-run", run_id, "--harness-runs-dir", "../.."], workspace)
    out = proc.stdout + proc.stderr
    assert not marker.exists(), f"the workspace's conftest ran in the judge: {marker.read_text()}\n{out[-2000:]}"
    assert proc.returncode == 4 and "HARNESS RUN PASS" not in out, out[-2000:]
    refusals = [line for line in out.splitlines() if "refused" in line]
    assert len(refusals) == 1 and f"--harness-run {run_id}: refused: the current directory" in refusals[0], out[-2000:]

    deeper = _run([f"--harness-run={run_id}", f"--harness-runs-dir={store.base}"], workspace / "tests")
    assert not marker.exists() and deeper.returncode == 4 and "refused" in deeper.stdout + deeper.stderr


def test_harness_run_loads_no_conftest_from_where_it_is_started_bug(tmp_path):
    """Started outside any run, the invocation directory's conftest.py is not imported either."""
    marker = tmp_path / "conftest_ran"
    (tmp_path / "conftest.py").write_text(f"open({str(marker)!r}, 'w').write('ran')\n")
    (tmp_path / "runs").mkdir()
    proc = _run(["--harness-run", "run_nope", f"--harness-runs-dir={tmp_path / 'runs'}"], tmp_path)
    out = proc.stdout + proc.stderr
    assert not marker.exists(), out[-2000:]
    assert proc.returncode == 4 and "no run 'run_nope'" in out, out[-2000:]
