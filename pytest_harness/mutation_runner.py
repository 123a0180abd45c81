"""pytest plugin (`-p pytest_harness.mutation_runner`): run requirements' tests against mutants.

The harness compiles every mutant into a scratch copy of the workspace behind a guard
(`__harness_mutant__ == id`, resolved through builtins; see pytest_harness/mutator.py) and passes
`--harness-mutants=PLAN.json`: {"nonce", "seconds", "order": [[req, id, [nodeid, ...]], ...],
"result": "RESULT.json", "method", "test_s": {nodeid: seconds}}. After collection (the code is imported once) this plugin replaces the
test loop: each mutant runs in a forked child that sets the guard and runs only the
requirement's tests that ran the mutated line, stopping at the first failed check. A child whose
test's check failed (its call phase) kills the mutant, as does one that hangs inside a call phase
past its time limit; one that passes lets it survive; a fixture or conftest error, an ImportError,
a crash or a hang outside a call phase makes the mutant `invalid`, never killed
(mutation_child.py). Nothing new starts after `seconds`, except the remaining
mutants of a requirement whose judged mutants all survived (so the time box never decides that
verdict), and those only until GRACE_FACTOR x `seconds`.

A test that fails on the original code never judges a mutant. Two methods (`"method"` in the plan):
`baseline-first` (the reference) runs every planned test on the original code in a fork before
the mutants, and each mutant's time limit is TIMEOUT_FACTOR x that run; `confirm` (the harness's
default, when the plan gives each planned test's evidence duration as `"test_s"`) runs the
mutants, each limited to TIMEOUT_FACTOR x its own tests' evidence durations, and runs each of
their tests on the original code in a fork before one of the mutant runs that list it, chosen at
random (OriginalSlots: the original's place tells nothing), then whatever a verdict still needs
(mutation_confirm.py) — the same verdicts. Lanes on the harness's queue (`"dispatch"`) leave the
placing to the harness, once per test over all lanes, and record instead of judging
(mutation_lane.py). In every fork an app's unhandled exception reaches the
test as a 500 (audit_server_errors.py). The result file maps "req:id" to passed/failed/timeout/invalid/error/unjudged, plus the baseline. With
`--harness-mutants-digest-fd=N` the file's sha256 goes to the inherited fd N once written (as the
evidence plugin does for its document), so the harness rejects a result the code under test
rewrote afterwards (an atexit handler, a leftover process).
"""

from __future__ import annotations

import builtins
import gc
import json
import os
import select
import signal
import time
from pathlib import Path

import pytest
from pytest_harness.audit_server_errors import answer_server_errors
from pytest_harness.mutation_child import pytest_runtest_call  # noqa: F401 - the child's call-phase marks
from pytest_harness.mutation_child import read_report, run_child
from pytest_harness.mutation_confirm import MutantRun, needs, to_confirm, verdict, without
from pytest_harness.mutation_dispatch import order_source, private_fds, receive_plan
from pytest_harness.mutation_plan import guard_id
from pytest_harness.mutation_slots import OriginalSlots  # noqa: F401 - where the original runs go; importable from here too
from pytest_harness.time_box import admit   # the time box (GRACE_FACTOR there), shared with the harness

GUARD = "__harness_mutant__"
MIN_TIMEOUT_S = 3.0
TIMEOUT_FACTOR = 5.0
POLL_S = 0.005
_PRIVATE_FDS: tuple[int, ...] = ()   # the harness's queue (mutation_dispatch.py): never a child's


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.getgroup("harness").addoption("--harness-mutants", dest="harness_mutants", metavar="PLAN", default=None,
                                         help="run requirements' tests against the mutants of PLAN (harness audit)")
    parser.getgroup("harness").addoption("--harness-mutants-digest-fd", dest="harness_mutants_digest_fd", type=int,
                                         metavar="FD", default=None,
                                         help="write the result file's sha256 to this inherited fd (harness audit)")
    parser.getgroup("harness").addoption("--harness-mutants-result", dest="harness_mutants_result", metavar="PATH",
                                         default=None, help="write the result here instead of the plan's "
                                         "\"result\" (a writable directory outside the read-only workspace)")


def pytest_configure(config: pytest.Config) -> None:
    setattr(builtins, GUARD, 0)  # before collection imports the mutated code: 0 = the original


