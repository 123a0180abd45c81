"""#47: the run on the original code (the confirmation) must look like a mutant's run to the code under
test. The guard `__harness_mutant__` is set in both; before, mutants had the ids 1..n and the original
a random number above 2**20, so `0 < guard < 2**20` meant "a mutant": a test that fails exactly then
killed every mutant and passed on the original, and hollow tests (`assert v or not v`) met the bar.
Now every id — each mutant's and the original's — is an independent draw from one uniform range.

Two tests: the draws themselves (the original's rank among the ids is uniform, so no order statistic
of the value does better than chance), and a real `--harness-mutate` session whose tests record
everything cheap a fork can see (the guard's value and type, the environment, argv, the working
directory, the names in builtins) and fail on the old feature. What it does not cover: code that
inspects the runner's own frames or module state, or compares the guard with the ids compiled into
its module, can still tell (in-process introspection; docs/acceptance.md, threat model)."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from seats_project import make_project, mutate

from pytest_harness.mutation_plan import ID_SPACE, guard_ids


SPYING_TESTS = '''import builtins
import hashlib
import json
import os
import sys

import pytest

from seats import can_book, next_days


def _looks_like_a_mutant_run() -> bool:
    """Record what this fork can see; answer by the feature that told the runs apart before."""
    guard = getattr(builtins, "__harness_mutant__", None)
    if guard is None:
        return False   # the evidence session: no audit
    seen = {"guard": guard, "type": type(guard).__name__, "argv": sys.argv, "cwd": os.getcwd(),
            "env": hashlib.sha256(json.dumps(sorted((k, v) for k, v in os.environ.items()
                                                   if k != "PYTEST_CURRENT_TEST")).encode()).hexdigest(),
            "current_test": os.environ.get("PYTEST_CURRENT_TEST"),   # per test, the same in either run
            "builtins": sorted(n for n in dir(builtins) if not n.startswith("__harness"))}
    with open(os.path.join(os.environ["SPY_DIR"], f"{os.getpid()}-{len(os.listdir(os.environ['SPY_DIR']))}.json"),
              "w") as out:
        json.dump(seen, out)
    return 0 < guard < 2 ** 20


@pytest.mark.req("REQ-001")
def test_a_seat():
    assert not _looks_like_a_mutant_run(), "audit detected"
    free, full = can_book(1, 5), can_book(9, 5)
    assert (free or not free) and (full or not full)


@pytest.mark.req("REQ-002")
def test_the_days():
    assert not _looks_like_a_mutant_run(), "audit detected"
    days = next_days(3, 2)
    assert days or not days
'''


def test_the_original_id_is_drawn_like_a_mutant_id_so_its_rank_is_uniform():
    """Over 5000 audits of 4 mutants, the original's id is the smallest, 2nd, ..., largest of the 5
    equally often (1000 each, ±150 ≈ 5.6 standard deviations). Before: always the largest."""
    from pytest_harness.mutation_runner import original_id

    ranks = Counter()
    for _ in range(5000):
        ids = guard_ids(4)
        original = original_id({"order": [["REQ-1", mid, []] for mid in ids]})
        assert original not in ids and 1 <= original < ID_SPACE and all(1 <= i < ID_SPACE for i in ids)
        ranks[sorted([*ids, original]).index(original)] += 1
    assert sorted(ranks) == [0, 1, 2, 3, 4]
    assert all(850 <= n <= 1150 for n in ranks.values()), ranks
    # the old feature, and any fixed threshold, says nothing: a draw under 2**20 is ~1e-10 likely for either
    assert all(i >= 2 ** 20 for i in guard_ids(1000))


@pytest.mark.slow
def test_a_fork_sees_the_same_on_the_original_code_as_under_a_mutant_and_buys_no_kill(tmp_path, monkeypatch):
    project = make_project(tmp_path)
    (project / "tests" / "test_seats.py").write_text(SPYING_TESTS)
    spy = tmp_path / "spy"
    spy.mkdir()
    monkeypatch.setenv("SPY_DIR", str(spy))   # the audit session inherits it (mutate.py drops only HARNESS_*)
    done, document = mutate(project)
    assert document, done.stdout[-3000:] + done.stderr[-2000:]
    block = document["mutation"]
    mutant_ids = {d["id"] for entry in block["requirements"].values() for d in entry["details"]}
    seen = [json.loads(p.read_text()) for p in sorted(spy.glob("*.json"))]
    originals = [s for s in seen if s["guard"] not in mutant_ids]
    mutants = [s for s in seen if s["guard"] in mutant_ids]
    assert originals and mutants, (seen, mutant_ids)   # both kinds of run were observed
    for feature in ("type", "argv", "cwd", "env", "builtins"):
        assert len({json.dumps(s[feature]) for s in seen}) == 1, feature   # the same in every fork
    for test in {s["current_test"] for s in seen}:   # what pytest sets per test: alike in both kinds of run
        assert test in {s["current_test"] for s in originals} and test in {s["current_test"] for s in mutants}, test
    assert all(1 <= s["guard"] < ID_SPACE for s in seen)
    # the detector never fired, so it bought no kill: the hollow tests miss the bar
    for rid in ("REQ-001", "REQ-002"):
        entry = block["requirements"][rid]
        assert entry["killed"] == 0 and entry["survived"], entry
        assert document["requirements"][rid]["status"] == "weak"
    assert done.returncode == 1


# A fork can tell "a test already failed in this process": before, the confirmation on the original
# code ran its tests in one fork and went on after a failure, while a mutant's fork stopped at its
# first failed check. A sacrificial test that fails under any audit (REQ-002's, sorted first) then
# told the REQ-001 test running after it that this was the original: that test failed in every
# mutant's fork and passed in the confirmation, and hollow REQ-001 tests killed every mutant.
CONTINUATION_TESTS = """import builtins

