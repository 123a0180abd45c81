"""#47, the audit's cost: each test runs on the original code once per audit, over all its lanes.

Before, with two lanes on one queue, each lane placed the original runs of the tests it met
itself (OriginalSlots over its share of the runs), so a test listed by mutants in both lanes ran on
the original in both: about 30 % of the audit's forks, and the audit's share of a Todo build over
the 25 % bar. Now the queue (harness/audit/dispatch.py, originals.py) places each test's one
original run before one of all the lanes' runs that list it, each equally likely, never after the
last; the lanes record what they ran and the harness settles the verdicts from their files.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from harness.audit import lanes as lanes_mod
from harness.audit import scratch
from harness.audit.dispatch import Dispatcher
from pytest_harness.time_box import GRACE_FACTOR, admit

# test t is listed by all 4 runs, u by runs 1 and 3
ORDER = [("R", 1, ["t", "u"]), ("R", 2, ["t"]), ("R", 3, ["t", "u"]), ("R", 4, ["t"])]


def _one_audit(draw, lanes: int = 2) -> tuple[dict[str, tuple[int, int]], Counter]:
    """Two lanes taking turns on one queue, every test passing on the original and surviving every
    mutant: ({test: (how many of its own runs came before its original run, the lane)}, original
    runs per test)."""
    d = Dispatcher(ORDER, 60.0, GRACE_FACTOR, admit, draw=draw)
    placed, runs, seen, lane = {}, Counter(), Counter(), 0
    while True:
        job = d.next_job(lane)
        if job is None:
            break
        assert "run" in job, job   # no follow-up: every test had its original run among the runs
        rid, mid, tests = job["run"]
        for name in job["original"]:
            placed[name] = (seen[name], lane)   # how many of its own runs came before
            runs[name] += 1
        seen.update(tests)
        d.record(lane, {"original": {"tests": job["original"], "status": "passed", "broken": []},
                        "run": {"key": f"{rid}:{mid}", "items": tests, "status": "passed", "failed": []}})
        d.done(lane, f"{rid}:{mid}", "passed")
        lane = (lane + 1) % lanes
    return placed, runs


def test_with_two_lanes_each_test_runs_on_the_original_once_at_any_run_of_either_lane_bug():
    """Over 4000 audits (a fixed seed through the queue's `draw` seam; production draws from
    `secrets`): t's one original run comes before its 1st, 2nd, 3rd or 4th run equally often (1000
    each, ±150 ≈ 5.5 standard deviations), so in either lane half the time, and u's before its 1st
    or 2nd (runs 1 and 3; counted by u's own runs: it may share t's fork before run 2); never
    twice, never after the last. Before, the Dispatcher placed nothing (each lane ran
    every test it met on the original: t and u twice per audit with two lanes)."""
    rng = random.Random(47)
    places = {"t": Counter(), "u": Counter()}
    lanes_of = {"t": Counter(), "u": Counter()}
    for _ in range(4000):
        placed, runs = _one_audit(rng.randrange)
        assert runs == Counter({"t": 1, "u": 1}), runs
        for name, (position, lane) in placed.items():
            places[name][position] += 1
            lanes_of[name][lane] += 1
    assert sorted(places["t"]) == [0, 1, 2, 3] and all(850 <= n <= 1150 for n in places["t"].values()), places
    assert sorted(places["u"]) == [0, 1] and all(1850 <= n <= 2150 for n in places["u"].values()), places
    assert all(1850 <= n <= 2150 for n in lanes_of["t"].values()) and sorted(lanes_of["t"]) == [0, 1], lanes_of


def test_a_test_the_time_box_left_without_its_original_run_gets_it_after_the_runs_once():
    """The draw picks only at a test's last run; A:1 is killed by t, then the box skips A:2 (t's and
    u's last run): what the verdicts rest on is handed out after the runs, each test once. t fails
    on the original, so A:1 is judged again on u, which then runs on the original too."""
    import time

    order = [("A", 1, ["t", "u"]), ("A", 2, ["t", "u"])]
    d = Dispatcher(order, 10.0, GRACE_FACTOR, admit, draw=lambda r: 0 if r == 1 else 1)
    assert d.next_job(0) == {"run": ["A", 1, ["t", "u"]], "original": []}
    d.record(0, {"run": {"key": "A:1", "items": ["t", "u"], "status": "failed", "failed": ["t"]}})
    d.done(0, "A:1", "failed")
    d.started = time.monotonic() - 15.0   # past the box: A's verdict is settled, A:2 is skipped
    assert d.next_job(0) == {"original": ["t"]}
    d.record(0, {"original": {"tests": ["t"], "status": "failed", "broken": ["t"]}})
    assert d.next_job(0) == {"again": ["A", 1, ["u"]], "round": 1}
    d.record(0, {"run": {"key": "A:1", "items": ["u"], "status": "passed", "failed": [], "again": True}})
    assert d.next_job(0) == {"original": ["u"]}
    d.record(0, {"original": {"tests": ["u"], "status": "passed", "broken": []}})
    assert d.next_job(0) is None and d.next_job(1) is None
    assert d.originals.assigned == {"t", "u"}


def test_the_verdicts_are_settled_from_the_lanes_files_as_one_session_settles_them():
    """Lane 0 ran t on the original (it fails there) and R:1, lane 1 ran u and R:2 and R:1 again:
    R:1's first kill rested on t, so its verdict is the again run's; R:2 killed by u counts."""
    lane0 = {"records": {"originals": [{"tests": ["t"], "status": "failed", "broken": ["t"], "duration_s": 0.1}],
                         "runs": [{"key": "R:1", "items": ["t", "u"], "status": "failed", "failed": ["t"],
                                   "round": 0, "duration_s": 0.2}]}}
    lane1 = {"records": {"originals": [{"tests": ["u"], "status": "passed", "broken": [], "duration_s": 0.1}],
                         "runs": [{"key": "R:2", "items": ["u"], "status": "failed", "failed": ["u"], "round": 0,
                                   "duration_s": 0.1},
                                  {"key": "R:1", "items": ["u"], "status": "passed", "failed": [], "again": True,
                                   "round": 1, "duration_s": 0.1}]}}
    merged = lanes_mod.merge([lane0, lane1], planned=2)
    assert merged["results"] == {"R:1": "passed", "R:2": "failed"} and merged["killers"] == {"R:2": "u"}
    assert merged["baseline"] == {"status": "failed", "failed": ["t"], "tests": 2, "original_runs": 2, "planned": 2,
                                  "duration_s": 0.2, "method": "confirm", "lanes": 2}
    assert merged["durations"] == {"R:1": 0.3, "R:2": 0.1}
    # a kill whose test no file shows run on the original judges nothing
    lost = lanes_mod.merge([{"records": {"originals": [], "runs": lane0["records"]["runs"]}}], planned=2)
    assert lost["results"] == {"R:1": "error"}


@pytest.mark.slow
def test_two_lane_audit_runs_each_test_on_the_original_once_with_one_lanes_verdicts_bug(fresh_todo_run, monkeypatch):
    """A real audit of the Todo run: with two lanes the audit's own record counts each test's
    original runs — as many as distinct tests, no more than planned (before: every test a lane met,
    once per lane, e.g. 'tests' 2x the distinct ones) — and the verdicts are one lane's."""
    from harness.audit.run import AuditBudget, audit_run

    store, run_id = fresh_todo_run
    found = {}
    for n in (1, 2):
        monkeypatch.setenv(scratch.ENV_LANES, str(n))
        audit_run(store, store.load(run_id), AuditBudget(), say=lambda _line: None)
        doc = json.loads(store.artifact_path(run_id, "audit").read_text())
        found[n] = ({(rid, d["file"], d["description"]): d["result"]
                     for rid, entry in doc["requirements"].items() for d in entry["details"]}, doc)
    verdicts, doc = found[2]
    assert doc["lanes"] == 2 and doc["complete"], doc
    baseline = doc["baseline"]
    assert baseline["status"] == "passed" and baseline["lanes"] == 2, baseline
    assert baseline["tests"] <= baseline["planned"], baseline   # before: 'tests' summed each lane's original runs
    assert baseline["original_runs"] == baseline["tests"], baseline
    assert found[1][1]["baseline"]["original_runs"] == found[1][1]["baseline"]["tests"]
    assert verdicts == found[1][0] and len(verdicts) >= 8


