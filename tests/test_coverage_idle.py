"""The session thread runs untraced between test calls (pytest_harness.coverage_map.IdleThread).

A real pytest subprocess with evidence on a small workspace: what each test's call ran is
recorded exactly (plain code, a generator, an exception path, code run by a thread a session
fixture started), nothing a fixture ran in setup is, and the setup itself ran without a trace
function while the test body ran measured. Under the sysmon core (Python >= 3.12) no thread has a
trace function (sys.monitoring is process-wide and a line reports once until re-armed): the lines
must still be exact, which is what the re-arming in `PhaseCoverage.enter` is for.
"""

from __future__ import annotations

import json
import sys

import pytest

from pytest_harness.coverage_map import PhaseCoverage

pytest_plugins = ["pytester"]

FAST = ("-p", "no:hypothesispytest", "-p", "no:cacheprovider", "-p", "no:anyio", "-p", "no:xdist")

APP = '''\
def setup_only():
    x = 1
    return x


def work(n):
    total = 0
    for i in range(n):
        total += i
    return total


def gen(n):
    for i in range(n):
        yield i * 2


def boom():
    raise ValueError("boom")


def in_thread():
    y = 2
    return y
'''

CONFTEST = '''\
import queue
import sys
import threading

import pytest

from src import app


@pytest.fixture(scope="session")
def worker():
    """A thread started in setup that runs what a test hands it."""
    jobs, results = queue.Queue(), queue.Queue()

    def loop():
        while True:
            fn = jobs.get()
            if fn is None:
                return
            results.put(fn())

    thread = threading.Thread(target=loop, daemon=True)
    thread.start()

    def run(fn):
        jobs.put(fn)
        return results.get()

    yield run
    jobs.put(None)
    thread.join()


@pytest.fixture
def prepared():
    """Runs app code in setup; returns the trace function setup ran under."""
    app.setup_only()
    return sys.gettrace()
'''

TESTS = '''\
import sys

import pytest

from src import app

pytestmark = pytest.mark.req("REQ-001")   # only tests marked with a requirement are traced (#52)


def measured():
    """coverage.py measures this thread: its C tracer is the trace function, or (sysmon core)
    its sys.monitoring tool is registered."""
    monitoring = getattr(sys, "monitoring", None)
    tools = [] if monitoring is None else [monitoring.get_tool(i) for i in range(6)]
    return sys.gettrace() is not None or "coverage.py" in tools


def test_call_is_traced_setup_is_not(prepared):
    assert prepared is None
    assert measured()
    assert app.work(3) == 3


def test_generator():
    assert list(app.gen(3)) == [0, 2, 4]


def test_exception_path():
    with pytest.raises(ValueError):
        app.boom()


def test_thread_from_a_session_fixture(worker):
    assert worker(app.in_thread) == 2


def test_after_the_others(prepared):
    assert prepared is None
    assert app.work(1) == 0
'''


def _lines(doc: dict, name: str) -> set[int]:
    return set(doc["tests"][f"tests/test_idle.py::{name}"]["lines"].get("src/app.py", []))


@pytest.mark.slow
def test_each_call_is_measured_exactly_and_setup_runs_untraced(pytester, tmp_path):
    pytester.mkpydir("src")
    (pytester.path / "src" / "app.py").write_text(APP)
    (pytester.path / "tests").mkdir()
    (pytester.path / "tests" / "conftest.py").write_text(CONFTEST)
    (pytester.path / "tests" / "test_idle.py").write_text(TESTS)
    out = tmp_path / "evidence.json"
    result = pytester.runpytest_subprocess(*FAST, "-p", "pytester", f"--harness-evidence={out}",
                                           "-o", "pythonpath=.", "tests")
    assert result.ret == 0, result.stdout.str()
    doc = json.loads(out.read_text())
    work = {7, 8, 9, 10}
    assert _lines(doc, "test_call_is_traced_setup_is_not") == work  # setup_only (2, 3) ran in setup
    assert _lines(doc, "test_generator") == {14, 15}
    assert _lines(doc, "test_exception_path") == {19}
    assert _lines(doc, "test_thread_from_a_session_fixture") == {23, 24}
    assert _lines(doc, "test_after_the_others") == work


def test_phase_coverage_in_process_pauses_only_its_own_thread(tmp_path):
    """In this interpreter: between enter/leave this thread has coverage's C tracer, outside it has
    none, and stop() leaves no trace function behind. Under sysmon (no trace function at all) the
    lines f ran untraced before `enter` report again in the test: they were re-armed."""
    mod = tmp_path / "mod.py"
    mod.write_text("def f(x):\n    y = x + 1\n    return y\n")
    import importlib.util

    spec = importlib.util.spec_from_file_location("mod_idle_probe", mod)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    before = sys.gettrace()
    cov = PhaseCoverage(tmp_path)
    cov.start()
    try:
        idle = sys.gettrace()
        module.f(0)  # untraced: no context of a test
        cov.enter("t::one")
        during = sys.gettrace()
        module.f(1)
        cov.leave()
        after = sys.gettrace()
    finally:
        lines = cov.stop()
    assert (idle, after) == (None, None)
    assert (during is not None) == (cov.core == "ctrace")
    assert lines == {"t::one": {"mod.py": {2, 3}}}
    assert sys.gettrace() is before
