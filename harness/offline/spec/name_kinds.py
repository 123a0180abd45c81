"""The kind a field's name implies ("due date" -> date, "price" -> money): the shared kind registry
(harness/offline/field_kinds.py) when it is importable, else the lexicon's word lists."""

from __future__ import annotations

from harness.offline.spec import lexicon as lx
from harness.offline.spec.wordsets import word_map, word_set


def kind_for_name(words: list[str]) -> tuple[str, str]:
    """(FieldKind, storage type) a field's words imply (stand-in until the shared registry lands)."""
    try:
        from harness.offline.field_kinds import kind_for_name as registry   # helper #14's registry
    except ImportError:
        registry = None
    if registry is not None:
        kind = registry(" ".join(words))
        return kind, _TYPE_OF.get(kind, "str")
    return _local_kind(words)


_TYPE_OF = word_map("name_kinds.type_of")
_MONEY = word_set("name_kinds.money")
_TIME = word_set("name_kinds.time")


def _local_kind(words: list[str]) -> tuple[str, str]:
    last = words[-1]
    if words[0] in ("is", "has") or last in lx.BOOL_WORDS:
        return "boolean", "bool"
    if last in ("email", "mail"):
        return "email", "str"
    if last in ("phone", "mobile", "telephone"):
        return "phone", "str"
    if last in ("url", "website", "link"):
        return "url", "str"
    if last in ("rating", "stars"):
        return "rating", "int"
    if last.endswith("_at") or last in ("timestamp", "datetime"):
        return "datetime", "datetime"
    if last in _TIME or (last in ("in", "out") and words[0] == "clock"):
        return "time", "str"
    if last in lx.DATE_WORDS or last == "day":
        return "date", "date"
    if any(w in lx.STR_NUMBERS for w in words):
        return "short_text", "str"
    if last in _MONEY:
        return "money", "float"
    if last in lx.FLOAT_WORDS:
        return "decimal", "float"
    if last in lx.INT_WORDS or words[0] == "number":
        return "integer", "int"
    return ("long_text", "text") if last in lx.TEXT_WORDS else ("short_text", "str")
