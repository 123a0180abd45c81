"""Per-test executed lines of the workspace's own files, measured with coverage.py.

Only the call phase of each test counts: the recorder switches coverage's dynamic context to the
test's node id around `pytest_runtest_call` and back to OUTSIDE afterwards, so lines run at import,
collection, setup or teardown never make a test look like it exercised code. Measurement is
restricted to files under the root (virtualenvs and site-packages excluded), so library code is
never traced line by line, and it starts only once collection has finished (the recorder starts it
in `pytest_collection_finish`): tracing pytest's assertion rewriting and every module's import
cost about a third of the evidence overhead on toolz and could never count. Fixtures and the
threads they start run after that point, so they are measured as before.

Between test calls the session's own thread runs untraced (`IdleThread`): on Python 3.11 a
thread with a trace function runs every instruction through the interpreter's tracing path,
whatever the tracer does with the events, and nothing it runs there (fixtures' setup and
teardown, pytest's reporting) could count. Other threads keep their tracer throughout.
"""

from __future__ import annotations

import contextlib
import sys
import threading
from pathlib import Path

OUTSIDE = "harness:outside"
_OMIT = ("*/site-packages/*", "*/dist-packages/*", "*/.venv/*", "*/venv/*", "*/.tox/*", "*/node_modules/*",
         f"{Path(__file__).resolve().parent}/*")  # this plugin's own code, even under the root


def available() -> bool:
    """True when coverage.py can be imported (it is optional for the bare plugin)."""
    try:
        import coverage  # noqa: F401
    except ImportError:
        return False
    return True


SYSMON_FROM = (3, 12)


def tracer_core(version: tuple[int, ...] = tuple(sys.version_info[:2])) -> str:
    """The coverage.py core for this Python: `sysmon` (sys.monitoring, PEP 669) from SYSMON_FROM
    on, the lowest-overhead one: a line reports once and is then switched off, where a trace
    function is called for every line of every traced frame; `ctrace`, the C trace function, before.

    Per-test lines need every line a test runs to report in that test, not only the first time
    the session ran it: under sysmon `PhaseCoverage.enter` re-arms the switched-off lines at each
    test call (`sys.monitoring.restart_events`) after the context switch has flushed the lines so
    far to the previous context. coverage.py itself says its sysmon core "doesn't yet support
    dynamic contexts" and warns; that warning is about the missing re-arming."""
    return "sysmon" if tuple(version) >= SYSMON_FROM else "ctrace"


def restart_line_events() -> None:
    """Re-arm every line event sys.monitoring switched off (all tools: a debugger's too)."""
    monitoring = getattr(sys, "monitoring", None)
    if monitoring is not None:
        monitoring.restart_events()


