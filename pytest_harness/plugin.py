"""pytest plugin: the `req` marker, per-requirement evidence JSON and `--harness-run` re-verification.

Inert by default: it only registers the marker and options (settings.py resolves them, ini <
env < CLI). Asking for evidence, a fail-under threshold or a report registers a `Recorder` that
builds the document at session end, writes the files (outputs.py), prints the requirement table
and fails the run below the threshold (gate.py); under pytest-xdist the workers hand their share
to the controller, which alone writes (xdist_support.py). With coverage.py installed each test's
call phase is measured (coverage_map) and turned into its proof (measure: real checks in test
code, implementation lines run; `--harness-req-files` names each requirement's files). The
workspace is scanned for forging code (forgery), and with `--harness-digest-fd=N` the document's
sha256 goes to the inherited fd N once written, so the harness can reject later changes.
"""

from __future__ import annotations

import hashlib
import os
import platform
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest

from pytest_harness import (baseline, carry_hooks, coverage_map, evidence, forgery, forgery_scope, gate, judge_guard,
                            measure, mutate, outputs, read_set, settings, xdist_support)
from pytest_harness.identity import VERSION as __version__
from pytest_harness.identity import shadowed
from pytest_harness.junit import JUnitProperties
from pytest_harness.settings import Settings
from pytest_harness.snapshot import snapshot_files

MARKER_DOC = "req(id, ...): requirement(s) this test proves"
ENV_RUNS_DIR = "HARNESS_RUNS_DIR"
ENV_ISOLATION = "HARNESS_ISOLATION"  # set by the harness's sandbox: what contained this session
DEFAULT_RUNS_DIR = "runs"


@dataclass
class HarnessState:
    """Everything recorded during one evidence session (kept in `config.stash`)."""

    settings: Settings
    coverage: coverage_map.PhaseCoverage | None = None
    sites: measure.SiteCache | None = None
    started: float = 0.0
    collected: int = 0
    snapshot: dict = field(default_factory=dict)
    forgery: list[dict] = field(default_factory=list)
    forgery_waived: list[dict] = field(default_factory=list)
    tests: dict[str, dict] = field(default_factory=dict)
    proofs: dict[str, dict] | None = None
    measurement_error: str | None = None
    marker_errors: list[dict] = field(default_factory=list)
    collection_errors: list[dict] = field(default_factory=list)
    worker_payloads: list[dict] = field(default_factory=list)
    document: dict | None = None
    write_error: str | None = None
    reads: read_set.Recorder | None = None   # what the session read (carry_hooks.py), None when not recorded
    carry: object | None = None              # carry.CarryState once collection decided what was carried
    carrier: carry_hooks.CarryHooks | None = None
    untraced: str | None = None              # why no test was line-traced (None: the marked ones were)


STATE_KEY = pytest.StashKey[HarnessState]()


def _first(cli_value: str | None, env_name: str) -> str | None:
    """CLI flag beats environment variable; blank means not given."""
    value = cli_value if cli_value is not None else os.environ.get(env_name)
    return value if value else None


def _take_snapshot(root: Path) -> dict:
    try:
        return snapshot_files(root)
    except OSError as err:
        return {"files": {}, "digest": None, "error": str(err)}


def scan_forgery(config: pytest.Config, state: HarnessState) -> tuple[list[dict], list[dict]]:
    """(raised, waived) forgery findings in the files this session can load (forgery_scope)."""
    root, hashes = config.rootpath, state.snapshot.get("files", {})
    found = forgery.scan_files(root, forgery_scope.loaded_files(hashes), on_tree=state.sites.seed)
    found = forgery_scope.in_scope(found, forgery_scope.session_paths(root, config.invocation_params.dir, config.args))
    return forgery_scope.apply_trust(found, list(state.settings.trusted_hooks), hashes)


def send_digest(fd: int, text: str) -> None:
    """Write the document's sha256 to the harness's pipe and close it (errors are ignored)."""
    line = f"sha256:{hashlib.sha256(text.encode()).hexdigest()}\n".encode()
    try:
        os.write(fd, line)
        os.close(fd)
    except OSError:
        pass  # the harness then receives no digest and rejects the document


