"""The data model as one line per entity, for builder tasks that wire every entity (schema, pages,
app, acceptance tests): everything the entity's JSON carries — names, fields with their type, kind,
required/unique, reference, enum values and bounds, parent and delete rule, status and workflow —
without repeating its keys and defaults for every field (the JSON of 20 entities is ~13 000
characters, these lines ~3 000)."""

from __future__ import annotations

from harness.models.spec import DataEntity, EntityField

FORMAT = ("one entity a line: `ident (name N if not the ident, plural P): fields: field, field, ...`, then "
          "when set `; parent E (on delete restrict|cascade)`, `; has_status (a status field and a complete "
          "action)`, `; workflow a > b > c (moves a->b|c; default: each state to the next)`. A field: "
          "`ident (name N if not the ident) type/kind`, then when set `required`, `unique`, `-> E` "
          "(references entity E), `enum a|b|c`, `min X`, `max Y`. A kind of `-` means: derived from the type.")


# Only shown when an entity uses them (the 20-entity prompts have no room to spare).
ACCESS_FORMAT = (" Access and links, when set: `; shared` (every signed-in user sees every record), `; read public` "
                 "(anyone reads the records without a token: list, read, search, its page; writes need one, "
                 "changes and deletes are the author's: 403 for others), `; manage R` "
                 "(only role R and the admin role write), `; view R` (role R also reads every record, changes "
                 "only its own: 403), `; many a|b` (linked many-to-many with a and b), "
                 "`; assigned_to user` (an `assigned_to` account sees and updates the record).")


TOOLS_FORMAT = (" Record tools, when set: `; calendar F` (GET /api/<plural>/calendar groups the records by the "
                "day of date field F), `; csv_import N rows` (POST /api/<plural>/import, at most N rows), "
                "`; attachments a|b N KB` (files of content types a, b up to N KB per record), "
                "`; computed name = expression | ...` (values computed from the record on every read), "
                "`; stamp f=s` (a move to state s sets date field f to today unless the request gives one), "
                "`; delete soft` (DELETE only sets deleted_at; GET /api/<plural>/deleted lists them, "
                "POST /api/<plural>/{id}/restore brings one back).")


def format_for(entities: list[DataEntity]) -> str:
    """FORMAT, with the access and link parts, and the record-tool parts, when an entity has them."""
    used = any(e.shared or e.manage or e.view or e.assigned or e.many for e in entities)
    tools = any(e.calendar or e.csv_import or e.attachment_types or e.computed or e.stamps or e.soft_delete
                for e in entities)
    return FORMAT + (ACCESS_FORMAT if used else "") + (TOOLS_FORMAT if tools else "")


def field_text(f: EntityField) -> str:
    parts = [f.ident + (f" (name {f.name})" if f.name != f.ident else ""), f"{f.type}/{f.kind or '-'}"]
    parts += ["required"] * f.required + ["unique"] * f.unique
    parts += [f"-> {f.ref}"] if f.ref else []
    parts += [f"enum {'|'.join(f.enum_values)}"] if f.enum_values else []
    parts += [f"min {_num(f.min_value)}"] if f.min_value is not None else []
    parts += [f"max {_num(f.max_value)}"] if f.max_value is not None else []
    return " ".join(parts)


def entity_line(e: DataEntity) -> str:
    """`order (plural orders): fields: total float/money required, customer_id int/reference -> customer; ...`"""
    names = (f"name {e.name}, " if e.name != e.ident else "") + f"plural {e.plural}"
    line = f"{e.ident} ({names}): fields: " + (", ".join(field_text(f) for f in e.fields) or "none")
    if e.parent or e.on_parent_delete != "restrict":
        line += f"; parent {e.parent or 'none'} (on delete {e.on_parent_delete})"
    if e.has_status:
        line += "; has_status (a status field and a complete action)"
    if e.workflow:
        moves = ", ".join(f"{a}->{'|'.join(b)}" for a, b in e.transitions.items())
        line += f"; workflow {' > '.join(e.workflow)} (moves {moves or 'each state to the next'})"
    if e.stamps:
        line += "; stamp " + ", ".join(f"{f}={s}" for f, s in e.stamps.items())
    line += "; read public" if e.read == "public" else "; shared" if e.shared else ""
    line += f"; manage {e.manage}" if e.manage else ""
    line += f"; view {e.view}" if e.view else ""
    line += f"; many {'|'.join(e.many)}" if e.many else ""
    line += "; assigned_to user" if e.assigned else ""
    line += f"; calendar {e.calendar}" if e.calendar else ""
    line += f"; csv_import {e.csv_import} rows" if e.csv_import else ""
    line += "; computed " + " | ".join(f"{k} = {v}" for k, v in e.computed.items()) if e.computed else ""
    line += "; delete soft" if e.soft_delete else ""
    return line + (f"; attachments {'|'.join(e.attachment_types)} {e.attachment_max_kb} KB" if e.attachment_types else "")


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)
