"""Results: verification, requirement review, runtime."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from harness.models.enums import FailureType

SCHEMA_VERSION = 1


class VerificationResult(BaseModel):
    task_id: str
    status: Literal["PASS", "FAIL"]
    command: str
    exit_code: int | None
    stdout: str = ""
    stderr: str = ""
    duration_ms: int = 0
    failure_type: FailureType | None = None
    timed_out: bool = False
    evidence_path: str | None = None   # run-relative path of the plugin evidence document
    evidence_digest: str | None = None  # sha256 the plugin sent over the digest pipe ("missing": none)
    diagnostics: dict = Field(default_factory=dict)  # file/line/summary when known
    attempt: int = 0                   # 0 = first verification, n = after repair attempt n
    batch: int = 0                     # increases with every recorded verification round of the run
    runner: Literal["warm", "cold"] | None = None  # how `command` ran: a forked warm worker child or a fresh process
    reused_from: str | None = None     # run-relative evidence of the identical earlier run this result adopts
    tests: int | None = None           # tests in its evidence document (run + carried), when it has one
    carried: int = 0                   # of those, carried from earlier documents instead of run (carry.py)
    carried_from: list[str] = Field(default_factory=list)  # run-relative documents they were carried from


class RequirementResult(BaseModel):
    requirement_id: str
    status: Literal["PASS", "FAIL"]
    evidence: list[str] = Field(default_factory=list)
    missing: list[str] = Field(default_factory=list)


class RuntimeCheck(BaseModel):
    name: str
    ok: bool
    detail: str = ""


class AcceptanceCheck(BaseModel):
    """One black-box acceptance check of a requirement, sent by the harness from its own process:
    derived from the spec ("spec"), a declared probe ("probe"), or a note that the spec-derived
    checks did not apply to a model-written app ("n/a")."""

    requirement: str
    name: str
    ok: bool
    detail: str = ""
    source: Literal["spec", "probe", "n/a"] = "spec"
    ms: int = 0


class RuntimeResult(BaseModel):
    schema_version: int = SCHEMA_VERSION
    status: Literal["PASS", "FAIL", "SKIPPED"]
    checks: list[RuntimeCheck] = Field(default_factory=list)
    evidence: list[str] = Field(default_factory=list)
    failure_type: FailureType | None = None
    hint: str = ""
    duration_ms: int = 0
    # The black-box acceptance leg (harness/acceptance); None: not run (no spec, or an older run).
    acceptance: list[AcceptanceCheck] | None = None
    acceptance_ms: int = 0


class ReviewRequirement(BaseModel):
    id: str
    status: Literal["PASS", "FAIL"]
    evidence: list[str] = Field(default_factory=list)
    missing: list[str] = Field(default_factory=list)
    text: str = ""
    implemented: bool = False
    tested: bool = False
    runtime: bool | None = None
    black_box: str | None = None    # the acceptance leg's line ("Black-box: YES (9/9 checks: spec-derived)")


class ReviewReport(BaseModel):
    schema_version: int = SCHEMA_VERSION
    requirements: list[ReviewRequirement] = Field(default_factory=list)
    overall_status: Literal["PASS", "FAIL"]
    notes: list[str] = Field(default_factory=list)  # LLM rationale: annotation only
    isolation: str | None = None  # what contained the verified code, from the evidence ("bubblewrap", "none (…)")
    coverage: dict = Field(default_factory=dict)    # request clauses built and verified (trace/coverage.py)
