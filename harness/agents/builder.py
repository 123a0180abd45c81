"""Builder: writes one task's files from a bounded context (LLM file map, else the generator)."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path

from harness.agents.ask import AnswerUnusableError, ask
from harness.agents.builder_context import (CODE_KEYS, dependency_code, dependency_lines, dependency_tasks,
                                            own_files)
from harness.agents.contract import CONTRACT
from harness.agents.data_model_text import entity_line, format_for
from harness.agents.file_map import parse_file_map
from harness.errors import HarnessError, ProviderConfigError
from harness.models.results import VerificationResult
from harness.models.spec import AppSpec
from harness.models.tasks import Plan, Task
from harness.providers.base import LLMProvider, has_model
from harness.providers.context_window import prompt_chars
from harness.tools.file_tools import FileTools
from harness.utils.env_numbers import env_number

SYSTEM = (
    "You are the builder of an app-building harness. Implement exactly one task. Output ONLY a JSON "
    "object mapping each relative file path (only the allowed files) to its full contents. No prose, "
    "no code fences. Tests are pytest files whose tests carry @pytest.mark.req(\"REQ-00N\")."
)


PROMPT_BUDGET_CHARS = 40_000     # the whole builder prompt, ~10k tokens (4 characters a token)
ENV_PROMPT_BUDGET = "HARNESS_PROMPT_BUDGET_CHARS"


def prompt_budget(env: Mapping[str, str] | None = None) -> int:
    """The builder prompt's budget: HARNESS_PROMPT_BUDGET_CHARS (for a model with a small context
    window), else PROMPT_BUDGET_CHARS; ProviderConfigError for a value that is not a positive int."""
    return env_number(os.environ if env is None else env, ENV_PROMPT_BUDGET, PROMPT_BUDGET_CHARS, int,
                      error=ProviderConfigError)


def build_context(task: Task, spec: AppSpec, dep_results: list[VerificationResult], plan: Plan | None = None,
                  workspace: Path | None = None, budget: int = PROMPT_BUDGET_CHARS) -> dict:
    """What the builder may see, the whole prompt within `budget` characters: the task, its
    requirements, a spec summary (an entity task's entities as JSON, every other task's data model
    one line an entity), the dependency tasks one line each with their results, the allowed files,
    the verification commands, on a rebuild the task's own current files — none of these is ever
    cut — and the dependency code in what is left of the budget (`dependency_code`: whole, as
    interfaces, as names, by rank), with a note of what was left out."""
    reqs = [r.model_dump(include={"id", "text", "acceptance"}) for r in spec.requirements if r.id in task.requirements]
    entities = task_entities(task, spec)
    if is_entity_task(task, spec):
        data_model: dict = {"data_model": [e.model_dump(mode="json") for e in entities]}
    else:  # it wires every entity: all of them, compactly
        data_model = {"data_model": [entity_line(e) for e in entities], "data_model_format": format_for(entities)}
    context = {
        "task": task.model_dump(include={"id", "description", "depends_on", "requirements"}),
        "requirements": reqs,
        "spec": {"app_type": spec.app_type, "stack": spec.stack.model_dump(), "auth": spec.auth, **data_model},
        "dependency_tasks": dependency_lines(dependency_tasks(task, plan), dep_results),
        "allowed_files": list(task.files_touched),
        "verification": list(task.verification),
    }
    if plan is not None and plan.entry:
        context["entry"] = plan.entry
    probes = task_probes(task, plan)
    if probes:   # what the runtime check will send to the app: its routes, bodies and statuses
        context["runtime_probes"] = probes
    own = {"own_files": own_files(task, workspace)}

    def assemble(code: dict) -> dict:
        return {**context, "left_out": left_out_note(code, budget), **code, **own}

    empty = {key: ({} if key != "dependency_not_shown" else []) for key in CODE_KEYS}
    code_budget = budget - len(render_prompt(assemble(empty)))
    while True:   # the note names what was not shown: measure the result, shrink the code budget if over
        code = dependency_code(task, plan, workspace, max(0, code_budget))
        full = assemble(code)
        over = len(render_prompt(full)) - budget
        if over <= 0 or code_budget <= 0:
            return full
        code_budget -= over


def task_probes(task: Task, plan: Plan | None) -> list[dict]:
    """The plan's runtime probes of the task's requirements (#50: the builder never saw them and
    could not know the runtime check would call POST /api/links with a given body)."""
    if plan is None or not plan.probes:
        return []
    mine = set(task.requirements)
    return [{k: v for k, v in p.model_dump().items() if v not in (None, {}, "", False)}
            for p in plan.probes if p.requirement in mine]


def left_out_note(code: dict, budget: int) -> str:
    """What the prompt did not show and how to treat it; "nothing" when every file is whole."""
    cut = code["dependency_interfaces"] or code["dependency_names"] or code["dependency_not_shown"]
    if not cut:
        return "nothing: every dependency file is shown whole in dependency_files"
    return (f"To keep this prompt within {budget} characters, dependency code is shown at three depths: "
            "dependency_files whole; dependency_interfaces as outlines (imports, assignments, classes and "
            "function signatures with their first docstring line: the bodies exist and work); "
            "dependency_names as one line of top-level names; dependency_not_shown lists the files not "
            "shown at all. Every file listed in dependency_tasks exists and works as its task describes. "
            "This is all the context there is: write the task's files from it, using the names and "
            "signatures shown, and ask nothing about what was left out.")


def render_prompt(context: dict) -> str:
    return "Context:\n" + json.dumps(context, indent=1) + f"\n\n{CONTRACT}\n\nReturn the file map."


def is_entity_task(task: Task, spec: AppSpec) -> bool:
    """An entity task (`kind` "entity:<ident>" of an entity of the spec) builds one entity's CRUD."""
    kind, _, ident = task.kind.partition(":")
    return kind == "entity" and any(e.ident == ident for e in spec.data_model)


