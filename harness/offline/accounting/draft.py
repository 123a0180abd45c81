"""The editable draft of a run: the understood spec in the `--spec` TOML language
(harness/offline/spec_file.py), each request clause as a comment above the entries that realise
it, and the words nothing realises as `# not understood: …` lines.

`builder new --spec app.toml` of a draft builds the same requirements as the run it came from
(`built_shape` says what "the same" means); the user edits it to finish what the rules missed.
"""

from __future__ import annotations

import json
import re

from harness.models.spec import AppSpec, Clause, DataEntity, EntityField, Feature
from harness.offline.accounting.open_lists import open_list_phrases
from harness.offline.accounting.same_records import noted, same_record_notes
from harness.offline.field_kinds import kind_for_name
from harness.offline.generator.naming import field_ident, py_ident

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _s(text: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's)."""
    return json.dumps(str(text), ensure_ascii=False)


def _value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return str(int(v)) if float(v).is_integer() else str(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k if _BARE_KEY.match(k) else _s(k)} = {_value(x)}" for k, x in v.items()) + " }"
    return _s(v)


def _comment(text: str) -> str:
    return _CONTROL.sub(" ", text)


def _clause_lines(c: Clause, notes: dict[str, str]) -> list[str]:
    out = [f"# {c.id} ({c.status}): {_comment(c.text)}"]
    if c.unaccounted:
        out.append("# not understood: " + ", ".join(f'"{_comment(w)}"' for w in c.unaccounted))
        for w in c.unaccounted:   # a second noun for one thing (same_records.py, trial D6)
            if noted(w, notes):
                out.append(f'# "{_comment(w)}"{noted(w, notes)}: the spec has both, with no link; keep one '
                           "(move the fields over, delete the other) or link them")
        # access asked only by this clause, left out of the spec (offline/spec/unbuilt_access.py)
        out += [f"# {_comment(part)}" for part in c.reason.split("; ") if part.startswith("left out: ")]
    elif c.status == "not_built" and c.reason:
        out.append(f"# not built: {_comment(c.reason)}")
    elif c.status == "context" and c.reason.startswith("set aside"):
        out.append(f"# {_comment(c.reason)}; if it asks for something, add it below")
    for marker in dict.fromkeys(open_list_phrases(c.text)):   # "(customer, date, total, etc.)": a cut list
        out.append(f'# open-ended list ("{_comment(marker)}"): only the items it names are built; add the others')
    return out


def _home(c: Clause, spec: AppSpec | None) -> str:
    """Where a clause's comment goes: the first entity its words name, "top" otherwise."""
    if spec is None:
        return "top"
    names = {e.name: e.ident for e in spec.data_model}
    for label in c.words.values():
        head, _, rest = label.partition(" ")
        if head in ("entity", "field", "enum", "bound", "workflow", "kind"):
            name = re.split(r"[.:]", rest.removeprefix("of "), maxsplit=1)[0]
            if name in names:
                return names[name]
    return "top"


def draft_toml(spec: AppSpec | None, clauses: list[Clause], request: str = "") -> str:
    """The draft app.toml text for a spec (None: nothing was understood) and its clauses."""
    homes: dict[str, list[Clause]] = {}
    notes = same_record_notes(spec) if spec is not None else {}
    for c in clauses:
        homes.setdefault(_home(c, spec), []).append(c)
    first = _comment(request.strip().splitlines()[0][:100]) if request.strip() else ""
    lines = [f"# Draft spec of the request: {first}" if first else "# Draft spec",
             "# Each request clause is a comment above the entries that realise it; \"not understood\" names",
             "# the words nothing below realises. Add them (entities, fields, values, features) or drop them,",
             "# then build exactly this file: builder new --spec <this file>", ""]
    for c in homes.get("top", []):
        lines += _clause_lines(c, notes)
    if homes.get("top"):
        lines.append("")
    if spec is None or not spec.data_model:
        lines += ["# Nothing to build was understood. Describe the records, e.g.:", "# [[entities]]",
                  '# name = "task"', '# fields = [{ name = "title", required = true }, { name = "due date" }]']
        return "\n".join(lines) + "\n"
    lines += [f"title = {_s(spec.title or 'Generated app')}", f"language = {_s(spec.language)}",
              f"auth = {_auth(spec)}"]
    if any(r.capability == "dashboard" for r in spec.requirements):
        lines.append("dashboard = true")
    if not spec.html:
        lines.append("html = false   # a JSON API only, as asked: no HTML page at all (docs at /docs)")
    elif not any(r.capability == "pages" for r in spec.requirements):
        lines.append("pages = false   # no HTML page per record type (the JSON API and the index page)")
    asks = [r.text for r in spec.requirements if r.capability == "unsupported"]
    if asks:
        lines += ["# Asks nothing above or below builds: each one fails the build until you write what it means",
                  "# as entities, fields or features, or delete its line to drop it.", "not_built = ["]
        lines += [f"    {_s(_comment(a))}," for a in asks] + ["]"]
    names = {e.ident: e.name for e in spec.data_model}
    for e in spec.data_model:
        lines.append("")
        for c in homes.get(e.ident, []):
            lines += _clause_lines(c, notes)
        lines += _entity_lines(e, [f for f in spec.features if f.entity == e.ident], names)
    return "\n".join(lines) + "\n"