def _wait(pid: int, timeout_s: float | None, read_fd: int) -> tuple[int | None, bytes]:
    """(the child's exit code, or None after killing it at the time limit; what it wrote to `read_fd`).
    The pipe is drained while waiting, so a child writing a long report never blocks on it. The wait
    is on the child's pidfd and the pipe, so its exit is seen at once (polling every POLL_S cost a
    fork ~2.5 ms on average, measured side by side); without pidfds (Linux < 5.3) it polls."""
    deadline = None if timeout_s is None else time.monotonic() + timeout_s
    os.set_blocking(read_fd, False)
    chunks: list[bytes] = []
    code: int | None = None
    pidfd = _pidfd(pid)
    ended = False  # the pipe reached its end (the child, or code it ran, closed it)
    try:
        while True:
            ended = _drain(read_fd, chunks) or ended
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                code = os.waitstatus_to_exitcode(status)
                break
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                break
            if pidfd is None:
                time.sleep(POLL_S)
            else:
                select.select([pidfd] + ([] if ended else [read_fd]), [], [], left)
    finally:
        if pidfd is not None:
            os.close(pidfd)
    _drain(read_fd, chunks)
    os.close(read_fd)
    return code, b"".join(chunks)


def _pidfd(pid: int) -> int | None:
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None


def _drain(fd: int, chunks: list[bytes]) -> bool:
    """Read what `fd` holds now; True at end of file."""
    while True:
        try:
            data = os.read(fd, 1 << 16)
        except BlockingIOError:
            return False
        if not data:
            return True
        chunks.append(data)


def _fork() -> int:
    """os.fork() with the session's heap frozen first: a child's garbage collections then skip it
    (a full collection would otherwise walk, and copy-on-write, every object of the session)."""
    gc.freeze()
    return os.fork()


def fork_run(items: list[pytest.Item], mutant_id: int, timeout_s: float) -> tuple[str, list[str], list[str]]:
    """(status, the node ids whose check failed, those that errored otherwise) of one fork running
    `items` with the guard at `mutant_id` (original_id's: the original code); what the statuses mean,
    and so what a kill is: mutation_child.py."""
    read_fd, write_fd = os.pipe()
    pid = _fork()
    if pid == 0:  # pragma: no cover - the child leaves through os._exit
        os.close(read_fd)
        for fd in _PRIVATE_FDS:
            try:
                os.close(fd)
            except OSError:
                pass
        os._exit(run_child(items, mutant_id, write_fd))
    os.close(write_fd)
    code, raw = _wait(pid, timeout_s, read_fd)
    return read_report(code, raw)


def run_one(items: list[pytest.Item], mutant_id: int, timeout_s: float) -> str:
    """passed / failed / timeout / invalid / error for one fork running `items` with the guard at `mutant_id`."""
    return fork_run(items, mutant_id, timeout_s)[0]


def original_id(plan: dict) -> int:
    """The guard's value while tests run on the original code (baseline, confirmation): set, as in
    a mutant's run, to a draw from the same distribution as the mutants' ids (mutation_plan.guard_id)
    and none of them — so "is a mutant active?", or "which id is this?", reads the same on the
    original as on a mutant, and a fixture that asks cannot buy a kill (#47). Drawn here, per
    session: it is in no file the code under test can read."""
    return guard_id({int(mutant_id) for _rid, mutant_id, _tests in plan.get("order") or ()})


def run_baseline(items: list[pytest.Item], timeout_s: float, original: int) -> tuple[str, list[str]]:
    """Every given test once on the original code (the guard at `original`): (status, the node ids
    that did not pass there — a failed check or any other error: none of them may judge a mutant).
    Each fork stops at its first failed check, as a mutant's fork does, and the tests after it run
    in a fresh fork: before (#47), the original's fork went on after a failed test and a mutant's
    never did, so a test could tell the original by "a test failed earlier in this process" and
    pass only there. A baseline past its limit is "timeout" wherever it hung (nothing is judged then)."""
    deadline, rest, broken, status = time.monotonic() + timeout_s, list(items), [], "passed"
    while rest:
        got, failed, errored = fork_run(rest, original, max(0.0, deadline - time.monotonic()))
        broken += [*failed, *errored]
        if got == "invalid" and not errored or got == "timeout":   # killed at its limit
            return "timeout", sorted(set(broken))
        if got == "error":
            return "error", sorted(set(broken))
        if got != "passed":
            status = "failed"
        if not failed:
            break
        stopped = next((i for i, item in enumerate(rest) if item.nodeid == failed[-1]), len(rest) - 1)
        rest = rest[stopped + 1:]
    return status, sorted(set(broken))


