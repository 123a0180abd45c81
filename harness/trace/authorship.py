"""Who wrote what: per task, the model or the offline generator (and why), and per run how many
model answers were used or fell back — read from the run's events, so the summary, `builder
status` and the report say the same thing (#50: every builder answer of a real model fell back,
yet the summary read "llm: 17 calls" as if the model had built the app)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

_USED = {("spec", "valid"), ("plan", "completed"), ("build", "completed")}


@dataclass
class Authorship:
    writers: dict[str, str] = field(default_factory=dict)     # task id -> "model" / "offline generator ..."
    repairs: dict[str, list[str]] = field(default_factory=dict)   # task id -> repair sources, in order
    used: int = 0              # agent answers taken from the model
    fell_back: int = 0         # agent answers replaced by an offline fallback (rules, generator, planner)
    model_calls: int = 0

    @property
    def any_model(self) -> bool:
        return bool(self.model_calls or self.used or self.fell_back)


def authorship(events: Iterable[Mapping]) -> Authorship:
    out = Authorship()
    fell_back_tasks: dict[str, str] = {}
    for e in events:
        stage, status, tool, task = e.get("stage"), e.get("status", ""), e.get("tool"), e.get("task_id") or ""
        if stage == "llm" and status in ("ok", "error"):
            out.model_calls += 1
        elif status == "fallback":
            out.fell_back += 1
            if task:
                fell_back_tasks[task] = str(e.get("error") or "")
        elif (stage, status) in _USED and tool == "llm":
            out.used += 1
        elif stage == "repair" and str(status).startswith("attempt") and tool == "llm":
            out.used += 1
        if stage == "build" and status == "completed" and task:
            out.writers[task] = "model" if tool == "llm" else (
                "offline generator (fallback: the model's answer was unusable)" if task in fell_back_tasks
                else "offline generator")
        if stage == "repair" and str(status).startswith("attempt") and task and tool:
            out.repairs.setdefault(task, []).append("model" if tool == "llm" else str(tool))
    return out


def authorship_lines(a: Authorship) -> list[str]:
    """"Written by:" one line a task, then the run's model answers used / fallen back."""
    if not a.any_model:
        return []
    lines = ["Written by:"]
    for task, writer in a.writers.items():
        fixes = a.repairs.get(task, [])
        lines.append(f"- {task}: {writer}" + (f"; repaired by {', '.join(fixes)}" if fixes else ""))
    lines.append(f"Model answers: {a.used} used, {a.fell_back} fell back to the offline path "
                 f"({a.model_calls} model calls)")
    return lines


def model_wrote_code(a: Authorship) -> bool:
    """True when some workspace file was written or repaired by the model."""
    return any(w == "model" for w in a.writers.values()) or any("model" in r for r in a.repairs.values())


def require_sandbox_for_run(run_dir: Path) -> None:
    """Before running a stored workspace's code again (`builder audit`, `builder resume`,
    `pytest --harness-run`): the unsandboxed-consent rule holds for model-written files as it does
    while they are written — refused in one line without a working sandbox or HARNESS_SANDBOX=none."""
    from harness.sandbox.isolation import require_sandbox_for_model_code
    from harness.utils.events import read_events

    if model_wrote_code(authorship(read_events(run_dir / "events.log"))):
        require_sandbox_for_model_code()
