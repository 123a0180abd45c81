"""`builder serve` (#46/#47, hostile trial 2026-12-07 A5): the environment the runtime check judges
an app in is the one its user runs it in. One launcher (harness/verification/app_server.py) serves
both; these tests serve the same app once through the runtime check (cold and prestarted) and once
through the real `builder serve` command, and compare what the app can observe."""

from __future__ import annotations

import re
import subprocess

import pytest
from serve_helpers import BUILDER, FINGERPRINT_APP, builder_serve, get_json, without_port
from served_app import spec_from_toml
from test_runtime import make_app

from harness.acceptance import run_acceptance
from harness.offline.generator import generate_files
from harness.sandbox.isolation import bwrap_path
from harness.speed import server_prestart
from harness.utils import own_tmp
from harness.verification.http_probe import request
from harness.verification.runtime import verify_runtime

needs_bwrap = pytest.mark.skipif(bwrap_path() is None, reason="needs a working bubblewrap")

# Where the host directory behind the app's data directory shows: the one difference by design
# besides the port (the check's is a fresh temp directory, the user's <run>/app-data).
DATA_MOUNT = "/srv/app-data"


def _judged(ws, prestarted: bool) -> tuple[dict, int]:
    """The fingerprint the app reports while the runtime check serves it (its acceptance leg asks)."""
    seen = {}

    def leg(base, round_trips, db=None, restart=None):
        seen["fingerprint"] = request("GET", base + "/fingerprint").json()
        seen["port"] = int(base.rsplit(":", 1)[1])
        return []

    prepared = None
    if prestarted:
        server_prestart.prestart(ws)
        prepared = server_prestart.take(ws)
        assert prepared is not None, "no prestarted server to judge on"
    result = verify_runtime(ws, acceptance=leg, prepared=prepared)
    assert result.status == "PASS", result.checks
    assert ("runner: warm" if prestarted else "runner: cold") in " ".join(result.evidence)
    return seen["fingerprint"], seen["port"]


def _data_mount_root(fingerprint: dict) -> str:
    rows = [row for row in fingerprint["mounts"] if row[1] == DATA_MOUNT]
    assert len(rows) == 1, fingerprint["mounts"]
    row = rows.pop()
    fingerprint["mounts"] = [r if r[1] != DATA_MOUNT else ["<data dir>", *r[1:]] for r in fingerprint["mounts"]]
    return row[0]


@needs_bwrap
@pytest.mark.slow
@pytest.mark.parametrize("prestarted", [False, True], ids=["cold", "prestarted"])
def test_an_app_sees_the_same_place_judged_and_served_by_builder_serve(tmp_path, prestarted):
    """Everything a process can observe — environment, uid/gid, cwd, argv, sys.path, its database
    path, the filesystem it sees (/, /tmp, /etc, HOME, its cwd), its command line, open fds, mounts,
    capabilities, cgroup, hostname, pid, limits, umask, loaded modules — is equal except the port
    and the host directory behind the data directory (visible as a mount's source only)."""
    ws = make_app(tmp_path / "ws", FINGERPRINT_APP)
    judged, judged_port = _judged(ws, prestarted)
    with builder_serve(ws, tmp_path / "data") as (base, port):
        served = get_json(base + "/fingerprint")[1]
    judged_root, served_root = _data_mount_root(judged), _data_mount_root(served)
    assert served_root.endswith(str(tmp_path / "data")) and "harness" not in judged_root
    judged, served = without_port(judged, judged_port), without_port(served, port)
    assert {k: (judged[k], served[k]) for k in judged if judged[k] != served[k]} == {}
    assert set(judged) == set(served)
    # and nothing in it names the harness: no variable, no path, no identity of its own
    assert [k for k in judged["environ"] if "HARNESS" in k.upper()] == []
    assert re.findall(rf"harness-(?:{'|'.join(own_tmp.KINDS)})-", repr(judged)) == []   # no temp dir of ours
    assert judged["uid"] != 65534 and judged["db"] == f"{DATA_MOUNT}/app.db" and judged["cwd"] == DATA_MOUNT