def task_entities(task: Task, spec: AppSpec) -> list:
    """The entities a task's context carries: an entity task (`kind` "entity:<ident>") gets its own
    entity, the ones it points at (parent, reference fields) and the ones pointing at it (children,
    references: its delete must restrict or cascade), so its prompt does not grow with the size of
    the data model; any other task (schema, pages, app, tests) wires every entity."""
    kind, _, ident = task.kind.partition(":")
    by_ident = {e.ident: e for e in spec.data_model}
    if kind != "entity" or ident not in by_ident:
        return list(spec.data_model)

    def points_at(e) -> set[str]:
        return {*([e.parent] if e.parent else []), *(f.ref for f in e.fields if f.ref)}

    wanted = {ident, *points_at(by_ident[ident])} | {e.ident for e in spec.data_model if ident in points_at(e)}
    return [e for e in spec.data_model if e.ident in wanted]


def build_prompt(task: Task, spec: AppSpec, dep_results: list[VerificationResult], plan: Plan | None = None,
                 workspace: Path | None = None, budget: int = PROMPT_BUDGET_CHARS) -> str:
    return render_prompt(build_context(task, spec, dep_results, plan, workspace, budget))


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
              dep_results: list[VerificationResult] | None = None, *, plan: Plan | None = None,
              workspace: Path | None = None) -> BuildOutcome:
        """Write the task's files; PermissionError for a path outside the allowlist; HarnessError
        when the model's answer stays unusable and this run has no offline fallback."""
        offline = plan is None or plan.offline_fallback
        budget = prompt_budget()  # a bad HARNESS_PROMPT_BUDGET_CHARS fails with or without a model
        # Without a model the generator writes the files and no prompt is sent: none is assembled
        # (0.7 s over the 24 tasks of the 20-entity scale build; `builder bench --scale` measures
        # the prompts with benchmarks.assembled_prompts instead).
        window = getattr(self.llm, "context_tokens", None) if has_model(self.llm) else None
        if window:   # fitted to the model's context window (HARNESS_CONTEXT_TOKENS or the server's figure)
            budget = min(budget, prompt_chars(window, window))

        def prompt_within(limit: int) -> str:   # a context overflow: interfaces instead of whole files
            return build_prompt(task, spec, dep_results or [], plan, workspace, limit)

        prompt = prompt_within(budget) if has_model(self.llm) else ""
        try:
            answer = ask(self.llm, "builder", prompt, parse_file_map,
                         (lambda: deterministic_files(task, spec)) if offline else None,
                         system=SYSTEM, stage="build", task_id=task.id, fallback_tool="generator",
                         shrink=prompt_within)
        except AnswerUnusableError as exc:
            note = f"; no offline fallback: {plan.offline_note}" if plan is not None and plan.offline_note else ""
            raise HarnessError(f"{task.id}: {exc}{note}") from None
        files = answer.value
        # Disallowed paths first: the PermissionError comes before any file of the map is written.
        for path in sorted(files, key=lambda p: (p in tools.allowed, p)):
            tools.write_file(path, files[path])
        return BuildOutcome(sorted(files), answer.source, answer.reason)


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
