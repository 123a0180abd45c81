"""#47: a kill is a test's own check failing, not a crash. A mutant that makes the code under test
raise into the test (a hollow `assert x or not x` test fails that way as surely as an honest one)
is `invalid`, never killed; an `assert` or `pytest.raises` in the test that fails on the mutant
kills it, and an `assert` inside the code under test does not. A real pytest session with the
mutation runner over a small project whose module holds guarded mutants (the audit's own mutator).
On the old runner every one of these mutants read "failed" (killed).

An app's crash reaches the test as the 500 a server would answer (pytest_harness/
audit_server_errors.py), so an honest status check fails on it and a hollow one does not.

The slow test is the issue's scenario: the offline Todo build's tests hollowed to `x or not x`
(tests/hollow_app.py), the white-box leg alone (`builder audit`): before, its requirements killed
2/4 to 4/4 mutants through crashes and met the bar; now none is killed and the audit fails."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hollow_app import hollow_tests
from run_copies import cli

from pytest_harness.mutator import apply, candidates

MODULE = '''def half(n):
    if n % 2 == 0:
        return n // 2
    raise ValueError("odd")


def checked(n):
    assert n % 2 == 0, "odd"
    return n
'''

TESTS = '''import pytest

import calc


def test_half_hollow():
    got = calc.half(4)
    assert got == 2 or not got == 2


def test_half_crashes_into_an_honest_assert():
    assert calc.half(4) == 2


def test_half_refuses_odd():
    with pytest.raises(ValueError):
        calc.half(3)


def test_half_keyerror_in_the_test():
    got = {2: "two"}[calc.half(4)] if calc.half(6) == 3 else {}["missing"]
    assert got


def test_checked_honest():
    assert calc.checked(4) == 4
'''


def _session(tmp_path, runs: list[tuple[str, str, list[str]]], method: str = "baseline-first") -> dict:
    """The runner over the project; `runs`: (requirement, the text of the mutated line, test names);
    each mutant is that line's `compare` site."""
    sites = candidates(MODULE)
    lines = MODULE.splitlines()
    ids: dict[str, int] = {}
    order = []
    for rid, text, tests in runs:
        site = next(m for m in sites if m.kind == "compare" and text in lines[m.line - 1])
        mid = ids.setdefault(site.key, len(ids) + 1)
        order.append([rid, mid, [f"test_calc.py::{t}" for t in tests]])
    (tmp_path / "calc.py").write_text(apply(MODULE, ids), encoding="utf-8")
    (tmp_path / "test_calc.py").write_text(TESTS, encoding="utf-8")
    result, plan = tmp_path / "result.json", tmp_path / "plan.json"
    test_s = {n: 0.01 for _, _, tests in order for n in tests}
    plan.write_text(json.dumps({"nonce": "n1", "seconds": 60, "order": order, "result": str(result),
                                "method": method, "test_s": test_s}), encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "-p", "pytest_harness.mutation_runner", f"--harness-mutants={plan}", "test_calc.py"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result.is_file(), proc.stdout[-2000:] + proc.stderr[-2000:]
    return json.loads(result.read_text(encoding="utf-8"))


@pytest.mark.parametrize("method", ["baseline-first", "confirm"])
def test_a_crash_out_of_the_code_under_test_is_not_a_kill_bug(tmp_path, method):
    """`==` → `!=` in `half`: `half(4)` raises ValueError into the test. The hollow test and the
    honest assert both end with that crash: invalid (before: killed). `pytest.raises` seeing no
    exception on `half(3)` is the test's check failing: killed. A KeyError raised in the test is a
    crash too."""
    got = _session(tmp_path, [("REQ-HOLLOW", "n % 2 == 0:", ["test_half_hollow"]),
                              ("REQ-ASSERT", "n % 2 == 0:", ["test_half_crashes_into_an_honest_assert"]),
                              ("REQ-RAISES", "n % 2 == 0:", ["test_half_refuses_odd"]),
                              ("REQ-KEYERROR", "n % 2 == 0:", ["test_half_keyerror_in_the_test"])], method)
    assert got["baseline"]["status"] == "passed", got
    assert got["results"] == {"REQ-HOLLOW:1": "invalid", "REQ-ASSERT:1": "invalid",
                              "REQ-RAISES:1": "failed", "REQ-KEYERROR:1": "invalid"}


def test_an_assert_in_the_code_under_test_is_a_crash_and_a_later_check_still_kills(tmp_path):
    """`assert n % 2 == 0` in `checked` turned to `!=` raises AssertionError from the code under
    test: not the test's check (invalid). The child goes on after a crash, so a later test of the
    same mutant whose check fails kills it."""
    got = _session(tmp_path, [("REQ-001", "assert n % 2 == 0", ["test_checked_honest"]),
                              ("REQ-002", "n % 2 == 0:", ["test_half_hollow", "test_half_refuses_odd"])])
    assert got["baseline"]["status"] == "passed", got
    assert got["results"] == {"REQ-001:1": "invalid", "REQ-002:2": "failed"}
    assert got["killers"] == {"REQ-002:2": "test_calc.py::test_half_refuses_odd"}


WEB_MODULE = '''from fastapi import FastAPI

app = FastAPI()
STOCK = {"pen": 3}


@app.get("/stock/{name}")
def stock(name: str):
    if name not in STOCK:
        return {"name": name, "count": 0}
    return {"name": name, "count": STOCK[name]}
'''

WEB_TESTS = '''from fastapi.testclient import TestClient

import shop


def test_stock_honest():
    response = TestClient(shop.app).get("/stock/ink")
    assert response.status_code == 200 and response.json()["count"] == 0


def test_stock_hollow():
    response = TestClient(shop.app).get("/stock/ink")
    ok = response.status_code == 200
    assert ok or not ok
'''


@pytest.mark.parametrize("method", ["baseline-first", "confirm"])
def test_an_app_crash_is_a_500_to_the_test_so_an_honest_check_kills_and_a_hollow_one_does_not(tmp_path, method):
    """`not in` → `in`: the route reads STOCK["ink"], which is not there: KeyError. The test
    client would raise it into both tests (a crash: no kill either way); in the audit the app
    answers 500 as a server does (audit_server_errors.py), in every fork: the honest status check
    fails on it (killed), the hollow one passes (survived)."""
    site = next(m for m in candidates(WEB_MODULE) if m.kind == "compare")
    (tmp_path / "shop.py").write_text(apply(WEB_MODULE, {site.key: 1}), encoding="utf-8")
    (tmp_path / "test_shop.py").write_text(WEB_TESTS, encoding="utf-8")
    order = [["REQ-HONEST", 1, ["test_shop.py::test_stock_honest"]], ["REQ-HOLLOW", 1, ["test_shop.py::test_stock_hollow"]]]
    result, plan = tmp_path / "result.json", tmp_path / "plan.json"
    plan.write_text(json.dumps({"nonce": "n1", "seconds": 60, "order": order, "result": str(result), "method": method,
                                "test_s": {n: 0.05 for _, _, tests in order for n in tests}}), encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "-p", "pytest_harness.mutation_runner", f"--harness-mutants={plan}", "test_shop.py"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result.is_file(), proc.stdout[-2000:] + proc.stderr[-2000:]
    got = json.loads(result.read_text(encoding="utf-8"))
    assert got["baseline"]["status"] == "passed", got
    assert got["results"] == {"REQ-HONEST:1": "failed", "REQ-HOLLOW:1": "passed"}


@pytest.mark.slow
def test_a_todo_build_with_hollow_tests_fails_the_audit_bug(fresh_todo_run, capsys):
    """The offline Todo build, every test hollowed (`assert x or not x`, `pytest.raises` →
    `contextlib.suppress`), nothing else changed: the evidence passes (the hollow tests pass), the
    audit alone (the white-box leg) fails — no requirement's tests kill a mutant, invalid ones'
    replacements included (harness/audit/replacements.py). Before: 2/4 to 4/4 per requirement
    through crashes, AUDIT PASS."""
    store, run_id = fresh_todo_run
    assert hollow_tests(store.workspace(run_id))
    code, out, err = cli(capsys, "audit", run_id, "--runs-dir", str(store.base))
    audit = store.read_audit(run_id)
    entries = audit["requirements"]
    assert entries and all(entry["killed"] == 0 for entry in entries.values()), (
        {rid: (e["killed"], e.get("invalid")) for rid, e in entries.items()}, out[-2000:])
    details = [d for entry in entries.values() for d in entry["details"]]
    assert any(d["result"] == "invalid" for d in details), details   # the crashes: reported, not kills
    assert code == 1 and "AUDIT FAIL" in out, out[-2000:] + err
