"""Shared fixtures for the harness's own tests (offline, fast, real subprocesses)."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

# Bytecode caches for the suite's own code. With PYTHONDONTWRITEBYTECODE=1 in the shell (as on this
# machine) no process of the suite ever cached a module: every xdist worker compiled and
# assertion-rewrote every test module from source, and every `builder`, harness subprocess and
# sandboxed worker compiled the harness and the plugin again (`pytest --collect-only -n 0`:
# 6.7-7.5 s with no cache against 2.3-2.5 s with one, 2026-12-03). The suite writes them (in the
# checkout's __pycache__ directories, which .gitignore covers; the sandbox's host is read-only, so a
# sandboxed process only reads what the suite wrote). Generated workspaces stay clean: the harness
# gives verification, the runtime check and the audit PYTHONDONTWRITEBYTECODE=1 itself
# (tests/test_verifier.py, tests/test_runtime.py check it).
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
# tests/ is on pyproject's pythonpath, which pytest drops when it takes its rootdir from a path
# argument (`pytest --harness-run ID --harness-runs-dir /elsewhere` run here): put it there anyway.
if str(Path(__file__).resolve().parent / "tests") not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parent / "tests"))
from fake_openai_server import fake_openai_server  # noqa: E402,F401  (fixture)

# pytester's in-process runs drop modules first imported inside them; coverage's C tracer cannot be
# imported twice in one process, so it is loaded once here, outside every in-process run.
import coverage  # noqa: E402,F401

from helpers import SEED as SEED_REQUEST, TODO as TODO_REQUEST, warm_workers_stopped_after  # noqa: E402
from shared_fixtures import built_once, changed_since_built  # noqa: E402

# A suite started as a background job of a non-interactive shell (`pytest -q &`, nohup) inherits
# SIGINT ignored, and so did every `builder` the tests start: the Ctrl+C tests then saw a build
# finish (exit 0, not 130). A handled signal is reset to its default in an exec'd child.
import signal  # noqa: E402

if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# The slow lane: modules whose every test builds an app, starts servers or drives the CLI in a
# subprocess, and every test that needs a shared build (SLOW_FIXTURES).
# Other tests of a second or more carry @pytest.mark.slow themselves.
SLOW_MODULES = frozenset({
    "test_resume", "test_resume_errors", "test_inject_cli", "test_trace", "test_repair", "test_capabilities",
    "test_demo_run", "test_benchmarks", "test_llm_e2e", "test_review_runtime", "test_offline_apps",
    "test_containment", "test_verifier", "test_runtime",
})
SLOW_FIXTURES = frozenset({"todo_run", "fresh_todo_run", "crashed_todo_run", "resumed_crashed_run", "seed_run",
                           "repaired_inject_run", "looped_inject_run"})


# pytest's default basetemp lives in /tmp/pytest-of-<user>, shared by every pytest run of that user
# (other checkouts, generated apps, other tools), numbered and pruned by whichever run ends last.
# The shared Todo build runs for minutes inside it; a workspace pruned mid-build showed up as
# `cannot import name 'models' from 'src'` or a failed chdir into the workspace. Each session of
# this suite therefore gets its own mkdtemp basetemp (xdist workers get theirs under it), kept only
# when the session failed.
PRIVATE_BASETEMP_PREFIX = "abh-tests-"


# Assertion rewriting is for the test modules. pytest also marks for it every module of every
# distribution with a pytest11 entry point — this package's own (harness, pytest_harness: the
# editable install's egg-info lists them), hypothesis, anyio — and, without a bytecode cache (a
# clean clone, or PYTHONDONTWRITEBYTECODE=1 as on this machine), rewrites each from source in every
# session: ~300 modules, ~2/3 of the collection's CPU here (`--collect-only`: 9.4 s user vs 2.9 s
# with --assert=plain, 2026-12-01 load 5.7). Their own asserts are invariants, not test checks,
# so they are imported as plain modules. Modules imported before pytest_configure (the plugins)
# are rewritten as before.
NOT_TEST_CODE = ("harness", "pytest_harness", "hypothesis", "anyio")


def _rewrite_only_test_code(config) -> None:
    marked = getattr(getattr(config.pluginmanager, "rewrite_hook", None), "_must_rewrite", None)
    if isinstance(marked, set):  # pytest's AssertionRewritingHook (absent with --assert=plain)
        marked.difference_update(NOT_TEST_CODE)


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    """Before the tmpdir plugin reads --basetemp: a private one unless the caller gave one."""
    if config.option.basetemp is None and not hasattr(config, "workerinput"):
        config.option.basetemp = tempfile.mkdtemp(prefix=PRIVATE_BASETEMP_PREFIX)
        config.stash[OWN_BASETEMP] = config.option.basetemp
    _rewrite_only_test_code(config)


OWN_BASETEMP = pytest.StashKey[str]()
_FAILED = pytest.StashKey[bool]()


def pytest_sessionfinish(session, exitstatus):
    session.config.stash[_FAILED] = exitstatus not in (0, 5)


def pytest_unconfigure(config):
    own = config.stash.get(OWN_BASETEMP, None)
    if own is not None and not config.stash.get(_FAILED, True):
        shutil.rmtree(own, ignore_errors=True)


def pytest_collection_modifyitems(config, items):
    """Runs after collection: put the tests of SLOW_MODULES and of SLOW_FIXTURES in the slow lane."""
    for item in items:
        module = getattr(item, "module", None)
        if (module is not None and module.__name__ in SLOW_MODULES) or SLOW_FIXTURES & set(item.fixturenames):
            item.add_marker(pytest.mark.slow)


OFFLINE_ENV_SCRUBBED = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_MODEL", "HARNESS_CRASH_AT",
                        "HARNESS_MAX_LLM_CALLS", "HARNESS_MAX_TOKENS", "HARNESS_MAX_MINUTES", "HARNESS_RUNS_DIR")


@pytest.fixture(autouse=True)
def _offline_env(monkeypatch):
    """No test sees a real key or endpoint from the developer's shell."""
    for name in OFFLINE_ENV_SCRUBBED:
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(autouse=True)
def _warm_workers_end_with_their_test():
    """A warm verification worker that a test's in-process verification started ends with that test,
    not at session end (tests/helpers.py: warm_workers_stopped_after)."""
    with warm_workers_stopped_after():
        yield


