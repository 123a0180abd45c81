"""Bug (#47, found building a loans app with a capacity and a computed value): the mutation audit
charged a requirement with the mutants of every line its tests ran, so the lines every test runs —
a list's sort order, the update path's lock, a helper every endpoint calls — came up as survivors of
requirements whose behaviour they are not (the computed-value requirement 2/4 with the sort order's
`order == 'desc'` and the capacity's `states` surviving; a stranger's spec failed REQ-009 at 1/4).

Now (pytest_harness/mutation_attribution.py) a line the tests of more than half of the requirements
listing its file run is shared: its mutants are judged by the whole suite, reported apart, and one
the whole suite lets survive counts against every requirement whose tests ran it. A requirement
answers with its own tests only for its own lines.

The project below: `listed` (the sort order, REQ-001) is run by every requirement's tests; `total`
(REQ-002) and `over` (REQ-003) only look at which items there are, never at their order."""

from __future__ import annotations

import pytest
from seats_project import mutate

from pytest_harness.mutation_attribution import ONLY_SHARED, is_shared, split_lines
from pytest_harness.time_box import SHARED

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
    mutants, surviving their order-blind tests; there was no shared entry."""
    done, document = mutate(_project(tmp_path, SORT_CHECKED))
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    block = document["mutation"]
    reqs = block["requirements"]
    assert {d["line"] for d in reqs["REQ-002"]["details"]} <= TOTAL, reqs["REQ-002"]["details"]
    assert {d["line"] for d in reqs["REQ-003"]["details"]} <= OVER, reqs["REQ-003"]["details"]
    assert all(d["line"] in LISTED for d in reqs["REQ-001"]["details"]), reqs["REQ-001"]["details"]
    shared = block["shared"]
    assert shared["details"] and all(d["line"] in LISTED for d in shared["details"])
    assert all(d["charged"] == ["REQ-001", "REQ-002", "REQ-003"] for d in shared["details"])
    assert shared["killed"] == shared["mutants"] == len(shared["details"])   # the sort test kills them
    assert any(d["kind"] == "compare" and d["line"] == 3 for d in shared["details"])
    for rid in ("REQ-001", "REQ-002", "REQ-003"):
        assert reqs[rid]["survived"] == [] and document["requirements"][rid]["status"] == "verified", reqs[rid]
    assert "harness mutation: shared lines" in done.stdout


@pytest.mark.slow
def test_a_shared_mutant_the_whole_suite_lets_survive_counts_against_every_requirement_that_ran_it(tmp_path):
    """No test checks the order: the shared survivors are not dropped but charged to each of the
    three requirements, and each falls under the bar (its own kill against two shared survivors)."""
    done, document = mutate(_project(tmp_path, SORT_BLIND))
    assert done.returncode == 1, done.stdout[-3000:] + done.stderr[-2000:]
    block = document["mutation"]
    survivors = [d for d in block["shared"]["details"] if d["result"] == "passed"]
    assert survivors and all(d["charged"] == ["REQ-001", "REQ-002", "REQ-003"] for d in survivors)
    for rid in ("REQ-001", "REQ-002", "REQ-003"):
        entry = block["requirements"][rid]
        assert sorted(entry["shared_survived"]) == sorted(d["id"] for d in survivors), entry
        assert sum("(shared line: no test of the suite detects it)" in s for s in entry["survived"]) == len(survivors)
        assert document["requirements"][rid]["status"] == "weak", entry


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


def test_a_requirement_whose_tests_ran_only_shared_lines_has_no_own_line_and_is_not_given_another():
    """Giving it its least-shared lines brought the bug back (the computed value judged on the sort
    order); it answers for the shared survivors on its lines instead (ONLY_SHARED)."""
    lines_of = {"REQ-001": {"m.py": {1, 2, 3}}, "REQ-002": {"m.py": {1, 2}}, "REQ-003": {"m.py": {1, 2, 9}}}
    own, shared = split_lines(lines_of, {rid: {"m.py"} for rid in lines_of}, {"m.py": {1, 2, 3, 9}})
    assert shared == {"m.py": {1, 2}}
    assert own == {"REQ-001": {"m.py": {3}}, "REQ-002": {}, "REQ-003": {"m.py": {9}}}
    assert ONLY_SHARED and SHARED not in own


def _plan_with_shared(results_of: dict[int, str]):
    from pytest_harness.mutation_plan import AuditPlan, Chosen
    from pytest_harness.mutator import Mutant

    plan = AuditPlan(skipped={"REQ-002": ONLY_SHARED})
    plan.mutants = {"REQ-001": [1], SHARED: [2, 3]}
    for mid, line in ((1, 9), (2, 1), (3, 2)):
        plan.chosen[mid] = Chosen(id=mid, file="m.py", mutant=Mutant(line=line, kind="compare", key=f"k{mid}",
                                                                      description=f"line {line}: swapped"))
    plan.charged = {2: ["REQ-001", "REQ-002"], 3: ["REQ-001", "REQ-002"]}
    return plan, {f"{SHARED if mid > 1 else 'REQ-001'}:{mid}": r for mid, r in results_of.items()}


def test_shared_kills_count_only_for_a_requirement_without_own_lines_and_survivors_for_everyone():
    from pytest_harness.mutation_verdict import shared, summarize, under_the_bar

    plan, results = _plan_with_shared({1: "failed", 2: "failed", 3: "passed"})
    reqs, common = summarize(plan, results), shared(plan, results)
    assert (common["killed"], common["mutants"]) == (1, 2)
    own = reqs["REQ-001"]    # its own kill; the shared survivor against it, the shared kill not for it
    assert (own["killed"], own["mutants"], own["shared_survived"]) == (1, 2, [3]) and not under_the_bar(own)
    only = reqs["REQ-002"]   # only shared lines: the whole suite's kill and survivor on them
    assert (only["killed"], only["mutants"], only["skipped"], only["shared_killed"]) == (1, 2, None, [2])
    assert any("(shared line: no test of the suite detects it)" in s for s in only["survived"])
    plan, results = _plan_with_shared({1: "failed", 2: "passed", 3: "not_run"})
    reqs = summarize(plan, results)
    assert under_the_bar(reqs["REQ-002"]) and under_the_bar(reqs["REQ-001"])   # 0/1 + one left open; 1/2 + one open