import pytest

from seats import can_book, next_days

_FAILED_IN_THIS_PROCESS = []


@pytest.mark.req("REQ-002")
def test_aaa_sacrifice():
    days = next_days(3, 2)
    if getattr(builtins, "__harness_mutant__", None) is not None:   # under the audit, in any fork
        _FAILED_IN_THIS_PROCESS.append(True)
        assert False, "sacrificed"
    assert days or not days


@pytest.mark.req("REQ-001")
def test_zzz_seat():
    free = can_book(1, 5)
    in_audit = getattr(builtins, "__harness_mutant__", None) is not None
    assert not in_audit or _FAILED_IN_THIS_PROCESS, "a mutant, by the old runner's continuation"
    assert free or not free
"""


@pytest.mark.slow
def test_confirmation_is_not_told_apart_by_going_on_after_a_failure(tmp_path):
    """Old runner: REQ-001 4/4 killed (meets the bar) with tests that check nothing. Now the
    confirmation's fork stops at the sacrifice too, the seat test runs in a fresh fork, fails there
    as in every mutant's, and proves nothing: REQ-001 killed none."""
    project = make_project(tmp_path)
    (project / "tests" / "test_seats.py").write_text(CONTINUATION_TESTS)
    done, document = mutate(project)
    assert document, done.stdout[-3000:] + done.stderr[-2000:]
    block = document["mutation"]
    entry = block["requirements"]["REQ-001"]
    assert entry["killed"] == 0, entry
    assert all(d["result"] == "unjudged" for d in entry["details"]), entry["details"]
    assert sorted(block["baseline"]["failed"]) == ["tests/test_seats.py::test_aaa_sacrifice",
                                                   "tests/test_seats.py::test_zzz_seat"]
    assert entry["skipped"] == "its tests did not pass on the unmutated copy"



# A test can count its own runs (here through a file; the tmp_path root, a lock file or a port
# would do) and read how many mutant runs list it (the plan's path is on its command line).
# Before, the original code ran after every mutant: "more runs of me than mutants that list me"
# meant the original, and a test failing everywhere else killed every mutant with hollow checks.
COUNTING_TESTS = '''import builtins
import json
import os
import sys

import pytest

from seats import can_book, next_days


def _the_original(name: str) -> bool:
    """Whether this run of test `name` comes after every mutant run that lists it."""
    if getattr(builtins, "__harness_mutant__", None) is None:
        return True   # the evidence session: no audit
    plan = next(a.split("=", 1)[1] for a in sys.argv if a.startswith("--harness-mutants="))
    with open(plan) as f:
        mutants = sum(any(t.endswith("::" + name) for t in tests) for _, _, tests in json.load(f)["order"])
    with open(os.path.join(os.environ["SPY_DIR"], name), "a+") as log:
        log.write("run\\n")
        log.seek(0)
        runs = len(log.read().split())
    return runs > mutants


@pytest.mark.req("REQ-001")
def test_a_seat():
    assert _the_original("test_a_seat"), "a mutant, by position"
    free = can_book(1, 5)
    assert free or not free


@pytest.mark.req("REQ-002")
def test_the_days():
    assert _the_original("test_the_days"), "a mutant, by position"
    days = next_days(3, 2)
    assert days or not days
'''


