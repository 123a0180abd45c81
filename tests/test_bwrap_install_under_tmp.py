"""Regression: an installation under /tmp (a CI clone, a venv in a temp dir) must stay visible in
the sandbox. The private /tmp tmpfs was mounted after the interpreter's binds and hid them, so the
warm worker (and every sandboxed pytest) could not start from a clone in /tmp."""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

import pytest

from harness.sandbox import isolation


def test_python_roots_under_tmp_are_bound_after_the_private_tmp(monkeypatch):
    monkeypatch.setattr(isolation, "_python_roots", lambda: ["/tmp/some-clone/.venv"])
    argv = isolation.bwrap_argv("bwrap", ["true"], workspace=Path("/tmp/ws"), cwd=Path("/tmp/ws"),
                                writable=[], network=False)
    tmpfs_at = argv.index("--tmpfs")
    bind_at = argv.index("/tmp/some-clone/.venv")
    assert argv[tmpfs_at + 1] == "/tmp" and bind_at > tmpfs_at


@pytest.mark.skipif(isolation.bwrap_path() is None, reason="bubblewrap not usable here")
def test_sandbox_sees_an_installation_under_tmp(monkeypatch, tmp_path):
    prefix = Path(tempfile.mkdtemp(prefix="harness-prefix-", dir="/tmp"))
    try:
        (prefix / "marker.txt").write_text("installed under /tmp\n")
        roots = isolation._python_roots()
        monkeypatch.setattr(isolation, "_python_roots", lambda: [*roots, str(prefix)])
        workspace = tmp_path / "ws"
        workspace.mkdir()
        argv = isolation.bwrap_argv(isolation.bwrap_path(), ["cat", str(prefix / "marker.txt")],
                                    workspace=workspace, cwd=workspace, writable=[], network=False)
        done = subprocess.run(argv, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        assert done.stdout == "installed under /tmp\n"
    finally:
        (prefix / "marker.txt").unlink()
        prefix.rmdir()
