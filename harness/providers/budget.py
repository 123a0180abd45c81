"""Run budgets: a provider wrapper counting model calls, tokens and wall-clock time."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from dataclasses import dataclass

from harness.errors import BudgetExceededError, InputError
from harness.providers.base import LLMProvider, M

DEFAULT_MAX_LLM_CALLS = 200
DEFAULT_MAX_TOKENS = 2_000_000
DEFAULT_MAX_MINUTES = 60.0


def _env_number(name: str, cast, default):
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = cast(raw)
    except ValueError:
        raise InputError(f"{name}={raw!r} is not a number") from None
    if value <= 0:
        raise InputError(f"{name} must be positive")
    return value


@dataclass
class Budget:
    max_llm_calls: int = DEFAULT_MAX_LLM_CALLS
    max_tokens: int = DEFAULT_MAX_TOKENS
    max_minutes: float = DEFAULT_MAX_MINUTES

    @classmethod
    def from_args(cls, args=None) -> "Budget":
        """Defaults < HARNESS_* environment < CLI flags."""
        b = cls(_env_number("HARNESS_MAX_LLM_CALLS", int, DEFAULT_MAX_LLM_CALLS),
                _env_number("HARNESS_MAX_TOKENS", int, DEFAULT_MAX_TOKENS),
                _env_number("HARNESS_MAX_MINUTES", float, DEFAULT_MAX_MINUTES))
        for name in ("max_llm_calls", "max_tokens", "max_minutes"):
            value = getattr(args, name, None) if args is not None else None
            if value is not None:
                if value <= 0:
                    raise InputError(f"--{name.replace('_', '-')} must be positive")
                setattr(b, name, value)
        return b


class MeteredProvider(LLMProvider):
    """Delegates to `inner`; raises BudgetExceededError before a call that would cross a budget."""

    def __init__(self, inner: LLMProvider, budget: Budget, used_calls: int = 0, used_tokens: int = 0):
        self.inner = inner
        self.budget = budget
        self.calls = used_calls
        self.tokens = used_tokens
        self.started = time.monotonic()
        self.name, self.model, self.is_live = inner.name, inner.model, inner.is_live

    @property
    def scripted(self) -> bool:
        return bool(getattr(self.inner, "scripted", False))

    @property
    def last_usage(self):
        return self.inner.last_usage

    @last_usage.setter
    def last_usage(self, value) -> None:
        pass

    def _check(self) -> None:
        if not (self.is_live or self.scripted):
            return
        b = self.budget
        if self.calls >= b.max_llm_calls:
            raise BudgetExceededError(f"budget exceeded: {self.calls} model calls (max {b.max_llm_calls})")
        if self.tokens >= b.max_tokens:
            raise BudgetExceededError(f"budget exceeded: {self.tokens} tokens (max {b.max_tokens})")
        minutes = (time.monotonic() - self.started) / 60
        if minutes >= b.max_minutes:
            raise BudgetExceededError(f"budget exceeded: {minutes:.1f} minutes (max {b.max_minutes})")

    def _count(self) -> None:
        if self.is_live or self.scripted:
            self.calls += 1
            usage = self.inner.last_usage
            if usage is not None and usage.total_tokens:
                self.tokens += usage.total_tokens

    def generate(self, prompt: str, system: str = "") -> str:
        self._check()
        try:
            return self.inner.generate(prompt, system)
        finally:
            self._count()

    def generate_structured(self, prompt: str, schema: type[M], system: str = "") -> M:
        self._check()
        try:
            return self.inner.generate_structured(prompt, schema, system)
        finally:
            self._count()

    def stream(self, prompt: str, system: str = "") -> Iterator[str]:
        self._check()
        try:
            yield from self.inner.stream(prompt, system)
        finally:
            self._count()
