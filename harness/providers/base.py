"""The LLMProvider contract every agent depends on."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)


@dataclass
class Usage:
    """Token usage of one call as reported by the server (None fields = not reported)."""

    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    total_tokens: int | None = None


class LLMProvider(ABC):
    """generate / generate_structured / stream. `is_live` is True only for a real model."""

    name: str = "provider"
    model: str | None = None
    is_live: bool = False
    last_usage: Usage | None = None

    @abstractmethod
    def generate(self, prompt: str, system: str = "") -> str:
        """Return the model's text answer to `prompt`."""

    @abstractmethod
    def generate_structured(self, prompt: str, schema: type[M], system: str = "") -> M:
        """Return the answer validated as `schema`; raise ProviderError when it cannot."""

    def generate_json(self, prompt: str, system: str = "", schema: type[BaseModel] | None = None) -> str:
        """The model's raw answer asked in JSON mode (the schema when given); parsing is the caller's."""
        return self.generate(prompt, system)

    @abstractmethod
    def stream(self, prompt: str, system: str = "") -> Iterator[str]:
        """Yield the answer in chunks."""

    @property
    def context_tokens(self) -> int | None:
        """The model's context window in tokens when known (prompts are fitted to it)."""
        return None

    def take_notes(self) -> list[str]:
        """What the run should state once about the endpoint (format steps, context window)."""
        return []


def has_model(llm: LLMProvider) -> bool:
    """True when `llm` can actually answer (a live endpoint or a scripted mock)."""
    return bool(llm.is_live or getattr(llm, "scripted", False))
