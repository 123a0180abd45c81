"""pytest plugin (`-p pytest_harness.mutation_runner`): run requirements' tests against mutants.

The harness compiles every mutant into a scratch copy of the workspace behind a guard
(`__harness_mutant__ == id`, resolved through builtins; see harness/audit/mutator.py) and passes
`--harness-mutants=PLAN.json`: {"nonce", "seconds", "order": [[req, id, [nodeid, ...]], ...],
"result": "RESULT.json"}. After collection (the code is imported once) this plugin replaces the
test loop: each mutant runs in a forked child that sets the guard and runs only the
requirement's tests that ran the mutated line, stopping at the first failure. A child that fails
kills the mutant; one that passes lets it survive; one that outlives its time limit is killed and
counts as killed (the mutant hangs). Nothing new starts after `seconds`, except the remaining
mutants of a requirement whose judged mutants all survived (so the time box never decides that
verdict), and those only until GRACE_FACTOR x `seconds`. First a baseline fork
runs every planned test on the original code; a test that fails there never judges a mutant.
The result file maps "req:id" to passed/failed/timeout/error/unjudged, plus the baseline. With
`--harness-mutants-digest-fd=N` the file's sha256 goes to the inherited fd N once written (as the
evidence plugin does for its document), so the harness rejects a result the code under test
rewrote afterwards (an atexit handler, a leftover process).
"""

from __future__ import annotations

import builtins
import gc
import json
import os
import signal
import time
from pathlib import Path

import pytest
from _pytest.runner import runtestprotocol

GUARD = "__harness_mutant__"
MIN_TIMEOUT_S = 3.0
TIMEOUT_FACTOR = 5.0
GRACE_FACTOR = 2.0          # past the time box, a requirement with only surviving mutants runs on until this x seconds
POLL_S = 0.005


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.getgroup("harness").addoption("--harness-mutants", dest="harness_mutants", metavar="PLAN", default=None,
                                         help="run requirements' tests against the mutants of PLAN (harness audit)")
    parser.getgroup("harness").addoption("--harness-mutants-digest-fd", dest="harness_mutants_digest_fd", type=int,
                                         metavar="FD", default=None,
                                         help="write the result file's sha256 to this inherited fd (harness audit)")


def pytest_configure(config: pytest.Config) -> None:
    setattr(builtins, GUARD, 0)  # before collection imports the mutated code: 0 = the original


def _cheap_failures(item: pytest.Item) -> None:
    """In the throw-away child only: a failure's report text is its one-line exception, because
    formatting the traceback (source of every frame) costs more than running the test."""
    short = lambda excinfo, *a, **k: excinfo.exconly()[:300]  # noqa: E731
    item.repr_failure = short  # type: ignore[method-assign]
    item._repr_failure_py = short  # type: ignore[attr-defined]


def _run_child(items: list[pytest.Item], mutant_id: int, stop_at_failure: bool = True) -> tuple[int, list[str]]:
    """In the forked child: (0 when every test passed, 1 after a failure, 2 on an internal error; failed ids)."""
    failed: list[str] = []
    try:
        setattr(builtins, GUARD, mutant_id)
        for i, item in enumerate(items):
            _cheap_failures(item)
            reports = runtestprotocol(item, log=False, nextitem=items[i + 1] if i + 1 < len(items) else None)
            if any(r.failed for r in reports):
                failed.append(item.nodeid)
                if stop_at_failure:
                    break
        return (1 if failed else 0), failed
    except BaseException:  # noqa: BLE001 - the child must never return into the parent's loop
        return 2, failed


def _wait(pid: int, timeout_s: float) -> int | None:
    """The child's exit code, or None after killing it at the time limit."""
    deadline = time.monotonic() + timeout_s
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        if time.monotonic() >= deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return None
        time.sleep(POLL_S)


def _fork() -> int:
    """os.fork() with the session's heap frozen first: a child's garbage collections then skip it
    (a full collection would otherwise walk, and copy-on-write, every object of the session)."""
    gc.freeze()
    return os.fork()


