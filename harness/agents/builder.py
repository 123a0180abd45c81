"""Builder: writes one task's files from a bounded context (LLM file map, else the generator)."""

from __future__ import annotations

import json

from harness.agents.file_map import FileMapError, parse_file_map
from harness.errors import HarnessError, ProviderConfigError, ProviderError, ProviderUnavailableError
from harness.models.results import VerificationResult
from harness.models.spec import AppSpec
from harness.models.tasks import Task
from harness.providers.base import LLMProvider, has_model
from harness.providers.budget import for_agent
from harness.tools.file_tools import FileTools

SYSTEM = (
    "You are the builder of an app-building harness. Implement exactly one task. Output ONLY a JSON "
    "object mapping each relative file path (only the allowed files) to its full contents. No prose, "
    "no code fences. Tests are pytest files whose tests carry @pytest.mark.req(\"REQ-00N\")."
)


def build_context(task: Task, spec: AppSpec, dep_results: list[VerificationResult]) -> dict:
    """Only what the builder may see: the task, its requirements, a spec summary, dependency results."""
    reqs = [r.model_dump(include={"id", "text", "acceptance"}) for r in spec.requirements if r.id in task.requirements]
    return {
        "task": task.model_dump(include={"id", "description", "depends_on", "requirements"}),
        "requirements": reqs,
        "spec": {"app_type": spec.app_type, "stack": spec.stack.model_dump(), "auth": spec.auth,
                 "data_model": [e.model_dump(mode="json") for e in spec.data_model]},
        "dependency_results": [{"task_id": r.task_id, "status": r.status, "command": r.command,
                                "exit_code": r.exit_code} for r in dep_results],
        "allowed_files": list(task.files_touched),
        "verification": list(task.verification),
    }


def build_prompt(task: Task, spec: AppSpec, dep_results: list[VerificationResult]) -> str:
    return "Context:\n" + json.dumps(build_context(task, spec, dep_results), indent=1) + "\nReturn the file map."


class BuildOutcome:
    def __init__(self, written: list[str], source: str, fallback_reason: str = ""):
        self.written = written
        self.source = source
        self.fallback_reason = fallback_reason


class Builder:
    """build(task, spec, tools, dep_results) writes through `tools` only; never runs processes."""

    def __init__(self, llm: LLMProvider):
        self.llm = llm

    def build(self, task: Task, spec: AppSpec, tools: FileTools,
              dep_results: list[VerificationResult] | None = None) -> BuildOutcome:
        """Write the task's files; PermissionError for a path outside the allowlist."""
        reason = ""
        if has_model(self.llm):
            try:
                llm = for_agent(self.llm, "builder", task.id)
                files = parse_file_map(llm.generate(build_prompt(task, spec, dep_results or []), SYSTEM))
                # Disallowed paths first: the PermissionError comes before any file of the map is written.
                for path in sorted(files, key=lambda p: (p in tools.allowed, p)):
                    tools.write_file(path, files[path])
                return BuildOutcome(sorted(files), "llm")
            except (ProviderConfigError, ProviderUnavailableError):
                raise
            except (ProviderError, FileMapError) as exc:
                reason = str(exc)
        files = deterministic_files(task, spec)
        for path in sorted(files):
            tools.write_file(path, files[path])
        return BuildOutcome(sorted(files), "generator", reason)


def deterministic_files(task: Task, spec: AppSpec) -> dict[str, str]:
    """The generator's files for this task (its unit when known, else the allowlisted subset)."""
    from harness.offline.generator import generate_files, generate_unit

    if task.kind:
        return generate_unit(spec, task.kind)
    everything = generate_files(spec)
    files = {p: c for p, c in everything.items() if p in task.files_touched}
    if not files:
        raise HarnessError(f"{task.id}: the offline generator has no implementation for {', '.join(task.files_touched)}")
    return files
