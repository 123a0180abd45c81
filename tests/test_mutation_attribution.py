"""Bug (#47, found building a loans app with a capacity and a computed value): the mutation audit
charged a requirement with the mutants of every line its tests ran, so the lines every test runs —
a list's sort order, the update path's lock, a helper every endpoint calls — came up as survivors of
requirements whose behaviour they are not (the computed-value requirement 2/4 with the sort order's
`order == 'desc'` and the capacity's `states` surviving; a stranger's spec failed REQ-009 at 1/4).

Now (pytest_harness/mutation_attribution.py) a line the tests of more than half of the requirements
listing its file run is shared. A requirement's mutants are its own lines' first; a mutant on a
shared line that survives its tests runs on against the rest of the suite: killed there it is
"elsewhere" (someone else's checked behaviour: not counted), surviving the whole suite it is this
requirement's survivor (never dropped).

The project below: `listed` (the sort order, REQ-001) is run by every requirement's tests; `total`
(REQ-002) and `over` (REQ-003) only look at which items there are, never at their order."""

from __future__ import annotations

import pytest
from seats_project import mutate

from pytest_harness.mutation_attribution import is_shared, shared_lines, split_own, verdict_of

SHELF = '''def listed(items, order="asc"):
    """The items in order: ascending, or descending with order="desc"."""
    descending = order == "desc"
    if descending:
        return sorted(items, reverse=True)
    return sorted(items)


def total(items):
    """The sum of the items."""
    return sum(listed(items))


def over(items, limit):
    """How many items are above `limit`."""
    return len([x for x in listed(items) if x > limit])
'''
SORT_CHECKED = '''    assert listed([3, 1, 2]) == [1, 2, 3]
    assert listed([3, 1, 2], "desc") == [3, 2, 1]
'''
SORT_BLIND = '''    assert sorted(listed([3, 1, 2])) == [1, 2, 3]
    assert sorted(listed([3, 1, 2], "desc")) == [1, 2, 3]
'''
TESTS = '''import pytest

from shelf import listed, over, total


@pytest.mark.req("REQ-001")
def test_listed_orders_both_ways():
{sort}

@pytest.mark.req("REQ-002")
def test_total_adds_every_item():
    assert total([3, 1, 2]) == 6


@pytest.mark.req("REQ-003")
def test_over_counts_the_items_above_the_limit():
    assert over([1, 4, 9], 4) == 1
'''
REQUIREMENTS = '''[requirements]
REQ-001 = "The shelf lists its items in ascending or descending order"
REQ-002 = "The shelf shows the total of its items"
REQ-003 = "The shelf counts the items above a limit"

[files]
REQ-001 = ["src/shelf.py"]
REQ-002 = ["src/shelf.py"]
REQ-003 = ["src/shelf.py"]
'''
LISTED = set(range(1, 7))          # the lines of `listed` in SHELF
TOTAL, OVER = {11}, {16}            # `total`'s and `over`'s own lines


def _project(tmp_path, sort: str):
    project = tmp_path / "shelf_project"
    (project / "src").mkdir(parents=True)
    (project / "tests").mkdir()
    (project / "src" / "shelf.py").write_text(SHELF)
    (project / "tests" / "test_shelf.py").write_text(TESTS.format(sort=sort))
    (project / "requirements.toml").write_text(REQUIREMENTS)
    (project / "pytest.ini").write_text("[pytest]\ntestpaths = tests\npythonpath = src\naddopts = -p no:cacheprovider\n")
    return project


@pytest.mark.slow
def test_shared_line_mutants_not_charged_to_unrelated_requirement(tmp_path):
    """Before: REQ-002 and REQ-003 each had `order == 'desc'` (or `descending` negated) among their
    mutants and counted it as a survivor of their order-blind tests (each 2/4 killed)."""
    done, document = mutate(_project(tmp_path, SORT_CHECKED))
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    block = document["mutation"]
    reqs = block["requirements"]
    for rid, own in (("REQ-002", TOTAL), ("REQ-003", OVER)):
        entry = reqs[rid]
        assert entry["survived"] == [] and entry["killed"] >= 1, entry
        assert document["requirements"][rid]["status"] == "verified"
        assert any(d["line"] in own for d in entry["details"])
        for d in entry["details"]:   # a line of `listed`: shared, and only the sort test kills it
            assert d["shared"] == (d["line"] in LISTED), d
            if d["result"] == "elsewhere":
                assert d["line"] in LISTED and d["killed_by"].endswith("test_listed_orders_both_ways"), d
    assert any(d["result"] == "elsewhere" for rid in ("REQ-002", "REQ-003") for d in reqs[rid]["details"])
    assert reqs["REQ-001"]["survived"] == [] and reqs["REQ-001"]["killed"] == reqs["REQ-001"]["mutants"]
    assert block["shared"]["elsewhere"] >= 1 and block["shared"]["survived"] == 0
    assert "harness mutation: shared lines:" in done.stdout


