"""A stand-in 'model' for the fake server: answers each agent with the harness's rule-based output.

It lets a user (and a test) drive the real HTTP path end to end without a real model: the spec
agent gets rule_based_spec's JSON, the planner the fallback plan, the builder the generator's files
for the allowed paths, the reviewer a short note. It remembers the last spec it produced.
"""

from __future__ import annotations

import json

from fake_openai_server import RecordedRequest, Reply, answer

from harness.agents import builder, planner, repair_agent, reviewer, spec_agent


class RulesModel:
    def __init__(self):
        self.spec = None

    def __call__(self, request: RecordedRequest) -> Reply:
        messages = request.body.get("messages", []) if isinstance(request.body, dict) else []
        system = next((m["content"] for m in messages if m.get("role") == "system"), "")
        prompt = messages[-1]["content"] if messages else ""
        usage = {"prompt_tokens": len(prompt) // 4, "completion_tokens": 50, "total_tokens": len(prompt) // 4 + 50}
        return answer(self._content(system, prompt), usage=usage)

    def _content(self, system: str, prompt: str) -> str:
        from harness.agents.planner import fallback_plan
        from harness.offline.spec.rules import rule_based_spec
        from harness.offline.generator.units import generate_files

        if system == spec_agent.SYSTEM:
            request = prompt.split("User request:\n", 1)[-1].split("\n\nCapability values", 1)[0].strip()
            self.spec = spec_agent.postprocess(rule_based_spec(request))
            return self.spec.model_dump_json()
        if system == planner.SYSTEM and self.spec is not None:
            return fallback_plan(self.spec).model_dump_json()
        if system in (builder.SYSTEM, repair_agent.SYSTEM) and self.spec is not None:
            context, _ = json.JSONDecoder().raw_decode(prompt, prompt.index("{"))
            allowed = context.get("allowed_files", [])
            files = generate_files(self.spec)
            return json.dumps({p: files[p] for p in allowed if p in files})
        if system == reviewer.SYSTEM:
            return "No concerns beyond the rule-based review."
        return "I can only answer the harness's agents."
