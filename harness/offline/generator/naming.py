"""Safe names: any entity or field name becomes a valid Python identifier and a quoted SQL name."""

from __future__ import annotations

import builtins
import keyword
import re
import unicodedata

from harness.utils.idents import ascii_fold, field_ident  # noqa: F401  (re-exported)
from harness.utils.idents import snake_name as _snake

# Names that would shadow modules, builtins or framework objects in generated code.
_RESERVED = set(keyword.kwlist) | set(keyword.softkwlist) | {
    "app", "auth", "models", "main", "pages", "schemas", "dashboard", "db", "id", "owner", "owner_id",
    "json", "os", "re", "sqlite3", "fastapi", "pydantic", "pytest", "request", "response",
    "status", "user", "users", "session", "sessions", "self", "cls", "type", "list", "dict",
    "str", "int", "float", "bool", "object", "test", "tests", "src", "health", "api", "http",
}


def display_text(text: str | None) -> str:
    """Display text without control characters or lone surrogates (they cannot be rendered)."""
    kept = (" " if unicodedata.category(ch) == "Cc" else ch for ch in text or ""
            if unicodedata.category(ch) != "Cs")
    return " ".join("".join(kept).split())


# Python names a field's *attribute* must not take (its JSON/SQL name may: the model uses an alias).
_PY_UNSAFE = _RESERVED | set(dir(builtins))


def py_ident(name: str, fallback: str = "item") -> str:
    """A lowercase snake_case Python identifier for `name`; never a keyword or a reserved name.
    For entities (tables, modules, functions); fields use field_ident."""
    base = _snake(name, fallback)
    if base in _RESERVED:
        base = f"{base}_item" if not base.endswith("_item") else f"{base}_x"
    return base[:40].rstrip("_")


def python_unsafe(ident: str) -> bool:
    """True when `ident` would shadow a keyword, builtin, module or framework name as Python code."""
    return ident in _PY_UNSAFE


def sql_quote(ident: str) -> str:
    """A double-quoted SQLite identifier (quotes inside are doubled)."""
    return '"' + ident.replace('"', '""') + '"'


def slug(name: str) -> str:
    """A URL path segment for `name` (lowercase, hyphens)."""
    return py_ident(name).replace("_", "-")


def unique_idents(names: list[str]) -> list[str]:
    """py_ident for each name, suffixed _2, _3 ... so no two are equal."""
    seen: dict[str, int] = {}
    out = []
    for name in names:
        ident = py_ident(name)
        if ident in seen:
            seen[ident] += 1
            ident = f"{ident}_{seen[ident]}"
        else:
            seen[ident] = 1
        out.append(ident)
    return out


def sql_text(value: str) -> str:
    """A single-quoted SQLite string literal (quotes inside are doubled), for schema text only."""
    return "'" + value.replace("'", "''") + "'"