def baseline_first(plan: dict, by_id: dict[str, pytest.Item]) -> dict:
    """The reference method: every planned test on the original code, then each mutant without the
    tests that failed there, its time limit TIMEOUT_FACTOR x the baseline's duration."""
    started = time.monotonic()
    planned = sorted({n for _, _, tests in plan["order"] for n in tests if n in by_id})
    status, broken = run_baseline([by_id[n] for n in planned], max(plan["seconds"], MIN_TIMEOUT_S), original_id(plan))
    limit = max(MIN_TIMEOUT_S, TIMEOUT_FACTOR * (time.monotonic() - started))
    baseline = {"status": status, "failed": broken, "tests": len(planned),
                "duration_s": round(time.monotonic() - started, 3), "method": "baseline-first"}
    results: dict[str, str] = {}
    killers: dict[str, str] = {}   # a killed mutant's test that failed (mutation_attribution.verdict_of)
    durations: dict[str, float] = {}
    source = order_source(plan, results, admit, started)
    for rid, mutant_id, tests in source if status != "timeout" else ():
        items = [by_id[n] for n in tests if n in by_id and n not in broken]
        t0 = time.monotonic()
        status, failed, _errored = fork_run(items, mutant_id, limit) if items else ("unjudged", [], [])
        results[f"{rid}:{mutant_id}"] = status
        if status == "failed" and failed:
            killers[f"{rid}:{mutant_id}"] = failed[0]
        durations[f"{rid}:{mutant_id}"] = round(time.monotonic() - t0, 3)
        source.report(f"{rid}:{mutant_id}", results[f"{rid}:{mutant_id}"])
    return {"results": results, "killers": killers, "durations": durations, "baseline": baseline,
            "duration_s": round(time.monotonic() - started, 3)}


def can_confirm(plan: dict, by_id: dict[str, pytest.Item]) -> bool:
    """The confirm method needs each planned test's duration (from the evidence) for its time limits."""
    test_s = plan.get("test_s") or {}
    return all((test_s.get(n) or 0) > 0 for _, _, tests in plan["order"] for n in tests if n in by_id)


def child_limit(nodeids: list[str], test_s: dict[str, float]) -> float:
    """A mutant child's time limit: TIMEOUT_FACTOR x what its tests took in the evidence session."""
    return max(MIN_TIMEOUT_S, TIMEOUT_FACTOR * sum(test_s[n] for n in nodeids))


def confirm_after(plan: dict, by_id: dict[str, pytest.Item]) -> dict:
    """The default method (mutation_confirm.py): each test a mutant run lists runs once on the
    original code, in a fork before one of those runs chosen at random (OriginalSlots); anything a
    verdict still needs after the runs (mutation_confirm.to_confirm) runs last. A verdict that
    rested on a test failing there is judged again without it. Same verdicts as baseline_first;
    each mutant's time limit comes from its tests' evidence durations."""
    started, test_s, original = time.monotonic(), plan["test_s"], original_id(plan)
    planned = sorted({n for _, _, tests in plan["order"] for n in tests if n in by_id})
    mutant_of: dict[str, int] = {}
    runs: dict[str, MutantRun] = {}
    results: dict[str, str] = {}
    durations: dict[str, float] = {}
    status, broken, confirmed, spent, original_runs = "passed", set(), set(), 0.0, 0

    def judge(key: str, nodeids: list[str], again: bool = False) -> None:
        t0 = time.monotonic()
        status, failed, _errored = fork_run([by_id[n] for n in nodeids], mutant_of[key], child_limit(nodeids, test_s))
        runs[key] = MutantRun(nodeids, status, failed, again)
        results[key] = status
        durations[key] = round(durations.get(key, 0.0) + time.monotonic() - t0, 3)

    def on_original(need: list[str]) -> str:
        nonlocal status, spent, original_runs
        t0 = time.monotonic()
        original_runs += len(need)
        got, failed = run_baseline([by_id[n] for n in need], max(plan["seconds"], MIN_TIMEOUT_S), original)
        spent += time.monotonic() - t0
        confirmed.update(need)
        broken.update(failed)
        status = "error" if "error" in (got, status) else ("failed" if broken else "passed")
        return got

    # The time box bounds the mutant runs; the original's run is not counted in it (at N=20
    # entities, counting the confirmation in the box judged half as many mutants).
    source = order_source(plan, results, admit, started)
    slots, timed_out = OriginalSlots(plan["order"]), False
    for rid, mutant_id, tests in source:
        key, nodeids = f"{rid}:{mutant_id}", [n for n in tests if n in by_id]
        first = [n for n in slots.before(nodeids, confirmed) if n in by_id]
        if first:
            t0 = time.monotonic()
            timed_out = on_original(first) == "timeout"
            if hasattr(source, "started"):
                source.started += time.monotonic() - t0
            if timed_out:
                break
        mutant_of[key] = mutant_id
        if nodeids:
            judge(key, nodeids)
        else:
            results[key] = "unjudged"
        source.report(key, results[key])
    while not timed_out:
        need = to_confirm(runs, confirmed, broken)   # what no slot ran: the queue ended a test's runs early
        if need and on_original(need) == "timeout":
            timed_out = True
            break
        again = [key for key, run in runs.items() if not needs(run, confirmed, broken) and verdict(run, broken) is None]
        for key in again:
            judge(key, without(runs[key], broken), again=True)
        if not again and not to_confirm(runs, confirmed, broken):
            break
    if timed_out:   # as when the baseline comes first: nothing is judged
        status, results, runs = "timeout", {}, {}
    for key, run in runs.items():
        results[key] = verdict(run, broken) or run.status
    killers = {key: run.failed[0] for key, run in runs.items() if results[key] == "failed" and run.failed}
    baseline = {"status": status, "failed": sorted(broken), "tests": len(confirmed), "original_runs": original_runs,
                "planned": len(planned), "duration_s": round(spent, 3), "method": "confirm"}
    return {"results": results, "killers": killers, "durations": durations, "baseline": baseline,
            "duration_s": round(time.monotonic() - started, 3)}


