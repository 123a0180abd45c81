"""clip(): shorten a quoted piece of the user's text for one terminal line, visibly."""

from __future__ import annotations


def clip(text: str, limit: int = 80) -> str:
    """`text` on one line; past `limit` characters, cut at the last word boundary and end with "…"
    (a silent cut made "late fees" read "late fe" and dropped ", CSV export" without a sign)."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    cut = flat[:limit - 1]
    space = cut.rfind(" ")
    if space >= limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:-") + "…"
