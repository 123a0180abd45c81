"""Status and failure enums (all `(str, Enum)` so they serialize as plain strings)."""

from enum import Enum


class TaskStatus(str, Enum):
    PENDING = "PENDING"
    READY = "READY"
    RUNNING = "RUNNING"
    COMPLETED = "COMPLETED"
    FAILED = "FAILED"
    TIMED_OUT = "TIMED_OUT"
    BLOCKED = "BLOCKED"


class RunStatus(str, Enum):
    CREATED = "CREATED"
    SPEC_DONE = "SPEC_DONE"
    PLAN_DONE = "PLAN_DONE"
    BUILDING = "BUILDING"
    VERIFYING = "VERIFYING"
    REPAIRING = "REPAIRING"
    REVIEW_DONE = "REVIEW_DONE"
    PASS = "PASS"
    FAIL = "FAIL"


class FailureType(str, Enum):
    CODE_ERROR = "CODE_ERROR"
    TEST_FAILURE = "TEST_FAILURE"
    TYPE_ERROR = "TYPE_ERROR"
    DEPENDENCY_ERROR = "DEPENDENCY_ERROR"
    CONFIG_ERROR = "CONFIG_ERROR"
    ENVIRONMENT_ERROR = "ENVIRONMENT_ERROR"
    TIMEOUT = "TIMEOUT"
    UNKNOWN = "UNKNOWN"
    UNSUPPORTED = "UNSUPPORTED"   # beyond SPEC's list: the offline generator cannot build it (not a defect, never repaired)
