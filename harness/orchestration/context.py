"""RunContext: what every stage of one run shares (store, state, provider, events, output)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from harness.audit.run import AuditBudget
from harness.models.results import VerificationResult
from harness.models.run import RunState
from harness.models.spec import AppSpec
from harness.providers.base import LLMProvider
from harness.speed.door import Speed
from harness.state.checkpoints import CRASH_ENV  # noqa: F401  (test hook, see checkpoints.py)
from harness.state.store import RunStore
from harness.utils.events import EventLog


@dataclass
class RunContext:
    store: RunStore
    state: RunState
    llm: LLMProvider
    say: Callable[[str], None] = print
    repair: bool = True
    no_op_repair: bool = False
    audit: AuditBudget | None = None   # the mutation audit's bounds; None: no audit stage
    audit_off: str = "--no-audit"      # why there is no audit stage when `audit` is None (shown on its line)
    timings: dict[str, float] = field(default_factory=dict)
    subprocess_ms: int = 0
    given_spec: AppSpec | None = None   # `builder new --spec app.toml`: the spec stage uses it as is
    speed: Speed = field(default_factory=Speed)   # every acceleration path of the run (harness/speed/door.py)


    @property
    def run_id(self) -> str:
        return self.state.run_id

    @property
    def run_dir(self) -> Path:
        return self.store.run_dir(self.run_id)

    @property
    def workspace(self) -> Path:
        return self.store.workspace(self.run_id)

    @property
    def events(self) -> EventLog:
        return self.store.events(self.state)

    def __post_init__(self) -> None:
        self._wire_llm()

    def _wire_llm(self) -> None:
        """A metered provider continues the run's counters and reports every call as an "llm" event."""
        from harness.providers.budget import MeteredProvider

        if isinstance(self.llm, MeteredProvider):
            self.llm.calls, self.llm.tokens = self.state.llm_calls, self.state.llm_tokens
            self.llm.on_call = self._on_llm_call
            self.llm.on_fallback = self._on_llm_fallback

    def _on_llm_call(self, kind: str, duration_ms: int, usage, error: str, *, agent: str = "",
                     task_id: str = "") -> None:
        from harness.providers.budget import usage_tokens

        self.sync_llm_usage()
        detail = {} if usage is None else {"prompt_tokens": usage.prompt_tokens,
                                           "completion_tokens": usage.completion_tokens}
        for note in self.llm.take_notes():   # how the endpoint is asked: stated once, when it changes
            self.events.emit("llm", "endpoint", agent=agent, task_id=task_id, model=self.llm.model, error=note[:500])
        self.events.emit("llm", "error" if error else "ok", agent=agent, task_id=task_id, model=self.llm.model,
                         tokens=usage_tokens(usage), tool=kind, duration_ms=duration_ms, error=error[:500],
                         **detail)

    def _on_llm_fallback(self, stage: str, agent: str, reason: str, *, task_id: str = "",
                         tool: str = "generator") -> None:
        self.events.emit(stage, "fallback", agent=agent, task_id=task_id, tool=tool,
                         error=f"LLM output unusable: {reason}"[:500])

    def sync_llm_usage(self) -> None:
        """Copy the meter's call/token counts into the state (persisted by the next save)."""
        from harness.providers.budget import MeteredProvider

        if isinstance(self.llm, MeteredProvider):
            self.state.llm_calls, self.state.llm_tokens = self.llm.calls, self.llm.tokens

    def check_minutes(self) -> None:
        """BudgetExceededError once --max-minutes is used up, with or without a model (exit 75)."""
        from harness.providers.budget import MeteredProvider

        if isinstance(self.llm, MeteredProvider):
            self.llm.check_minutes()

    def save(self) -> None:
        self.sync_llm_usage()
        self.store.save(self.state)

    def checkpoint(self, event: str, payload: dict | None = None, task_id: str | None = None) -> None:
        self.sync_llm_usage()
        self.store.checkpoint(self.state, event, payload, task_id)  # HARNESS_CRASH_AT hook: checkpoints.py

    def record_verification(self, results: list[VerificationResult]) -> None:
        """Append results to the state and rewrite verification.json (the full history)."""
        batch = max((r.batch for r in self.state.verification_results), default=0) + 1
        for r in results:
            r.batch = batch
        self.state.verification_results.extend(results)
        self.subprocess_ms += sum(r.duration_ms for r in results)
        self.store.write_artifact(self.run_id, "verification", {
            "schema_version": 1, "run_id": self.run_id,
            "results": [r.model_dump(mode="json") for r in self.state.verification_results]})
        self.save()