def warm_source_lookups(root: Path) -> None:
    """Before the first fork: compile tokenize's patterns and read the imported modules' sources
    under `root` into linecache once, here, instead of in every child. `inspect.getsourcelines`
    (FastAPI calls it on each endpoint's first request, pytest on a failure's traceback) spends
    ~8 ms compiling tokenize's regular expressions in each fresh process, then reads the file.
    These are stdlib caches only (linecache re-checks a file's size and mtime before use): no
    workspace code runs here."""
    import io
    import linecache
    import sys
    import tokenize

    list(tokenize.generate_tokens(io.StringIO("x = 1\n").readline))
    under = os.path.join(os.path.normpath(root), "")  # a string test: a Path per module (~1000 in a
    for module in list(sys.modules.values()):       # warm worker's child) took ~8 ms of the session
        path = getattr(module, "__dict__", {}).get("__file__")
        if isinstance(path, str) and path.endswith(".py") and os.path.normpath(path).startswith(under):
            linecache.getlines(path)


def share_basetemp(config: pytest.Config) -> None:
    """Create the session's temporary root before forking: every child then makes its tmp_path
    under it, instead of numbering (and pruning) a root of its own (~10 ms a child)."""
    factory = getattr(config, "_tmp_path_factory", None)
    if factory is not None:
        factory.getbasetemp()


@pytest.hookimpl(tryfirst=True)
def pytest_runtestloop(session: pytest.Session) -> bool | None:
    path = session.config.getoption("harness_mutants")
    if not path:
        return None
    global _PRIVATE_FDS
    plan = json.loads(Path(path).read_text(encoding="utf-8"))
    _PRIVATE_FDS = private_fds(plan)
    by_id = {item.nodeid: item for item in session.items}
    warm_source_lookups(session.config.rootpath)
    answer_server_errors()   # before the first fork: every run alike (audit_server_errors.py)
    if plan.get("deferred"):  # started ahead: everything above is done, the plan itself comes now
        share_basetemp(session.config)
        plan = receive_plan(plan)
        if plan is None:
            return True  # given up by the harness: no result file
    if plan.get("method") == "confirm" and can_confirm(plan, by_id):
        share_basetemp(session.config)
        if plan.get("dispatch"):   # lanes on one queue: the harness places the original runs
            from pytest_harness.mutation_lane import LaneRunner, confirm_in_lane

            outcome = confirm_in_lane(plan, by_id, LaneRunner(MIN_TIMEOUT_S, run_baseline, fork_run,
                                                              child_limit, original_id))
        else:
            outcome = confirm_after(plan, by_id)
    else:
        outcome = baseline_first(plan, by_id)
    text = json.dumps({"nonce": plan["nonce"], **outcome})
    Path(session.config.getoption("harness_mutants_result") or plan["result"]).write_text(text, encoding="utf-8")
    digest_fd = session.config.getoption("harness_mutants_digest_fd")
    if digest_fd is not None:
        from pytest_harness.plugin import send_digest

        send_digest(digest_fd, text)
    return True
