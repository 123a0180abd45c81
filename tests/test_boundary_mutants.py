"""#47: boundary mutants. A test that checks a comparison only far from its edge (`can_book(1, 5)`,
`can_book(9, 5)`) kills `<` → `>=` but not `<` → `<=`; one that reads only the first of a range's
days never sees `range(start, stop - 1)`. Before, the mutator had no such kind: both requirements'
tests killed every mutant they were given. Run through `--harness-mutate` (a real pytest session and
the real mutation runner); the survivor is listed with its line and diff in the mutation block,
which is the same per-requirement summary audit.json holds (pytest_harness/mutation_verdict.py)."""

from __future__ import annotations

import pytest
from seats_project import EDGE, SEATS, make_project, mutate

from pytest_harness.mutant_diff import line_diff
from pytest_harness.mutator import candidates

def _boundaries(document: dict, rid: str) -> list[dict]:
    return [d for d in document["mutation"]["requirements"][rid]["details"] if d["kind"] == "boundary"]


def test_the_mutator_offers_each_boundary_with_its_line_diff():
    sites = {(m.kind, m.line): m for m in candidates(SEATS)}
    assert line_diff(SEATS, sites[("boundary", 3)]) == "-    if taken < capacity:\n+    if taken <= capacity:"
    assert line_diff(SEATS, sites[("boundary", 10)]) == ("-    return list(range(start, start + days))\n"
                                                         "+    return list(range(start, start + days - 1))")
    eq = candidates("def empty(rows):\n    return len(rows) == 0\n")
    assert [line_diff("def empty(rows):\n    return len(rows) == 0\n", m) for m in eq if m.kind == "boundary"] == [
        "-    return len(rows) == 0\n+    return len(rows) == 1"]
    assert not [m for m in candidates("def f(a, b):\n    return a is b or a == True\n") if m.kind == "boundary"]


@pytest.mark.slow
def test_tests_that_never_probe_the_boundary_let_the_boundary_mutant_survive(tmp_path):
    done, document = mutate(make_project(tmp_path))
    assert document, done.stdout[-3000:] + done.stderr[-2000:]
    for rid, line, diff in (("REQ-001", 3, "-    if taken < capacity:\n+    if taken <= capacity:"),
                            ("REQ-002", 10, "-    return list(range(start, start + days))\n"
                                            "+    return list(range(start, start + days - 1))")):
        boundary = _boundaries(document, rid)
        # REQ-002's line has no other comparison; on REQ-001's `<` the plan's seeded choice (seed and
        # requirement id, reproducible) takes the boundary over the swap, which ranks the same
        assert [(d["line"], d["diff"]) for d in boundary] == [(line, diff)], document["mutation"]["requirements"][rid]
        assert boundary[0]["result"] == "passed", boundary   # survived
        assert f"src/seats.py:{boundary[0]['description']}" in document["mutation"]["requirements"][rid]["survived"]
    assert "survived: src/seats.py:line 10: boundary `start + days` → `start + days - 1`" in done.stdout


@pytest.mark.slow
def test_a_test_that_probes_the_boundary_kills_it(tmp_path):
    done, document = mutate(make_project(tmp_path, edge=EDGE))
    assert document, done.stdout[-3000:] + done.stderr[-2000:]
    boundary = _boundaries(document, "REQ-001")
    assert [(d["line"], d["result"]) for d in boundary] == [(3, "failed")], boundary   # killed
    assert document["requirements"]["REQ-001"]["status"] == "verified"