@pytest.mark.slow
def test_a_shared_mutant_the_whole_suite_lets_survive_is_a_survivor_of_the_requirement_judging_it(tmp_path):
    """No test checks the order: a mutant of the sort order survives every test, so it is not dropped
    as someone else's but stays a survivor of each requirement whose plan holds it."""
    done, document = mutate(_project(tmp_path, SORT_BLIND))
    block = document["mutation"]
    assert block["shared"]["survived"] >= 1 and block["shared"]["elsewhere"] == 0, block["shared"]
    survivors = [(rid, d) for rid, e in block["requirements"].items() for d in e["details"] if d["result"] == "passed"]
    assert survivors and all(d["shared"] and d["line"] in LISTED for _rid, d in survivors), survivors
    for rid, d in survivors:
        assert f"{d['file']}:{d['description']}" in block["requirements"][rid]["survived"]
    assert sorted(block["shared"]["survivors"]) == sorted(f"{rid}: {d['file']}:{d['description']}"
                                                          for rid, d in survivors)


@pytest.mark.parametrize("ran_by, listed_by, shared", [
    (1, 1, False),   # one requirement's own line
    (1, 5, False),
    (2, 2, True),    # both requirements that list the file run it
    (2, 5, False),   # two of five: theirs (the capacity's and the workflow's state change)
    (3, 5, True),    # most of them: the sort order every list runs
    (2, 3, True),
])
def test_a_line_is_shared_when_most_requirements_listing_its_file_run_it(ran_by, listed_by, shared):
    assert is_shared(ran_by, listed_by) is shared


def test_own_and_shared_lines_of_each_requirement():
    lines_of = {"REQ-001": {"m.py": {1, 2, 3}}, "REQ-002": {"m.py": {1, 2}}, "REQ-003": {"m.py": {1, 2, 9}}}
    shared = shared_lines(lines_of, {rid: {"m.py"} for rid in lines_of})
    assert shared == {"m.py": {1, 2}}
    assert split_own(lines_of["REQ-001"], shared) == ({"m.py": {3}}, {"m.py": {1, 2}})
    assert split_own(lines_of["REQ-002"], shared) == ({}, {"m.py": {1, 2}})


@pytest.mark.parametrize("status, killer, verdict", [
    ("failed", "tests/t.py::own", "failed"),
    ("failed", "tests/t.py::other", "elsewhere"),   # its own tests all passed
    ("passed", None, "passed"),                      # the whole suite passed: its survivor
    ("timeout", None, "timeout"),
    ("failed", None, "failed"),
])
def test_a_kill_by_another_requirements_test_is_elsewhere(status, killer, verdict):
    assert verdict_of(status, killer, {"tests/t.py::own"}) == verdict


def test_a_requirement_whose_mutants_were_all_killed_elsewhere_killed_none_and_is_under_the_bar():
    """Blind tests that run only the code every test runs (app start-up) must not pass on the kills
    of the other requirements' tests."""
    from pytest_harness.mutation_verdict import bar_lines, under_the_bar

    entry = {"mutants": 3, "killed": 0, "survived": [], "elsewhere": 3, "invalid": 0, "time_box": 0, "details": []}
    assert under_the_bar(entry)
    assert bar_lines(entry)[0].startswith("tests do not detect a broken implementation: 0/3 mutants killed")
    assert "3 killed only by other requirements' tests" in bar_lines(entry)[0]


def _shelf_evidence() -> dict:
    lines = {"test_listed": {1, 3, 4, 5, 6}, "test_total": {3, 4, 6, 11}, "test_over": {3, 4, 6, 16}}
    tests = {f"tests/test_shelf.py::{name}": {"outcome": "passed", "duration_s": 0.01, "lines": {"src/shelf.py": sorted(ran)}}
             for name, ran in lines.items()}
    reqs = {rid: {"status": "verified", "files": ["src/shelf.py"], "tests": [f"tests/test_shelf.py::{name}"]}
            for rid, name in (("REQ-001", "test_listed"), ("REQ-002", "test_total"), ("REQ-003", "test_over"))}
    return {"requirements": reqs, "tests": tests}


def test_a_plan_takes_own_lines_first_more_sites_of_them_then_shared_lines_run_on_the_rest_of_the_suite(tmp_path):
    from pytest_harness.mutation_plan import make_plan

    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "shelf.py").write_text(SHELF)
    plan = make_plan(_shelf_evidence(), tmp_path, 4)
    lines = {rid: [plan.chosen[mid].mutant.line for mid in ids] for rid, ids in plan.mutants.items()}
    assert lines["REQ-003"][:3] == [16, 16, 16]          # `over`'s one line: three behaviour-changing sites
    assert lines["REQ-003"][3] in (3, 4, 6)               # then a shared line of `listed`
    assert lines["REQ-002"][0] == 11 and set(lines["REQ-002"][1:]) <= {3, 4, 6}
    for rid, ids in plan.mutants.items():
        for mid in ids:
            tests = plan.runs[(rid, mid)]
            own = [n for n in tests if n in plan.tests[rid]]
            assert tests[:len(own)] == own                  # its own tests first
            if mid in plan.shared:                          # then every other passing test that ran the line
                assert len(tests) == 3 and plan.chosen[mid].mutant.line in (3, 4, 6)
            else:
                assert tests == own
