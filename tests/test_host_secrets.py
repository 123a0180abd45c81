"""#49: inside bubblewrap code under test runs as uid/gid 65534 (a served app as the user serving
it) and sees only an allowlisted /etc: host secrets stay unreadable from tests and from the runtime check's app — even when the harness
runs as root (this machine and most CI containers do: the secret below is then root's own file).

Regression: running as root, the app started by the runtime check read /etc/shadow.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from harness.verification.runtime import verify_runtime
from harness.speed.runners import WarmRunner
from harness.verification.verifier import run_command
from helpers import warm_workers_stopped_after

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed (CI installs it)")]

PROBE = '''
import json
import os


def attempts(paths):
    out = {"uid": os.getuid(), "gid": os.getgid()}
    for path in paths:
        try:
            with open(path, "rb") as fh:
                out[path] = "read " + str(len(fh.read()))
        except OSError as exc:
            out[path] = type(exc).__name__
    return out


def report(name, paths):
    with open(os.path.join(os.environ["HARNESS_SHARED_DIR"], name), "w") as fh:
        json.dump(attempts(paths), fh)
'''


@pytest.fixture()
def secrets_setup(tmp_path, monkeypatch):
    """A root-only (0600) secret outside the workspace, the host's shadow files, a shared report dir."""
    secret_dir = tmp_path / "host"
    secret_dir.mkdir()
    secret = secret_dir / "secret.txt"
    secret.write_text("host secret")
    secret.chmod(0o600)
    shared = tmp_path / "shared"
    shared.mkdir()
    monkeypatch.setenv("HARNESS_SANDBOX", "auto")
    monkeypatch.setenv("HARNESS_SHARED_DIR", str(shared))
    targets = [str(secret), "/etc/shadow", "/etc/gshadow", "/etc/sudoers", "/root/.ssh/id_rsa", "/etc/ssh/ssh_host_rsa_key"]
    # The harness's own view: the secret is real (and, as root, so is /etc/shadow).
    assert secret.read_text() == "host secret"
    if os.geteuid() == 0 and os.path.exists("/etc/shadow"):
        assert Path("/etc/shadow").read_bytes()
    return tmp_path, shared, targets


def _unreadable(found: dict, targets: list[str], identity: tuple[int, int] = (65534, 65534)) -> None:
    assert (found["uid"], found["gid"]) == identity
    assert [t for t in targets if found[t].startswith("read")] == [], found


def test_generated_tests_cannot_read_host_secrets_even_when_the_harness_is_root(secrets_setup, monkeypatch):
    tmp_path, shared, targets = secrets_setup
    ws = tmp_path / "ws"
    (ws / "tests").mkdir(parents=True)
    (ws / "pytest.ini").write_text("[pytest]\n")
    (ws / "tests" / "test_probe.py").write_text(PROBE + f"\n\ndef test_probe():\n    report('tests.json', {targets!r})\n")
    with warm_workers_stopped_after():
        for warm_mode in ("0", "1"):
            monkeypatch.setenv("HARNESS_WARM", warm_mode)
            res = run_command("python -m pytest -q tests", ws, task_id="T", timeout_s=120, runner=WarmRunner())
            assert (res.status, res.runner) == ("PASS", "cold" if warm_mode == "0" else "warm"), res.stdout[-1500:]
            _unreadable(json.loads((shared / "tests.json").read_text()), targets)
            (shared / "tests.json").unlink()


def test_the_runtime_checks_app_cannot_read_host_secrets_even_when_the_harness_is_root(secrets_setup):
    tmp_path, shared, targets = secrets_setup
    ws = tmp_path / "ws"
    (ws / "src").mkdir(parents=True)
    (ws / "src" / "__init__.py").write_text("")
    (ws / "src" / "main.py").write_text(PROBE + f"\nreport('app.json', {targets!r})\n\n"
                                        "from fastapi import FastAPI\n\napp = FastAPI()\n\n\n"
                                        "@app.get('/health')\ndef health():\n    return {'status': 'ok'}\n")
    result = verify_runtime(ws, startup_timeout_s=30)
    assert result.status == "PASS", [c for c in result.checks if not c.ok]
    # a served app runs as the user who serves it, judged or not (app_server.py): root here, and
    # still reads nothing it cannot see
    _unreadable(json.loads((shared / "app.json").read_text()), targets, (os.getuid(), os.getgid()))
