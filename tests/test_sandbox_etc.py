"""The sandbox's /etc (harness/sandbox/host_view.py): a copy of the allowlisted entries with the two
link farms, /etc/alternatives and /etc/ssl/certs, bound read-only over it instead of copied (their
~700 links took ~1 s to create at the start of every `builder` process). Inside bubblewrap the
sandbox sees exactly what the copy used to hold, and cannot change it."""

from __future__ import annotations

import json
import os
import shutil
import sys

import pytest

from harness.sandbox import host_view
from harness.sandbox.local import LocalSandbox

LISTING = '''
import json, os, sys
out = {}
for d in sys.argv[2:]:
    out[d] = sorted((n, os.readlink(os.path.join(d, n)) if os.path.islink(os.path.join(d, n)) else None)
                    for n in os.listdir(d))
try:
    open("/etc/ssl/certs/planted.pem", "w").write("x")
    out["write"] = "written"
except OSError as exc:
    out["write"] = type(exc).__name__
out["passwd"] = open("/etc/passwd").read()
open(sys.argv[1], "w").write(json.dumps(out))
'''


def _host_listing(d: str) -> list:
    return sorted([n, os.readlink(os.path.join(d, n)) if os.path.islink(os.path.join(d, n)) else None]
                  for n in os.listdir(d))


def test_the_link_farms_are_mount_points_in_the_copy_not_copies():
    copy = host_view.etc_dir()
    for source in host_view.bound_dirs():
        target = os.path.join(copy, source[len("/etc/"):])
        assert os.path.isdir(target) and os.listdir(target) == []   # an empty mount point
    assert host_view.bound_dirs() == [d for d in ("/etc/alternatives", "/etc/ssl/certs")
                                      if os.path.isdir(d) and not os.path.islink(d)]


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed (CI installs it)")
def test_inside_bubblewrap_the_bound_farms_hold_the_hosts_links_read_only(tmp_path, monkeypatch):
    monkeypatch.setenv("HARNESS_SANDBOX", "auto")
    bound = host_view.bound_dirs()
    if not bound:
        pytest.skip("this host has neither /etc/alternatives nor /etc/ssl/certs as directories")
    workspace, out = tmp_path / "ws", tmp_path / "out"
    workspace.mkdir()
    out.mkdir()
    (workspace / "listing.py").write_text(LISTING)
    res = LocalSandbox(workspace).execute([sys.executable, "listing.py", str(out / "seen.json"), *bound],
                                          timeout_s=60, writable=[out])
    assert res.exit_code == 0, res.stderr
    seen = json.loads((out / "seen.json").read_text())
    for d in bound:
        assert seen[d] == _host_listing(d)              # every link, with its target, as on the host
    assert seen["write"] in ("OSError", "PermissionError")   # read-only (EROFS)
    assert seen["passwd"].startswith("nobody:x:65534:")     # still the sandbox's own /etc
    assert not os.path.exists("/etc/ssl/certs/planted.pem")
