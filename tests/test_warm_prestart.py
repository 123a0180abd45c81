"""#19: workers started in the background before they are needed (the run's, the audit's), and
what a warm child no longer pays for (the worker's heap in every gc pass, coverage's origin stack)."""

import json
import os
from pathlib import Path

import pytest

from harness.audit.run import AuditBudget, audit_run, release_audit_workers
from harness.speed.runners import WarmRunner
from harness.speed.warm import workers as warm
from harness.speed.warm_start import prestart_audit_workers
from harness.verification.verifier import run_command, verification_env

INI = "[pytest]\nmarkers =\n    req(id): requirement\n"
GC_FROZEN = '''import gc

import pytest


@pytest.mark.req("REQ-001")
def test_worker_heap_is_frozen():
    assert gc.get_freeze_count() > 0
'''


PRIMED = '''import os

import pytest


@pytest.mark.req("REQ-001")
def test_this_file_was_parsed_by_the_worker(request):
    import sys

    cache = sys.modules["pytest_harness" + ".forgery"]._PARSED
    mine = os.path.join(os.path.abspath(str(request.config.rootpath)), "tests", "test_primed.py")
    assert mine in cache and cache[mine][1] is not None
'''


def small_workspace(tmp_path, body):
    ws = tmp_path / "ws"
    (ws / "tests").mkdir(parents=True)
    (ws / "pytest.ini").write_text(INI)
    (ws / "tests" / "test_a.py").write_text(body)
    return ws


def run(ws, tmp_path, name, run_id=""):
    evidence = tmp_path / "run" / "evidence" / f"{name}.json"
    from harness.speed.runners import WarmRunner

    return run_command("python -m pytest -q tests", ws, task_id="T", evidence_path=evidence, reqs=["REQ-001"],
                       run_id=run_id, evidence_rel=f"evidence/{name}.json", runner=WarmRunner()), evidence


@pytest.fixture
def workers(monkeypatch):
    monkeypatch.setenv(warm.ENV_WARM, "1")
    yield warm._WORKERS
    warm.stop_workers()


def test_prestart_starts_nothing_when_warm_verification_is_off(tmp_path, monkeypatch):
    monkeypatch.setenv(warm.ENV_WARM, "0")
    warm.prestart(tmp_path, verification_env("run_x"))
    assert warm._key(tmp_path, verification_env("run_x")) not in warm._WORKERS


@pytest.fixture(scope="module")
def prestarted(tmp_path_factory):
    """A worker prestarted for a small workspace (GC_FROZEN in tests/test_a.py, PRIMED in
    tests/test_primed.py), then two commands: "first", and "second" after a forging
    tests/conftest.py was added. One worker for the three tests that read it."""
    from types import SimpleNamespace

    from helpers import warm_workers_stopped_after

    tmp = tmp_path_factory.mktemp("prestarted")
    ws = small_workspace(tmp, GC_FROZEN)
    (ws / "tests" / "test_primed.py").write_text(PRIMED)
    with pytest.MonkeyPatch.context() as mp, warm_workers_stopped_after():
        mp.setenv(warm.ENV_WARM, "1")
        warm.prestart(ws, verification_env("run_p"))
        key = warm._key(ws, verification_env("run_p"))
        started = warm._WORKERS[key]
        waited = started._ready is not None  # prestart did not wait for the imports: False
        first, first_doc = run(ws, tmp, "first", run_id="run_p")
        used = warm._WORKERS[key]
        (ws / "tests" / "conftest.py").write_text("import atexit\n")
        second, second_doc = run(ws, tmp, "second", run_id="run_p")
    return SimpleNamespace(started=started, waited=waited, used=used, first=first, second=second,
                           first_doc=json.loads(first_doc.read_text()), second_doc=json.loads(second_doc.read_text()))


@pytest.mark.slow
def test_a_prestarted_worker_serves_the_first_command_warm(prestarted):
    assert prestarted.waited is False  # prestart did not wait for the imports
    result = prestarted.first
    assert (result.runner, result.status) == ("warm", "PASS"), result.stdout + result.stderr
    assert prestarted.used is prestarted.started  # the command used the prestarted worker, none other
    doc = prestarted.first_doc
    assert doc["tests"]["tests/test_a.py::test_worker_heap_is_frozen"]["outcome"] == "passed"


@pytest.mark.slow
def test_a_prestarted_worker_that_died_before_its_first_command_is_replaced(tmp_path, workers):
    ws = small_workspace(tmp_path, GC_FROZEN)
    warm.prestart(ws, verification_env("run_d"))
    key = warm._key(ws, verification_env("run_d"))
    dead = workers[key]
    dead.proc.stop()
    result, _ = run(ws, tmp_path, "after", run_id="run_d")
    assert (result.runner, result.status) == ("warm", "PASS"), result.stdout + result.stderr
    assert workers[key] is not dead