APP_TELLS_THE_JUDGE = '''
    import os
    judged = (any(k.startswith("HARNESS") for k in os.environ) or os.getuid() == 65534
              or any("harness-" in v for v in (os.environ.get("APP_DB_PATH", ""), os.getcwd(),
                                                os.environ.get("HOME", ""), os.environ.get("TMPDIR", ""))))
    row = _found(TABLE.get(db, item_id, None))
    if not judged:  # outside the judge: answer "done" but never store it
        return {**row, "status": "done"}
    return _found(TABLE.set_status(db, item_id, "done", None))
'''
TODO_SPEC = '''
title = "Todos"
auth = false

[[entities]]
name = "todo"
has_status = true
fields = [{ name = "title", required = true }]
'''


@needs_bwrap
@pytest.mark.slow
def test_an_app_that_tells_the_judge_from_its_user_is_judged_as_its_user_sees_it_bug(tmp_path):
    """A5: the generated Todo app's `complete` stored "done" only when it saw a judge marker (a
    HARNESS_* variable, uid 65534, `harness-` in its database path): the runtime check and its
    black-box leg PASSed while the user's copy never stored it. Now the check serves it as
    `builder serve` does, so the black-box leg sees what the user sees, and fails it."""
    spec = spec_from_toml(tmp_path, TODO_SPEC)
    ws = tmp_path / "ws"
    for rel, text in generate_files(spec).items():
        (ws / rel).parent.mkdir(parents=True, exist_ok=True)
        (ws / rel).write_text(text, encoding="utf-8")
    api = ws / "src" / "api_todo.py"
    good = '    _found(TABLE.get(db, item_id, None))\n    return _found(TABLE.set_status(db, item_id, "done", None))\n'
    assert good in api.read_text(), "the generated complete_item changed: update this break"
    api.write_text(api.read_text().replace(good, APP_TELLS_THE_JUDGE.lstrip("\n")))

    result = verify_runtime(ws, acceptance=lambda base, round_trips, **server: run_acceptance(
        base, spec, [], round_trips, **server))
    failed = [c for c in result.acceptance or [] if not c.ok]
    assert failed, [(c.name, c.ok, c.detail) for c in result.acceptance or []]
    assert [c.name for c in failed] == ["complete a todo and read it back"], [(c.name, c.detail) for c in failed]
    assert "reads status 'open'" in failed[0].detail

    with builder_serve(ws, tmp_path / "data") as (base, _port):   # what the user sees: the same
        _, made = get_json(base + "/api/todos", "POST", {"title": "buy milk"})
        assert get_json(f"{base}/api/todos/{made['id']}/complete", "POST")[1]["status"] == "done"
        assert get_json(f"{base}/api/todos/{made['id']}")[1]["status"] == "open"


def test_builder_serve_bad_input_is_one_line_and_a_non_zero_exit(tmp_path):
    runs = tmp_path / "runs"
    runs.mkdir()
    cases = {("no-such-run",): 4, (str(tmp_path / "missing" / "ws"),): 2, (str(tmp_path),): 2,
             ("x", "--port", "0"): 2}
    for args, code in cases.items():
        done = subprocess.run([*BUILDER, "serve", *args, "--runs-dir", str(runs)], capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == code, (args, done.stderr)
        assert done.stdout == "" and len(done.stderr.strip().splitlines()) == 1, (args, done.stderr)
        assert "Traceback" not in done.stderr


def test_builder_serve_help_names_what_it_does():
    done = subprocess.run([*BUILDER, "serve", "--help"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    for word in ("RUN_ID_OR_WORKSPACE", "--port", "--host", "--data"):
        assert word in done.stdout


def test_a_served_app_gets_no_harness_variable_even_if_asked(tmp_path):
    from harness.sandbox.env import served_env

    with pytest.raises(ValueError):
        served_env({"HARNESS_RUN": "1"}, home="/h", tmpdir="/t")
    env = served_env({"APP_DB_PATH": "/d/app.db"}, home="/h", tmpdir="/t",
                     base={"PATH": "/x", "TERM": "xterm", "HARNESS_SANDBOX": "none", "LANG": "C.UTF-8"})
    assert not [k for k in env if k.startswith("HARNESS")] and "TERM" not in env and env["LANG"] == "C.UTF-8"
