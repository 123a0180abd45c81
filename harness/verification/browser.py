"""Browser acceptance verification: an explicit stub (SPEC M10, non-goal of V1)."""

from __future__ import annotations

from typing import Any


def verify_acceptance(*args: Any, **kwargs: Any) -> None:
    """Always raises NotImplementedError: browser verification is deferred past V1."""
    raise NotImplementedError("Browser verification deferred post-V1")
