"""Pieces of the generated HTML pages (copied verbatim by the generator): how one entity's records
are listed as a table, searched and filtered, and created / edited through a form with the right input per
field kind. Every value is HTML-escaped; forms are read from the urlencoded body (no extra
dependency) and validated by the API's pydantic models."""

import sqlite3
from dataclasses import dataclass
from html import escape
from typing import Any
from urllib.parse import parse_qsl

from fastapi import Request
from pydantic import BaseModel

from src.models import TABLES
from src.ui import words

MAX_FORM_BYTES = 1_000_000


@dataclass(frozen=True)
class Control:
    """One form field: `kind` is its field kind, `attrs` the <input> attributes, `options` the
    enum values, `ref` the referenced table."""

    name: str
    label: str
    kind: str
    required: bool
    attrs: str = ""
    options: tuple[str, ...] = ()
    ref: str | None = None


@dataclass(frozen=True)
class PageFilter:
    """An equality filter the list page offers (the entity's `filter` feature): a select whose
    blank choice means any value. `kind` is "enum" (`options`), "boolean" or "reference" (`ref`)."""

    name: str
    label: str
    kind: str
    options: tuple[str, ...] = ()
    ref: str | None = None


@dataclass(frozen=True)
class Section:
    """How one entity is listed, searched, created and edited."""

    title: str
    slug: str
    model: type[BaseModel]
    update_model: type[BaseModel]
    controls: tuple[Control, ...]
    parent: str | None = None
    fk: str | None = None
    parent_title: str = ""
    complete: bool = False             # open/done records get a Complete button
    states: tuple[str, ...] = ()       # workflow states: the edit form gets a status select
    search: bool = False
    filters: tuple[PageFilter, ...] = ()
    api: Any = None                    # the entity's API module (its handlers hold the rules)
    computed: tuple[tuple[str, str], ...] = ()   # (name, label) of values computed on every read
    files: bool = False                # each record has a files page (attachments)


_USERS_SQL = 'SELECT "id", "username" FROM "users" ORDER BY "id" LIMIT 500'


def label_of(section_of: dict[str, Section], key: str, row: dict[str, Any]) -> str:
    """A record's name for select options: its first field, then its id."""
    controls = section_of[key].controls
    value = row.get(controls[0].name) if controls else None
    return f"{value} (#{row['id']})" if value not in (None, "") else f"#{row['id']}"


def _cell(control: Control, value: Any, lang: str) -> str:
    if value is None or value == "":
        return ""
    if control.kind == "boolean":
        return escape(words(lang)["yes" if value else "no"])
    if control.kind == "reference":
        return f"#{escape(str(value))}"
    return escape(str(value))


def _computed_cell(value: Any, lang: str) -> str:
    if isinstance(value, bool):
        return escape(words(lang)["yes" if value else "no"])
    return "" if value is None else escape(str(value))


def render_table(section: Section, rows: list[dict[str, Any]], back: str, lang: str) -> str:
    """The records as a table: one column per field, then status and the row's actions."""
    w = words(lang)
    heads = [c.label for c in section.controls] + [label for _, label in section.computed] + (
        [w["status"]] if section.complete or section.states else []) + [w["actions"]]
    if not rows:
        return f'<p class="muted">{escape(w["nothing"])}</p>'
    body = []
    for row in rows:
        cells = [_cell(c, row.get(c.name), lang) for c in section.controls]
        if section.computed:
            values = section.api.computed_values(row)
            cells += [_computed_cell(values.get(name), lang) for name, _ in section.computed]
        if section.complete or section.states:
            cells.append(escape(str(row.get("status", ""))))
        cells.append(_actions(section, row, back, lang))
        body.append("<tr>" + "".join(f"<td>{cell}</td>" for cell in cells) + "</tr>")
    head = "".join(f"<th>{escape(h)}</th>" for h in heads)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _actions(section: Section, row: dict[str, Any], back: str, lang: str) -> str:
    w, base = words(lang), f"/forms/{escape(section.slug)}/{row['id']}"
    nxt = f'<input type="hidden" name="next" value="{escape(back)}">'
    out = f'<a href="{base}/edit?next={escape(back)}">{escape(w["edit"])}</a> '
    out += (f'<form class="inline" method="post" action="{base}/delete">{nxt}'
            f'<button type="submit">{escape(w["delete"])}</button></form>')
    if section.files:
        out += f' <a href="/{escape(section.slug)}/{row["id"]}/attachments">{escape(w.get("files", "Files"))}</a>'
    if section.complete and row.get("status") != "done":
        out += (f' <form class="inline" method="post" action="{base}/complete">{nxt}'
                f'<button type="submit">{escape(w["complete"])}</button></form>')
    return out


def _options(values: list[tuple[str, str]], selected: Any, blank: bool) -> str:
    out = ['<option value=""></option>'] if blank else []
    for value, text in values:
        mark = " selected" if str(selected) == value else ""
        out.append(f'<option value="{escape(value)}"{mark}>{escape(text)}</option>')
    return "".join(out)