@pytest.mark.slow
def test_cold_children_have_no_frozen_heap_so_the_same_test_fails_cold(tmp_path, monkeypatch):
    """The freeze is the worker's: the probe above really tells a warm child from a cold one."""
    monkeypatch.setenv(warm.ENV_WARM, "0")
    ws = small_workspace(tmp_path, GC_FROZEN)
    result, _ = run(ws, tmp_path, "cold")
    assert (result.runner, result.status) == ("cold", "FAIL")


def test_coverage_start_skips_the_origin_stack_and_puts_it_back(tmp_path):
    from coverage import collector

    from pytest_harness.coverage_map import PhaseCoverage

    real = collector.short_stack
    mod = tmp_path / "mod.py"
    mod.write_text("def f(x):\n    y = x + 1\n    return y\n")
    seen = []
    collector.short_stack = lambda *a, **k: seen.append("called") or ""
    try:
        cov = PhaseCoverage(tmp_path)
        cov.start()
        assert collector.short_stack is not real  # restored to what it was before start()
        import importlib.util

        spec = importlib.util.spec_from_file_location("mod_under_cov", mod)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        cov.enter("t::one")
        module.f(1)
        cov.leave()
        lines = cov.stop()
    finally:
        collector.short_stack = real
    assert seen == []  # the collector was created without walking the stack
    assert lines == {"t::one": {"mod.py": {2, 3}}}  # and measurement is unchanged


@pytest.mark.slow
def test_the_audit_uses_the_worker_prestarted_for_its_scratch_copy(fresh_todo_run, monkeypatch, worker_starts):
    store, run_id = fresh_todo_run
    monkeypatch.setenv(warm.ENV_WARM, "1")
    store.artifact_path(run_id, "audit").unlink()
    created = worker_starts
    monkeypatch.setenv("HARNESS_AUDIT_LANES", "2")
    try:
        prestart_audit_workers(store, run_id)
        scratch = store.audit_scratch(run_id)
        assert sorted(p.name for p in scratch.iterdir()) == ["0", "1"]  # one empty directory per lane
        assert not any(any(lane.iterdir()) for lane in scratch.iterdir())
        doc = audit_run(store, store.load(run_id), AuditBudget(max_mutants=2), say=lambda _line: None,
                        runner=WarmRunner())
    finally:
        warm.stop_workers()
    lane0 = store.audit_scratch(run_id) / "0"
    assert created == [lane0]  # lane 0's prestarted worker and its clone (lane 1) ran the mutants; no other one started
    assert doc["lanes"] == 2
    assert all(r["killed"] >= 1 for r in doc["requirements"].values() if not r["skipped"]), doc["requirements"]
    assert not store.audit_scratch(run_id).exists()


@pytest.mark.slow
def test_an_audit_worker_the_run_never_used_is_stopped_and_its_directory_removed(fresh_todo_run, monkeypatch):
    store, run_id = fresh_todo_run
    monkeypatch.setenv(warm.ENV_WARM, "1")
    prestart_audit_workers(store, run_id)
    scratch = store.audit_scratch(run_id)
    lanes = sorted(scratch.iterdir())
    env = verification_env(run_id)
    first = warm._WORKERS[warm._key(lanes[0], env)]  # the first lane's worker; the others bound beside it
    assert all(warm.serves(lane, env) for lane in lanes[1:]) and first.also == [Path(os.path.realpath(lane)) for lane in lanes[1:]]
    release_audit_workers(store, run_id, WarmRunner())
    assert not scratch.exists()
    assert not first.alive()
    assert not any(warm._key(lane, env) in warm._WORKERS for lane in lanes)


def _ctx(store, run_id):
    from harness.orchestration.context import RunContext
    from harness.providers.mock import MockProvider

    return RunContext(store=store, state=store.load(run_id), llm=MockProvider(), say=lambda _line: None)


def _beside(ctx, task):
    """The speed door's hook around `task`'s session, without the session."""
    from harness.orchestration.steps import acceptance_for, runtime_inputs

    inputs = runtime_inputs(ctx)
    ctx.speed.beside_task(ctx, task, inputs, acceptance_for(ctx, inputs[0], inputs[1]))
    ctx.speed.task_verified()


