"""Many-to-many links in a spec file: `many = ["tag"]` on an entity links each of its records with
any number of records of the other entity (and each of those with any number of its records).

    [[entities]]
    name = "note"
    many = ["tag"]      # PUT/DELETE /api/notes/{id}/tags/{tag_id}, GET /api/notes/{id}/tags,
                        # GET /api/notes?tag=<tag id>
"""

from __future__ import annotations

from typing import Any

from harness.models.spec import DataEntity
from harness.offline.generator.naming import field_ident, py_ident


def read_many(reader: Any, raw: dict, i: int, where: str) -> list[str]:
    names = reader.typed(raw, "many", list, where, i) or []
    for name in names:
        if not isinstance(name, str) or not name.strip():
            reader.fail(f"{where}.many", "must be a list of entity names", "many", i)
    return [py_ident(n) for n in names]


def check_many(reader: Any, entities: list[DataEntity]) -> None:
    """Each linked entity exists, is another one, is named once, and its name is no field's."""
    idents = {e.ident for e in entities}
    for i, e in enumerate(entities):
        where = f"entities[{i + 1}].many"
        for other in e.many:
            if other not in idents or other == e.ident:
                reader.fail(where, f"no other entity named {other!r}", "many", i, other)
            if e.many.count(other) > 1:
                reader.fail(where, f"{other!r} is named twice", "many", i, other)
            if other in {field_ident(f.name) for f in e.fields}:
                reader.fail(where, f"{other!r} is also a field of {e.name}: the filter ?{other}= "
                            "would be ambiguous", "many", i, other)
            back = next(x for x in entities if x.ident == other)
            if e.ident in back.many:
                reader.fail(where, f"{e.name} and {back.name} are linked twice: name the link on one "
                            "of them only", "many", i, other)


def link_items(e: DataEntity, entities: list[DataEntity]) -> list[tuple[str, str | None, str, str]]:
    out = []
    for other in e.many:
        back = next(x for x in entities if x.ident == other)
        out.append(("link", e.ident, f"Each {e.name} has any number of {back.plural} and each {back.name} "
                    f"any number of {e.plural}: link, unlink, list and filter by them", f"{e.name}.many {other}"))
    return out
