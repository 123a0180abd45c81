"""Run budgets: a provider wrapper counting model calls, tokens and wall-clock time.

MeteredProvider counts only calls to something that can answer (a live endpoint or a scripted
mock); the bare offline mock is never metered. Before each call it raises BudgetExceededError
when a budget is already used up, so the call that crosses a budget completes and the next one
stops the run. `on_call(kind, duration_ms, usage, error, agent=...)` is invoked after every
metered call (the pipeline turns it into an "llm" event); `for_agent(llm, name)` gives an agent a
view that shares the counters but labels its calls.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from harness.utils.env_numbers import env_number
from harness.errors import BudgetExceededError, InputError
from harness.providers.base import LLMProvider, M, Usage

DEFAULT_MAX_LLM_CALLS = 200
DEFAULT_MAX_TOKENS = 2_000_000
DEFAULT_MAX_MINUTES = 60.0

CallHook = Callable[..., None]        # (kind, duration_ms, usage, error, *, agent, task_id) -> None
FallbackHook = Callable[..., None]    # (stage, agent, reason, *, task_id, tool) -> None


def _env_number(name: str, cast, default):
    return env_number(os.environ, name, default, cast, error=InputError)


BUDGET_FIELDS = ("max_llm_calls", "max_tokens", "max_minutes")
_ENV = {"max_llm_calls": ("HARNESS_MAX_LLM_CALLS", int), "max_tokens": ("HARNESS_MAX_TOKENS", int),
        "max_minutes": ("HARNESS_MAX_MINUTES", float)}


@dataclass
class Budget:
    max_llm_calls: int = DEFAULT_MAX_LLM_CALLS
    max_tokens: int = DEFAULT_MAX_TOKENS
    max_minutes: float = DEFAULT_MAX_MINUTES
    explicit: frozenset = field(default=frozenset(), compare=False)   # set by the environment or a flag

    @classmethod
    def from_args(cls, args=None) -> "Budget":
        """Defaults < HARNESS_* environment < CLI flags."""
        b = cls()
        explicit = set()
        for name, (var, cast) in _ENV.items():
            value = _env_number(var, cast, None)
            if value is not None:
                setattr(b, name, value)
                explicit.add(name)
        for name in BUDGET_FIELDS:
            value = getattr(args, name, None) if args is not None else None
            if value is not None:
                if not math.isfinite(value) or value <= 0:
                    raise InputError(f"--{name.replace('_', '-')} must be positive and finite (got {value})")
                setattr(b, name, value)
                explicit.add(name)
        b.explicit = frozenset(explicit)
        return b

    def chosen(self) -> dict:
        """The values set for this run (kept in its options, so `resume` keeps them)."""
        return {name: getattr(self, name) for name in BUDGET_FIELDS if name in self.explicit}

    def keep(self, kept: dict | None) -> None:
        """A resumed run keeps the budgets it was started with, unless set again now."""
        for name, value in (kept or {}).items():
            if name in BUDGET_FIELDS and name not in self.explicit:
                setattr(self, name, value)


def usage_tokens(usage: Usage | None) -> int | None:
    """Total tokens the server reported (prompt + completion when no total), None when unreported."""
    if usage is None:
        return None
    if usage.total_tokens is not None:
        return usage.total_tokens
    parts = [n for n in (usage.prompt_tokens, usage.completion_tokens) if n is not None]
    return sum(parts) if parts else None


class MeteredProvider(LLMProvider):
    """Delegates to `inner`; raises BudgetExceededError before a call once a budget is used up."""

    def __init__(self, inner: LLMProvider, budget: Budget, used_calls: int = 0, used_tokens: int = 0,
                 on_call: CallHook | None = None):
        self.inner = inner
        self.budget = budget
        self.calls = used_calls
        self.tokens = used_tokens
        self.on_call = on_call
        self.on_fallback: FallbackHook | None = None
        self.started = time.monotonic()
        self.name, self.model, self.is_live = inner.name, inner.model, inner.is_live

    def __repr__(self) -> str:
        return f"MeteredProvider({self.inner!r}, calls={self.calls}, tokens={self.tokens})"

    @property
    def scripted(self) -> bool:
        return bool(getattr(self.inner, "scripted", False))

    @property
    def metered(self) -> bool:
        return bool(self.is_live or self.scripted)

    @property
    def last_usage(self):
        return self.inner.last_usage

    @last_usage.setter
    def last_usage(self, value) -> None:
        pass

    def for_agent(self, agent: str, task_id: str = "") -> "AgentView":
        return AgentView(self, agent, task_id)

    @property
    def context_tokens(self) -> int | None:
        return self.inner.context_tokens

    def take_notes(self) -> list[str]:
        return self.inner.take_notes()

    def check(self) -> None:
        """BudgetExceededError when a budget is used up (never for the unmetered offline mock)."""
        if not self.metered:
            return
        b = self.budget
        if self.calls >= b.max_llm_calls:
            raise BudgetExceededError(f"budget exceeded: {self.calls} model calls (max {b.max_llm_calls}); "
                                      f"resume with a larger --max-llm-calls")
        if self.tokens >= b.max_tokens:
            raise BudgetExceededError(f"budget exceeded: {self.tokens} tokens (max {b.max_tokens}); "
                                      f"resume with a larger --max-tokens")
        self.check_minutes()

    def check_minutes(self) -> None:
        """BudgetExceededError once the wall-clock budget is used up; applies offline too."""
        b = self.budget
        minutes = (time.monotonic() - self.started) / 60
        if minutes >= b.max_minutes:
            raise BudgetExceededError(f"budget exceeded: {minutes:.1f} minutes (max {b.max_minutes}); "
                                      f"resume with a larger --max-minutes")

    def _record(self, kind: str, started: float, error: Exception | None, agent: str, task_id: str) -> None:
        if not self.metered:
            return
        self.calls += 1
        usage = self.inner.last_usage
        tokens = usage_tokens(usage)
        if tokens:
            self.tokens += tokens
        if self.on_call is not None:
            message = f"{type(error).__name__}: {error}" if error is not None else ""
            self.on_call(kind, int((time.monotonic() - started) * 1000), usage, message,
                         agent=agent, task_id=task_id)

    def _run(self, kind: str, call: Callable[[], object], agent: str, task_id: str):
        self.check()
        started = time.monotonic()
        error: Exception | None = None
        try:
            return call()
        except Exception as exc:
            error = exc
            raise
        finally:
            self._record(kind, started, error, agent, task_id)

    def generate(self, prompt: str, system: str = "", *, agent: str = "", task_id: str = "") -> str:
        return self._run("generate", lambda: self.inner.generate(prompt, system), agent, task_id)

    def generate_structured(self, prompt: str, schema: type[M], system: str = "", *, agent: str = "",
                            task_id: str = "") -> M:
        return self._run("generate_structured", lambda: self.inner.generate_structured(prompt, schema, system),
                         agent, task_id)

    def generate_json(self, prompt: str, system: str = "", schema=None, *, agent: str = "",
                      task_id: str = "") -> str:
        return self._run("generate_json", lambda: self.inner.generate_json(prompt, system, schema), agent, task_id)

    def stream(self, prompt: str, system: str = "", *, agent: str = "", task_id: str = "") -> Iterator[str]:
        self.check()
        started = time.monotonic()
        error: Exception | None = None
        try:
            yield from self.inner.stream(prompt, system)
        except Exception as exc:
            error = exc
            raise
        finally:
            self._record("stream", started, error, agent, task_id)


class AgentView(LLMProvider):
    """The metered provider as seen by one agent: same counters and budget, calls labelled `agent`."""

    def __init__(self, meter: MeteredProvider, agent: str, task_id: str = ""):
        self.meter = meter
        self.agent = agent
        self.task_id = task_id
        self.name, self.model, self.is_live = meter.name, meter.model, meter.is_live

    def __repr__(self) -> str:
        return f"AgentView({self.agent!r}, {self.meter!r})"

    @property
    def scripted(self) -> bool:
        return self.meter.scripted

    @property
    def last_usage(self):
        return self.meter.last_usage

    @last_usage.setter
    def last_usage(self, value) -> None:
        pass

    @property
    def context_tokens(self) -> int | None:
        return self.meter.context_tokens

    def take_notes(self) -> list[str]:
        return self.meter.take_notes()

    def generate(self, prompt: str, system: str = "") -> str:
        return self.meter.generate(prompt, system, agent=self.agent, task_id=self.task_id)

    def generate_structured(self, prompt: str, schema: type[M], system: str = "") -> M:
        return self.meter.generate_structured(prompt, schema, system, agent=self.agent, task_id=self.task_id)

    def generate_json(self, prompt: str, system: str = "", schema=None) -> str:
        return self.meter.generate_json(prompt, system, schema, agent=self.agent, task_id=self.task_id)

    def stream(self, prompt: str, system: str = "") -> Iterator[str]:
        return self.meter.stream(prompt, system, agent=self.agent, task_id=self.task_id)


def for_agent(llm: LLMProvider | None, agent: str, task_id: str = "") -> LLMProvider | None:
    """`llm` labelled for `agent` (and a task) when metered; any other provider is returned unchanged."""
    if isinstance(llm, AgentView):
        llm = llm.meter
    return llm.for_agent(agent, task_id) if isinstance(llm, MeteredProvider) else llm


def report_fallback(llm: LLMProvider | None, stage: str, agent: str, reason: str, task_id: str = "",
                    tool: str = "generator") -> None:
    """Tell the run (through the meter's `on_fallback` hook) that `agent` fell back to `tool`."""
    meter = llm.meter if isinstance(llm, AgentView) else llm
    hook = getattr(meter, "on_fallback", None) if isinstance(meter, MeteredProvider) else None
    if hook is not None:
        hook(stage, agent, reason, task_id=task_id, tool=tool)
