"""Identifiers: run ids, trace ids and sequential REQ/TASK ids."""

from __future__ import annotations

import re
import uuid

RUN_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")
REQ_ID_RE = re.compile(r"^REQ-\d{3}$")
TASK_ID_RE = re.compile(r"^TASK-\d{3}$")


def new_run_id() -> str:
    """A fresh `run_XXXXXXXX` id (8 hex digits)."""
    return "run_" + uuid.uuid4().hex[:8]


def new_trace_id() -> str:
    return uuid.uuid4().hex


def req_id(n: int) -> str:
    return f"REQ-{n:03d}"


def task_id(n: int) -> str:
    return f"TASK-{n:03d}"


def valid_run_id(run_id: str) -> bool:
    """Run ids are path-safe names: letters, digits, '_' and '-'."""
    return isinstance(run_id, str) and bool(RUN_ID_RE.fullmatch(run_id))
