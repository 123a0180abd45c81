"""RepairAgent: a bounded repair context in, a {path: contents} patch for allowed files out."""

from __future__ import annotations

import json

from harness.agents.file_map import FileMapError, parse_file_map
from harness.errors import HarnessError, ProviderConfigError, ProviderError, ProviderUnavailableError
from harness.models.enums import FailureType
from harness.models.results import VerificationResult
from harness.models.spec import AppSpec
from harness.models.tasks import Task
from harness.providers.base import LLMProvider, has_model
from harness.providers.budget import for_agent, report_fallback
from harness.utils.workspace_layout import is_config_file, is_test_file

CONTEXT_CAP = 8000
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
    if ftype in (FailureType.ENVIRONMENT_ERROR, FailureType.TIMEOUT):
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


def build_repair_context(task: Task, spec: AppSpec, failing: VerificationResult, ftype: FailureType | None,
                         allowed: list[str], contents: dict[str, str]) -> str:
    """The JSON repair context, capped near CONTEXT_CAP characters (file contents are trimmed first)."""
    reqs = [{"id": r.id, "text": r.text} for r in spec.requirements if r.id in task.requirements]
    head = {"task": {"id": task.id, "description": task.description}, "requirements": reqs,
            "failure_type": ftype.value if ftype else None,
            "failing": {"command": failing.command, "exit_code": failing.exit_code,
                        "stderr_tail": (failing.stderr or failing.stdout)[-1500:],
                        "location": failing.diagnostics.get("file"), "line": failing.diagnostics.get("line")},
            "allowed_files": allowed}
    budget = max(0, CONTEXT_CAP - len(json.dumps(head)) - 200)
    per_file = budget // max(1, len(contents))
    head["files"] = {p: c[:per_file] for p, c in sorted(contents.items())}
    return json.dumps(head, indent=None)[:CONTEXT_CAP]


class RepairAgent:
    """propose(...) -> {path: contents}; LLM when available, else the task's generator output."""

    def __init__(self, llm: LLMProvider):
        self.llm = llm
        self.source = "none"
        self.fallback_reason = ""

    def propose(self, task: Task, spec: AppSpec, context: str, allowed: list[str]) -> dict[str, str]:
        self.fallback_reason = ""  # one agent serves every attempt; a reason belongs to one
        if has_model(self.llm):
            try:
                self.source = "llm"
                return parse_file_map(for_agent(self.llm, "repair_agent", task.id).generate(context, SYSTEM))
            except (ProviderConfigError, ProviderUnavailableError):
                raise
            except (ProviderError, FileMapError) as exc:
                self.fallback_reason = str(exc)
                report_fallback(self.llm, "repair", "repair_agent", self.fallback_reason, task.id)
        self.source = "generator"
        return regenerate(task, spec, allowed)


class NoOpRepairAgent(RepairAgent):
    """A repair that changes nothing: used to prove loop detection (Gate 2)."""

    def propose(self, task: Task, spec: AppSpec, context: str, allowed: list[str]) -> dict[str, str]:
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
