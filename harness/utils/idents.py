"""A field's name in JSON, SQL and forms, derived from the user's own word: one rule shared by the
generator (harness/offline/generator/naming.py re-exports it), the spec reader and the black-box
acceptance checks, so they all name a field the same way."""

from __future__ import annotations

import re
import unicodedata


def ascii_fold(text: str) -> str:
    """Strip accents (Vietnamese đ/Đ included) and keep ASCII only."""
    text = text.replace("đ", "d").replace("Đ", "D")
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")


def snake_name(name: str, fallback: str) -> str:
    base = re.sub(r"[^0-9a-zA-Z]+", "_", ascii_fold(name)).strip("_").lower()
    base = re.sub(r"_+", "_", base) or fallback
    return f"{fallback}_{base}" if base[0].isdigit() else base


def field_ident(name: str, fallback: str = "item") -> str:
    """A field's name in JSON, SQL and forms: snake_case ASCII in the user's own word ("type",
    "class" stay as they are; the generated model gives such a field an aliased attribute)."""
    return snake_name(name, fallback)[:40].rstrip("_")
