"""The runtime check's prestarted server (harness/speed/server_prestart.py): a real contained
process that imported uvicorn and FastAPI before the check, then runs `python -m uvicorn` with the
check's arguments. Its checks must be those of a cold start; a dead one falls back to cold."""

from __future__ import annotations

import os
import re

import pytest

from harness.speed import server_prestart
from harness.verification.runtime import verify_runtime
from test_runtime import APP, ROUND_TRIP, Step, assert_gone, check, files_in, make_app, server_pid

# What the server process itself sees: `python -m uvicorn` puts its working directory first on
# sys.path and runs uvicorn's __main__; the preload script's own directory must not be visible.
INTERPRETER_VIEW = APP + '''

import sys


@app.get("/interpreter")
def interpreter():
    return {"cwd_on_path": os.getcwd() in sys.path,
            "argv0": "/".join(sys.argv[0].split("/")[-2:]),
            "preload_dir_on_path": any(p.rstrip("/").endswith("harness/verification") for p in sys.path),
            "path_length": len(sys.path)}
'''
STEPS = [*ROUND_TRIP, Step("interpreter", "GET", "/interpreter"), Step("env", "GET", "/env")]


def launched(result) -> str:
    return next(line for line in result.evidence if line.startswith("launched "))


@pytest.fixture(scope="module")
def cold_and_warm(tmp_path_factory):
    """The same app checked cold, then through a prestarted server (OPENAI_API_KEY set for both)."""
    ws = make_app(tmp_path_factory.mktemp("prestart") / "ws", INTERPRETER_VIEW)
    before = files_in(ws)
    with pytest.MonkeyPatch.context() as env:
        env.setenv("OPENAI_API_KEY", "sk-test-not-for-apps")
        cold = verify_runtime(ws, steps=STEPS)
        server_prestart.prestart(ws)
        prepared = server_prestart._PREPARED[os.path.realpath(ws)]
        warm = verify_runtime(ws, steps=STEPS, prepared=server_prestart.take(ws))
    return ws, before, cold, warm, prepared


@pytest.mark.slow
def test_a_prestarted_server_gives_the_checks_of_a_cold_start(cold_and_warm):
    ws, before, cold, warm, prepared = cold_and_warm
    assert (cold.status, warm.status) == ("PASS", "PASS"), (cold.checks, warm.checks)
    assert "runner: cold" in launched(cold) and "runner: warm" in launched(warm)
    shown = re.compile(r"launched (python -m uvicorn src\.main:app --app-dir <workspace> --fd) "
                       r"<socket bound by the harness on 127\.0\.0\.1:\d+>")
    assert shown.match(launched(cold)).group(1) == shown.match(launched(warm)).group(1)  # the real command
    assert [c.name for c in cold.checks] == [c.name for c in warm.checks]
    assert [c.ok for c in cold.checks] == [c.ok for c in warm.checks]
    assert check(cold, "round trip: interpreter").detail.split("→")[1] == \
        check(warm, "round trip: interpreter").detail.split("→")[1]
    seen = check(warm, "round trip: interpreter").detail
    assert '"cwd_on_path":true' in seen and '"argv0":"uvicorn/__main__.py"' in seen
    assert '"preload_dir_on_path":false' in seen
    assert server_pid(warm) == prepared.proc.pid  # the prestarted process served
    assert files_in(ws) == before
    assert not prepared.tmp.exists()  # its private directory (app.db, logs) went with it
    assert_gone(server_pid(warm))


@pytest.mark.slow
def test_secrets_do_not_reach_a_prestarted_server(cold_and_warm):
    _, _, cold, warm, _ = cold_and_warm
    assert '"secret_present":false' in check(warm, "round trip: env").detail
    assert check(cold, "round trip: env").ok and check(warm, "round trip: env").ok


@pytest.mark.slow
def test_a_prestarted_server_that_died_leaves_the_check_cold(tmp_path):
    ws = make_app(tmp_path / "ws")
    server_prestart.prestart(ws)
    prepared = server_prestart._PREPARED[os.path.realpath(ws)]
    prepared.proc.stop(0.1)
    result = verify_runtime(ws, steps=ROUND_TRIP, prepared=server_prestart.take(ws))
    assert result.status == "PASS", result.checks
    assert "runner: cold" in launched(result)
    assert not prepared.tmp.exists()
    assert os.path.realpath(ws) not in server_prestart._PREPARED


