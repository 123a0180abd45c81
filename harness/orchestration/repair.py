"""Bounded repair: classify -> strategy -> patch allowed files -> re-verify; loop detection; escalation."""

from __future__ import annotations

import re
from collections import Counter

from harness.agents.repair_agent import NoOpRepairAgent, RepairAgent, build_repair_context, strategy_files
from harness.models.enums import FailureType, RunStatus, TaskStatus
from harness.models.results import VerificationResult
from harness.models.tasks import Task
from harness.models.trace import FailureReport
from harness.orchestration.context import RunContext
from harness.orchestration.steps import verify_task_step
from harness.sandbox.local import LocalSandbox
from harness.tools.file_tools import FileTools
from harness.utils.workspace_layout import code_files

MAX_REPAIR_ATTEMPTS = 3
LOOP_THRESHOLD = 3
_LOCAL_MODULE = re.compile(r"No module named '(src(?:\.\w+)+)'")


def result_signature(r: VerificationResult) -> str:
    from harness.verification.signature import failure_signature

    return failure_signature(r.command, r.exit_code, r.stderr, stdout=r.stdout)


def _first_failure(results: list[VerificationResult]) -> VerificationResult | None:
    return next((r for r in results if r.status == "FAIL"), None)


def missing_files(ctx: RunContext, task: Task) -> list[str]:
    box = LocalSandbox(ctx.workspace)
    return [rel for rel in task.files_touched if not (box.read_if_file(rel) or "").strip()]


def _local_module(r: VerificationResult) -> str | None:
    match = _LOCAL_MODULE.search(r.stdout + r.stderr)
    return match.group(1).replace(".", "/") + ".py" if match else None


def _code_files(task: Task) -> list[str]:
    return code_files(task.files_touched)


def localize(task: Task, failing: VerificationResult, missing: list[str] | tuple = ()) -> dict:
    """{"file", "line"}: a missing/empty code file of the task, else the task's code file the
    failure names last, else the locator's answer.

    pytest reports an import-time error raised inside a test or fixture at the test's line, with
    the real culprit (`File ".../src/main.py", line 36`) in the E-block above it; the code file
    is what a repair must patch, so it wins over a test frame. A package `__init__.py` is only
    named as the place a missing module was looked up, so it counts last.
    """
    located = {"file": failing.diagnostics.get("file"), "line": failing.diagnostics.get("line")}
    code = _code_files(task)
    gone = [p for p in missing if p in code]
    if gone:
        return {"file": gone[0], "line": None}
    if located["file"] in code and not located["file"].endswith("__init__.py"):
        return located
    code.sort(key=lambda p: p.endswith("__init__.py"))
    text = f"{failing.stdout}\n{failing.stderr}"
    best: tuple[int, str, int | None] | None = None
    for rel in code:
        module = re.escape(rel[:-3].replace("/", ".")) if rel.endswith(".py") else None
        pattern = re.compile(r'(?:^|[\s"\'/(])(?:' + re.escape(rel) + r'(?:", line (\d+)|:(\d+)|(?=["\'\s:,)]|$))'
                             + (rf"|{module}(?=['\s]|$)" if module else "") + ")", re.M)
        for m in pattern.finditer(text):
            line = m.group(1) or m.group(2)
            if best is None or (m.start() > best[0] and not rel.endswith("__init__.py")):
                best = (m.start(), rel, int(line) if line else None)
    if best is not None:
        return {"file": best[1], "line": best[2]}
    return located


def _signatures_so_far(ctx: RunContext, task: Task) -> Counter:
    seen: Counter = Counter()
    for r in ctx.state.verification_results:
        if r.task_id == task.id and r.status == "FAIL" and r.command != "build":
            seen[result_signature(r)] += 1
    return seen


def apply_patch(ctx: RunContext, task: Task, patch: dict[str, str], allowed: list[str]) -> list[str]:
    """Write the files of `patch` that actually change; PermissionError for anything not allowed."""
    def violation(path: str) -> None:
        ctx.events.emit("repair", "permission_denied", agent="repair_agent", task_id=task.id,
                        tool="write_file", error=f"repair write outside the allowlist refused: {path}")

    tools = FileTools(LocalSandbox(ctx.workspace), allowed, on_violation=violation)
    refused = sorted(rel for rel in patch if rel not in allowed)
    if refused:  # refuse the whole answer before writing anything: no half-applied patches
        for rel in refused:
            violation(rel)
        raise PermissionError(f"repair write outside the allowlist {allowed} refused: {', '.join(refused)}")
    changed = []
    for rel in sorted(patch):
        if LocalSandbox(ctx.workspace).read_if_file(rel) == patch[rel]:
            continue
        tools.write_file(rel, patch[rel])
        changed.append(rel)
    return changed


