"""#19: pytest's initial Config made once in the warm worker (harness/speed/warm/config_ahead.py): a child
whose request has the same directory and `-p no:` exclusions starts from it, and what pytest sees
is what a cold `python -m pytest` sees; anything else makes its own."""

import importlib.util
import subprocess
import sys
import tempfile

import pytest

from harness.speed.warm import workers as warm
from harness.speed.warm.config_ahead import exclusions
from test_warm_worker import small_workspace  # noqa: E402 - tests/ is on pythonpath


@pytest.mark.parametrize(("args", "found"), [
    (["-q", "-p", "no:cacheprovider", "tests"], ("no:cacheprovider",)),
    (["-pno:cacheprovider", "-p", " no:anyio "], ("no:cacheprovider", "no:anyio")),
    (["-p", "xdist", "-p", "no:randomly"], ("no:randomly",)),       # plugins to load are not exclusions
    (["-q", "-p"], ()),                                             # a trailing -p names nothing
    (["tests/test_p.py", "-k", "no:x"], ()),                        # only a -p value counts
])
def test_exclusions_are_the_no_plugins_pytest_preparses(args, found):
    assert exclusions(args) == found


# What a session's Config says about how it was invoked and which default plugins it holds.
CONFTEST = '''
import json, os

def pytest_configure(config):
    ip = config.invocation_params
    pm = config.pluginmanager
    print("CONFIG", json.dumps({
        "args": list(ip.args), "plugins": ip.plugins, "dir": str(ip.dir), "cwd": os.getcwd(),
        "cacheprovider": pm.has_plugin("cacheprovider"), "blocked": pm.is_blocked("cacheprovider"),
        "doctest": pm.has_plugin("doctest"), "option_p": list(config.option.plugins or []),
        "count": len(pm.get_plugins()) - len([p for p in pm.get_plugins() if "conftest" in str(p)]),
    }, sort_keys=True))
'''


def config_line(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("CONFIG "))