def test_an_unused_prestarted_server_is_stopped_and_its_directory_removed(tmp_path):
    ws = make_app(tmp_path / "ws")
    server_prestart.prestart(ws)
    prepared = server_prestart._PREPARED[os.path.realpath(ws)]
    assert prepared.proc.alive()
    server_prestart.stop(ws)
    assert not prepared.proc.alive() and not prepared.tmp.exists()
    assert server_prestart.take(ws) is None  # nothing left to take: the next check starts cold


def test_harness_warm_0_prestarts_no_server(tmp_path, monkeypatch):
    monkeypatch.setenv("HARNESS_WARM", "0")
    ws = make_app(tmp_path / "ws")
    server_prestart.prestart(ws)
    assert server_prestart.take(ws) is None


def test_a_build_checks_its_runtime_on_the_prestarted_server_and_leaves_none_behind(todo_run):
    """The offline Todo build prestarts the server once a task has completed; its runtime check ran on it."""
    store, ctx = todo_run
    runtime = (store.run_dir(ctx.run_id) / "runtime.json").read_text()
    assert "runner: warm" in runtime
    assert not any(str(ctx.workspace) in key for key in server_prestart._PREPARED)


@pytest.mark.parametrize("shadow", ["fastapi.py", "starlette", "pydantic.py"])
def test_a_prestarted_server_is_not_used_when_a_workspace_module_would_shadow_what_it_imported(tmp_path, shadow):
    """#46 (harness/speed/validity.py, prestart_shadowed): a cold start puts the app directory first
    on the path, so a workspace `fastapi.py` is what the app imports; the prestarted server already
    imported the installed one. Such a workspace gets no prestarted server: the check starts cold."""
    ws = make_app(tmp_path / "ws")
    server_prestart.prestart(ws)
    prepared = server_prestart._PREPARED[os.path.realpath(ws)]
    if shadow.endswith(".py"):
        (ws / shadow).write_text("raise ImportError('the workspace module was imported')\n")
    else:
        (ws / shadow).mkdir()
        (ws / shadow / "__init__.py").write_text("")
    assert server_prestart.take(ws) is None
    assert not prepared.proc.alive() and not prepared.tmp.exists()


@pytest.mark.slow
def test_the_restart_runs_on_the_spare_spawned_with_the_prestarted_server(tmp_path):
    """#46: the acceptance leg's restart is served by the spare `take` spawned as it handed the
    prestarted server to the check (same directories, imports done by the restart), not one spawned
    when the leg starts; it gets its port only at the restart, after the first server stopped."""
    ws = make_app(tmp_path / "ws")
    server_prestart.prestart(ws)
    assert server_prestart._PREPARED[os.path.realpath(ws)].spare is None   # not during the tasks
    prepared = server_prestart.take(ws)
    spare = prepared.spare
    assert spare is not None and spare.data == prepared.data and spare.proc.alive()
    seen: dict = {}

    def leg(base, round_trips, db, restart):
        seen["first"] = prepared.proc.pid
        seen["again"] = restart()
        seen["first_alive"] = prepared.proc.alive()
        return []

    result = verify_runtime(ws, steps=ROUND_TRIP, prepared=prepared, acceptance=leg,
                            spare=lambda *_: pytest.fail("a spare was spawned at the leg's start"))
    assert result.status == "PASS", result.checks
    assert seen["again"] and not seen["first_alive"]
    assert any(line.startswith(f"restarted on the same database (pid {spare.proc.pid}, runner: warm)")
               for line in result.evidence), result.evidence
    assert not spare.proc.alive() and not prepared.tmp.exists()


def test_a_taken_server_that_is_discarded_stops_its_spare_too(tmp_path):
    ws = make_app(tmp_path / "ws")
    server_prestart.prestart(ws)
    prepared = server_prestart.take(ws)
    spare = prepared.spare
    assert spare is not None and spare.proc.alive()
    prepared.discard()
    assert not spare.proc.alive() and not prepared.proc.alive()
