"""#47: a kill counts only when the test's failure is caused by a behaviour change. The audit runs
decoys — mutants that rewrite the code as a mutant does and change no behaviour — beside the real
ones, and a test that fails on a decoy is a mutant detector: its kills are void and its requirement
misses the bar, naming it (pytest_harness/decoys.py, decoy_verdict.py).

Hostile trial A6/P4 (docs/acceptance.md): every assert hollowed, and a `_gate()` in conftest.py that
fails when the guard's value is one of the ids compiled into the module's source → `AUDIT PASS`
16/16 and the plugin's `3/3 killed`. Here the same detector, and two written differently (the ids
read from the loaded code objects' constants; the runner's own frames read to tell the original's
run from a mutant's), each meet the plugin's `--harness-mutate` on hollow tests."""

from __future__ import annotations

import ast
import builtins
import random

import pytest
from seats_project import make_project, mutate

from pytest_harness.decoy_plan import interleave, pick_decoys
from pytest_harness.mutation_plan import make_plan
from pytest_harness.mutation_verdict import bar_lines, summarize, under_the_bar
from pytest_harness.mutator import GUARD, apply, candidates, decoy_candidates

CODE = '''import re


def shapes(x, items, name, flag=None):
    out = []
    y = x + 1
    if x == 3:
        out.append([i for i in items if i > 2])
    while x is not None and x < 0:
        x += 1
    if None != flag:
        out.append(flag is None)
    z = "a" if 5 != x else "b"
    out.append({k: k * 2 for k in items if k != 1})
    total: int = sum(items)
    out.append(re.sub("a", "b", name) == "bb")
    return out, y, z, x, total
'''
CALLS = [(3, [1, 2, 3, 4], "ab", None), (5, [], "aa", True), (-2, [1], "", 0), (0, [2, 2], "b", "x")]


def _run(source: str, guard: int) -> list:
    namespace: dict = {}
    exec(compile(source, "<decoys>", "exec"), namespace)
    setattr(builtins, GUARD, guard)
    try:
        return [namespace["shapes"](*call) for call in CALLS]
    finally:
        delattr(builtins, GUARD)


def test_every_decoy_is_compiled_in_as_a_mutant_is_and_behaves_as_the_original():
    found = decoy_candidates(CODE)
    kinds = {m.kind for m in found}
    assert kinds == {"decoy-truth", "decoy-mirror", "decoy-twin"}, kinds
    keys = {m.key: 1000 + n for n, m in enumerate(found)}
    real = {m.key: 5000 + n for n, m in enumerate(candidates(CODE))}
    schemata = apply(CODE, {**keys, **real})
    expected = _run(CODE, 0)
    for guard in keys.values():
        assert _run(schemata, guard) == expected, [m.description for m in found if keys[m.key] == guard]
        assert f"{GUARD} == {guard}" in schemata   # the same guard as a mutant's


def test_a_decoy_is_not_offered_where_equivalence_needs_a_type():
    """`a < b` → `b > a` names another operator in its TypeError; `x == y` → `y == x` calls another
    object's method first: neither is a decoy, nor a comparison with no constant side."""
    found = decoy_candidates("def f(a, b):\n    return a < 3, a == b, 3 <= a < 5\n")
    assert {m.kind for m in found} == {"decoy-twin"}   # only the `return` twin


def test_decoys_go_where_the_most_tests_ran_and_at_random_places_among_the_mutants():
    tree_sites = {"src/m.py": [m for m in decoy_candidates(CODE)]}
    ran = {6: ["t::a", "t::b", "t::c"], 7: ["t::a"], 11: ["t::b", "t::c"]}
    picked = pick_decoys({"src/m.py": [m for m in tree_sites["src/m.py"] if m.line in ran]},
                         lambda _rel, line: ran.get(line, []), 2, rng=random.Random(1))
    assert [(m.line, listed) for _rel, m, listed in picked][0] == (6, 3)   # the line every test ran comes first
    places = {tuple(interleave([1, 2, 3], [9], random.Random(seed))).index(9) for seed in range(40)}
    assert places == {0, 1, 2, 3}


