"""RunState: everything `state.json` holds about a run."""

from __future__ import annotations

from pydantic import BaseModel, Field

from harness.models.enums import RunStatus, TaskStatus
from harness.models.results import ReviewReport, RuntimeResult, VerificationResult
from harness.models.spec import AppSpec
from harness.models.tasks import Plan

SCHEMA_VERSION = 1


class RunOptions(BaseModel):
    """The choices `builder new` was given that later commands must keep (resume continues with them)."""

    repair: bool = True    # False: --no-repair
    audit: bool = True     # False: --no-audit
    budget: dict[str, float] = {}   # --max-llm-calls/--max-tokens/--max-minutes or HARNESS_MAX_* as set at `new`


class RunState(BaseModel):
    schema_version: int = SCHEMA_VERSION
    run_id: str
    trace_id: str
    user_request: str
    workspace: str = "workspace"          # relative to the run directory
    spec: AppSpec | None = None
    plan: Plan | None = None
    task_results: dict[str, TaskStatus] = Field(default_factory=dict)
    verification_results: list[VerificationResult] = Field(default_factory=list)
    review: ReviewReport | None = None
    runtime: RuntimeResult | None = None
    checkpoints: list[str] = Field(default_factory=list)
    repair_attempts: dict[str, int] = Field(default_factory=dict)
    file_hashes: dict[str, dict[str, str]] = Field(default_factory=dict)  # task -> {path: sha256}
    adopted_files: list[str] = Field(default_factory=list)  # workspace files the user made part of the build (`builder adopt`)
    llm_calls: int = 0                    # model calls used so far (budgets continue on resume)
    llm_tokens: int = 0                   # tokens the server reported so far
    options: RunOptions = Field(default_factory=RunOptions)
    status: RunStatus = RunStatus.CREATED
    error: str = ""
    created_at: str = ""
    updated_at: str = ""
