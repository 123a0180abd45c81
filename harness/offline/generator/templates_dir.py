"""Per-entity code templates: text files under templates/<module>/<name>.tmpl, filled by
codegen.fill (strict: every @@placeholder@@ must be given, an unknown one raises KeyError)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

ROOT = Path(__file__).parent / "templates"


@cache
def template(path: str) -> str:
    """The text of templates/`path` (e.g. "api_py/handlers.tmpl"), exactly as stored."""
    return (ROOT / path).read_text(encoding="utf-8")
