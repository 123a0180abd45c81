"""RepairAgent: a bounded repair context in, a {path: contents} patch for allowed files out."""

from __future__ import annotations

from harness.agents.ask import AnswerUnusableError, ask
from harness.agents.file_map import parse_file_map
from harness.agents.repair_context import CONTEXT_CAP, build_repair_context  # noqa: F401  (re-exported)
from harness.errors import HarnessError
from harness.models.enums import FailureType
from harness.models.spec import AppSpec
from harness.models.tasks import Plan, Task
from harness.providers.base import LLMProvider
from harness.utils.workspace_layout import is_config_file, is_test_file

SYSTEM = (
    "You are the repair agent of an app-building harness. Fix the failing verification by editing "
    "only the allowed files. Never weaken or delete a test. Output ONLY a JSON object mapping each "
    "changed relative path to its full corrected contents."
)


def strategy_files(ftype: FailureType | None, task: Task, located: str | None, missing: list[str],
                   local_module: str | None = None) -> list[str]:
    """The files a repair of this failure type may touch (always a subset of files_touched)."""
    allowed = list(task.files_touched)
    config = [p for p in allowed if is_config_file(p)]
    code = [p for p in allowed if not is_test_file(p) and p not in config]
    if ftype in (FailureType.ENVIRONMENT_ERROR, FailureType.TIMEOUT, FailureType.UNSUPPORTED):
        return []
    own = {p for p in (local_module, *missing) if p in allowed}
    if ftype == FailureType.DEPENDENCY_ERROR:
        return sorted(set(config) | own)
    if ftype == FailureType.CONFIG_ERROR:
        return sorted(set(config) | own)
    if ftype == FailureType.TEST_FAILURE:
        return sorted(code)
    if located in allowed:                         # CODE / TYPE / UNKNOWN: the file the traceback names
        return sorted({located} | own)
    return sorted(set(code) | own)


class RepairAgent:
    """propose(...) -> {path: contents}; LLM when available, else the task's generator output."""

    def __init__(self, llm: LLMProvider):
        self.llm = llm
        self.source = "none"
        self.fallback_reason = ""

    def propose(self, task: Task, spec: AppSpec, context: str, allowed: list[str],
                plan: Plan | None = None) -> dict[str, str]:
        """The model's patch (one corrective retry); the generator's files only when this run
        may fall back to them; otherwise an empty patch with the reason in `fallback_reason`."""
        offline = plan is None or plan.offline_fallback
        try:
            answer = ask(self.llm, "repair_agent", context, parse_file_map,
                         (lambda: regenerate(task, spec, allowed)) if offline else None,
                         system=SYSTEM, stage="repair", task_id=task.id, fallback_tool="generator")
        except AnswerUnusableError as exc:
            self.source, self.fallback_reason = "none", str(exc)
            return {}
        self.source = "llm" if answer.source == "llm" else "generator"
        self.fallback_reason = answer.reason
        return answer.value


class NoOpRepairAgent(RepairAgent):
    """A repair that changes nothing: used to prove loop detection (Gate 2)."""

    def propose(self, task: Task, spec: AppSpec, context: str, allowed: list[str],
                plan: Plan | None = None) -> dict[str, str]:
        self.source = "no-op"
        return {}


def regenerate(task: Task, spec: AppSpec, allowed: list[str]) -> dict[str, str]:
    """The generator's version of the allowed files of this task (deterministic repair)."""
    from harness.agents.builder import deterministic_files

    try:
        files = deterministic_files(task, spec)
    except HarnessError:
        return {}
    return {p: c for p, c in files.items() if p in allowed}