def repair_task(ctx: RunContext, task: Task,
                results: list[VerificationResult]) -> tuple[TaskStatus, list[VerificationResult]]:
    """Repair until PASS, loop detection or MAX_REPAIR_ATTEMPTS (counted across resumes)."""
    agent = NoOpRepairAgent(ctx.llm) if ctx.no_op_repair else RepairAgent(ctx.llm)
    seen = _signatures_so_far(ctx, task)
    attempts_log: list[dict] = []
    env_retried = timeout_retried = False
    reason = ""
    reopened: set[str] = set()
    previous_status = ctx.state.status
    ctx.state.status = RunStatus.REPAIRING
    while (failing := _first_failure(results)) is not None:
        sig = result_signature(failing)
        ftype = failing.failure_type
        if seen[sig] >= LOOP_THRESHOLD:
            reason = f"LOOP DETECTED: the same failure signature {sig[:12]} seen {seen[sig]} times"
            break
        used = ctx.state.repair_attempts.get(task.id, 0)
        if used >= MAX_REPAIR_ATTEMPTS:
            reason = f"repair attempts exhausted ({used}/{MAX_REPAIR_ATTEMPTS})"
            break
        if (ftype == FailureType.ENVIRONMENT_ERROR and env_retried) or (
                ftype == FailureType.TIMEOUT and timeout_retried):
            reason = f"{ftype.value} persisted after one retry"
            break
        attempt = used + 1
        ctx.state.repair_attempts[task.id] = attempt
        ctx.checkpoint("repair_started", {"attempt": attempt, "failure_type": ftype.value if ftype else None,
                                          "signature": sig}, task.id)
        entry = {"attempt": attempt, "failure_type": ftype.value if ftype else None, "signature": sig,
                 "command": failing.command, "exit_code": failing.exit_code,
                 "diagnostics": failing.diagnostics, "location": localize(task, failing, missing_files(ctx, task)),
                 "files_changed": [], "source": ""}
        entry.update(_attempt(ctx, agent, task, failing, ftype, attempts_log))
        reopened |= set(entry.get("reopened", []))
        env_retried |= ftype == FailureType.ENVIRONMENT_ERROR
        timeout_retried |= ftype == FailureType.TIMEOUT
        attempts_log.append(entry)
        changed = ", ".join(entry["files_changed"]) or "no file changed"
        # The readable log line carries the signature, so `builder logs` shows a loop as it forms.
        ctx.events.emit("repair", f"attempt {attempt}/{MAX_REPAIR_ATTEMPTS}", agent="repair_agent",
                        task_id=task.id, tool=entry["source"],
                        error=f"{entry['failure_type']} signature {sig[:12]} -> {changed}"
                              + (f"; {entry['error']}" if entry.get("error") else ""),
                        attempt=attempt, failure_type=entry["failure_type"], signature=sig[:16],
                        files_changed=entry["files_changed"])
        ctx.say(f"    repair {task.id} attempt {attempt}/{MAX_REPAIR_ATTEMPTS}: {entry['failure_type']} "
                f"signature {sig[:12]} ({entry['source']}) -> {changed}")
        results = verify_task_step(ctx, task, attempt=attempt)
        for r in results:
            if r.status == "FAIL":
                seen[result_signature(r)] += 1
        again = _first_failure(results)
        entry["result"] = "PASS" if again is None else (
            f"FAIL {again.failure_type.value if again.failure_type else 'UNKNOWN'}: "
            + (again.diagnostics.get("summary") or "")[:200])
        ctx.say(f"    re-verify {task.id}: " + ("PASS" if again is None else
                f"FAIL {again.failure_type.value if again.failure_type else 'UNKNOWN'} "
                f"signature {result_signature(again)[:12]}"))
    ctx.state.status = previous_status
    if _first_failure(results) is None:
        ctx.events.emit("repair", "repaired", agent="repair_agent", task_id=task.id)
        if reopened:
            from harness.orchestration.reopen import reverify_reopened

            for line in reverify_reopened(ctx, task, reopened):
                ctx.say(line)
        return TaskStatus.COMPLETED, results
    escalate(ctx, task, reason, seen, attempts_log, results)
    status = TaskStatus.TIMED_OUT if any(r.timed_out for r in results) else TaskStatus.FAILED
    return status, results


