"""The kind a field's name implies ("due date" -> date, "price" -> money) and its storage type: the
shared kind registry (harness/offline/field_kinds.py)."""

from __future__ import annotations

from harness.offline.field_kinds import kind_for_name as _registry
from harness.offline.spec.wordsets import word_map

_TYPE_OF = word_map("name_kinds.type_of")


def kind_for_name(words: list[str]) -> tuple[str, str]:
    """(FieldKind, storage type) a field's words imply."""
    kind = _registry(" ".join(words))
    return kind, _TYPE_OF.get(kind, "str")