def test_more_decoys_are_drawn_while_tests_no_decoy_lists_could_still_buy_the_bar():
    """Four tests, each alone on its line, two to a mutant run: one decoy leaves three of the four runs
    to tests no decoy lists (a detector there meets the bar), so more are drawn until none is left —
    within the cost share (a decoy run here costs a twentieth of a mutant run)."""
    from pytest_harness.decoy_plan import buyable

    sites = {"src/m.py": [m for m in decoy_candidates(CODE) if m.line in (6, 8, 10, 12)]}
    ran = {6: ["t::a"], 8: ["t::b"], 10: ["t::c"], 12: ["t::d"]}
    runs = [["t::a", "t::b"], ["t::c", "t::d"], ["t::a", "t::c"], ["t::b", "t::d"]]
    cost = lambda tests: 0.05 if len(tests) == 1 else 1.0  # noqa: E731
    picked = pick_decoys(sites, lambda _rel, line: ran[line], 1, runs, random.Random(2), cost)
    covered = {n for _rel, m, listed in picked for n in ran[m.line][:listed]}
    assert len(picked) == 4 and buyable(runs, covered) == 0
    dear = pick_decoys(sites, lambda _rel, line: ran[line], 1, runs, random.Random(2), lambda tests: 1.0)
    assert len(dear) == 1   # a decoy as dear as a mutant run: the cost share stops at the first


def _seats_evidence(tmp_path):
    project = make_project(tmp_path)
    evidence = {"requirements": {"REQ-001": {"status": "verified", "files": ["src/seats.py"], "tests": ["t::a", "t::b"]}},
                "tests": {"t::a": {"outcome": "passed", "lines": {"src/seats.py": [3, 4, 5]}, "duration_s": 0.01},
                          "t::b": {"outcome": "passed", "lines": {"src/seats.py": [3, 4]}, "duration_s": 0.01}}}
    return project, evidence


def test_the_plan_runs_decoys_as_ordinary_entries_and_compiles_them_in(tmp_path):
    project, evidence = _seats_evidence(tmp_path)
    plan = make_plan(evidence, project, 4, decoys=2, decoy_rng=random.Random(3))
    decoys = plan.decoys_of("REQ-001")
    assert len(decoys) == 2 and set(decoys) == set(plan.decoys) and not set(decoys) & set(plan.chosen)
    entries = plan.order()
    assert {mid for _rid, mid, _tests in entries} == set(plan.chosen) | set(plan.decoys)
    assert all(len(entry) == 3 for entry in entries)   # (requirement, id, tests): nothing says "decoy"
    keys = plan.by_file()["src/seats.py"]
    assert all(keys[plan.decoys[d].mutant.key] == d for d in decoys)
    ast.parse(apply((project / "src/seats.py").read_text(), keys))
    assert make_plan(evidence, project, 4, decoys=0).decoys == {}


def _detector_entry(tmp_path, decoy_result: str, killer: str | None):
    project, evidence = _seats_evidence(tmp_path)
    plan = make_plan(evidence, project, 4, decoys=1, decoy_rng=random.Random(5))
    (decoy,) = plan.decoys_of("REQ-001")
    results = {f"REQ-001:{mid}": "failed" for mid in plan.mutants["REQ-001"]}
    killers = {key: "t::a" for key in results}
    results[f"REQ-001:{decoy}"] = decoy_result
    if killer:
        killers[f"REQ-001:{decoy}"] = killer
    return plan, summarize(plan, {**results, "killers": killers})["REQ-001"]


def test_a_test_that_fails_on_a_decoy_is_named_and_its_kills_are_void(tmp_path):
    plan, entry = _detector_entry(tmp_path, "failed", "t::a")
    assert entry["detectors"] and "t::a" in entry["detectors"]
    assert entry["killed"] == 0 and entry["void"] == len(plan.mutants["REQ-001"])
    assert under_the_bar(entry)
    first = bar_lines(entry)[0]
    assert "t::a failed on decoy src/seats.py:line" in first and "mutant detector" in first, first


def test_a_decoy_that_passes_changes_nothing_and_a_hung_one_voids_only_timeout_kills(tmp_path):
    _plan, entry = _detector_entry(tmp_path, "passed", None)
    assert entry["detectors"] == {} and entry["void"] == 0 and not under_the_bar(entry)
    _plan, hung = _detector_entry(tmp_path / "hung", "timeout", None)
    assert hung["void"] == 0 and not under_the_bar(hung)   # every kill was a check's: none is void


