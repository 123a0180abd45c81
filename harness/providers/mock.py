"""MockProvider: a deterministic, offline provider (scripted answers or a stable digest)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator

from pydantic import ValidationError

from harness.errors import ProviderError
from harness.providers.base import LLMProvider, M


class MockProvider(LLMProvider):
    """Answers from `script` (a list consumed in order) or, without one, a digest of the prompt.

    Without a script, `generate_structured` raises ProviderError, which the agents turn into
    their deterministic rule-based path: the mock never pretends to be a model.
    """

    name = "mock"
    model = "mock"
    is_live = False

    def __init__(self, script: list[str] | None = None):
        self._script = list(script) if script is not None else None
        self.calls: list[str] = []

    @property
    def scripted(self) -> bool:
        """True when answers come from a script (a stand-in model), False for the bare fake."""
        return self._script is not None

    def _next(self, prompt: str) -> str | None:
        self.calls.append(prompt)
        if self._script is None:
            return None
        if not self._script:
            raise ProviderError("mock provider: script exhausted")
        return self._script.pop(0)

    def generate(self, prompt: str, system: str = "") -> str:
        answer = self._next(prompt)
        if answer is not None:
            return answer
        return "mock-" + hashlib.sha256((system + "\x00" + prompt).encode()).hexdigest()[:16]

    def generate_structured(self, prompt: str, schema: type[M], system: str = "") -> M:
        answer = self._next(prompt)
        if answer is None:
            raise ProviderError("mock provider has no model; use the deterministic path")
        try:
            return schema.model_validate_json(answer)
        except ValidationError as exc:
            raise ProviderError(f"mock answer does not match {schema.__name__}: {exc.error_count()} errors") from exc

    def stream(self, prompt: str, system: str = "") -> Iterator[str]:
        text = self.generate(prompt, system)
        for i in range(0, len(text), 8):
            yield text[i:i + 8]
