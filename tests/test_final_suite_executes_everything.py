"""#46: the final whole-suite session runs every test — nothing in the evidence a verdict reads is
carried from an earlier session or reused from an earlier run.

A test that reads its data through `os.stat`/`os.path.getsize` or `os.scandir().stat()` records
no read of that file (carry's read set cannot be complete), so until #46 the final suite carried
it as PASS from the last task's document after a later task rewrote the file, and the build
completed although the test fails on the final workspace.
"""

from __future__ import annotations

import json

import pytest

from harness.orchestration.context import RunContext
from harness.orchestration.steps import verify_task_step, verify_workspace_step
from harness.providers.mock import MockProvider

pytestmark = pytest.mark.slow

STAT_READERS = '''

@pytest.mark.req("REQ-001")
def test_rows_file_size_via_stat():
    import os
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "data" / "rows.txt"
    assert os.stat(path).st_size == 10 and os.path.getsize(path) == 10


@pytest.mark.req("REQ-001")
def test_rows_file_size_via_scandir():
    import os
    from pathlib import Path

    folder = Path(__file__).resolve().parent.parent / "data"
    with os.scandir(folder) as entries:
        sizes = {e.name: e.stat().st_size for e in entries}
    assert sizes["rows.txt"] == 10
'''


def test_a_stat_read_data_file_rewritten_by_a_later_task_fails_the_final_suite(fresh_todo_run):
    store, run_id = fresh_todo_run
    ctx = RunContext(store=store, state=store.load(run_id), llm=MockProvider(), say=lambda _line: None)
    ws = ctx.workspace
    (ws / "data").mkdir(exist_ok=True)
    (ws / "data" / "rows.txt").write_text("0123456789")
    with (ws / "tests" / "test_models.py").open("a") as out:
        out.write(STAT_READERS)
    last = next(t for t in ctx.state.plan.tasks if t.verification == ["python -m pytest -q"])
    task_results = verify_task_step(ctx, last)   # the whole suite in a task session: both pass
    assert [r.status for r in task_results] == ["PASS"]
    (ws / "data" / "rows.txt").write_text("012")   # a later task rewrites the data file

    final = verify_workspace_step(ctx)

    doc = json.loads(store.workspace_evidence(run_id).read_text())
    outcomes = {n.rsplit("::", 1)[-1]: e for n, e in doc["tests"].items()}
    assert final.status == "FAIL" and final.carried == 0
    for name in ("test_rows_file_size_via_stat", "test_rows_file_size_via_scandir"):
        assert outcomes[name]["outcome"] == "failed" and not outcomes[name].get("carried_from")
    assert not any(e.get("carried_from") for e in doc["tests"].values()) and "carried" not in doc
