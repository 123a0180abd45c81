"""pytest plugin: the `req` marker, per-requirement evidence JSON and `--harness-run` re-verification.

Inert by default: it only registers the marker and options. `--harness-evidence=PATH` (or
HARNESS_EVIDENCE_PATH) registers a `Recorder` that writes the evidence document atomically at
session end. Assertions are counted only when the ini `enable_assertion_pass_hook` is true and
asserts are rewritten; otherwise every test's `assertions` is null. Asserts in modules pytest does
not rewrite (plain helpers) and `pytest.raises` checks are not counted.
"""

from __future__ import annotations

import os
import platform
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from pytest_harness import __version__, evidence
from pytest_harness.snapshot import snapshot_files

MARKER_DOC = "req(id, ...): requirement(s) this test proves"
ENV_EVIDENCE = "HARNESS_EVIDENCE_PATH"
ENV_REQS = "HARNESS_REQS"
ENV_RUN_ID = "HARNESS_RUN_ID"
ENV_RUNS_DIR = "HARNESS_RUNS_DIR"
DEFAULT_RUNS_DIR = "runs"
_NO_WALK = frozenset({".git", ".venv", "venv", "node_modules", ".hypothesis", ".pytest_cache"})


@dataclass
class HarnessState:
    """Everything recorded during one evidence session (kept in `config.stash`)."""

    evidence_path: Path
    expected: list[str] | None
    run_id: str | None
    count_assertions: bool
    started: float = 0.0
    collected: int = 0
    snapshot: dict = field(default_factory=dict)
    tests: dict[str, dict] = field(default_factory=dict)
    assertions: dict[str, int] = field(default_factory=dict)
    marker_errors: list[dict] = field(default_factory=list)
    collection_errors: list[dict] = field(default_factory=list)
    gate: dict | None = None
    write_error: str | None = None


STATE_KEY = pytest.StashKey[HarnessState]()


def _first(cli_value: str | None, env_name: str) -> str | None:
    """CLI flag beats environment variable; blank means not given."""
    value = cli_value if cli_value is not None else os.environ.get(env_name)
    return value if value else None


def _counting_assertions(config: pytest.Config, namespace: object) -> bool:
    return getattr(namespace, "assertmode", "rewrite") == "rewrite" and bool(
        config.getini("enable_assertion_pass_hook"))


def has_rewritten_pycs(root: Path) -> bool:
    """True when `root` holds pycs cached by pytest's assertion rewriter (possibly without the hook)."""
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in _NO_WALK]
        if Path(dirpath).name == "__pycache__" and any("-pytest-" in name for name in filenames):
            return True
    return False


def _isolate_pycache(config: pytest.Config) -> None:
    """Point bytecode caches at a fresh temp dir for this session, restored at cleanup."""
    previous = sys.pycache_prefix
    tmp = tempfile.mkdtemp(prefix="harness-pyc-")
    sys.pycache_prefix = tmp

    def restore() -> None:
        sys.pycache_prefix = previous
        shutil.rmtree(tmp, ignore_errors=True)

    config.add_cleanup(restore)


def _expected_ids(config: pytest.Config) -> list[str] | None:
    cli = config.getoption("harness_reqs")
    source = "--harness-reqs" if cli is not None else ENV_REQS
    try:
        return evidence.parse_expected(_first(cli, ENV_REQS))
    except ValueError as err:
        raise pytest.UsageError(f"{source}: {err}") from None


def _take_snapshot(root: Path) -> dict:
    try:
        return snapshot_files(root)
    except OSError as err:
        return {"files": {}, "digest": None, "error": str(err)}


