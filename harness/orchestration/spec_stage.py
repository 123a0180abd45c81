"""spec_stage: generate -> validate -> regenerate once with feedback -> persist spec.json."""

from __future__ import annotations

import time

from harness.agents.spec_agent import SpecAgent
from harness.errors import SpecError
from harness.orchestration.context import RunContext
from harness.orchestration.stage import Done
from harness.trace.coverage import FALLBACK_NOTE, clause_summary, spec_warnings
from harness.validation.spec_validator import validate_spec


def spec_stage(ctx: RunContext, max_attempts: int = 2) -> Done:
    """Produce a validated spec for the run and write spec.json; the pipeline commits spec_created.
    A hand-written spec (`builder new --spec`, ctx.given_spec) is validated and used as is."""
    state, events, llm = ctx.state, ctx.events, ctx.llm
    agent = SpecAgent(llm)
    started = time.monotonic()
    feedback: list[str] | None = None
    spec, errors = None, ["no attempt made"]
    if ctx.given_spec is not None:
        agent.source, spec, errors, max_attempts = "file", ctx.given_spec, validate_spec(ctx.given_spec), 0
    for attempt in range(1, max_attempts + 1):
        try:
            spec = agent.generate(state.user_request, feedback)
        except SpecError as exc:   # nothing buildable: the clause list and a draft still say what was read
            _stopped(ctx, exc)
            raise
        errors = validate_spec(spec, state.user_request)
        # Tokens are recorded once, on the call's "llm" event (MeteredProvider), so sums stay honest.
        events.emit("spec", "valid" if not errors else "invalid", agent="spec_agent",
                    model=llm.model if agent.source == "llm" else None, tool=agent.source,
                    error="; ".join(errors), attempt=attempt)
        if agent.source == "rules" and agent.fallback_reason and llm.is_live:
            spec.notes.append(f"{FALLBACK_NOTE}: the LLM gave no usable spec "
                              f"({agent.fallback_reason[:200]}); this app is the offline parser's reading")
            agent.fallback_reason = ""
        if not errors:
            break
        if agent.source == "rules":
            break
        feedback = errors
    if errors and agent.source == "llm":
        why = errors[0]
        spec = agent.fallback(state.user_request)
        errors = validate_spec(spec, state.user_request)
        spec.notes.append(f"{FALLBACK_NOTE}: the LLM's spec stayed invalid after {max_attempts} attempts "
                          f"({why[:200]}); this app is the offline parser's reading of the request")
        events.emit("spec", "fallback" if not errors else "invalid", agent="spec_agent", tool="rules",
                    error="; ".join(errors) or spec.notes[-1])
    if errors:
        raise SpecError(f"the spec stayed invalid after {max_attempts} attempts: {errors[0]}")
    ctx.store.write_artifact(ctx.run_id, "spec", spec)
    from harness.offline.accounting.run_draft import write_run_draft

    write_run_draft(ctx.store, ctx.run_id, state.user_request, spec, spec.clauses)
    state.spec = spec
    events.emit("spec", "completed", agent="spec_agent", tool=agent.source,
                duration_ms=int((time.monotonic() - started) * 1000))
    provider = f"provider {llm.name}" + (f" ({llm.model})" if llm.is_live else " (offline rules)")
    provider = "spec file" if ctx.given_spec is not None else provider

    return Done(f"{len(spec.requirements)} requirements, {len(spec.data_model)} entities, "
                f"{clause_summary(spec)}, {provider}",
                "spec_created", {"requirements": [r.id for r in spec.requirements], "source": agent.source},
                notes=[f"! {note}" for note in spec_warnings(spec)])


def _stopped(ctx: RunContext, exc: SpecError) -> None:
    """clauses.json and app.toml of a run whose request named nothing to build."""
    from harness.offline.accounting.run_draft import failure_clauses, write_run_draft

    clauses = failure_clauses(exc)
    ctx.store.write_artifact(ctx.run_id, "clauses", [c.model_dump() for c in clauses])
    write_run_draft(ctx.store, ctx.run_id, ctx.state.user_request, None, clauses)
