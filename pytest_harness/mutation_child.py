"""What one forked mutant child runs, and how its parent reads what it found (#47: what a kill is).

A mutant is **killed** only when a test's *check* failed on it: the call phase of one of the
requirement's tests that ran the mutated line failed (an `assert`, `pytest.raises` that saw no
exception, `pytest.fail`, or an exception the code under test raised into the test), or the call
phase hung past the child's time limit (the code under test no longer returns). Not a kill — the
mutant is **invalid** (reported, never counted as killed or survived):

- a setup or teardown error (a fixture or a conftest crashed: the test never checked anything);
- an `ImportError` out of the call phase (a module could not be loaded: the environment broke, not
  the behaviour the test checks);
- a hang outside a call phase (in a fixture), and a child that died without its report (a crash,
  `os._exit` in the code under test) or raised out of pytest's own protocol.

A timeout of the whole audit session is no mutant's verdict at all (the harness rejects a lane that
produced no result). The child tells its parent on its report pipe, as lines: `call` when a test's
call phase starts, `end` when it ends, and last `result {"failed": [...], "errored": [...]}` — the
tests whose call phase failed (the kills) and those that errored otherwise. A child killed at its
limit left `call` as its last line only when it hung inside a call phase.
"""

from __future__ import annotations

import builtins
import json
import os

import pytest
from _pytest.runner import runtestprotocol

GUARD = "__harness_mutant__"
_PROGRESS_FD: int | None = None   # set in a forked child only: where `call` / `end` go
_CALL_ERRORS: dict[str, type] = {}  # in a child: the exception type each test's call phase raised
NOT_A_CHECK = (ImportError,)        # out of a call phase, these say the environment broke


def _say(line: str) -> None:
    if _PROGRESS_FD is None:
        return
    data = (line + "\n").encode()
    try:
        while data:
            data = data[os.write(_PROGRESS_FD, data):]
    except OSError:
        pass


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item):
    """In a mutant child: mark the call phase's start and end on the report pipe, and note the
    exception type it raised (outside a child this does nothing)."""
    if _PROGRESS_FD is None:
        yield
        return
    _say("call")
    outcome = yield
    excinfo = outcome.excinfo
    if excinfo is not None:
        _CALL_ERRORS[item.nodeid] = excinfo[0]
    _say("end")


def _cheap_failures(item: pytest.Item) -> None:
    """In the throw-away child only: a failure's report text is its one-line exception, because
    formatting the traceback (source of every frame) costs more than running the test."""
    short = lambda excinfo, *a, **k: excinfo.exconly()[:300]  # noqa: E731
    item.repr_failure = short  # type: ignore[method-assign]
    item._repr_failure_py = short  # type: ignore[attr-defined]


def check_failed(item: pytest.Item, reports: list) -> bool:
    """Whether the test's own check failed: its call phase failed, and not with an ImportError."""
    call = next((r for r in reports if r.when == "call"), None)
    if call is None or not call.failed:
        return False
    raised = _CALL_ERRORS.get(item.nodeid)
    return not (isinstance(raised, type) and issubclass(raised, NOT_A_CHECK))


def run_child(items: list[pytest.Item], mutant_id: int, write_fd: int) -> int:
    """In the forked child: run `items` with the guard at `mutant_id` until the first failed check
    (in every fork alike, the original code's too), report on `write_fd`; the exit code (0 passed,
    1 a check failed, 3 only errors, 2 an internal error)."""
    global _PROGRESS_FD
    _PROGRESS_FD = write_fd
    failed: list[str] = []
    errored: list[str] = []
    try:
        setattr(builtins, GUARD, mutant_id)
        for i, item in enumerate(items):
            _cheap_failures(item)
            reports = runtestprotocol(item, log=False, nextitem=items[i + 1] if i + 1 < len(items) else None)
            if check_failed(item, reports):
                failed.append(item.nodeid)
                break
            elif any(r.failed for r in reports):
                errored.append(item.nodeid)
        code = 1 if failed else (3 if errored else 0)
    except BaseException:  # noqa: BLE001 - the child must never return into the parent's loop
        code = 2
    _say("result " + json.dumps({"failed": failed, "errored": errored}))
    return code


def read_report(code: int | None, raw: bytes) -> tuple[str, list[str], list[str]]:
    """(status, tests whose check failed, tests that errored otherwise) from a child's exit code
    (None: killed at its time limit) and its report. Status: passed / failed (a check failed) /
    timeout (hung inside a call phase) / invalid (errors only, or hung outside a call phase) /
    error (no report, or an internal error)."""
    lines = raw.decode("utf-8", "replace").splitlines()
    marks = [line for line in lines if line in ("call", "end")]
    result = next((line[len("result "):] for line in reversed(lines) if line.startswith("result ")), None)
    try:
        found = json.loads(result) if result is not None else None
    except ValueError:
        found = None
    failed = [str(n) for n in (found or {}).get("failed", [])] if isinstance(found, dict) else []
    errored = [str(n) for n in (found or {}).get("errored", [])] if isinstance(found, dict) else []
    if code is None:
        return ("timeout" if marks and marks[-1] == "call" else "invalid"), failed, errored
    if found is None or code not in (0, 1, 3):
        return "error", failed, errored
    expected = 1 if failed else (3 if errored else 0)
    if code != expected:
        return "error", failed, errored
    return {0: "passed", 1: "failed", 3: "invalid"}[code], failed, errored
