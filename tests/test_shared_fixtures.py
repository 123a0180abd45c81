"""tests/shared_fixtures.py: a session fixture is built by the first xdist worker and read by the rest."""

from __future__ import annotations

import fcntl
import threading
from pathlib import Path

import pytest

from shared_fixtures import built_once, changed_since_built


class Factory:
    """The two calls of pytest's TempPathFactory that built_once makes, for one worker."""

    def __init__(self, session: Path, worker: str):
        self.base = session / f"popen-{worker}"
        self.base.mkdir(parents=True, exist_ok=True)
        self.made = 0

    def getbasetemp(self) -> Path:
        return self.base

    def mktemp(self, name: str) -> Path:
        self.made += 1
        path = self.base / f"{name}{self.made}"
        path.mkdir()
        return path


def build_counted(calls: list[Path]):
    def build(directory: Path) -> dict:
        calls.append(directory)
        (directory / "run.txt").write_text("built")
        return {"run": directory / "run.txt", "code": 0}
    return build


@pytest.fixture(autouse=True)
def _one_session(monkeypatch):
    monkeypatch.setenv("PYTEST_XDIST_TESTRUNUID", "run1")


def test_the_second_worker_reads_what_the_first_built(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw0")
    calls: list[Path] = []
    first = built_once(Factory(tmp_path, "gw0"), "shared", build_counted(calls))
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw1")
    second = built_once(Factory(tmp_path, "gw1"), "shared", build_counted(calls))
    assert calls == [tmp_path / "shared_fixtures-run1" / "shared"]
    assert first == second and second["run"].read_text() == "built"


def test_a_worker_asking_while_the_build_runs_waits_for_it(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw0")
    started, release, calls, got = threading.Event(), threading.Event(), [], {}

    def slow_build(directory: Path) -> str:
        calls.append(directory)
        started.set()
        release.wait(60)
        return "value"

    first = threading.Thread(target=lambda: got.setdefault("gw0", built_once(Factory(tmp_path, "gw0"), "x", slow_build)))
    first.start()
    assert started.wait(60)
    with open(tmp_path / "shared_fixtures-run1" / "x.lock") as lock, pytest.raises(BlockingIOError):
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)   # held for the whole build
    second = threading.Thread(target=lambda: got.setdefault("gw1", built_once(Factory(tmp_path, "gw1"), "x", slow_build)))
    second.start()
    release.set()
    first.join(60)
    second.join(60)
    assert got == {"gw0": "value", "gw1": "value"} and len(calls) == 1


def test_dump_and_load_carry_a_value_that_does_not_pickle(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw0")
    made = built_once(Factory(tmp_path, "gw0"), "ctx", lambda d: (d, lambda: 1),
                      dump=lambda value: value[0], load=lambda saved: (saved, "rebuilt"))
    again = built_once(Factory(tmp_path, "gw1"), "ctx", lambda d: (d, lambda: 1),
                       dump=lambda value: value[0], load=lambda saved: (saved, "rebuilt"))
    assert again == (made[0], "rebuilt")


def test_a_test_that_modifies_the_shared_directory_is_named(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw0")
    factory = Factory(tmp_path, "gw0")
    value = built_once(factory, "shared", build_counted([]))
    assert changed_since_built(factory, "shared") == []
    value["run"].write_text("changed by a test")
    (value["run"].parent / "new.txt").write_text("")
    assert changed_since_built(factory, "shared") == ["new.txt", "run.txt"]


def test_without_xdist_each_call_builds_its_own(tmp_path, monkeypatch):
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    calls: list[Path] = []
    factory = Factory(tmp_path, "main")
    built_once(factory, "shared", build_counted(calls))
    built_once(factory, "shared", build_counted(calls))
    assert len(calls) == 2 and calls[0] != calls[1]
    assert changed_since_built(factory, "shared") == []


def test_a_basetemp_given_again_never_hands_out_the_last_sessions_values_bug(tmp_path, monkeypatch):
    """With a fixed --basetemp the workers' shared directory outlived its session: the next session
    would have unpickled the last one's run (a run directory it had since cleared)."""
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw0")
    calls: list[Path] = []
    built_once(Factory(tmp_path, "gw0"), "shared", build_counted(calls))
    monkeypatch.setenv("PYTEST_XDIST_TESTRUNUID", "run2")
    built_once(Factory(tmp_path, "gw0"), "shared", build_counted(calls))
    assert calls == [tmp_path / "shared_fixtures-run1" / "shared", tmp_path / "shared_fixtures-run2" / "shared"]