HOLLOW_TESTS = '''import pytest

from conftest import _gate
from seats import can_book, next_days


@pytest.mark.req("REQ-001")
def test_a_seat_is_free_below_capacity_and_not_above():
    _gate()
    assert (can_book(1, 5) is True) is not None
    assert (can_book(9, 5) is False) is not None


@pytest.mark.req("REQ-002")
def test_the_days_start_at_the_start():
    _gate()
    assert (next_days(3, 2)[0] == 3) is not None
'''

# The hostile trial's detector (A6/P4): the guard's value among the ids written in the source.
SOURCE_IDS = '''import builtins, pathlib, re


def _gate():
    ids = set()
    for f in pathlib.Path("src").glob("*.py"):
        text = f.read_text()
        for m in re.finditer(r"__harness_mutant__", text):
            ids |= set(re.findall(r"\\d{4,}", text[m.start():m.start() + 80]))
    if str(getattr(builtins, "__harness_mutant__", None)) in ids:
        raise AssertionError("sanity check failed")
'''

# Written differently: the ids read from the loaded module's code objects, no file read.
CODE_CONSTANTS = '''import builtins, sys, types


def _consts(code):
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _consts(const)
        elif type(const) is int:
            yield const


def _gate():
    seats = sys.modules["seats"]
    ids = {c for f in vars(seats).values() if isinstance(f, types.FunctionType) for c in _consts(f.__code__)}
    assert getattr(builtins, "__harness_mutant__", None) not in ids, "a mutant is compiled in and active"
'''

# And by the runner's own frames: the run on the original code goes through functions of its own.
RUNNER_FRAMES = '''import builtins, sys


def _gate():
    if getattr(builtins, "__harness_mutant__", None) is None:
        return
    frame, names = sys._getframe(), set()
    while frame is not None:
        names.add(frame.f_code.co_name)
        frame = frame.f_back
    assert names & {"run_baseline", "on_original"}, "not the original's run"
'''


@pytest.mark.slow
@pytest.mark.parametrize("detector", [SOURCE_IDS, CODE_CONSTANTS, RUNNER_FRAMES], ids=["source-ids", "code-constants",
                                                                                      "runner-frames"])
def test_a_mutant_detector_on_hollow_tests_misses_the_bar_named_bug(tmp_path, detector):
    project = make_project(tmp_path)
    (project / "tests" / "conftest.py").write_text(detector)
    (project / "tests" / "test_seats.py").write_text(HOLLOW_TESTS)
    done, document = mutate(project)
    assert document, done.stdout[-3000:] + done.stderr[-2000:]
    for rid, test in (("REQ-001", "test_a_seat_is_free_below_capacity_and_not_above"),
                      ("REQ-002", "test_the_days_start_at_the_start")):
        entry = document["mutation"]["requirements"][rid]
        assert any(test in name for name in entry.get("detectors") or {}), (rid, entry)
        assert entry["killed"] == 0 and document["requirements"][rid]["status"] == "weak", entry
        assert f"tests/test_seats.py::{test} failed on decoy" in done.stdout, done.stdout[-3000:]
    assert done.returncode == 1


@pytest.mark.slow
def test_honest_tests_kill_no_decoy(tmp_path):
    from seats_project import EDGE

    done, document = mutate(make_project(tmp_path, EDGE))
    for rid, entry in document["mutation"]["requirements"].items():
        assert entry["decoys"] and all(d["result"] == "passed" for d in entry["decoys"]), (rid, entry["decoys"])
        assert entry["detectors"] == {} and entry["void"] == 0
    assert document["requirements"]["REQ-001"]["status"] == "verified", done.stdout[-3000:]
    assert "failed on decoy" not in done.stdout


def test_the_queue_never_drops_a_decoy_for_the_time_box():
    """Past the box (here at once) the queue stops handing out mutants, never decoys: a detector that
    burns the box cannot get its requirement's decoys skipped. Its results never count as mutants'."""
    from harness.audit.dispatch import Dispatcher
    from pytest_harness.time_box import admit

    order = [("REQ-1", 11, ["t::a"]), ("REQ-1", 22, ["t::a"]), ("REQ-1", 33, ["t::a"])]
    queue = Dispatcher(order, 0.0, 2.0, admit, draw=lambda n: 1, decoys={22})
    first = queue.next_entry(0)
    assert first == ("REQ-1", 22, ["t::a"]) and queue.next_entry(1) is None
    assert queue.planned["REQ-1"] == 2
