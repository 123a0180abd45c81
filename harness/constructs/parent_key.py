"""The key a child record names its parent by: `<parent>_id` in JSON, in the table and in forms
(docs/spec-language.md, "Parent"). What the generator builds and what the black-box checks
(harness/acceptance) send, by one rule: the parent's name in snake case plus `_id` ("class" ->
class_id, "time slot" -> time_slot_id). The parent's Python name may have had to avoid a reserved
word ("class" is class_item in the generated code), but a name ending in `_id` never is one. Before,
the key came from that Python name, so a child of "class" was sent as class_item_id and class_id
was refused as an unknown field. One exception: with accounts, `owner_id` is the column of the
account that owns a record, so a parent named "owner" keeps its Python name (owner_item_id)."""

from __future__ import annotations

from typing import Any

from harness.utils.idents import field_ident

# Keys a generated table already has for its own columns (with accounts).
ACCOUNT_KEYS = frozenset({"owner_id"})


def parent_key(name: str, ident: str, auth: bool) -> str:
    """The key of a parent entity named `name` whose Python name is `ident`."""
    words = field_ident(name or ident, ident)
    if not ident.startswith(words) or ident[len(words):] not in ("", "_item", "_x"):
        words = ident   # renamed for another reason (two entities of one name): its own name
    key = f"{words}_id"
    return f"{ident}_id" if auth and key in ACCOUNT_KEYS else key


def parent_key_of(spec: Any, entity: Any) -> str | None:
    """The parent key of a spec entity (None without a parent)."""
    if not entity.parent:
        return None
    parent = spec.entity(entity.parent)
    return parent_key(parent.name, parent.ident, spec.auth) if parent is not None else f"{entity.parent}_id"