@pytest.mark.slow
def test_a_runtime_check_beside_the_last_task_is_used_only_while_the_files_are_unchanged(fresh_todo_run):
    store, run_id = fresh_todo_run
    ctx = _ctx(store, run_id)
    last = ctx.state.plan.tasks[-1]
    try:
        _beside(ctx, last)
        assert ctx.speed.runtime_ahead is not None
        adopted = ctx.speed.take_runtime(ctx)
        assert adopted is not None and adopted.status == "PASS"
        assert any(f"beside {last.id}'s verification on the final bytes" in line for line in adopted.evidence)
        assert ctx.speed.runtime_ahead is None  # taken once

        _beside(ctx, last)
        ctx.speed.runtime_ahead.wait()
        main = store.workspace(run_id) / "src" / "main.py"
        main.write_text(main.read_text() + "\n# changed after the check started\n")
        assert ctx.speed.take_runtime(ctx) is None  # VERIFY runs the check again on the new files
    finally:
        ctx.speed.cancel(ctx)


@pytest.mark.slow
def test_the_runtime_check_starts_early_only_when_every_other_task_is_completed(fresh_todo_run):
    from harness.models.enums import TaskStatus

    store, run_id = fresh_todo_run
    ctx = _ctx(store, run_id)
    first, last = ctx.state.plan.tasks[0], ctx.state.plan.tasks[-1]
    try:
        ctx.state.task_results[first.id] = TaskStatus.PENDING
        _beside(ctx, last)
        assert ctx.speed.runtime_ahead is None  # a task is still to be built: these are not the final files
        ctx.state.task_results[first.id] = TaskStatus.COMPLETED
        _beside(ctx, last)
        assert ctx.speed.runtime_ahead is not None
    finally:
        ctx.speed.cancel(ctx)
    assert ctx.speed.runtime_ahead is None


@pytest.mark.slow
def test_the_build_uses_the_runtime_check_run_beside_its_last_task(todo_run):
    """The check starts beside the plan's last task (the offline plan's acceptance tests) and is
    adopted because it ran the final bytes (until #46 it started beside the app task before and was
    adopted although tests/test_acceptance.py came after it)."""
    store, ctx = todo_run
    last = ctx.state.plan.tasks[-1]
    assert ctx.state.runtime.status == "PASS"
    assert ctx.state.runtime.evidence[0].startswith("probes: ")
    assert any(f"run beside {last.id}'s verification on the final bytes" in line for line in ctx.state.runtime.evidence)
    runtime_doc = json.loads(store.artifact_path(ctx.run_id, "runtime").read_text())
    assert runtime_doc["evidence"] == ctx.state.runtime.evidence


def test_an_empty_scratch_directory_left_by_a_killed_run_is_removed_without_blaming_an_audit(tmp_path):
    """Regression: a run SIGKILLed after runtime_completed left the prestarted audit worker's empty
    directory, and `builder resume` said an interrupted audit had left its workspace behind."""
    from harness.audit.run import clear_stale_scratch
    from harness.state.store import RunStore

    store = RunStore(tmp_path / "runs")
    state = store.create_run("Build a Simple Todo App with add/list/complete")
    scratch = store.audit_scratch(state.run_id)
    scratch.mkdir()
    assert clear_stale_scratch(store, state.run_id) is False and not scratch.exists()
    (scratch / "src").mkdir(parents=True)
    assert clear_stale_scratch(store, state.run_id) is True and not scratch.exists()


def test_mutant_children_are_forked_with_the_session_heap_frozen():
    import gc
    import os

    from pytest_harness.mutation_runner import _fork

    try:
        pid = _fork()
        if pid == 0:  # pragma: no cover - the child leaves through os._exit
            os._exit(0 if gc.get_freeze_count() > 0 else 1)
        _, status = os.waitpid(pid, 0)
    finally:
        gc.unfreeze()
    assert os.waitstatus_to_exitcode(status) == 0


def test_the_forgery_scan_uses_primed_trees_only_for_unchanged_sources(tmp_path, monkeypatch):
    from pytest_harness import forgery
    from pytest_harness.snapshot import snapshot_files

    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.py").write_text("x = 1\n")
    (tmp_path / "conftest.py").write_text("def pytest_runtest_makereport(item, call):\n    pass\n")
    monkeypatch.setattr(forgery, "_PARSED", {})
    assert forgery.prime(tmp_path) == 2
    assert forgery.prime(tmp_path) == 0  # nothing changed: nothing parsed again
    calls = []
    real = forgery.parse
    monkeypatch.setattr(forgery, "parse", lambda source: calls.append(source) or real(source))
    files = snapshot_files(tmp_path)["files"]
    first = forgery.scan_files(tmp_path, files)
    assert calls == [] and [f["what"] for f in first] == ["defines hook pytest_runtest_makereport"]
    (tmp_path / "src" / "a.py").write_text("import atexit\n")  # changed after the prime
    second = forgery.scan_files(tmp_path, files)
    assert calls == ["import atexit\n"]  # parsed anew, never the stale tree
    assert {f["what"] for f in second} == {"defines hook pytest_runtest_makereport", "imports atexit"}
    (tmp_path / "conftest.py").unlink()
    forgery.prime(tmp_path)
    assert sorted(forgery._PARSED) == [str(tmp_path / "src" / "a.py")]


