"""One queue of mutants for the audit's lanes (harness/audit/dispatch.py and the lane's side,
pytest_harness/mutation_dispatch.py): plan order, the time box over every lane's verdicts, an
unknown verdict waited for past the box, a retried session's mutant given back, real pipes."""

from __future__ import annotations

import threading
import time

from harness.audit.dispatch import Dispatcher, LanePipes, serve
from pytest_harness.mutation_dispatch import DispatchedOrder, StaticOrder, order_source, private_fds
from pytest_harness.time_box import GRACE_FACTOR, admit

ORDER = [("REQ-001", 1, ["t1"]), ("REQ-002", 2, ["t2"]), ("REQ-001", 3, ["t1"]), ("REQ-002", 4, ["t2"])]


def test_lanes_take_the_mutants_in_plan_order_each_once():
    d = Dispatcher(ORDER, 10.0, GRACE_FACTOR, admit)
    taken = [d.next_entry(0), d.next_entry(1)]
    d.done(0, "REQ-001:1", "failed")
    taken.append(d.next_entry(0))
    d.done(1, "REQ-002:2", "passed")
    taken += [d.next_entry(1), d.next_entry(0)]
    assert taken == [*ORDER, None]


def test_past_the_box_a_requirement_goes_on_only_while_all_its_verdicts_survived():
    d = Dispatcher(ORDER, 10.0, GRACE_FACTOR, admit)
    d.started = time.monotonic() - 15.0   # past the 10 s box, within the 20 s grace
    d.results = {"REQ-001:1": "failed", "REQ-002:2": "passed"}
    d.pending = ORDER[2:]
    assert d.next_entry(0) == ("REQ-002", 4, ["t2"])   # REQ-001 has a kill: skipped; REQ-002 only survived
    assert d.next_entry(1) is None


def test_an_unknown_verdict_is_waited_for_before_the_box_decides():
    """Lane 1 still runs REQ-001's first mutant when the box ends: lane 0 must not skip REQ-001's
    next one on what it does not know yet (that is how '0/1 killed' came from the time box)."""
    d = Dispatcher(ORDER[:1] + ORDER[2:3], 10.0, GRACE_FACTOR, admit)
    assert d.next_entry(1) == ORDER[0]
    d.started = time.monotonic() - 15.0   # the 10 s box is over now (the grace is not)
    got: list = []
    waiter = threading.Thread(target=lambda: got.append(d.next_entry(0)))
    waiter.start()
    d.done(1, "REQ-001:1", "passed")   # it survived: REQ-001 goes on
    waiter.join(timeout=30)
    assert got == [ORDER[2]]


def test_a_retried_session_gives_its_unfinished_mutant_back_first():
    d = Dispatcher(ORDER, 10.0, GRACE_FACTOR, admit)
    assert d.next_entry(0) == ORDER[0]
    d.hello(0)   # the session was retried (a crashed warm worker): ORDER[0] was never judged
    assert d.next_entry(1) == ORDER[0]


def test_a_lane_and_the_harness_speak_over_real_pipes_and_garbage_ends_the_lane():
    d = Dispatcher(ORDER, 10.0, GRACE_FACTOR, admit)
    pipes, stop = LanePipes(), threading.Event()
    server = threading.Thread(target=serve, args=(d, 0, pipes.ask_read, pipes.answer_write, stop))
    server.start()
    ask, answer = pipes.lane_fds
    lane = DispatchedOrder(ask, answer)
    seen = []
    for rid, mid, tests in lane:
        seen.append((rid, mid, tests))
        lane.report(f"{rid}:{mid}", "failed")
    assert seen == ORDER and d.results == {f"{r}:{m}": "failed" for r, m, _ in ORDER}
    pipes.close_lane_side()
    stop.set()
    server.join(timeout=30)
    assert not server.is_alive()
    pipes.close()


def test_a_plan_without_pipes_keeps_its_own_order_and_box():
    results: dict[str, str] = {}
    plan = {"order": ORDER, "seconds": 10.0}
    source = order_source(plan, results, admit, started=0.0)
    assert isinstance(source, StaticOrder) and private_fds(plan) == ()
    assert isinstance(order_source({**plan, "dispatch": [5, 6]}, results, admit, 0.0), DispatchedOrder)
    assert private_fds({**plan, "dispatch": [5, 6]}) == (5, 6)


def test_the_harness_places_the_original_runs_without_importing_pytest_bug():
    """The queue's placing of the original runs (harness/audit/originals.py) imported OriginalSlots
    from pytest_harness.mutation_runner, so the harness's process imported pytest between the
    audit's plan and its first mutant (0.15-0.45 s on the critical path, measured in #47's pass);
    it now comes from pytest_harness.mutation_slots. A fresh interpreter imports the audit's
    modules, starts a queue and hands out a mutant with its original runs: no pytest."""
    import subprocess
    import sys

    code = ("import sys\n"
            "import harness.audit.run, harness.audit.replacements, harness.speed.audit_ahead, harness.speed.lanes_ahead\n"
            "from harness.audit.dispatch import Dispatcher\n"
            "from pytest_harness.time_box import GRACE_FACTOR, admit\n"
            "d = Dispatcher([('R', 1, ['t'])], 10.0, GRACE_FACTOR, admit, draw=lambda runs: 0)\n"
            "assert d.next_job(0) == {'run': ['R', 1, ['t']], 'original': ['t']}\n"
            "print(sorted(m for m in sys.modules if m == 'pytest' or m.startswith('_pytest')))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]", out.stdout