@pytest.fixture
def worker_starts(monkeypatch):
    """The workspace of every WarmWorker started (not a clone: those fork inside a running worker)."""
    created = []
    from harness.speed.warm import workers as warm

    real_init = warm.WarmWorker.__init__

    def counting(self, *args, **kwargs):
        created.append(args[0])
        real_init(self, *args, **kwargs)

    monkeypatch.setattr(warm.WarmWorker, "__init__", counting)
    return created


@pytest.fixture
def runs_dir(tmp_path) -> Path:
    return tmp_path / "runs"


# What a RunContext holds that does not pickle (or belongs to the process that built the run).
CTX_NOT_SAVED = ("store", "state", "llm", "say", "speed")


def _build_todo_run(directory: Path):
    from harness.orchestration.pipeline import new_run
    from harness.providers.mock import MockProvider
    from harness.state.store import RunStore

    store = RunStore(directory / "runs")
    return store, new_run(store, TODO_REQUEST, MockProvider(), say=lambda _line: None)


def _ctx_saved(value):
    """(store, ctx) as it pickles: the context's recorded fields, not its provider or callback."""
    import dataclasses

    store, ctx = value
    return store, ctx.run_id, {f.name: getattr(ctx, f.name) for f in dataclasses.fields(ctx)
                               if f.name not in CTX_NOT_SAVED}


def _ctx_loaded(saved):
    from harness.orchestration.context import RunContext
    from harness.providers.mock import MockProvider

    store, run_id, fields = saved
    return store, RunContext(store=store, state=store.load(run_id), llm=MockProvider(), say=lambda _line: None,
                             **fields)


def _read_only(tmp_path_factory, name: str) -> None:
    changed = changed_since_built(tmp_path_factory, name)
    assert not changed, f"a test modified the shared fixture {name} (take a private copy): {changed[:8]}"


@pytest.fixture(scope="session")
def todo_run(tmp_path_factory):
    """One real offline Todo build shared by read-only tests: (store, ctx); built once per session,
    whatever the number of xdist workers (tests/shared_fixtures.py)."""
    yield built_once(tmp_path_factory, "shared", _build_todo_run, _ctx_saved, _ctx_loaded)
    _read_only(tmp_path_factory, "shared")


def _build_seed_run(directory: Path):
    from harness.orchestration.pipeline import new_run
    from harness.providers.mock import MockProvider
    from harness.state.store import RunStore

    store = RunStore(directory / "runs")
    return store, new_run(store, SEED_REQUEST, MockProvider(), say=lambda _line: None)


@pytest.fixture(scope="session")
def seed_run(tmp_path_factory):
    """One real offline build of the seed request (auth, projects, tasks, dashboard) with the
    mutation audit, shared read-only: (store, ctx). Its build is tests/test_offline_apps.py's test;
    tests/test_typed_apps.py reads the generated tests' outcomes from its evidence;
    tests/test_speed_switch.py compares it, the build with speed on, with a plain build."""
    yield built_once(tmp_path_factory, "seed", _build_seed_run, _ctx_saved, _ctx_loaded)
    _read_only(tmp_path_factory, "seed")


@pytest.fixture
def fresh_todo_run(tmp_path, todo_run):
    """A private copy of the finished Todo run that a test may modify: (store, run_id)."""
    import shutil

    from harness.state.store import RunStore

    store, ctx = todo_run
    target = tmp_path / "runs"
    shutil.copytree(store.run_dir(ctx.run_id), target / ctx.run_id)
    return RunStore(target), ctx.run_id


