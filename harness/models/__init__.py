"""Pydantic v2 models and str-Enums of the harness (pure data)."""

from harness.models.enums import FailureType, RunStatus, TaskStatus
from harness.models.results import (
    RequirementResult,
    ReviewReport,
    RuntimeCheck,
    RuntimeResult,
    VerificationResult,
)
from harness.models.run import RunState
from harness.models.spec import (
    AppSpec,
    Component,
    DataEntity,
    EntityField,
    Page,
    Requirement,
    Stack,
)
from harness.models.tasks import Plan, Task

__all__ = [
    "AppSpec", "Component", "DataEntity", "EntityField", "FailureType", "Page", "Plan",
    "Requirement", "RequirementResult", "ReviewReport", "RunState", "RunStatus",
    "RuntimeCheck", "RuntimeResult", "Stack", "Task", "TaskStatus", "VerificationResult",
]