def run_one(items: list[pytest.Item], mutant_id: int, timeout_s: float) -> str:
    """passed / failed / timeout / error for one fork running `items` with the guard at `mutant_id`."""
    pid = _fork()
    if pid == 0:  # pragma: no cover - the child leaves through os._exit
        os._exit(_run_child(items, mutant_id)[0])
    code = _wait(pid, timeout_s)
    return {None: "timeout", 0: "passed", 1: "failed"}.get(code, "error")


def run_baseline(items: list[pytest.Item], timeout_s: float) -> tuple[str, list[str]]:
    """Every planned test once on the original code, in a fork: (status, the node ids that failed)."""
    read_fd, write_fd = os.pipe()
    pid = _fork()
    if pid == 0:  # pragma: no cover - the child leaves through os._exit
        os.close(read_fd)
        code, failed = _run_child(items, 0, stop_at_failure=False)
        os.write(write_fd, json.dumps(failed).encode())
        os._exit(code)
    os.close(write_fd)
    code = _wait(pid, timeout_s)
    with os.fdopen(read_fd, "rb") as fh:
        raw = fh.read()
    failed = json.loads(raw) if raw else []
    return {None: "timeout", 0: "passed", 1: "failed"}.get(code, "error"), failed


def admit(elapsed: float, seconds: float, results: dict[str, str], rid: str) -> str:
    """run / skip / stop for `rid`'s next mutant: within the time box every mutant runs; past it only
    a requirement whose judged mutants all survived goes on, until GRACE_FACTOR x the time box."""
    if elapsed >= GRACE_FACTOR * seconds:
        return "stop"
    if elapsed >= seconds and not _only_survivors(results, rid):
        return "skip"
    return "run"


def _only_survivors(results: dict[str, str], rid: str) -> bool:
    """Whether `rid` has judged mutants and every one survived: the time box must not be what decides
    that its tests detect nothing (one run mutant that survived, three not run, is not '0/1 killed')."""
    mine = [r for key, r in results.items() if key.split(":", 1)[0] == rid and r != "unjudged"]
    return bool(mine) and all(r == "passed" for r in mine)


@pytest.hookimpl(tryfirst=True)
def pytest_runtestloop(session: pytest.Session) -> bool | None:
    path = session.config.getoption("harness_mutants")
    if not path:
        return None
    plan = json.loads(Path(path).read_text(encoding="utf-8"))
    started = time.monotonic()
    by_id = {item.nodeid: item for item in session.items}
    planned = sorted({n for _, _, tests in plan["order"] for n in tests if n in by_id})
    status, broken = run_baseline([by_id[n] for n in planned], max(plan["seconds"], MIN_TIMEOUT_S))
    limit = max(MIN_TIMEOUT_S, TIMEOUT_FACTOR * (time.monotonic() - started))
    baseline = {"status": status, "failed": broken, "tests": len(planned),
                "duration_s": round(time.monotonic() - started, 3)}
    results: dict[str, str] = {}
    durations: dict[str, float] = {}
    for rid, mutant_id, tests in plan["order"]:
        decision = "stop" if status == "timeout" else admit(time.monotonic() - started, plan["seconds"], results, rid)
        if decision == "stop":
            break
        if decision == "skip":
            continue
        items = [by_id[n] for n in tests if n in by_id and n not in broken]
        t0 = time.monotonic()
        results[f"{rid}:{mutant_id}"] = run_one(items, mutant_id, limit) if items else "unjudged"
        durations[f"{rid}:{mutant_id}"] = round(time.monotonic() - t0, 3)
    text = json.dumps({"nonce": plan["nonce"], "results": results, "durations": durations, "baseline": baseline,
                       "duration_s": round(time.monotonic() - started, 3)})
    Path(plan["result"]).write_text(text, encoding="utf-8")
    digest_fd = session.config.getoption("harness_mutants_digest_fd")
    if digest_fd is not None:
        from pytest_harness.plugin import send_digest

        send_digest(digest_fd, text)
    return True
