"""Token usage as servers report it: parsed leniently, summed field by field."""

from __future__ import annotations

from typing import Any

from harness.providers.base import Usage


def sum_usage(usages: list[Usage | None]) -> Usage | None:
    """Field-wise sum of the usages the server reported; None when none was reported."""
    seen = [u for u in usages if u is not None]
    if not seen:
        return None

    def total(field: str) -> int | None:
        values = [getattr(u, field) for u in seen if getattr(u, field) is not None]
        return sum(values) if values else None

    return Usage(total("prompt_tokens"), total("completion_tokens"), total("total_tokens"))


def parse_usage(data: Any) -> Usage | None:
    """Usage from a response's "usage" object, or None when absent/malformed (never a guess)."""
    if not isinstance(data, dict):
        return None
    fields = {k: data.get(k) for k in ("prompt_tokens", "completion_tokens", "total_tokens")}
    if all(not isinstance(v, int) for v in fields.values()):
        return None
    return Usage(**{k: v if isinstance(v, int) else None for k, v in fields.items()})
