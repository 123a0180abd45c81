"""The traceability matrix and the escalation report: typed artifacts with a schema_version."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

SCHEMA_VERSION = 1

Verdict = Literal["PASS", "FAIL"]


class MatrixRow(BaseModel):
    """One requirement: what implements it, what ran, what passed, and what is missing."""

    id: str
    text: str = ""
    tasks: list[str] = Field(default_factory=list)
    files: list[str] = Field(default_factory=list)
    tests: list[str] = Field(default_factory=list)
    commands: list[str] = Field(default_factory=list)
    evidence: list[str] = Field(default_factory=list)
    status: Verdict
    missing: list[str] = Field(default_factory=list)
    implemented: bool = False
    tested: bool = False
    runtime: bool | None = None
    black_box: str | None = None   # the black-box acceptance leg (harness/acceptance/legs.py), None: not run
    mutation: dict | None = None   # {"killed": k, "total": n} when the mutation audit judged mutants


class TraceMatrix(BaseModel):
    """matrix.json: REQ -> tasks -> files -> tests -> results, built only from persisted evidence."""

    schema_version: int = SCHEMA_VERSION
    requirements: list[MatrixRow] = Field(default_factory=list)
    passed: int = 0
    total: int = 0
    coverage_pct: float = 0.0
    stale_files: list[str] = Field(default_factory=list)
    problems: list[str] = Field(default_factory=list)
    evidence_digest: str | None = None

    def row(self, req_id: str) -> MatrixRow | None:
        return next((r for r in self.requirements if r.id == req_id), None)


class FailureReport(BaseModel):
    """failures/<TASK>.json: why repair gave up on a task, what was tried, what a human does next."""

    schema_version: int = SCHEMA_VERSION
    run_id: str
    task_id: str
    decision: Literal["ESCALATE"] = "ESCALATE"
    reason: str
    signatures: dict[str, int] = Field(default_factory=dict)
    attempts: list[dict] = Field(default_factory=list)
    repair_attempts_total: int = 0
    files_touched: dict[str, str] = Field(default_factory=dict)   # path -> sha256 at escalation
    last_failure: dict | None = None                              # the VerificationResult, as JSON
    next_step: str = ""