def test_primed_findings_and_check_sites_are_used_only_for_unchanged_sources(tmp_path, monkeypatch):
    """The worker's prime also scans each module and finds its check sites once (they were redone
    by every session: ~0.2 s at 20 entities); a session uses them only for the same source."""
    from pytest_harness import forgery, measure
    from pytest_harness.snapshot import snapshot_files

    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_a.py").write_text("def test_a():\n    assert 1 + 1 == 2\n")
    (tmp_path / "tests" / "conftest.py").write_text("import atexit\n")
    files = snapshot_files(tmp_path)["files"]
    cold_sites = measure.SiteCache(tmp_path)
    cold = forgery.scan_files(tmp_path, files, on_tree=cold_sites.seed)  # nothing primed yet
    monkeypatch.setattr(forgery, "_PARSED", {})
    monkeypatch.setattr(measure, "_PRIMED", {})
    assert forgery.prime(tmp_path) == 2
    scans, site_scans = [], []
    real_scan, real_sites = forgery.scan_tree, measure.sites_in_tree
    monkeypatch.setattr(forgery, "scan_tree", lambda rel, tree: scans.append(rel) or real_scan(rel, tree))
    monkeypatch.setattr(measure, "sites_in_tree", lambda tree: site_scans.append(tree) or real_sites(tree))
    warm_sites = measure.SiteCache(tmp_path)
    warm = forgery.scan_files(tmp_path, files, on_tree=warm_sites.seed)
    assert (scans, site_scans) == ([], [])
    assert warm == cold and [f["what"] for f in warm] == ["imports atexit"]
    assert warm_sites.sites("tests/test_a.py") == cold_sites.sites("tests/test_a.py") != []
    (tmp_path / "tests" / "test_a.py").write_text("import atexit\n\n\ndef test_a():\n    assert True\n")
    changed_sites = measure.SiteCache(tmp_path)
    changed = forgery.scan_files(tmp_path, files, on_tree=changed_sites.seed)
    assert scans == ["tests/test_a.py"] and len(site_scans) == 1  # only the changed file, anew
    assert [f["file"] for f in changed] == ["tests/conftest.py", "tests/test_a.py"]
    assert [s.fake for s in changed_sites.sites("tests/test_a.py")] != [s.fake for s in warm_sites.sites("tests/test_a.py")]


@pytest.mark.slow
def test_a_forging_file_added_between_warm_sessions_is_found_by_the_next_one(prestarted):
    assert (prestarted.first.runner, prestarted.second.runner) == ("warm", "warm")
    first, second = ([(f["file"], f["what"]) for f in doc["forgery"]]
                     for doc in (prestarted.first_doc, prestarted.second_doc))
    assert first == [("tests/test_primed.py", "reaches into the harness plugin (pytest_harness)")]  # the probe's own
    assert sorted(second) == sorted(first + [("tests/conftest.py", "imports atexit")])


@pytest.mark.slow
def test_a_warm_evidence_session_finds_its_workspace_modules_parsed_by_the_worker(prestarted):
    result = prestarted.first
    assert (result.runner, result.status) == ("warm", "PASS"), result.stdout + result.stderr
    assert prestarted.first_doc["tests"]["tests/test_primed.py::test_this_file_was_parsed_by_the_worker"]["outcome"] == "passed"


@pytest.mark.slow
def test_the_worker_starts_before_the_spec_stage_and_a_turned_down_request_stops_it(tmp_path, monkeypatch,
                                                                                    worker_starts):
    """#46: the worker used to start after SPEC, so the first task's session waited for the spec
    stage's time plus the worker's imports. It now starts as the run begins: a request the spec
    stage turns down did start one (that is the proof it starts before SPEC), and it is stopped
    when the run ends, so nothing of it is left running or registered."""
    from harness.cli import main

    monkeypatch.setenv(warm.ENV_WARM, "1")
    created = worker_starts
    assert main(["new", "Build a 3D racing game", "--runs-dir", str(tmp_path), "--run-id", "r1"]) == 1
    assert [Path(ws).parent.name for ws in created] == ["r1"]
    assert not any(Path(root).parent.name == "r1" for root, _env in warm._WORKERS)  # stopped with the run
    from harness.state.store import RunStore

    assert not RunStore(tmp_path).audit_scratch("r1").exists()  # the lanes it bound are gone too
    assert main(["new", "Build a Simple Todo App with add/list/complete", "--runs-dir", str(tmp_path),
                 "--run-id", "r2", "--no-audit"]) == 0
    assert [Path(ws).parent.name for ws in created] == ["r1", "r2"]  # one worker each, no other one
