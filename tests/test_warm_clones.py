"""#19: clones — a second warm worker forked inside a live worker's sandbox for a directory it binds
(the audit's lanes), so the lanes run at once without a second worker's imports."""

import sys
import threading

import pytest

from harness.speed.warm import workers as warm

ENV = {"PYTHONDONTWRITEBYTECODE": "1", "HARNESS_RUN_ID": "clones", "PYTHONUNBUFFERED": "1"}
PASSING = "def test_ok():\n    assert 1 + 1 == 2\n"
HANGING = "import time\n\n\ndef test_hangs():\n    time.sleep(300)\n"


def _dir(root, name, body):
    place = root / name
    (place / "tests").mkdir(parents=True)
    (place / "tests" / "test_a.py").write_text(body)
    return place


def _pytest(worker, place, timeout_s=60.0):
    return warm.execute_warm(worker, [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"],
                             cwd=place, env=ENV, timeout_s=timeout_s)


@pytest.fixture
def bound(tmp_path, monkeypatch):
    """A worker for `ws` whose sandbox also binds `lane0` and `lane1` (empty until a test fills them)."""
    monkeypatch.setenv(warm.ENV_WARM, "1")
    ws = _dir(tmp_path, "ws", PASSING)
    lanes = [tmp_path / "lane0", tmp_path / "lane1"]
    for lane in lanes:
        lane.mkdir()
    warm.prestart(ws, ENV, also=lanes)
    yield ws, lanes
    warm.stop_workers()


@pytest.mark.slow
def test_each_bound_directory_gets_its_own_clone_and_no_worker_starts(bound, worker_starts):
    ws, lanes = bound
    started = worker_starts
    own = warm.worker_for(ws, ENV)
    twins = [warm.worker_for(lane, ENV) for lane in lanes]
    assert started == []  # the parent was prestarted; the lanes cost a fork each
    assert all(isinstance(t, warm.ClonedWorker) and t.parent is own for t in twins)
    assert twins[0] is not twins[1] and warm.worker_for(lanes[1], ENV) is twins[1]
    assert twins[0].covers == own.covers and twins[0].covers  # the same imports


@pytest.mark.slow
def test_a_clone_runs_beside_its_parent_and_its_timeout_kills_only_its_own_child(bound):
    ws, (lane0, lane1) = bound
    (lane0 / "tests").mkdir()
    (lane0 / "tests" / "test_a.py").write_text(HANGING)
    (lane1 / "tests").mkdir()
    (lane1 / "tests" / "test_a.py").write_text(PASSING)
    own = warm.worker_for(ws, ENV)
    hung, fine = warm.worker_for(lane0, ENV), warm.worker_for(lane1, ENV)
    results = {}
    threads = [threading.Thread(target=lambda: results.__setitem__("hung", _pytest(hung, lane0, timeout_s=1.5))),
               threading.Thread(target=lambda: results.__setitem__("fine", _pytest(fine, lane1)))]
    for thread in threads:
        thread.start()
    results["own"] = _pytest(own, ws)  # the parent serves its own workspace meanwhile (its sweep spares the clones)
    for thread in threads:
        thread.join()
    assert (results["hung"].timed_out, results["hung"].exit_code) == (True, None)
    assert (results["fine"].exit_code, results["own"].exit_code) == (0, 0)
    assert "1 passed" in results["fine"].stdout and "1 passed" in results["own"].stdout
    again = _pytest(fine, lane1)  # the parent's sweeps and the sibling's timeout left this clone alive
    assert again is not None and again.exit_code == 0


@pytest.mark.slow
def test_a_clone_ends_with_its_parent_and_its_next_command_runs_cold(bound):
    ws, (lane0, _lane1) = bound
    (lane0 / "tests").mkdir()
    (lane0 / "tests" / "test_a.py").write_text(PASSING)
    own = warm.worker_for(ws, ENV)
    twin = warm.worker_for(lane0, ENV)
    assert _pytest(twin, lane0).exit_code == 0
    warm.discard(own)
    assert not twin.alive() and warm._key(lane0, ENV) not in warm._WORKERS
    assert _pytest(twin, lane0) is None  # execute_warm's None: the verifier runs the command cold


@pytest.mark.slow
def test_two_lanes_asking_a_prestarted_worker_at_once_both_get_it_bug(bound):
    """Regression: two audit lanes found the same still-importing prestarted worker at once; both
    read its socket for the ready message, one got nothing for 120 s and its lane started a second
    worker (a clone is a fork of a ready worker)."""
    ws, lanes = bound
    got = {}
    threads = [threading.Thread(target=lambda lane=lane: got.__setitem__(lane.name, warm.worker_for(lane, ENV)))
               for lane in lanes]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    own = warm.worker_for(ws, ENV)
    assert all(isinstance(got[lane.name], warm.ClonedWorker) and got[lane.name].parent is own for lane in lanes)


@pytest.mark.slow
def test_a_dead_clone_of_a_live_worker_is_replaced_by_a_new_clone_not_a_worker_bug(bound, worker_starts):
    """Regression: a lane whose clone had ended (its socket closed) while the binding worker lived
    on started a whole new worker and sandbox for that lane instead of forking another clone."""
    ws, (lane0, _lane1) = bound
    (lane0 / "tests").mkdir()
    (lane0 / "tests" / "test_a.py").write_text(PASSING)
    own = warm.worker_for(ws, ENV)
    first = warm.worker_for(lane0, ENV)
    first._sock.close()  # the clone's end: it exits when its socket closes
    started = worker_starts
    second = warm.worker_for(lane0, ENV)
    assert started == [] and isinstance(second, warm.ClonedWorker) and second.parent is own
    assert second is not first and first not in own.clones
    assert _pytest(second, lane0).exit_code == 0


@pytest.mark.slow
def test_a_stopped_clone_kills_the_session_it_runs_instead_of_serving_it_to_its_end_bug(bound):
    """Bug (#46): stopping a clone only closed the harness's end of its socket. A thread waiting for
    the clone's reply kept the socket open, so the clone never saw the hang-up and served its session
    to the end (the final suite started ahead of a run that ended early: up to its per-test limits).
    Now stop() shuts the socket down: the waiting thread wakes, and the clone kills the child at once."""
    import os
    import select

    ws, (lane0, _lane1) = bound
    started_r, started_w = os.pipe()
    (lane0 / "tests").mkdir()
    (lane0 / "tests" / "test_a.py").write_text(
        "import os\nimport threading\n\n\ndef test_never_ends():\n"
        f"    os.write({started_w}, b'x')\n    threading.Event().wait()\n")
    own = warm.worker_for(ws, ENV)
    twin = warm.worker_for(lane0, ENV)
    got = {}
    session = threading.Thread(target=lambda: got.__setitem__("result", warm.execute_warm(
        twin, [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=lane0, env=ENV,
        timeout_s=600.0, pass_fds=(started_w,))))
    session.start()
    try:
        assert select.select([started_r], [], [], 120)[0], "the session never started"
        assert os.read(started_r, 1) == b"x"
        twin.stop()
        session.join(60)
        assert not session.is_alive(), "stop() waited for the session instead of ending it"
        assert got["result"] is None  # no outcome: nothing is read from a stopped session
        os.close(started_w)
        assert select.select([started_r], [], [], 60)[0] and os.read(started_r, 1) == b"", "the child lives on"
        assert _pytest(own, ws).exit_code == 0  # the worker it was cloned from serves on
    finally:
        twin.stop()
        session.join(1)
        for fd in (started_r, started_w):
            try:
                os.close(fd)
            except OSError:
                pass
