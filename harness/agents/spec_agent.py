"""SpecAgent: request -> AppSpec, by the LLM when it answers validly, else by rules."""

from __future__ import annotations

from harness.agents.ask import ask
from harness.agents.contract import capability_text
from harness.models.spec import AppSpec
from harness.providers.base import LLMProvider
from harness.providers.extract import extract_json
from harness.utils.ids import req_id

SYSTEM = (
    "You are the spec agent of an app-building harness. Output ONLY one JSON object matching the "
    "AppSpec schema, no prose, no code fences. Infer the stack (web app -> React + FastAPI + SQLite; "
    "API -> FastAPI + SQLite; todo -> FastAPI + SQLite + minimal HTML), pages, data model, "
    "requirements (one testable sentence each, capability set), must-haves, non-goals "
    "(deployment, mobile-app, browser-automation unless asked) and acceptance criteria. Split the "
    "request into clauses (sentences, bullet/numbered lines, user stories, 'X; Y' parts) and list each "
    "in `clauses` with its exact text: status 'mapped' with the REQ ids implementing it, 'not_built' "
    "with a reason and a requirement of capability 'unsupported', or 'context' for greetings and "
    "background that ask for nothing."
)
DEFAULT_NON_GOALS = ["deployment", "mobile-app", "browser-automation"]


def postprocess(spec: AppSpec) -> AppSpec:
    """Assign REQ-001..N in order, and fill must-haves, acceptance criteria and default non-goals."""
    spec = spec.model_copy(deep=True)
    renamed: dict[str, str] = {}
    for n, req in enumerate(spec.requirements, start=1):
        renamed.setdefault(req.id, req_id(n))
        req.id = req_id(n)
        if not req.acceptance:
            req.acceptance = f"A passing test marked {req.id} shows: {req.text}"
    for clause in spec.clauses:   # the clause -> REQ mapping follows the renumbering
        clause.reqs = [renamed.get(r, r) for r in clause.reqs]
    if not spec.acceptance_criteria:
        spec.acceptance_criteria = [r.acceptance for r in spec.requirements]
    if not spec.must_have:
        spec.must_have = [r.text for r in spec.requirements if r.must_have][:12]
    if not spec.explicit_non_goals:
        spec.explicit_non_goals = list(DEFAULT_NON_GOALS)
    return spec


class SpecAgent:
    """generate(request, feedback) -> AppSpec; `source` tells which path produced the last spec."""

    def __init__(self, llm: LLMProvider):
        self.llm = llm
        self.source = "none"
        self.fallback_reason = ""

    def prompt(self, request: str, feedback: list[str] | None = None) -> str:
        text = f"User request:\n{request}\n\n{capability_text()}\n"
        if feedback:
            text += "\nYour previous spec was rejected by the validator:\n" + "\n".join(f"- {f}" for f in feedback)
            text += "\nReturn a corrected AppSpec JSON object."
        return text

    def generate(self, request: str, feedback: list[str] | None = None) -> AppSpec:
        """The LLM's spec (post-processed) or, if the provider cannot give one, the rule-based spec."""
        answer = ask(self.llm, "spec_agent", self.prompt(request, feedback),
                     lambda text: AppSpec.model_validate(extract_json(text)), lambda: None,
                     system=SYSTEM, schema=AppSpec, stage="spec", fallback_tool="rules")
        self.fallback_reason = answer.reason
        if answer.value is None:
            return self.fallback(request)
        self.source = "llm"
        return postprocess(answer.value)

    def fallback(self, request: str) -> AppSpec:
        from harness.offline.spec import parse_request

        self.source = "rules"
        return postprocess(parse_request(request))