def pytest_addoption(parser: pytest.Parser) -> None:
    """Runs at startup: register the harness options and ini keys (all default to not given)."""
    settings.add_options(parser)
    group = parser.getgroup("harness")
    group.addoption("--harness-run", dest="harness_run", metavar="RUN_ID", default=None,
                    help="re-verify the stored run's workspace in a subprocess instead of collecting here")
    group.addoption("--harness-runs-dir", dest="harness_runs_dir", metavar="DIR", default=None,
                    help=f'runs directory for --harness-run (env {ENV_RUNS_DIR}, default "{DEFAULT_RUNS_DIR}")')
    carry_hooks.add_option(parser)


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config: pytest.Config) -> None:
    """Runs before any conftest is imported: `--harness-run` loads none and refuses to start inside a
    run (judge_guard.py); an evidence session starts recording its read set."""
    namespace = early_config.known_args_namespace
    if getattr(namespace, "harness_run", None) is not None:
        runs_dir = _first(getattr(namespace, "harness_runs_dir", None), ENV_RUNS_DIR) or DEFAULT_RUNS_DIR
        judge_guard.guard(early_config, namespace.harness_run, runs_dir)
        return
    carry_hooks.start_recording(early_config)


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
        from harness.orchestration.reverify import reverify_run
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
    if getattr(config.option, "harness_mutants", None):   # mutation_runner.py's session (--harness-mutate's
        carry_hooks.take_recorder(config, keep=False)      # audit reads the project's ini too): no evidence
        return
    resolved = settings.resolve(config)
    foreign = shadowed()
    if foreign is not None:
        if resolved.active:
            raise pytest.UsageError(f"harness: {foreign}")
        config.issue_config_time_warning(pytest.PytestConfigWarning(f"harness: {foreign}"), stacklevel=2)
    for flag in settings.space_form_flags(list(config.invocation_params.args)):
        config.issue_config_time_warning(pytest.PytestConfigWarning(
            f"use {flag}=PATH: with a space, pytest may take PATH for a test path and pick the rootdir "
            "and ini file from there (pytest-dev/pytest#8846)"), stacklevel=2)
    if config.getoption("xmlpath", None):
        config.pluginmanager.register(JUnitProperties(resolved.id_pattern), "harness-junit")
    recording = resolved.active and not xdist_support.is_worker(config) and not xdist_support.is_controller(config)
    reads = carry_hooks.take_recorder(config, keep=recording)
    if not resolved.active:
        return
    state = config.stash[STATE_KEY] = HarnessState(settings=resolved, reads=reads)
    recorder = Recorder(config)
    config.pluginmanager.register(recorder, "harness-recorder")
    if recording:
        state.carrier = carry_hooks.CarryHooks(config, state, recorder._link)
        config.pluginmanager.register(state.carrier, "harness-carry")


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
            found, errors = evidence.check_marker(item.nodeid, mark.args, mark.kwargs,
                                                  self.state.settings.id_pattern)
            ids += found
            self.state.marker_errors += errors
        return ids

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        """Runs before collection: start the clock, hash and scan the workspace (one parse per
        module gives both the forgery findings and the test files' check sites)."""
        state = self.state
        state.started = time.perf_counter()
        state.sites = measure.SiteCache(session.config.rootpath)
        if not xdist_support.is_worker(self.config):
            with read_set.paused():
                state.snapshot = _take_snapshot(session.config.rootpath)
                state.forgery, state.forgery_waived = scan_forgery(session.config, state)

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        """Runs after each collector (on an xdist controller: per failed worker collector)."""
        if report.failed:
            self.state.collection_errors.append(
                {"nodeid": report.nodeid, "failure": evidence.failure_text(xdist_support.report_text(report))})

    def pytest_deselected(self, items: list[pytest.Item]) -> None:
        """Runs when -k/-m deselects items: linked ones stay in the evidence as not_run."""
        for item in items:
            if item.get_closest_marker("req") is not None and item.nodeid not in self.state.tests:
                self.state.tests[item.nodeid] = evidence.make_test_entry(self._link(item))

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        """Runs after collection and deselection: every selected test starts as not_run, and
        measuring starts. Lines run at import or collection never count, so tracing them (pytest's
        assertion rewriting, every module's import) would only cost time; fixtures, and threads
        they start, run after this point and are measured."""
        self.state.collected = len(session.items)
        for item in session.items:
            self.state.tests[item.nodeid] = evidence.make_test_entry(self._link(item))
        if self.state.reads is not None:
            self.state.reads.mark_collected()
        linked = any(self.state.tests[item.nodeid]["reqs"] for item in session.items)
        self.state.untraced = self.state.settings.traced or (
            None if linked or xdist_support.is_controller(self.config) else "no selected test is marked")
        if self.state.untraced is None and coverage_map.available() and not xdist_support.is_controller(self.config):
            with read_set.paused():
                self.state.coverage = coverage_map.PhaseCoverage(session.config.rootpath)
                self.state.coverage.start()

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Runs after each setup/call/teardown phase (on an xdist controller: per worker report)."""
        entry = self.state.tests.get(report.nodeid) or evidence.make_test_entry([])
        self.state.tests[report.nodeid] = evidence.fold_report(
            entry, when=report.when, outcome=report.outcome, wasxfail=hasattr(report, "wasxfail"),
            longrepr=xdist_support.report_text(report) if report.failed else "", duration=report.duration)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_call(self, item: pytest.Item):
        """Wraps each marked test's call phase: only lines run here count as the test exercising code."""
        cov = self.state.coverage
        if cov is None:
            yield
            return
        if not self.state.tests.get(item.nodeid, {}).get("reqs"):
            with cov.threads_untraced():  # an unmarked test's lines decide no requirement: not traced
                yield
            return
        cov.enter(item.nodeid)
        yield
        cov.leave()

    def _measure(self) -> None:
        """Stop measuring; per-test proofs (None with a reason when nothing could be measured)."""
        state = self.state
        cov, state.coverage = state.coverage, None
        if cov is None:
            if state.untraced is None and state.settings.req_files is not None and \
                    not xdist_support.is_controller(self.config):
                state.measurement_error = "coverage.py is not installed: executed code was not measured"
            return
        cache = state.sites or measure.SiteCache(self.config.rootpath)
        state.proofs = {nodeid: measure.make_proof(lines, cache) for nodeid, lines in cov.stop().items()}
        state.proofs.update({n: measure.unmeasured_proof() for n, e in state.tests.items() if not e["reqs"]})

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: object, error: object) -> None:
        """Runs on the xdist controller when a worker finishes: keep the evidence it sent."""
        payload = getattr(node, "workeroutput", {}).get(xdist_support.WORKEROUTPUT_KEY)
        if payload is not None:
            self.state.worker_payloads.append(payload)

    def _merged(self) -> HarnessState:
        """On an xdist controller, the state with the workers' links, counts and markers joined in."""
        state = self.state
        if not state.worker_payloads:
            return state
        merged = xdist_support.merge_payloads(state.worker_payloads, state.tests)
        return replace(state, tests=merged["tests"], proofs=merged["proofs"],
                       collected=merged["collected"], marker_errors=merged["marker_errors"])

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        """Runs once at session end, before other plugins': a worker hands its share to the controller;
        others write the files and send the document's digest."""
        state = self.state
        if state.reads is not None:
            state.reads.stop()
        self._measure()
        if xdist_support.is_worker(self.config):
            self.config.workeroutput[xdist_support.WORKEROUTPUT_KEY] = xdist_support.worker_payload(
                links={n: e["reqs"] for n, e in state.tests.items()}, proofs=state.proofs,
                marker_errors=state.marker_errors, collected=state.collected)
            return
        state.document = self._document(self._merged(), exitstatus)
        try:
            outputs.write_outputs(state.settings, state.document)
        except OSError as err:
            state.write_error = str(err)
            session.exitstatus = pytest.ExitCode.INTERNAL_ERROR
            return
        if state.settings.digest_fd is not None and state.settings.evidence_path is not None:
            send_digest(state.settings.digest_fd, evidence.dump_document(state.document))
        if (outputs.fails_threshold(state.document) or mutate.failed(state.document)) and \
                session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def _document(self, state: HarnessState, exitstatus: int) -> dict:
        versions = {"pytest": pytest.__version__, "python": platform.python_version(), "plugin": __version__}
        carried = state.carry.carried if state.carry is not None else {}
        session = evidence.make_session(exitstatus, state.collected + len(carried),
                                        time.perf_counter() - state.started, versions)
        if carried:
            session["carried"] = len(carried)
        document = evidence.make_document(
            run_id=state.settings.run_id, complete=True, session=session,
            snapshot=state.snapshot, tests=state.tests, expected=state.settings.expected,
            marker_errors=state.marker_errors, collection_errors=state.collection_errors,
            proofs=state.proofs, req_files=state.settings.req_files, forgery=state.forgery,
            measurement_error=state.measurement_error, carried=carried)
        if state.settings.mutate:   # before the threshold and the baseline: they see its verdicts
            document = mutate.judge(document, self.config.rootpath)
        document["tracing"] = {"traced": "marked tests, call phase" if state.untraced is None else "nothing",
                               "why": state.untraced, "core": None if state.untraced is not None else (
                                   state.coverage.core if state.coverage else coverage_map.tracer_core())}
        if state.forgery_waived:
            document["forgery_waived"] = state.forgery_waived
        if state.settings.ignored:   # a judged session: the project's own settings it did not take
            document["ignored_settings"] = list(state.settings.ignored)
        if state.carrier is not None:
            document.update(state.carrier.document_parts(state.snapshot))
        if os.environ.get(ENV_ISOLATION):
            document["isolation"] = os.environ[ENV_ISOLATION]
        document = gate.annotate(document, state.settings.titles, state.settings.fail_under)
        if state.settings.baseline_path is not None:
            try:
                document["baseline"] = baseline.compare(baseline.load(state.settings.baseline_path), document,
                                                        str(state.settings.baseline_path))
            except ValueError as err:  # changed or removed while the tests ran
                document["baseline"] = {"path": str(state.settings.baseline_path), "error": str(err),
                                        "changed": [], "stale": {}}
        return document

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        """Runs after the session summary: the requirement table, the verdict, where files went."""
        state = self.state
        if state.write_error is not None:
            terminalreporter.write_line(f"harness: could not write evidence: {state.write_error}", red=True)
        elif state.document is not None:
            outputs.write_summary(terminalreporter, state.settings, state.document)
