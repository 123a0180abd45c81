"""Each marked test's recorded lines are exactly the lines its call ran, under both tracer cores.

coverage.py's sysmon core (Python >= 3.12) reports a line once and then switches it off, so a
line run by an earlier test, by an unmarked test or by a fixture's setup would be missing from
every later test's lines unless the plugin re-arms the lines at each marked test's call
(`PhaseCoverage.enter`). A small real project whose tests share lines runs through the plugin in
a real pytest subprocess; every line of it says which tests run it (`# ran by: one two`), and
each marked test's `lines` and `checks` in the evidence must be exactly what those comments say,
under the C tracer (Python 3.11) and under sysmon (a Python >= 3.12 found on this machine).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import sysmon_python

from pytest_harness import coverage_map

SHOP = '''\
import threading


def make_basket():
    items = []  # ran by: basket
    items.append("pen")  # ran by: basket
    return items  # ran by: basket


def price(count, unit=3):
    total = 0  # ran by: one two loop thread
    for _ in range(count):  # ran by: one two loop thread
        total += unit  # ran by: one two loop thread
    if total > 10:  # ran by: one two loop thread
        total -= discount(total)  # ran by: two loop
    return total  # ran by: one two loop thread


def discount(total):
    return total // 10  # ran by: two loop


def prices(limit):
    for count in range(limit):  # ran by: loop
        yield price(count)  # ran by: loop


def refuse(count):
    if count < 0:  # ran by: refuse
        raise ValueError("negative")  # ran by: refuse
    return count  # ran by: nobody


def price_in_thread(count):
    box = []  # ran by: thread
    worker = threading.Thread(target=lambda: box.append(price(count)))  # ran by: thread
    worker.start()  # ran by: thread
    worker.join()  # ran by: thread
    return box[0]  # ran by: thread
'''

CONFTEST = '''\
import pytest

import shop


@pytest.fixture
def basket():
    return shop.make_basket()
'''

# Line sharing on purpose: test_two runs what test_one and an unmarked test ran before it (and
# its one check is in a helper test_one ran too); test_basket's call runs what its fixture's setup
# ran just before; test_loop and test_thread run price() again, in a generator and in a thread.
TESTS = '''\
import pytest

import shop


def check_price(count, expected):
    assert shop.price(count) == expected  # ran by: one two


@pytest.mark.req("REQ-1")
def test_one():
    check_price(2, 6)  # ran by: one


def test_unmarked_runs_the_shared_lines():
    assert shop.price(5) == 14
    assert shop.make_basket() == ["pen"]


@pytest.mark.req("REQ-1")
def test_two():
    check_price(4, 11)  # ran by: two


@pytest.mark.req("REQ-2")
def test_basket(basket):
    assert basket == shop.make_basket()  # ran by: basket


@pytest.mark.req("REQ-2")
def test_loop():
    assert list(shop.prices(5)) == [0, 3, 6, 9, 11]  # ran by: loop


@pytest.mark.req("REQ-3")
def test_refuse():
    with pytest.raises(ValueError):  # ran by: refuse
        shop.refuse(-1)  # ran by: refuse


@pytest.mark.req("REQ-3")
def test_thread():
    assert shop.price_in_thread(1) == 3  # ran by: thread
'''

MARKED = ("one", "two", "basket", "loop", "refuse", "thread")
_RAN_BY = re.compile(r"#\s*ran by:\s*(.+)$")
_CHECK = re.compile(r"^\s*(assert\b|with pytest\.raises\b)")


def _ran_by(source: str) -> list[tuple[int, str, set[str]]]:
    """(line number, line, the tests its comment names) for every annotated line."""
    out = []
    for number, line in enumerate(source.splitlines(), start=1):
        match = _RAN_BY.search(line)
        if match:
            out.append((number, line, set(match.group(1).split())))
    return out


def expected() -> dict[str, dict]:
    """{test node id: {"lines": {"shop.py": [...]}, "checks": n}} as the comments say."""
    shop, tests = _ran_by(SHOP), _ran_by(TESTS)
    result = {}
    for name in MARKED:
        lines = sorted(number for number, _, who in shop if name in who)
        checks = sum(1 for _, line, who in tests if name in who and _CHECK.match(line))
        result[f"tests/test_shop.py::test_{name}"] = {"lines": {"shop.py": lines}, "checks": checks}
    return result


def _write_project(root: Path) -> None:
    (root / "tests").mkdir(parents=True)
    (root / "shop.py").write_text(SHOP)
    (root / "tests" / "conftest.py").write_text(CONFTEST)
    (root / "tests" / "test_shop.py").write_text(TESTS)


def run_project(python: str, root: Path, pythonpath: Path | None = None) -> dict:
    """Run the project's tests with the plugin under `python` (a real pytest subprocess);
    {"tracing": ..., "tests": {node id: {"lines", "checks"}}} from its evidence."""
    _write_project(root)
    out = root / "evidence.json"
    env = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    env.pop("PYTHONPATH", None)
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    result = subprocess.run(
        [python, "-m", "pytest", "-p", "pytest_harness.plugin", "-p", "no:cacheprovider", "-q",
         "-o", "pythonpath=.", "-o", "addopts=", f"--harness-evidence={out}", "tests"],
        cwd=root, env=env, capture_output=True, text=True, timeout=240)
    assert result.returncode == 0, result.stdout + result.stderr
    doc = json.loads(out.read_text())
    tests = {nodeid: {"lines": entry["lines"], "checks": entry["checks"]}
             for nodeid, entry in doc["tests"].items() if entry["reqs"]}
    return {"tracing": doc["tracing"], "tests": tests}


def test_the_comments_name_a_test_for_every_line_that_can_run():
    """The oracle itself: each marked test is named, its lines are shared with another test's."""
    want = expected()
    assert set(want) == {f"tests/test_shop.py::test_{n}" for n in MARKED}
    lines = {n: set(v["lines"]["shop.py"]) for n, v in want.items()}
    assert lines["tests/test_shop.py::test_one"] < lines["tests/test_shop.py::test_two"]
    assert all(v["checks"] == 1 for v in want.values())


@pytest.mark.slow
def test_each_marked_test_records_the_lines_its_call_ran_with_this_pythons_core(tmp_path):
    got = run_project(sys.executable, tmp_path / "project")
    assert got["tracing"]["core"] == coverage_map.tracer_core()
    assert got["tests"] == expected()


@pytest.mark.slow
def test_sysmon_records_the_lines_the_c_tracer_records_regression_lines_lost_after_first_run_bug(tmp_path):
    """Under sysmon, a line the session already ran (test_one's, the unmarked test's, the
    fixture's setup) reports again in each later marked test: without the re-arming in
    `PhaseCoverage.enter`, test_two recorded no lines and no check (so it looked `weak`),
    test_basket none, test_loop and test_thread lost price()."""
    python = sysmon_python.find()
    if python is None:
        pytest.skip("no Python >= 3.12 on this machine (HARNESS_SYSMON_PYTHON, python3.12+ on PATH, "
                    "pyenv versions): the sysmon core cannot run here")
    path = None if python == sys.executable else sysmon_python.borrowed_path(tmp_path / "borrowed")
    got = run_project(python, tmp_path / "project", path)
    assert got["tracing"]["core"] == "sysmon"
    assert got["tests"] == expected()
