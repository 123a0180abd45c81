"""The forgery tripwire on honest projects: no false alarms from their own conftests, tool folders
or conftests the session never loads; reviewed findings accepted by file hash; forgers still caught."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from pytest_harness import forgery, forgery_scope

pytest_plugins = ["pytester"]
DATA = Path(__file__).parent / "data" / "real_conftests"
FAST = ("-p", "no:hypothesispytest", "-p", "no:cacheprovider", "-p", "no:anyio", "-p", "no:xdist")

RUNSLOW = '''
import pytest

def pytest_addoption(parser):
    parser.addoption("--runslow", action="store_true", default=False, help="run slow tests")

def pytest_configure(config):
    config.addinivalue_line("markers", "slow: mark test as slow to run")

def pytest_collection_modifyitems(config, items):
    if config.getoption("--runslow"):
        return
    skip_slow = pytest.mark.skip(reason="need --runslow option to run")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip_slow)
'''

FLIPPER = '''
import pytest

@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    report.outcome = "passed"
'''


@pytest.mark.parametrize("name", ["dateutil_conftest.py.txt", "attrs_conftest.py.txt"])
def test_real_projects_conftests_are_not_flagged(name):
    assert forgery.scan_source("tests/conftest.py", (DATA / name).read_text()) == []


def test_pytests_documented_runslow_recipe_is_not_flagged():
    assert forgery.scan_source("conftest.py", RUNSLOW) == []


def test_report_flipping_hookwrapper_is_still_flagged():
    found = forgery.scan_source("tests/conftest.py", FLIPPER)
    assert [f["what"] for f in found] == ["defines hook pytest_runtest_makereport"]


@pytest.mark.parametrize("body, said", [
    ("    for item in items:\n        item.runtest = lambda: None\n", "assigns the attribute .runtest"),
    ("    for item in items:\n        item.obj = print\n", "assigns the attribute .obj"),
    ("    items[:] = [i for i in items if 'bad' not in i.name]\n", "assigns through a subscript"),
    ("    items.remove(items[0])\n", "calls items.remove()"),
    ("    for item in items:\n        setattr(item, 'runtest', item.setup)\n", "calls setattr()"),
    ("    del items[0]\n", "assigns through a subscript"),
    ("    vars(items[0]).update(runtest=None)\n", "update()"),
])
def test_modifyitems_that_changes_outcomes_is_flagged_with_what_it_does(body, said):
    found = forgery.scan_source("conftest.py", f"def pytest_collection_modifyitems(config, items):\n{body}")
    assert [f["what"] for f in found] == ["defines hook pytest_collection_modifyitems"]
    assert said in found[0]["detail"]


def test_modifyitems_may_fill_its_own_containers_and_sort_items():
    source = ("def pytest_collection_modifyitems(config, items):\n    groups = {}\n    for item in items:\n"
              "        groups[item.name] = item\n    items.sort(key=lambda i: i.name)\n")
    assert forgery.scan_source("conftest.py", source) == []
    nested = source.replace("    groups = {}\n", "    groups = {}\n    def run():\n        pass\n")
    assert forgery.scan_source("conftest.py", nested)[0]["detail"].startswith("contains functiondef")


def test_tool_and_virtualenv_folders_are_not_scanned():
    files = ["tests/test_a.py", ".tox/py311/lib/python3.11/site-packages/plug.py", "build/lib/pkg/conftest.py",
             "env2/pyvenv.cfg", "env2/lib/x.py", "node_modules/a/b.py", "pkg/site-packages/x.py", "src/pkg/mod.py"]
    assert forgery_scope.loaded_files(files) == ["tests/test_a.py", "src/pkg/mod.py"]


@pytest.mark.parametrize("conftest, args, loaded", [
    ("conftest.py", ["tests"], True), ("tests/conftest.py", ["tests"], True),
    ("tests/unit/conftest.py", ["tests"], True), ("tests/conftest.py", ["tests/unit/test_a.py::t"], True),
    ("docs/conftest.py", ["tests"], False), ("other/conftest.py", ["tests/unit"], False),
])
def test_conftest_scope_follows_the_collection_paths(tmp_path, conftest, args, loaded):
    (tmp_path / "tests" / "unit").mkdir(parents=True)
    (tmp_path / "tests" / "unit" / "test_a.py").write_text("")
    paths = forgery_scope.session_paths(tmp_path, tmp_path, args)
    assert forgery_scope.conftest_loaded(conftest, paths) is loaded


def test_conftest_scope_with_a_module_name_argument_keeps_every_conftest(tmp_path):
    (tmp_path / "pkg" / "tests").mkdir(parents=True)
    paths = forgery_scope.session_paths(tmp_path, tmp_path, ["pkg.tests"])   # pytest --pyargs pkg.tests
    assert paths is None and forgery_scope.conftest_loaded("pkg/tests/conftest.py", paths)


def test_trusted_entry_waives_only_the_reviewed_file_content():
    finding = {"file": "tests/conftest.py", "line": 3, "what": "defines hook pytest_runtest_makereport"}
    digest = "ab" * 32
    entries = forgery_scope.parse_trusted(f"tests/conftest.py::pytest_runtest_makereport@sha256:{digest}")
    raised, waived = forgery_scope.apply_trust([finding], entries, {"tests/conftest.py": f"sha256:{digest}"})
    assert raised == [] and waived[0]["trusted"].endswith(digest)
    raised, waived = forgery_scope.apply_trust([finding], entries, {"tests/conftest.py": "sha256:" + "cd" * 32})
    assert waived == [] and "changed since" in raised[0]["trust"]


def test_malformed_trusted_entry_is_rejected():
    with pytest.raises(ValueError, match="FILE::HOOK@sha256"):
        forgery_scope.parse_trusted("tests/conftest.py::pytest_runtest_makereport")


# ---- through the plugin ---------------------------------------------------------------------

def _project(pytester, conftest: str) -> None:
    pytester.makeini("[pytest]\ntestpaths = tests\n")
    tests = pytester.mkdir("tests")
    (tests / "conftest.py").write_text(conftest)
    (tests / "test_a.py").write_text("import pytest\n\n@pytest.mark.req('REQ-001')\n"
                                     "def test_one():\n    assert len('ab') == 2\n")


def _run(pytester, tmp_path, *args):
    out = tmp_path / "ev.json"
    result = pytester.runpytest_subprocess(*FAST, f"--harness-evidence={out}", *args)
    return result, json.loads(out.read_text())


@pytest.mark.slow
def test_dateutil_conftest_and_a_tox_folder_leave_the_evidence_trusted(pytester, tmp_path):
    _project(pytester, (DATA / "dateutil_conftest.py.txt").read_text())
    tox = pytester.path / ".tox" / "py311" / "lib" / "python3.11" / "site-packages"
    tox.mkdir(parents=True)
    (tox / "plug.py").write_text(FLIPPER)
    (pytester.path / "docs").mkdir()
    (pytester.path / "docs" / "conftest.py").write_text(FLIPPER)
    result, doc = _run(pytester, tmp_path)
    assert result.ret == 0, result.stdout.str()
    assert doc["forgery"] == [] and doc["trusted"] is True
    assert doc["requirements"]["REQ-001"]["status"] == "verified"


@pytest.mark.slow
def test_reviewed_hook_is_accepted_until_the_file_changes(pytester, tmp_path):
    _project(pytester, FLIPPER)
    result, doc = _run(pytester, tmp_path)
    assert doc["requirements"]["REQ-001"]["status"] == "untrusted"
    hint = next(line for line in result.stdout.lines if "harness_trusted_hooks = " in line)
    entry = hint.split("harness_trusted_hooks = ", 1)[1].strip()
    digest = hashlib.sha256((pytester.path / "tests" / "conftest.py").read_bytes()).hexdigest()
    assert entry == f"tests/conftest.py::pytest_runtest_makereport@sha256:{digest}"
    pytester.makeini(f"[pytest]\ntestpaths = tests\nharness_trusted_hooks = {entry}\n")
    result, doc = _run(pytester, tmp_path)
    assert doc["requirements"]["REQ-001"]["status"] == "verified", result.stdout.str()
    assert doc["forgery_waived"][0]["trusted"] == entry
    (pytester.path / "tests" / "conftest.py").write_text(FLIPPER + "\n# edited after review\n")
    result, doc = _run(pytester, tmp_path)
    assert doc["requirements"]["REQ-001"]["status"] == "untrusted"
    assert "changed since" in doc["forgery"][0]["trust"]


@pytest.mark.slow
def test_malformed_trusted_hooks_setting_is_a_usage_error(pytester, tmp_path):
    _project(pytester, RUNSLOW)
    result = pytester.runpytest_subprocess(*FAST, f"--harness-evidence={tmp_path / 'e.json'}",
                                           "--harness-trusted-hooks=conftest.py::x")
    assert result.ret == 4
    assert "--harness-trusted-hooks: malformed trusted hook" in result.stderr.str()
