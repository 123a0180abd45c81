"""`--json` documents of the read-only commands (pure: state in, JSON-ready dict out)."""

from __future__ import annotations

import json

from harness.models.enums import TaskStatus

SCHEMA_VERSION = 1


def status_document(state, next_step: str, who=None, shown=None) -> dict:
    """What `builder status` prints, as data (`who`: harness.trace.authorship.Authorship of the run)."""
    writers = who.writers if who is not None and who.any_model else {}
    tasks = [{"id": t.id, "status": state.task_results.get(t.id, TaskStatus.PENDING).value,
              "description": t.description, "repairs": state.repair_attempts.get(t.id, 0),
              **({"written_by": writers[t.id]} if t.id in writers else {})}
             for t in (state.plan.tasks if state.plan else [])]
    rows = (shown.requirements if shown is not None and shown.requirements else
            state.review.requirements if state.review else [])
    reqs = [{"id": r.id, "status": r.status, "text": r.text, "missing": list(r.missing)} for r in rows]
    judged = {} if shown is None else {"status": shown.status, "stored_status": state.status.value,
                                       **({"status_reason": shown.reason} if shown.reason else {})}
    return {"schema_version": SCHEMA_VERSION, "run_id": state.run_id, "status": state.status.value, **judged,
            "updated_at": state.updated_at, "request": state.user_request, "error": state.error or None,
            "llm": {"calls": state.llm_calls, "tokens": state.llm_tokens,
                    **({"answers_used": who.used, "answers_fell_back": who.fell_back} if writers or
                       (who is not None and who.any_model) else {})},
            "tasks": tasks, "requirements": reqs,
            "runtime": state.runtime.status if state.runtime else None, "next_step": next_step}


def dumps(data) -> str:
    """Stable JSON: sorted keys, indent 2."""
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False)


def event_line(event: dict) -> str:
    """One event as one JSON line (sorted keys)."""
    return json.dumps(event, sort_keys=True, ensure_ascii=False)