def write_atomic(path: Path, text: str) -> None:
    """Write `text` to `path` via a temp file in the same directory and os.replace."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.chmod(tmp, 0o644)  # mkstemp's 0600 would hide the evidence from other readers
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def pytest_addoption(parser: pytest.Parser) -> None:
    """Runs at startup: register the harness options (all default to None = not given)."""
    group = parser.getgroup("harness", "App-Builder Harness requirement evidence")
    group.addoption("--harness-evidence", dest="harness_evidence", metavar="PATH", default=None,
                    help=f"write requirement evidence JSON to PATH (env {ENV_EVIDENCE})")
    group.addoption("--harness-reqs", dest="harness_reqs", metavar="IDS", default=None,
                    help=f"comma-separated expected requirement ids, e.g. REQ-001,REQ-002 (env {ENV_REQS})")
    group.addoption("--harness-run-id", dest="harness_run_id", metavar="RUN_ID", default=None,
                    help=f"run id recorded in the evidence (env {ENV_RUN_ID})")
    group.addoption("--harness-run", dest="harness_run", metavar="RUN_ID", default=None,
                    help="re-verify the stored run's workspace in a subprocess instead of collecting here")
    group.addoption("--harness-runs-dir", dest="harness_runs_dir", metavar="DIR", default=None,
                    help=f'runs directory for --harness-run (env {ENV_RUNS_DIR}, default "{DEFAULT_RUNS_DIR}")')


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config: pytest.Config) -> None:
    """Runs before conftests are imported: fresh bytecode when evidence counts assertions."""
    namespace = early_config.known_args_namespace
    if not (_first(getattr(namespace, "harness_evidence", None), ENV_EVIDENCE)
            and _counting_assertions(early_config, namespace)):
        return
    # pytest reuses a cached rewritten pyc even under PYTHONDONTWRITEBYTECODE; one written
    # without the assertion-pass hook would make every test look weak. Fresh caches cost
    # recompiling later imports, so pay only when such pycs (or a custom prefix) exist.
    if sys.pycache_prefix or has_rewritten_pycs(early_config.rootpath):
        _isolate_pycache(early_config)


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> int | None:
    """Runs before the session: `--harness-run ID` delegates to the re-verifier and returns its exit code."""
    run_id = config.getoption("harness_run")
    if run_id is None:
        return None
    runs_dir = _first(config.getoption("harness_runs_dir"), ENV_RUNS_DIR) or DEFAULT_RUNS_DIR
    # Lazy: the plugin must load in generated workspaces where only pytest is installed.
    try:
        from harness.errors import HarnessError
        from harness.verification.reverify import reverify_run
    except ImportError as err:
        raise pytest.UsageError(f"--harness-run needs the app-builder-harness package: {err}") from None

    try:
        return reverify_run(run_id, Path(config.invocation_params.dir, runs_dir))
    except HarnessError as err:
        sys.stderr.write(f"ERROR: {err}\n")
        return err.exit_code


def pytest_configure(config: pytest.Config) -> None:
    """Runs once after option parsing: register `req`; start recording when evidence is requested."""
    config.addinivalue_line("markers", MARKER_DOC)
    path = _first(config.getoption("harness_evidence"), ENV_EVIDENCE)
    if path is None:
        return
    config.stash[STATE_KEY] = HarnessState(
        evidence_path=Path(config.invocation_params.dir, path),
        expected=_expected_ids(config),
        run_id=_first(config.getoption("harness_run_id"), ENV_RUN_ID),
        count_assertions=_counting_assertions(config, config.option),
    )
    config.pluginmanager.register(Recorder(config), "harness-recorder")


class Recorder:
    """Evidence hooks, registered only while evidence is requested; state lives in config.stash."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config

    @property
    def state(self) -> HarnessState:
        return self.config.stash[STATE_KEY]

    def _link(self, item: pytest.Item) -> list[str]:
        ids: list[str] = []
        for mark in item.iter_markers(name="req"):
            found, errors = evidence.check_marker(item.nodeid, mark.args, mark.kwargs)
            ids += found
            self.state.marker_errors += errors
        return ids

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        """Runs before collection: start the clock and hash the workspace as the tests will find it."""
        self.state.started = time.perf_counter()
        self.state.snapshot = _take_snapshot(session.config.rootpath)

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        """Runs after each collector: remember modules that failed to import or collect."""
        if report.failed:
            self.state.collection_errors.append(
                {"nodeid": report.nodeid, "failure": evidence.failure_text(report.longreprtext)})

    def pytest_deselected(self, items: list[pytest.Item]) -> None:
        """Runs when -k/-m deselects items: linked ones stay in the evidence as not_run."""
        for item in items:
            if item.get_closest_marker("req") is not None and item.nodeid not in self.state.tests:
                self.state.tests[item.nodeid] = evidence.make_test_entry(self._link(item))

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        """Runs after collection and deselection: every selected test starts as not_run."""
        self.state.collected = len(session.items)
        for item in session.items:
            self.state.tests[item.nodeid] = evidence.make_test_entry(self._link(item))

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Runs after each setup/call/teardown phase: fold it into the test's entry."""
        entry = self.state.tests.get(report.nodeid) or evidence.make_test_entry([])
        self.state.tests[report.nodeid] = evidence.fold_report(
            entry, when=report.when, outcome=report.outcome, wasxfail=hasattr(report, "wasxfail"),
            longrepr=report.longreprtext if report.failed else "", duration=report.duration)

    def pytest_assertion_pass(self, item: pytest.Item) -> None:
        """Runs after each passing rewritten assert (only with enable_assertion_pass_hook)."""
        counts = self.state.assertions
        counts[item.nodeid] = counts.get(item.nodeid, 0) + 1

    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        """Runs once at session end: build the document and write it atomically."""
        state = self.state
        versions = {"pytest": pytest.__version__, "python": platform.python_version(), "plugin": __version__}
        document = evidence.make_document(
            run_id=state.run_id, complete=True,
            session=evidence.make_session(exitstatus, state.collected,
                                          time.perf_counter() - state.started, versions),
            snapshot=state.snapshot, tests=state.tests, expected=state.expected,
            marker_errors=state.marker_errors, collection_errors=state.collection_errors,
            assertions=state.assertions if state.count_assertions else None)
        try:
            write_atomic(state.evidence_path, evidence.dump_document(document))
        except OSError as err:
            state.write_error = str(err)
            session.exitstatus = pytest.ExitCode.INTERNAL_ERROR
            return
        state.gate = document["gate"]

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        """Runs after the session summary: say where the evidence went."""
        state = self.state
        if state.write_error is not None:
            terminalreporter.write_line(f"harness: could not write evidence: {state.write_error}", red=True)
        elif state.gate is not None:
            verdict = "passed" if state.gate["passed"] else "failed"
            terminalreporter.write_line(f"harness evidence: {state.evidence_path} (gate {verdict})")