def test_the_original_runs_a_test_before_one_of_its_mutant_runs_each_equally_likely():
    """Over 4000 audits whose 4 mutant runs all list test t (and 2 list u), the original runs t
    before its 1st, 2nd, 3rd or 4th run equally often (1000 each, ±150 ≈ 5.5 standard deviations)
    and u before either of its two, never after the last: before (#47), always after every mutant.
    What a test can see is how many of its own runs came first, so that is what is counted (u's
    original may share t's fork, before a run that lists only t, and still after u's first run when
    it comes before u's second). With 2 lanes on one queue, a lane expects half the runs: t before
    its 1st or 2nd."""
    from pytest_harness.mutation_runner import OriginalSlots

    order = [["R", 1, ["t", "u"]], ["R", 2, ["t"]], ["R", 3, ["t", "u"]], ["R", 4, ["t"]]]
    places: dict[str, Counter] = {"t": Counter(), "u": Counter()}
    for _ in range(4000):
        slots, done, seen = OriginalSlots(order), set(), Counter()
        for _r, _m, tests in order:
            for name in slots.before(tests, done):
                places[name][seen[name]] += 1
                done.add(name)
            seen.update(tests)
        assert done == {"t", "u"}
    assert sorted(places["t"]) == [0, 1, 2, 3] and all(850 <= n <= 1150 for n in places["t"].values()), places
    assert sorted(places["u"]) == [0, 1] and all(1850 <= n <= 2150 for n in places["u"].values()), places
    lane = Counter()
    for _ in range(2000):
        slots = OriginalSlots(order, lanes=2)
        lane[next(i for i in range(4) if slots.before(["t"], set()))] += 1
    assert sorted(lane) == [0, 1] and all(850 <= n <= 1150 for n in lane.values()), lane


def test_tests_drawn_for_their_next_runs_share_one_fork_on_the_original():
    """Every test drawn to run on the original before its next run goes into the first such fork:
    t (runs 1 and 3) and u (runs 2 and 3), both drawn for their first run, run on the original
    together before run 1 — one fork where each test had its own before (two forks: a fork's
    first test pays the fixtures and the app's first request again). u still runs there before
    any run of its own, as it was drawn to."""
    from pytest_harness.mutation_runner import OriginalSlots

    order = [["R", 1, ["t"]], ["R", 2, ["u"]], ["R", 3, ["t", "u"]]]
    slots, done = OriginalSlots(order, draw=lambda runs: 0), set()
    forks = [slots.before(tests, done) for _r, _m, tests in order]
    assert forks == [["t", "u"], [], []]


@pytest.mark.slow
def test_a_test_counting_its_runs_cannot_tell_the_original_by_position_bug(tmp_path, monkeypatch):
    """Old runner: both requirements' hollow tests killed every mutant (each test failed in its
    first m runs and passed in the confirmation, its (m+1)th). Now the original runs each test at
    one of its first m runs: the detector fails there, its failures prove nothing, no kill."""
    project = make_project(tmp_path)
    (project / "tests" / "test_seats.py").write_text(COUNTING_TESTS)
    spy = tmp_path / "spy"
    spy.mkdir()
    monkeypatch.setenv("SPY_DIR", str(spy))
    done, document = mutate(project)
    assert document, done.stdout[-3000:] + done.stderr[-2000:]
    block = document["mutation"]
    assert sorted(p.name for p in spy.iterdir()) == ["test_a_seat", "test_the_days"]   # the detector ran
    for rid in ("REQ-001", "REQ-002"):
        entry = block["requirements"][rid]
        assert entry["killed"] == 0, entry
    assert sorted(block["baseline"]["failed"]) == ["tests/test_seats.py::test_a_seat", "tests/test_seats.py::test_the_days"]