class PhaseCoverage:
    """One coverage.py collector for the session, in memory, with a context per test call."""

    def __init__(self, root: Path) -> None:
        import coverage

        self.root = Path(root).resolve()
        self._cov = coverage.Coverage(data_file=None, config_file=False, branch=False, context=None,
                                      include=[f"{self.root}/*"], omit=list(_OMIT))
        # A session that ran no root code (an xdist controller, everything deselected) is not an
        # error; under a project's `filterwarnings = error` this warning would crash the session.
        # The core: tracer_core(). Under sysmon, switch_context warns that contexts may be
        # incomplete; `enter` makes them complete (restart_events), so that warning is silenced, and
        # so is the one for a sysmon coverage.py cannot use (it then takes its default core).
        self.core = tracer_core()
        self._cov.set_option("run:disable_warnings", ["no-data-collected", "no-sysmon-context", "no-sysmon"])
        try:
            self._cov.set_option("run:core", self.core)
        except Exception:  # a coverage.py before the `core` setting (< 7.9): its default C tracer
            self.core = "ctrace"
        self._started = False
        self._idle: IdleThread | None = None

    def start(self) -> None:
        """Start tracing (lines go to OUTSIDE until a test's call phase begins); this thread
        runs untraced until then."""
        with _no_origin_stack():
            self._cov.start()
        self._cov.switch_context(OUTSIDE)
        self._started = True
        self._idle = IdleThread.begin()

    def enter(self, nodeid: str) -> None:
        """A test's call phase begins."""
        if self._started:
            self._cov.switch_context(nodeid)
            if self.core == "sysmon":
                restart_line_events()
            if self._idle is not None:
                self._idle.resume()

    def leave(self) -> None:
        """A test's call phase ended."""
        if self._started:
            if self._idle is not None:
                self._idle.pause()
            self._cov.switch_context(OUTSIDE)

    @contextlib.contextmanager
    def threads_untraced(self):
        """While an unmarked test's call runs, threads it starts get no tracer (coverage.py hands
        every new thread one through `threading.settrace`): their lines could count for nothing
        (more-itertools' concurrency tests spent ~30 s of CPU traced). Threads started elsewhere,
        e.g. in a marked test's fixtures, are traced as before. Under sysmon there is no per-thread
        tracer to withhold (nothing here to do): each line reports once, to no test, until re-armed."""
        hook = threading.gettrace() if self._started else None
        if hook is None:
            yield
            return
        threading.settrace(None)
        try:
            yield
        finally:
            if threading.gettrace() is None:
                threading.settrace(hook)

    def stop(self) -> dict[str, dict[str, set[int]]]:
        """Stop tracing; {nodeid: {relpath: executed lines}} for every test call that ran root code."""
        if not self._started:
            return {}
        if self._idle is not None:
            self._idle.resume()  # coverage stops the tracer it started
            self._idle = None
        self._cov.stop()
        self._started = False
        data = self._cov.get_data()
        by_test: dict[str, dict[str, set[int]]] = {}
        for filename in data.measured_files():
            rel = self._relpath(filename)
            if rel is None:
                continue
            for line, contexts in data.contexts_by_lineno(filename).items():
                for ctx in contexts:
                    if ctx and ctx != OUTSIDE:
                        by_test.setdefault(ctx, {}).setdefault(rel, set()).add(line)
        return by_test

    def _relpath(self, filename: str) -> str | None:
        try:
            return Path(filename).resolve().relative_to(self.root).as_posix()
        except ValueError:
            return None


class IdleThread:
    """The session thread's coverage tracer, taken off between test calls and put back for each.

    Only coverage.py's C tracer is paused (`begin` returns None for any other tracer, e.g. the
    sys.monitoring core of Python 3.12+, which costs nothing where it records nothing). Taking it
    off mid-stack and putting it back with `sys.settrace` keeps its frame stack true: after
    `resume` it sees events only for frames that start after it (Python's trampoline drops the
    others until the tracer's first call event reinstalls it), those frames all end before
    `pause` (the test call returned), and the frames left on its stack at each pause are the
    plugin's own, which record nothing. A test that replaced the trace function keeps its own.
    """

    def __init__(self, tracer: object, ident: int) -> None:
        self.tracer = tracer
        self.ident = ident

    @classmethod
    def begin(cls) -> IdleThread | None:
        """Pause the calling thread's tracer now; None when it is not coverage's C tracer."""
        tracer = sys.gettrace()
        try:
            from coverage.tracer import CTracer
        except ImportError:
            return None
        if not isinstance(tracer, CTracer):
            return None
        sys.settrace(None)
        return cls(tracer, threading.get_ident())

    def resume(self) -> None:
        if threading.get_ident() == self.ident and sys.gettrace() is None:
            sys.settrace(self.tracer)

    def pause(self) -> None:
        if threading.get_ident() == self.ident and sys.gettrace() is self.tracer:
            sys.settrace(None)


@contextlib.contextmanager
def _no_origin_stack():
    """coverage.py's Collector records `short_stack()` as its origin, for its debug output only;
    that is `inspect.stack()`, which resolves the module of every frame by scanning sys.modules
    (0.1-0.3 s a session under pytest). Measurement is unchanged without it."""
    try:
        from coverage import collector
    except ImportError:  # a coverage.py without that module: nothing to skip
        yield
        return
    real = getattr(collector, "short_stack", None)
    if real is None:
        yield
        return
    collector.short_stack = lambda *args, **kwargs: ""
    try:
        yield
    finally:
        collector.short_stack = real
