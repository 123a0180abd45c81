"""What one forked mutant child runs, and how its parent reads what it found (#47: what a kill is).

A mutant is **killed** only when a test's own *check* failed on it: the call phase of one of the
requirement's tests that ran the mutated line ended with an `AssertionError` or pytest's `Failed`
(`assert`, `pytest.raises` that saw no exception or the wrong message, `pytest.fail`) raised by
test code — the innermost frame of its traceback outside pytest's, pluggy's and unittest's own
modules is in a collected test module or a `conftest.py` (`check_raised`) — or the call phase
hung past the child's time limit (the code under test no longer returns). Not a kill — the mutant
is **invalid** (reported, never counted as killed or survived):

- an exception out of the code under test, or any other exception, that ended the call phase (a
  **crash**: `TypeError` from a mutant's `None`, a FastAPI response validation error re-raised by
  the test client, a `KeyError` in the test): the test's check never failed, whatever it would
  have said — a test hollowed to `assert x or not x` fails the same way. The child goes on with
  the next test, as after a setup error, so a later test's check can still kill the mutant;
- an `AssertionError` raised by the code under test or a library (an `assert` in `src/`);
- a setup or teardown error (a fixture or a conftest crashed: the test never checked anything);
- a hang outside a call phase (in a fixture), and a child that died without its report (a crash,
  `os._exit` in the code under test) or raised out of pytest's own protocol.

Which exception ended the call phase, and where it was raised, is read by this module's
`pytest_runtest_call` wrapper in the child, from pytest's own record of the call (its excinfo),
and judged by `check_raised` here: test code decides nothing (a conftest that turns a crash
into an `AssertionError` raised in its own frame is forgery, for the scan in forgery.py).

A timeout of the whole audit session is no mutant's verdict at all (the harness rejects a lane that
produced no result). The child tells its parent on its report pipe, as lines: `call` when a test's
call phase starts, `end` when it ends, and last `result {"failed": [...], "errored": [...]}` — the
tests whose check failed (the kills) and those that crashed or errored otherwise. A child killed
at its limit left `call` as its last line only when it hung inside a call phase.
"""

from __future__ import annotations

import builtins
import json
import os
import unittest

import _pytest
import pluggy
import pytest
from _pytest.outcomes import Failed
from _pytest.runner import runtestprotocol

GUARD = "__harness_mutant__"
_PROGRESS_FD: int | None = None   # set in a forked child only: where `call` / `end` go
_CHECKS: dict[str, bool] = {}       # in a child: whether each test's failed call phase was its check failing
_TEST_FILES: set[str] = set()       # in a child: the collected test modules (where a check may be raised)
_LIBRARIES = tuple(os.path.join(os.path.dirname(os.path.abspath(m.__file__)), "")
                   for m in (pytest, _pytest, pluggy, unittest))   # frames skipped to find who raised


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
    """In a mutant child: mark the call phase's start and end on the report pipe, and note whether
    the exception that ended it was the test's check failing (outside a child this does nothing)."""
    if _PROGRESS_FD is None:
        yield
        return
    _say("call")
    outcome = yield
    excinfo = outcome.excinfo
    if excinfo is not None:
        _CHECKS[item.nodeid] = check_raised(excinfo[1], _TEST_FILES)
    _say("end")


def _test_side(filename: str, test_files: set[str]) -> bool:
    path = os.path.abspath(filename)
    return path in test_files or os.path.basename(path) == "conftest.py"


def check_raised(exc: BaseException | None, test_files: set[str]) -> bool:
    """Whether `exc` is a test's check failing: an AssertionError or pytest's Failed (`assert`,
    `pytest.raises`, `pytest.fail`), raised where test code is — the innermost frame of its
    traceback outside pytest's, pluggy's and unittest's modules is in one of `test_files` (absolute
    paths of the collected test modules) or a conftest.py. Anything else — an exception out of the
    code under test (even an AssertionError from an `assert` there), a KeyError in the test — is a
    crash, not a check."""
    if not isinstance(exc, (AssertionError, Failed)):
        return False
    frames = []
    tb = exc.__traceback__
    while tb is not None:
        frames.append(tb.tb_frame.f_code.co_filename)
        tb = tb.tb_next
    for filename in reversed(frames):
        if not os.path.abspath(filename).startswith(_LIBRARIES):
            return _test_side(filename, test_files)
    return False


def _cheap_failures(item: pytest.Item) -> None:
    """In the throw-away child only: a failure's report text is its one-line exception, because
    formatting the traceback (source of every frame) costs more than running the test."""
    short = lambda excinfo, *a, **k: excinfo.exconly()[:300]  # noqa: E731
    item.repr_failure = short  # type: ignore[method-assign]
    item._repr_failure_py = short  # type: ignore[attr-defined]


def check_failed(item: pytest.Item, reports: list) -> bool:
    """Whether the test's own check failed: its call phase failed, with a check's exception raised
    by test code (check_raised); a crash is not a check."""
    call = next((r for r in reports if r.when == "call"), None)
    if call is None or not call.failed:
        return False
    return _CHECKS.get(item.nodeid, False)


def run_child(items: list[pytest.Item], mutant_id: int, write_fd: int) -> int:
    """In the forked child: run `items` with the guard at `mutant_id` until the first failed check
    (in every fork alike, the original code's too), report on `write_fd`; the exit code (0 passed,
    1 a check failed, 3 only errors, 2 an internal error)."""
    global _PROGRESS_FD
    _PROGRESS_FD = write_fd
    if items:
        _TEST_FILES.update(os.path.abspath(str(item.path)) for item in items[0].session.items)
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
