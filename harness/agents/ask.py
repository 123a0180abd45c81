"""One way for an agent to ask the model: metered, parsed, one corrective retry, one fallback channel.

`ask(llm, agent, prompt, parse, fallback)` sends the prompt (with the JSON schema in the text when
one is given: servers may ignore response_format), parses the raw answer with `parse`, and on an
unusable answer (bad JSON, schema or validation errors, a truncated answer, a server-side
ProviderError) asks once more with every error fed back. A prompt that does not fit the model's
context window is never retried longer: `shrink(limit)` gives a prompt within `limit` characters
(fewer neighbours, interfaces instead of whole files), at most SHRINKS times; without it, or
when it cannot get shorter, the answer is unusable. If the answer stays unusable, the
fallback is used and reported through `report_fallback` (the run's one "fallback" event); with
no fallback, AnswerUnusableError carries the reason. Endpoint, key and budget errors propagate.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from pydantic import BaseModel, ValidationError

from harness.agents.contract import schema_text
from harness.errors import (BudgetExceededError, HarnessError, ProviderConfigError, ProviderError,
                            ProviderUnavailableError)
from harness.providers.base import LLMProvider, has_model
from harness.providers.budget import for_agent, report_fallback
from harness.providers.context_window import ContextOverflowError, prompt_chars
from harness.providers.openai_http import validation_errors

T = TypeVar("T")
CORRECTIVE_RETRIES = 1
SHRINKS = 3
ANSWER_EXCERPT = 1200


class Agent(Protocol):
    """An agent of the harness: a name for metering, a stage for events, a system prompt."""

    name: str
    stage: str
    system: str


class AnswerUnusableError(HarnessError):
    """The model's answer stayed unusable and the agent has no fallback for it."""


@dataclass
class Answer(Generic[T]):
    value: T
    source: str            # "llm", or the fallback's name ("rules", "fallback", "generator")
    reason: str = ""       # why the model's answer was not used (empty when it was)
    attempts: int = 0      # model calls made


def describe(exc: Exception) -> str:
    """A one-paragraph reason: every validation error, or the exception's message."""
    if isinstance(exc, ValidationError):
        return validation_errors(exc)
    return str(exc) or type(exc).__name__


def corrective_prompt(prompt: str, answer: str, error: str) -> str:
    excerpt = answer if len(answer) <= ANSWER_EXCERPT else answer[:ANSWER_EXCERPT] + " …(cut)"
    return (f"{prompt}\n\nYour previous answer could not be used: {error}\n"
            f"Previous answer (excerpt): {excerpt}\n"
            "Reply again with the complete corrected answer: one JSON object, nothing else.")


def ask(llm: LLMProvider, agent: str, prompt: str, parse: Callable[[str], T],
        fallback: Callable[[], T] | None = None, *, system: str = "", schema: type[BaseModel] | None = None,
        stage: str = "", task_id: str = "", fallback_tool: str = "generator",
        retries: int = CORRECTIVE_RETRIES, shrink: Callable[[int], str] | None = None) -> Answer[T]:
    """The parsed answer of the model, else the fallback's value (reported), else AnswerUnusableError."""
    if not has_model(llm):
        if fallback is None:
            raise AnswerUnusableError(f"{agent}: no model is configured and there is no offline answer")
        return Answer(fallback(), fallback_tool)
    view = for_agent(llm, agent, task_id)
    tail = "\n\n" + schema_text(schema) if schema is not None else ""
    asked = prompt + tail
    current, reason = asked, ""
    attempt = corrections = shrinks = 0
    while corrections <= retries:
        raw = ""
        attempt += 1
        try:
            raw = view.generate_json(current, system, schema)
            return Answer(parse(raw), "llm", attempts=attempt)
        except (ProviderConfigError, ProviderUnavailableError, BudgetExceededError):
            raise
        except ContextOverflowError as exc:            # never a longer retry: a shorter prompt, or give up
            reason = describe(exc)
            smaller = _shrunk(shrink, len(asked), exc.window or getattr(view, "context_tokens", None)) if shrinks < SHRINKS else None
            if smaller is None:
                break
            shrinks += 1
            asked = current = smaller + tail
        except (ProviderError, ValueError) as exc:      # pydantic's ValidationError is a ValueError
            reason = describe(exc)
            corrections += 1
            current = corrective_prompt(asked, raw, reason)
    if fallback is None:
        raise AnswerUnusableError(f"{agent}: the model's answer stayed unusable after {attempt} "
                                  f"attempts: {reason}"[:1000])
    report_fallback(llm, stage or agent, agent, reason, task_id, tool=fallback_tool)
    return Answer(fallback(), fallback_tool, reason, attempts=attempt)


def _shrunk(shrink: Callable[[int], str] | None, was: int, window: int | None) -> str | None:
    """A prompt shorter than `was` characters: fitted to the window when it is known, else 60 %."""
    if shrink is None:
        return None
    limit = int(was * 0.6)
    if window:
        limit = min(limit, prompt_chars(window, window))
    smaller = shrink(limit)
    return smaller if len(smaller) < was else None