def _scrubbed_inject(tmp_path_factory, todo_run, name: str, *inject_args: str):
    """run_copies.injected_copy with the environment _offline_env gives a test (session fixtures run
    before it) and the warm workers it starts stopped afterwards; once per session."""
    from run_copies import injected_copy

    def build(directory: Path):
        with pytest.MonkeyPatch.context() as env, warm_workers_stopped_after():
            for var in OFFLINE_ENV_SCRUBBED:
                env.delenv(var, raising=False)
            return injected_copy(todo_run, directory / "runs", *inject_args)

    return built_once(tmp_path_factory, name, build)


@pytest.fixture(scope="session")
def repaired_inject_run(tmp_path_factory, todo_run):
    """`builder inject <todo run> syntax-error --file src/main.py` on a private copy of the shared Todo
    run, repaired by the generator (TASK-004 COMPLETED again, review PASS), shared read-only by
    test_inject_cli.py and test_capabilities.py (they asserted the same inject twice): see
    run_copies.injected_copy for what it holds."""
    yield _scrubbed_inject(tmp_path_factory, todo_run, "inject_repaired", "syntax-error", "--file", "src/main.py")
    _read_only(tmp_path_factory, "inject_repaired")


@pytest.fixture(scope="session")
def looped_inject_run(tmp_path_factory, todo_run):
    """The same inject with --no-op-repair: LOOP DETECTED, TASK-004 FAILED, TASK-005 BLOCKED, review
    FAIL; shared read-only by test_inject_cli.py, test_capabilities.py and test_report_page.py (which
    renders a copy of it)."""
    yield _scrubbed_inject(tmp_path_factory, todo_run, "inject_looped", "syntax-error", "--file", "src/main.py",
                           "--no-op-repair")
    _read_only(tmp_path_factory, "inject_looped")


@pytest.fixture(scope="session")
def crashed_todo_run(tmp_path_factory):
    """One real `builder new` subprocess of the Todo request SIGKILLed by HARNESS_CRASH_AT right after
    TASK-002's task_completed checkpoint (its stale run.lock left behind), shared by the crash/resume
    tests, which resume or damage private copies (`shutil.copytree(crashed_todo_run.run, ...)`) and
    never this directory: .run (runs/crashy), .returncode, .pid and .stdout of the killed builder."""
    yield built_once(tmp_path_factory, "crashed", _crash_a_todo_build)
    _read_only(tmp_path_factory, "crashed")


def _crash_a_todo_build(directory: Path):
    import subprocess
    from types import SimpleNamespace

    from helpers import builder_argv, clean_env

    runs = directory / "runs"
    new = subprocess.Popen(builder_argv("new", TODO_REQUEST, "--runs-dir", runs, "--run-id", "crashy"),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           env=clean_env({"HARNESS_CRASH_AT": "task_completed:TASK-002"}))
    out, err = new.communicate(timeout=300)
    return SimpleNamespace(run=runs / "crashy", returncode=new.returncode, pid=new.pid, stdout=out, stderr=err)


@pytest.fixture(scope="session")
def resumed_crashed_run(tmp_path_factory, crashed_todo_run):
    """Scenario A of the crash tests (tests/test_resume.py), shared with tests/test_capabilities.py: a
    private copy of `crashed_todo_run` finished by a real `builder resume` while a second `builder
    resume` is refused. .before/.after are resume_helpers.snapshot()s around it; .new the killed
    builder (returncode, pid), .new_out its stdout; .first/.out/.err the resume, .second the refused one."""
    import subprocess
    from types import SimpleNamespace

    from resume_helpers import builder, builder_argv, clean_env, snapshot

    runs = tmp_path_factory.mktemp("crash_a") / "runs"
    shutil.copytree(crashed_todo_run.run, runs / "crashy")
    run = runs / "crashy"
    before = snapshot(run)
    lock_text = (run / "run.lock").read_text() if (run / "run.lock").exists() else None
    # --no-audit: nothing here asserts on the audit (test_audit resumes a copy into its audit)
    first = subprocess.Popen(builder_argv("resume", "crashy", "--runs-dir", runs, "--no-audit"),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=clean_env())
    first_line = first.stdout.readline()  # printed while the first resume holds the run lock
    second = builder("resume", "crashy", "--runs-dir", runs)
    rest, first_err = first.communicate(timeout=300)
    return SimpleNamespace(run=run, new=SimpleNamespace(returncode=crashed_todo_run.returncode, pid=crashed_todo_run.pid),
                           new_out=crashed_todo_run.stdout, before=before, lock_text=lock_text, first=first,
                           out=first_line + rest, err=first_err, second=second, after=snapshot(run))



# wt20b (#19): a copy of the shared Todo run audited once per session by `builder audit --max-mutants 3`,
# read by tests/test_audit.py and tests/test_audit_trust.py (tests/judged_copies.py: audited_copy).
# Read-only: a test that modifies a run takes fresh_todo_run.
@pytest.fixture(scope="session")
def audited_todo_copy(todo_run, tmp_path_factory):
    from judged_copies import audited_copy

    yield built_once(tmp_path_factory, "audited", lambda directory: audited_copy(todo_run, directory))
    _read_only(tmp_path_factory, "audited")