def test_a_lane_takes_its_follow_ups_over_real_pipes_after_its_mutants():
    """The lane's side (pytest_harness/mutation_dispatch.DispatchedOrder) over real pipes: a kill
    whose test no run placed on the original (a seam that never picks) gets that run as a follow-up
    after the mutants, then the end."""
    import threading

    from harness.audit.dispatch import LanePipes, serve
    from pytest_harness.mutation_dispatch import DispatchedOrder

    d = Dispatcher([("A", 1, ["t"])], 60.0, GRACE_FACTOR, admit, draw=lambda r: 1)
    pipes, stop = LanePipes(), threading.Event()
    server = threading.Thread(target=serve, args=(d, 0, pipes.ask_read, pipes.answer_write, stop))
    server.start()
    lane = DispatchedOrder(*pipes.lane_fds)
    seen = []
    for rid, mid, tests in lane:
        seen.append(("run", rid, mid, tests, lane.first))
        lane.report(f"{rid}:{mid}", "failed", {"run": {"key": f"{rid}:{mid}", "items": tests, "status": "failed",
                                                       "failed": tests}})
    for job in lane.follow_ups():
        seen.append(job)
        lane.report(None, None, {"original": {"tests": job["original"], "status": "passed", "broken": []}})
    assert seen == [("run", "A", 1, ["t"], []), {"original": ["t"]}]
    assert d.originals.confirmed == {"t"} and d.results == {"A:1": "failed"}
    pipes.close_lane_side()
    stop.set()
    server.join(timeout=30)
    assert not server.is_alive()
    pipes.close()