def _attempt(ctx: RunContext, agent: RepairAgent, task: Task, failing: VerificationResult,
             ftype: FailureType | None, previous: list[dict]) -> dict:
    """One repair attempt's patch; ENVIRONMENT/TIMEOUT never touch code (a plain retry).

    The agent sees the files it may edit (the strategy's, plus files of earlier tasks the
    traceback names: those tasks are reopened), the failing test and the other named files
    read-only, and what earlier attempts changed, refused and resulted in.
    """
    from harness.agents.repair_context import traceback_files
    from harness.orchestration.reopen import charge, reopenable
    from harness.utils.workspace_layout import workspace_files
    from harness.verification.classifier import locate

    if ftype in (FailureType.ENVIRONMENT_ERROR, FailureType.TIMEOUT):
        return {"source": "retry"}
    missing = missing_files(ctx, task)
    own = strategy_files(ftype, task, localize(task, failing, missing)["file"], missing, _local_module(failing))
    files = workspace_files(ctx.workspace)
    named = traceback_files(failing, files)
    # Every frame in an earlier task's file may hold the cause, and so may an earlier file the failing
    # test imports: an assertion's only frame is the test itself (#50: a wrong value in an earlier
    # file was patched around in the later one). Those files are editable; their tasks are reopened
    # (and re-verified) only when a patch changes them.
    cause = locate(failing.stdout, failing.stderr, files).get("file")
    reached = [*([cause] if cause else []), *named, *reached_by_tests(ctx, named, set(files))]
    reopen = reopenable(ctx, task, list(dict.fromkeys(reached))) if ftype not in (
        FailureType.DEPENDENCY_ERROR, FailureType.CONFIG_ERROR) else {}
    allowed = sorted(set(own) | set(reopen))
    editable = {rel: _read(ctx, rel) for rel in allowed}
    read_only = {rel: _read(ctx, rel) for rel in named if rel not in editable}
    history = [{k: a.get(k) for k in ("attempt", "failure_type", "files_changed", "result", "error") if a.get(k)}
               for a in previous]
    from harness.agents.repair_context import repair_cap
    from harness.providers.base import has_model

    window = getattr(ctx.llm, "context_tokens", None) if has_model(ctx.llm) else None   # a small window: fitted
    context = build_repair_context(task, ctx.state.spec, failing, ftype, editable, read_only, history, reopen,
                                   cap=repair_cap(window))
    patch = agent.propose(task, ctx.state.spec, context, allowed, ctx.state.plan)
    try:
        changed = apply_patch(ctx, task, patch, allowed)
    except PermissionError as exc:
        return {"source": agent.source, "error": f"PermissionError: {exc}", "files_changed": [], "allowed": allowed}
    owners = {reopen[rel] for rel in changed if rel in reopen}
    charge(ctx, owners)
    for tid in sorted(owners):
        ctx.events.emit("repair", "reopened", agent="repair_agent", task_id=tid, reopened_by=task.id,
                        files=[rel for rel in changed if reopen.get(rel) == tid])
    return {"source": agent.source, "files_changed": changed, "allowed": allowed, "reopened": sorted(owners),
            "context_chars": len(context), "error": agent.fallback_reason[:300]}


def reached_by_tests(ctx: RunContext, named: list[str], known: set[str]) -> list[str]:
    """The workspace files the failing test files (of `named`) import (package __init__ files aside:
    they are imported on the way to a module, not for what they hold)."""
    from harness.agents.code_outline import imported_paths
    from harness.utils.workspace_layout import is_test_file

    out: list[str] = []
    for rel in named:
        if is_test_file(rel):
            out += sorted(p for p in imported_paths(rel, _read(ctx, rel), known) if not p.endswith("__init__.py"))
    return out


def _read(ctx: RunContext, rel: str) -> str:
    # Through the jail: a test that swapped a file for a symlink to a host file gets "" sent.
    return LocalSandbox(ctx.workspace).read_if_file(rel) or ""


def escalate(ctx: RunContext, task: Task, reason: str, seen: Counter, attempts: list[dict],
             results: list[VerificationResult]) -> None:
    """ESCALATE: write failures/<TASK>.json and log it; the workspace is left as it is."""
    reason = reason or "verification still failing"
    failing = _first_failure(results)
    where = localize(task, failing, missing_files(ctx, task))["file"] if failing else None
    earlier = _earlier_attempts(ctx, task, {a["attempt"] for a in attempts})
    report = FailureReport(
        run_id=ctx.run_id, task_id=task.id, reason=reason, signatures=dict(sorted(seen.items())),
        attempts=earlier + attempts, repair_attempts_total=ctx.state.repair_attempts.get(task.id, 0),
        files_touched={rel: digest for rel in task.files_touched
                       if (digest := LocalSandbox(ctx.workspace).hash_file(rel)) is not None},
        last_failure=failing.model_dump(mode="json") if failing else None,
        next_step=_next_step(ctx, task, failing, where) if failing else "",
    )
    path = ctx.store.write_json(ctx.store.failure_report(ctx.run_id, task.id), report)
    rel = ctx.store.relative(ctx.run_id, path)
    ctx.events.emit("repair", "ESCALATE", agent="repair_agent", task_id=task.id, error=reason, report=rel)
    ctx.say(f"    {reason} -> ESCALATE {task.id} (report: {rel})")


def _next_step(ctx: RunContext, task: Task, failing: VerificationResult, where: str | None) -> str:
    kind = failing.failure_type.value if failing.failure_type else "failure"
    return (f"Open {where or ', '.join(task.files_touched)} in {ctx.workspace} and fix the {kind} shown in "
            f"last_failure, then run `pytest --harness-run {ctx.run_id} --harness-runs-dir {ctx.store.base}` "
            f"to re-verify {task.id} and the run.")


def _earlier_attempts(ctx: RunContext, task: Task, numbers: set[int]) -> list[dict]:
    """Attempts recorded by an earlier escalation of this task (kept: attempts count across resumes)."""
    old = (ctx.store.read_json(ctx.store.failure_report(ctx.run_id, task.id)) or {}).get("attempts", [])
    if not isinstance(old, list):
        return []
    return [a for a in old if isinstance(a, dict) and a.get("attempt") not in numbers]
