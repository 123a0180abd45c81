"""#47: `pytest --harness-mutate` replaces an invalid mutant once, as the harness's audit does
(pytest_harness/mutation_replacements.py). Before, only the build path (harness/audit/run.py) drew
replacements: the plugin judged a requirement on fewer mutants than `builder audit` would.

The seats project's seat limit has five candidate sites; four are audited (`<=`, `>=`, and
`return None` for either answer). Its test checks that a full course is not bookable, then reads
the answer for a free seat through a dict that knows only `True`: `>=` fails the first check
(killed), `return None` for "free" crashes into the dict (KeyError: invalid, not a kill), the
other two survive — 1 of 3 judged, under the bar, with one invalid: an open verdict. Its
replacement, the negated condition, fails the first check too: 2 of 4, the bar met."""

from __future__ import annotations

import pytest
from seats_project import make_project, mutate

CRASHING_TESTS = '''import pytest

from seats import can_book, next_days


@pytest.mark.req("REQ-001")
def test_a_full_course_is_not_bookable_and_a_free_seat_is():
    assert can_book(9, 5) is not True
    assert {True: "free"}[can_book(1, 5)] == "free"


@pytest.mark.req("REQ-002")
def test_the_days_start_at_the_start():
    assert next_days(3, 2)[0] == 3
'''


@pytest.mark.slow
def test_the_plugin_replaces_an_invalid_mutant_once_as_the_build_does_bug(tmp_path):
    """Before: REQ-001 1/3 killed, 1 invalid, demoted to weak. Now: its replacement judged too, 2/4."""
    project = make_project(tmp_path)
    (project / "tests" / "test_seats.py").write_text(CRASHING_TESTS)
    done, document = mutate(project)
    assert document, done.stdout[-3000:] + done.stderr[-2000:]
    block = document["mutation"]
    entry = block["requirements"]["REQ-001"]
    got = {d["description"]: d["result"] for d in entry["details"]}
    assert sorted(got.values()) == ["failed", "failed", "invalid", "passed", "passed"], got
    assert got["line 3: condition `taken < capacity` negated"] == "failed", got   # the replacement
    assert block["replaced"] == 1 and block["error"] is None, block
    assert entry["killed"] == 2 and document["requirements"]["REQ-001"]["status"] == "verified", entry