def _entity_lines(e: DataEntity, features: list[Feature], names: dict[str, str]) -> list[str]:
    out = ["[[entities]]", f"name = {_s(e.name)}"]
    if e.plural != f"{e.name}s":
        out.append(f"plural = {_s(e.plural)}")
    if e.parent:
        out.append(f"parent = {_s(names.get(e.parent, e.parent))}")
        if e.on_parent_delete != "restrict":
            out.append(f"on_parent_delete = {_s(e.on_parent_delete)}")
    if e.has_status and not e.workflow:
        out.append("has_status = true")
    out += [f"{key} = {_value(v)}" for key, v in (("read", e.read), ("shared", e.shared and not e.read), ("manage", e.manage), ("view", e.view),
                                                  ("assigned_to", "user" if e.assigned else None),
                                                  ("many", [names.get(m, m) for m in e.many])) if v]
    out += _tool_lines(e)
    if e.workflow:
        out.append(f"workflow = {_value(e.workflow)}")
        default = {s: [e.workflow[i + 1]] for i, s in enumerate(e.workflow[:-1])}
        if e.transitions and e.transitions != default:
            out.append(f"transitions = {_value(e.transitions)}")
    out.append("fields = [")
    out += [f"    {_field(f, names)}," for f in e.fields]
    out.append("]")
    if features:
        out.append(f"features = [{', '.join(_feature(f) for f in features)}]")
    if e.computed:
        out.append(f"computed = {_value(dict(e.computed))}")
    if e.stamps:   # by the field's name as written, which the reader turns back into its ident
        written = {f.ident: f.name for f in e.fields}
        out.append(f"stamp = {_value({written.get(k, k): v for k, v in e.stamps.items()})}")
    return out


def _tool_lines(e: DataEntity) -> list[str]:
    """The record tools (harness/offline/spec_record_tools.py) with their options written out."""
    out = []
    if e.calendar:
        date = next((f.name for f in e.fields if f.ident == e.calendar), e.calendar)
        out.append(f"calendar = {_value({'date': date})}")
    if e.csv_import:
        out.append(f"csv_import = {_value({'max_rows': e.csv_import})}")
    if e.attachment_types:
        out.append(f"attachments = {_value({'types': list(e.attachment_types), 'max_kb': e.attachment_max_kb})}")
    if e.soft_delete:
        out.append('delete = "soft"')
    return out


def _auth(spec: AppSpec) -> str:
    """`auth = false | true`, or the inline [auth] table when accounts have more than a password."""
    if not spec.auth:
        return "false"
    table = {k: v for k, v in (("login", spec.login if spec.login != "username" else None),
                               ("roles", list(spec.roles)), ("change_password", spec.change_password)) if v}
    return _value(table) if table else "true"


def _field(f: EntityField, names: dict[str, str]) -> str:
    parts = {"name": f.name}
    if f.ident != field_ident(f.name):
        parts["ident"] = f.ident
    if f.ref:
        parts["ref"] = names.get(f.ref, f.ref)
    elif f.kind and (f.kind != kind_for_name(f.name) or f.kind == "enum"):
        parts["kind"] = f.kind
    if f.enum_values:
        parts["values"] = list(f.enum_values)
    for key, v in (("min", f.min_value), ("max", f.max_value)):
        if v is not None:
            parts[key] = v
    if f.required:
        parts["required"] = True
    if f.unique:
        parts["unique"] = True
    return _value(parts)


def _feature(f: Feature) -> str:
    if not f.fields and not f.options:
        return _s(f.kind)
    parts: dict = {"kind": f.kind}
    if f.fields:
        parts["fields"] = list(f.fields)
    if f.options:
        parts["options"] = dict(f.options)
    return _value(parts)


_SAME_CRUD = {"create": "crud", "list": "crud", "crud": "crud"}


def built_shape(spec: AppSpec) -> dict:
    """What a spec builds, independent of wording: entities, fields, features, auth and the
    requirements' capabilities (unsupported ones excluded: a draft names them as comments)."""
    names = {e.ident: e.name for e in spec.data_model}
    return {
        "auth": spec.auth, "login": spec.login if spec.auth else None, "language": spec.language,
        "dashboard": any(r.capability == "dashboard" for r in spec.requirements),
        "entities": [(e.name, e.plural, e.ident, names.get(e.parent or "", e.parent), e.has_status, e.workflow,
                      e.on_parent_delete,
                      [(f.name, f.ident, f.kind or kind_for_name(f.name), f.required, f.enum_values,
                        f.min_value, f.max_value, names.get(f.ref or "", f.ref), f.unique) for f in e.fields])
                     for e in spec.data_model],
        "features": sorted((f.kind, names.get(f.entity or "", ""), tuple(f.fields), json.dumps(f.options, sort_keys=True))
                           for f in spec.features),
        "capabilities": sorted({(_SAME_CRUD.get(r.capability, r.capability), names.get(r.entity or "", ""))
                                for r in spec.requirements
                                if r.capability not in ("unsupported", "health", "pages", "other")}),
    }


def spec_key_ok(ident: str, name: str) -> bool:
    """Whether an entity's ident is the one the spec file derives from its name."""
    return ident == py_ident(name)
