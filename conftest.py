"""Shared fixtures for the harness's own tests (offline, fast, real subprocesses)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "tests"))

from fake_openai_server import fake_openai_server  # noqa: E402,F401  (fixture)

# pytester's in-process runs drop modules first imported inside them; coverage's C tracer cannot be
# imported twice in one process, so it is loaded once here, outside every in-process run.
import coverage  # noqa: E402,F401

TODO_REQUEST = "Build a Simple Todo App with add/list/complete"


@pytest.fixture(autouse=True)
def _offline_env(monkeypatch):
    """No test sees a real key or endpoint from the developer's shell."""
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_MODEL", "HARNESS_CRASH_AT",
                 "HARNESS_MAX_LLM_CALLS", "HARNESS_MAX_TOKENS", "HARNESS_MAX_MINUTES", "HARNESS_RUNS_DIR"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def runs_dir(tmp_path) -> Path:
    return tmp_path / "runs"


@pytest.fixture(scope="session")
def todo_run(tmp_path_factory):
    """One real offline Todo build shared by read-only tests: (store, ctx)."""
    from harness.orchestration.pipeline import new_run
    from harness.providers.mock import MockProvider
    from harness.state.store import RunStore

    store = RunStore(tmp_path_factory.mktemp("shared") / "runs")
    ctx = new_run(store, TODO_REQUEST, MockProvider(), say=lambda _line: None)
    return store, ctx


@pytest.fixture
def fresh_todo_run(tmp_path, todo_run):
    """A private copy of the finished Todo run that a test may modify: (store, run_id)."""
    import shutil

    from harness.state.store import RunStore

    store, ctx = todo_run
    target = tmp_path / "runs"
    shutil.copytree(store.run_dir(ctx.run_id), target / ctx.run_id)
    return RunStore(target), ctx.run_id
