"""Issue 5: bounded repair driven directly (repair_task on a private copy of the Todo run).

Faults are injected into real files and verified by real pytest subprocesses.
"""

from __future__ import annotations

import json

import pytest
from run_copies import workspace_hashes

from harness.models.enums import FailureType, TaskStatus
from harness.orchestration.steps import verify_task_step as verify
from harness.orchestration.context import RunContext
from harness.orchestration.inject import inject_fault
from harness.orchestration.repair import MAX_REPAIR_ATTEMPTS, repair_task
from harness.providers.mock import MockProvider
from harness.utils.events import read_events


def _ctx(store, run_id, llm=None, lines=None) -> RunContext:
    return RunContext(store=store, state=store.load(run_id), llm=llm or MockProvider(),
                      say=(lines.append if lines is not None else lambda _l: None))


def _owner(ctx, rel):
    return next(t for t in ctx.state.plan.tasks if rel in t.files_touched)


def _repair_checkpoints(store, run_id, task_id):
    return sorted(p.name for p in (store.run_dir(run_id) / "checkpoints").glob(f"*-repair_started-{task_id}.json"))


@pytest.mark.parametrize("fault, rel", [("name-error", "src/main.py"), ("delete", "src/models.py"),
                                        ("empty", "src/models.py")])
def test_generated_file_fault_is_repaired_touching_only_that_file(fresh_todo_run, fault, rel):
    store, run_id = fresh_todo_run
    ctx = _ctx(store, run_id)
    before = workspace_hashes(ctx.workspace)
    task = _owner(ctx, rel)
    inject_fault(ctx.workspace, rel, fault)
    results = verify(ctx, task)
    assert results[0].status == "FAIL" and results[0].failure_type == FailureType.CODE_ERROR
    status, results = repair_task(ctx, task, results)
    assert status == TaskStatus.COMPLETED and all(r.status == "PASS" for r in results)
    assert 1 <= ctx.state.repair_attempts[task.id] <= MAX_REPAIR_ATTEMPTS
    assert workspace_hashes(ctx.workspace) == before          # regenerated file identical, nothing else touched
    attempts = [e for e in read_events(ctx.run_dir / "events.log")
                if e["stage"] == "repair" and e["status"].startswith("attempt")]
    assert {f for e in attempts for f in e["detail"]["files_changed"]} == {rel}
    checkpoint = json.loads((ctx.run_dir / "checkpoints" / _repair_checkpoints(store, run_id, task.id)[0]).read_text())
    assert checkpoint["failure_type"] == "CODE_ERROR"


def test_environment_error_retries_once_and_never_touches_files(fresh_todo_run):
    store, run_id = fresh_todo_run
    ctx = _ctx(store, run_id)
    before = workspace_hashes(ctx.workspace)
    net = ('python -c "import sys; print(\'pip: Temporary failure in name resolution (EAI_AGAIN)\'); '
           'sys.exit(1)"')
    task = ctx.state.plan.task("TASK-002").model_copy(update={"verification": [net]})
    results = verify(ctx, task)
    assert results[0].failure_type == FailureType.ENVIRONMENT_ERROR
    status, results = repair_task(ctx, task, results)
    assert status == TaskStatus.FAILED
    assert ctx.state.repair_attempts[task.id] == 1               # one plain retry
    assert workspace_hashes(ctx.workspace) == before
    report = json.loads((ctx.run_dir / "failures" / "TASK-002.json").read_text())
    assert report["reason"] == "ENVIRONMENT_ERROR persisted after one retry"
    assert report["attempts"][0]["source"] == "retry" and report["attempts"][0]["files_changed"] == []


def test_repair_answer_outside_the_allowlist_is_refused_and_counted(fresh_todo_run):
    store, run_id = fresh_todo_run
    hijack = json.dumps({"src/main.py": "app = None\n", "src/api_todo.py": "# hijacked\n"})
    ctx = _ctx(store, run_id, llm=MockProvider(script=[hijack]))   # then exhausted -> generator
    before = workspace_hashes(ctx.workspace)
    task = _owner(ctx, "src/main.py")
    inject_fault(ctx.workspace, "src/main.py", "syntax-error")
    status, _ = repair_task(ctx, task, verify(ctx, task))
    assert status == TaskStatus.COMPLETED
    assert ctx.state.repair_attempts[task.id] == 2                # the refused answer used up attempt 1
    assert workspace_hashes(ctx.workspace) == before              # nothing of the refused answer was written
    events = read_events(ctx.run_dir / "events.log")
    denied = [e for e in events if e["status"] == "permission_denied"]
    assert [e["error"] for e in denied] == ["repair write outside the allowlist refused: src/api_todo.py"]
    first = next(e for e in events if e["status"] == "attempt 1/3")
    assert "PermissionError" in first["error"] and first["detail"]["files_changed"] == []
    assert len(_repair_checkpoints(store, run_id, task.id)) == 2


def test_attempts_never_exceed_three_even_with_different_broken_code(fresh_todo_run):
    store, run_id = fresh_todo_run
    ctx0 = _ctx(store, run_id)
    original = (ctx0.workspace / "src" / "main.py").read_text()
    names = ["alpha", "bravo", "charlie", "delta", "echo"]     # letters: digits would normalise alike
    llm = MockProvider(script=[json.dumps({"src/main.py": original + f"\ndef {n}(:\n    pass\n"}) for n in names])
    lines: list[str] = []
    ctx = _ctx(store, run_id, llm=llm, lines=lines)
    task = _owner(ctx, "src/main.py")
    inject_fault(ctx.workspace, "src/main.py", "syntax-error")
    status, results = repair_task(ctx, task, verify(ctx, task))
    assert status == TaskStatus.FAILED
    assert ctx.state.repair_attempts[task.id] == 3 and len(llm.calls) == 3
    assert len(_repair_checkpoints(store, run_id, task.id)) == 3
    report = json.loads((ctx.run_dir / "failures" / f"{task.id}.json").read_text())
    assert report["reason"] == "repair attempts exhausted (3/3)"
    assert len(report["signatures"]) == 4 and max(report["signatures"].values()) == 1   # all different
    assert [a["attempt"] for a in report["attempts"]] == [1, 2, 3]
    assert "def charlie(:" in (ctx.workspace / "src" / "main.py").read_text()          # left as last attempt
    # A resumed run (state reloaded from disk) gets no fresh budget.
    resumed = _ctx(store, run_id, llm=llm)
    status, _ = repair_task(resumed, task, results)
    assert status == TaskStatus.FAILED and resumed.state.repair_attempts[task.id] == 3
    assert len(_repair_checkpoints(store, run_id, task.id)) == 3 and len(llm.calls) == 3
    report = json.loads((ctx.run_dir / "failures" / f"{task.id}.json").read_text())
    assert [a["attempt"] for a in report["attempts"]] == [1, 2, 3]
