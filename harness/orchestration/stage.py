"""The shape of a pipeline stage: what it resumes from, what it runs, what it leaves behind."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from harness.models.enums import RunStatus


@dataclass
class Done:
    """What a stage hands back: its summary line, the checkpoint that makes it durable, and — for
    a stage whose end state is its result (REVIEW) — the run status it decided."""

    summary: str
    checkpoint: str | None = None
    payload: dict = field(default_factory=dict)
    status: RunStatus | None = None
    notes: list[str] = field(default_factory=list)   # lines printed under the stage's own line


@dataclass(frozen=True)
class Stage:
    label: str
    resumes_from: frozenset[RunStatus]
    run: Callable[..., Done]                  # run(ctx) -> Done
    leaves: RunStatus | None                  # None: the stage's Done.status decides
    intro: Callable[..., str] | None = None   # intro(ctx) -> a line printed before a long stage
