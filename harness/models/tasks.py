"""Tasks of the plan (a DAG executed sequentially)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from harness.models.probes import Probe

SCHEMA_VERSION = 1


class Task(BaseModel):
    """One unit of the plan. The plan is an input: a task's status lives in RunState.task_results."""

    id: str
    description: str
    depends_on: list[str] = Field(default_factory=list)
    files_touched: list[str] = Field(default_factory=list)
    requirements: list[str] = Field(default_factory=list)
    verification: list[str] = Field(default_factory=list)
    kind: str = ""                 # generator role of the task (setup, auth, entity, ...)


class Plan(BaseModel):
    schema_version: int = SCHEMA_VERSION
    tasks: list[Task] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)
    source: str = "fallback"       # "llm" or "fallback"
    # What the running app must answer (the runtime check); empty: generic checks only.
    probes: list[Probe] = Field(default_factory=list)
    entry: str = ""                # ASGI entry "module:attr" when not src.main:app
    # Decided once per run from spec + plan: may an unusable model answer be replaced by the
    # offline generator's files? Only when every planned file is one the generator writes.
    offline_fallback: bool = True
    offline_note: str = ""

    def task(self, task_id: str) -> Task | None:
        return next((t for t in self.tasks if t.id == task_id), None)