@pytest.mark.slow
def test_a_child_starting_from_the_config_made_ahead_sees_what_a_cold_session_sees(tmp_path):
    ws = small_workspace(tmp_path, "def test_a():\n    assert 1 + 1 == 2\n")
    (ws / "conftest.py").write_text(CONFTEST)
    same = ["-q", "-s", "-p", "no:cacheprovider", "tests"]
    other = ["-q", "-s", "-p", "no:cacheprovider", "-p", "no:doctest", "tests"]
    worker = warm.WarmWorker(ws, {"PYTHONDONTWRITEBYTECODE": "1"})
    replies, lines = [], []
    try:
        for args in (same, same[:-1] + ["tests/test_a.py"], other):
            with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
                replies.append(worker.run([sys.executable, "-m", "pytest", *args], ws, {}, 60,
                                          out.fileno(), err.fileno(), ()))
                out.seek(0)
                lines.append(config_line(out.read().decode()))
    finally:
        worker.stop()
    assert [r["exit_code"] for r in replies] == [0, 0, 0]
    # Made before each fork whose key is new: the first child's and the third's were made for them.
    assert [r["config_ahead"] for r in replies] == [True, True, True]
    colds = []
    for args in (same, same[:-1] + ["tests/test_a.py"], other):
        done = subprocess.run([sys.executable, "-m", "pytest", *args], cwd=ws, capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, done.stdout + done.stderr
        colds.append(config_line(done.stdout))
    assert lines == colds
    assert '"doctest": false' in lines[2] and '"doctest": true' in lines[0]


@pytest.mark.slow
def test_a_config_that_fails_to_make_is_never_used_and_the_child_reports_pytests_own_error(tmp_path):
    """`-p no:main` is a usage error in get_config itself: the worker's attempt fails quietly, the
    child makes its own and fails exactly as a cold session does."""
    ws = small_workspace(tmp_path, "def test_a():\n    assert True\n")
    args = ["-q", "-p", "no:main", "tests"]
    worker = warm.WarmWorker(ws, {"PYTHONDONTWRITEBYTECODE": "1"})
    try:
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            reply = worker.run([sys.executable, "-m", "pytest", *args], ws, {}, 60, out.fileno(), err.fileno(), ())
            err.seek(0)
            warm_err = err.read().decode()
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            after = worker.run([sys.executable, "-m", "pytest", "-q", "tests"], ws, {}, 60,
                               out.fileno(), err.fileno(), ())
    finally:
        worker.stop()
    cold = subprocess.run([sys.executable, "-m", "pytest", *args], cwd=ws, capture_output=True, text=True,
                          timeout=120)
    assert reply["config_ahead"] is False
    assert reply["exit_code"] == cold.returncode != 0
    assert "main" in cold.stderr and warm_err.strip().splitlines()[-1] == cold.stderr.strip().splitlines()[-1]
    assert after["exit_code"] == 0 and after["config_ahead"] is True   # the worker is unharmed


@pytest.mark.slow
def test_pytest_debug_in_a_requests_env_makes_the_child_build_its_own_config(tmp_path):
    ws = small_workspace(tmp_path, "def test_a():\n    assert True\n")
    worker = warm.WarmWorker(ws, {"PYTHONDONTWRITEBYTECODE": "1"})
    try:
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            reply = worker.run([sys.executable, "-m", "pytest", "-q", "tests"], ws,
                               {"PYTEST_DEBUG": "1"}, 60, out.fileno(), err.fileno(), ())
            err.seek(0)
            traced = err.read().decode()
    finally:
        worker.stop()
    assert reply["exit_code"] == 0 and reply["config_ahead"] is False
    assert "pytest_plugin_registered" in traced   # pytest's own tracing ran from the start


# The fixture scan (harness/speed/warm/fixture_scan.py): a conftest that adds a fixture to a preloaded
# plugin module changes that module, which is then scanned in full, warm as cold.
FIXTURE_CONFTEST = '''
import _pytest.tmpdir
import pytest

import _pytest.fixtures as fixtures


def _injected():
    return 7


_pytest.tmpdir.injected_by_conftest = pytest.fixture(_injected, name="injected")


@pytest.fixture
def mine():
    return 3


def pytest_sessionstart(session):
    print("SCAN", fixtures.FixtureManager.parsefactories.__module__)
'''


def normalized(text: str) -> list[str]:
    """The output without the line that carries the session's duration."""
    return [line for line in text.splitlines() if " in " not in line or "=====" not in line]


@pytest.mark.slow
def test_the_fixture_scan_finds_what_a_cold_session_finds_and_rescans_a_module_a_conftest_changed(tmp_path):
    ws = small_workspace(tmp_path, "def test_a(mine, injected, tmp_path, monkeypatch):\n    assert (mine, injected) == (3, 7)\n")
    (ws / "tests" / "conftest.py").write_text(FIXTURE_CONFTEST)
    runs = (["-q", "-s", "-p", "no:cacheprovider", "--fixtures", "-v", "tests"], ["-q", "-s", "-p", "no:cacheprovider", "tests"])
    worker = warm.WarmWorker(ws, {"PYTHONDONTWRITEBYTECODE": "1"})
    warm_out = []
    try:
        for args in runs:
            with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
                reply = worker.run([sys.executable, "-m", "pytest", *args], ws, {}, 60, out.fileno(), err.fileno(), ())
                out.seek(0)
                warm_out.append((reply["exit_code"], out.read().decode()))
    finally:
        worker.stop()
    cold_out = []
    for args in runs:
        done = subprocess.run([sys.executable, "-m", "pytest", *args], cwd=ws, capture_output=True, text=True, timeout=120)
        cold_out.append((done.returncode, done.stdout))
    assert [code for code, _ in warm_out] == [code for code, _ in cold_out] == [0, 0]
    assert "SCAN _harness_fixture_scan" in warm_out[1][1] and "SCAN _pytest.fixtures" in cold_out[1][1]  # it was in use
    listing_warm, listing_cold = normalized(warm_out[0][1]), normalized(cold_out[0][1])
    assert listing_warm == [line.replace("SCAN _pytest.fixtures", "SCAN _harness_fixture_scan") for line in listing_cold]
    assert any("injected" in line for line in listing_warm) and any("tmp_path_factory" in line for line in listing_warm)


def test_fixture_scan_memo_identity_check_survives_address_reuse_bug():
    """A value replaced after the module was recorded must never pass the identity check because
    a new object took the old one's address (the record keeps the values alive)."""
    import types as _types

    spec = importlib.util.spec_from_file_location("warm_fixtures_under_test", warm.WORKER_SCRIPT.with_name("fixture_scan.py"))
    wf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(wf)
    import _pytest.fixtures  # noqa: F401 - what prepare() checks for

    module = _types.ModuleType("_pytest._harness_probe_module")
    module.value = object()
    sys.modules[module.__name__] = module
    try:
        scan = wf.FixtureScan()
        assert scan.prepare()
        recorded = scan.memo[module.__name__]
        assert wf._stand_in(module, recorded) is not module          # unchanged: the stand-in
        reused = []
        for _ in range(50):                                          # free and allocate, as a child might
            module.value = object()
            reused.append(id(module.value) in recorded[1])
        assert wf._stand_in(module, recorded) is module and not any(reused)
    finally:
        del sys.modules[module.__name__]