def control_html(db: sqlite3.Connection, section_of: dict[str, Section], control: Control,
                 owner_id: int | None, value: Any) -> str:
    """The labelled input for one field: a select for enums and references, a checkbox for
    booleans, a textarea for long text, else an <input> with the kind's attributes."""
    name, flag = escape(control.name), " required" if control.required else ""
    if control.kind == "enum":
        options = _options([(v, v) for v in control.options], value, not control.required)
        field = f'<select name="{name}"{flag}>{options}</select>'
    elif control.ref == "@users":   # assigned_to: an account
        field = f'<select name="{name}">{_options([(str(i), n) for i, n in db.execute(_USERS_SQL)], value, True)}</select>'
    elif control.kind == "reference" and control.ref:
        rows = TABLES[control.ref].rows(db, owner_id, 500, 0)
        choices = [(str(r["id"]), label_of(section_of, control.ref, r)) for r in rows]
        field = f'<select name="{name}"{flag}>{_options(choices, value, not control.required)}</select>'
    elif control.kind == "boolean":
        checked = " checked" if value else ""
        return (f'<label class="check"><input type="checkbox" name="{name}" value="on"{checked}> '
                f"{escape(control.label)}</label>")
    elif control.attrs == "textarea":
        field = f'<textarea name="{name}" maxlength="5000"{flag}>{escape(str(value or ""))}</textarea>'
    else:
        shown = f' value="{escape(str(value))}"' if value not in (None, "") else ""
        field = f'<input name="{name}" {control.attrs}{shown}{flag}>'
    return f"<label>{escape(control.label)} {field}</label>"


def render_form(db: sqlite3.Connection, section_of: dict[str, Section], key: str,
                owner_id: int | None, back: str, errors: list[str], lang: str,
                row: dict[str, Any] | None = None) -> str:
    """The create form, or the edit form of `row` (prefilled, with a status select)."""
    section, w = section_of[key], words(lang)
    row = row or {}
    controls = []
    if section.parent and section.fk:
        parent = Control(section.fk, section.parent_title, "reference", True, ref=section.parent)
        controls.append(control_html(db, section_of, parent, owner_id, row.get(section.fk)))
    controls += [control_html(db, section_of, c, owner_id, row.get(c.name)) for c in section.controls]
    if row and section.states:
        options = _options([(s, s) for s in section.states], row.get("status"), False)
        controls.append(f'<label>{escape(w["status"])} <select name="status">{options}</select></label>')
    problems = "".join(f'<p class="error">{escape(error)}</p>' for error in errors)
    action = f"/forms/{escape(section.slug)}" + (f"/{row['id']}/edit" if row else "")
    return (f'<form method="post" action="{action}">{problems}'
            f'<input type="hidden" name="next" value="{escape(back)}">{"".join(controls)}'
            f'<button type="submit">{escape(w["save"] if row else w["add"])}</button></form>')


def chosen_filters(section: Section, params: Any) -> dict[str, Any]:
    """The section's filters given in the query string, as column values; a value outside a
    filter's choices is ignored (the page then shows every record for that filter)."""
    out: dict[str, Any] = {}
    for f in section.filters:
        raw = str(params.get(f.name, ""))[:200]   # a choice is short text: up to 200 characters
        if f.kind == "boolean" and raw in ("true", "false"):
            out[f.name] = raw == "true"
        elif f.kind == "enum" and raw in f.options:
            out[f.name] = raw
        elif f.kind == "reference" and raw.isdigit():
            out[f.name] = int(raw)
    return out


def _filter_select(db: sqlite3.Connection, section_of: dict[str, Section], f: PageFilter,
                   owner_id: int | None, chosen: dict[str, Any], lang: str) -> str:
    w = words(lang)
    if f.kind == "boolean":
        choices = [("true", w["yes"]), ("false", w["no"])]
        selected = {True: "true", False: "false"}.get(chosen.get(f.name), "")
    elif f.kind == "enum":
        choices, selected = [(v, v) for v in f.options], chosen.get(f.name, "")
    else:
        rows = TABLES[f.ref].rows(db, owner_id, 500, 0) if f.ref else []
        choices = [(str(r["id"]), label_of(section_of, f.ref, r)) for r in rows]
        selected = chosen.get(f.name, "")
    options = f'<option value="">{escape(w["any"])}</option>' + _options(choices, selected, False)
    return f'<label>{escape(f.label)} <select name="{escape(f.name)}">{options}</select></label>'


def search_html(section: Section, query: str, lang: str, *, db: sqlite3.Connection | None = None,
                section_of: dict[str, Section] | None = None, owner_id: int | None = None,
                chosen: dict[str, Any] | None = None) -> str:
    """The list's GET form: the search box (search feature) and a select per filter (filter feature)."""
    filters = section.filters if db is not None and section_of is not None else ()
    if not section.search and not filters:
        return ""
    w = words(lang)
    parts = []
    if section.search:
        parts.append(f'<input type="search" name="q" maxlength="200" value="{escape(query)}" '
                     f'aria-label="{escape(w["search"])}">')
    parts += [_filter_select(db, section_of, f, owner_id, chosen or {}, lang) for f in filters]
    button = w["search"] if section.search else w["filter"]
    return (f'<form method="get" role="search">{"".join(parts)}'
            f'<button type="submit">{escape(button)}</button></form>')


async def read_form(request: Request) -> dict[str, str]:
    raw = (await request.body())[:MAX_FORM_BYTES]
    return dict(parse_qsl(raw.decode("utf-8", "replace"), keep_blank_values=True))


def form_values(section: Section, form: dict[str, str], editing: bool = False) -> dict[str, Any]:
    """The record fields present in a submitted form (checkboxes are True/False; an empty
    optional field is left out, or cleared to None when editing)."""
    values: dict[str, Any] = {}
    if section.fk and form.get(section.fk, "").strip():
        values[section.fk] = form[section.fk].strip()
    for control in section.controls:
        if control.kind == "boolean":
            values[control.name] = control.name in form
        elif form.get(control.name, "").strip():
            values[control.name] = form[control.name].strip()
        elif editing and not control.required:
            values[control.name] = None
    if editing and section.states and form.get("status"):
        values["status"] = form["status"]
    return values


def error_lines(exc: Exception) -> list[str]:
    """Readable lines of a pydantic ValidationError (field: message)."""
    errors = getattr(exc, "errors", lambda: [])()
    return [f"{'.'.join(str(p) for p in error['loc'])}: {error['msg']}" for error in errors] or [str(exc)]
