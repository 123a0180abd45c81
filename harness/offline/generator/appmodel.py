"""The generator's view of an AppSpec: entities in parent-first order with their columns, URL
segments and requirements, the page routes, and which requirements the app can implement.

The types live here; `analyse.analyse(spec)` derives them, `columns.py` derives an entity's columns
and date/time slot, `samples.py` gives the sample values the generated tests and probes send.
Everything is pure and deterministic (spec order, never set order), so the same spec always yields
the same files.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from harness.constructs.slot import Slot
from harness.models.spec import Requirement
from harness.offline.field_kinds import KINDS, Bounds, KindEntry
from harness.offline.generator.naming import python_unsafe

# Attributes of pydantic's BaseModel a field must not shadow (an alias is used instead).
_BASEMODEL_NAMES = {
    "construct", "copy", "dict", "from_orm", "json", "parse_file", "parse_obj", "parse_raw",
    "schema", "schema_json", "update_forward_refs", "validate", "fields",
}


# The kinds whose columns take any words (up to their length limit): the only ones a generated
# test may fill with made-up text.
FREE_TEXT_KINDS = ("short_text", "long_text")


@dataclass(frozen=True)
class Column:
    """One user-defined column of an entity table."""

    ident: str
    label: str
    type: str
    required: bool
    kind: str = "short_text"
    values: tuple[str, ...] = ()     # enum values
    lo: float | None = None          # rating / number range
    hi: float | None = None
    ref: str | None = None           # kind "reference": ident of the referenced entity
    end: bool = False                # the end of the entity's date/time range (samples come later)
    unique: bool = False             # no two records share a value (409)
    roomy: bool = False              # bounds another entity's `limit`: samples at the top of its range

    @property
    def entry(self) -> KindEntry:
        return KINDS[self.kind]

    @property
    def bounds(self) -> Bounds:
        return Bounds(values=self.values, lo=self.lo, hi=self.hi)

    @property
    def is_text(self) -> bool:
        return self.kind in ("short_text", "long_text", "email", "phone", "url")

    @property
    def needs_alias(self) -> bool:
        """True when the name would shadow a BaseModel attribute, a keyword or a builtin as Python
        code (the model then has the attribute `<ident>_` with the user's name as its alias)."""
        return self.ident in _BASEMODEL_NAMES or self.ident.startswith("model_") or python_unsafe(self.ident)

    @property
    def attr(self) -> str:
        return f"{self.ident}_" if self.needs_alias else self.ident


@dataclass(frozen=True)
class Entity:
    """An entity as generated: table `ident`, collection URL /api/<slug>, dashboard key plural_ident."""

    ident: str
    name: str
    plural: str
    plural_ident: str
    slug: str
    columns: tuple[Column, ...]
    parent: str | None
    has_status: bool
    reqs: tuple[Requirement, ...]
    states: tuple[str, ...] = ("open", "done")            # status values, first is the initial one
    transitions: tuple[tuple[str, tuple[str, ...]], ...] = ()   # state -> allowed next states
    workflow: bool = False                                # states came from the spec's workflow
    cascade: bool = False                                 # deleting the parent deletes these rows
    features: tuple[tuple[str, dict[str, Any]], ...] = ()  # (feature kind, options) built here
    slot: Slot | None = None                              # its date/time range, when it has one
    shared: bool = False                                  # every signed-in user sees every record
    public: bool = False                                  # anyone reads, without an account (shared too)
    manage: str | None = None                             # only this role (and admin) writes
    view: str | None = None                               # this role reads every row too
    stamps: tuple[tuple[str, str], ...] = ()              # (date column, state whose arrival sets it)
    assigned: bool = False                                # has `assigned_to`, a user who sees it
    many: tuple[str, ...] = ()                            # entities linked many-to-many
    computed: tuple[tuple[str, str], ...] = ()            # (name, expression) computed on every read
    calendar: str | None = None                           # the date column of its calendar
    csv_import: int = 0                                   # most rows of one CSV import (0: none)
    attachment_types: tuple[str, ...] = ()                # allowed attachment content types
    attachment_max_kb: int = 0
    soft_delete: bool = False                             # DELETE marks it deleted (deleted_at)
    parent_key: str | None = None                         # its parent's key (constructs/parent_key.py)

    def has(self, feature: str) -> bool:
        return any(kind == feature for kind, _ in self.features)

    def feature(self, feature: str) -> dict[str, Any]:
        return next((opts for kind, opts in self.features if kind == feature), {})

    @property
    def newest_key(self) -> str | None:
        """newest_first: the column lists order by, descending — the record's first date or
        date-time column, else its id (the last added first); None without the feature."""
        if not self.has("newest_first"):
            return None
        return next((c.ident for c in self.plain if c.kind in ("date", "datetime")), "id")

    @property
    def refs(self) -> tuple[Column, ...]:
        """The reference columns (foreign keys to other entities besides the parent)."""
        return tuple(c for c in self.columns if c.kind == "reference")

    @property
    def plain(self) -> tuple[Column, ...]:
        """The columns whose values are constants (everything but references)."""
        return tuple(c for c in self.columns if c.kind != "reference")

    @property
    def fk(self) -> str | None:
        return (self.parent_key or f"{self.parent}_id") if self.parent else None

    @property
    def camel(self) -> str:
        return "".join(part.capitalize() for part in self.ident.split("_")) or "Item"

    @property
    def display(self) -> Column | None:
        """The column a record is shown by: the first required text column, else the first required
        str column that is no choice, else the first required one ("an amount, a category and a
        date": the amount), else the first str/text column, else the first column."""
        for pick in (lambda c: c.is_text and c.required, lambda c: c.type == "str" and c.required and c.kind not in ("enum", "time"),
                     lambda c: c.required, lambda c: c.type in ("str", "text"), lambda c: True):
            found = next((c for c in self.columns if pick(c)), None)
            if found:
                return found
        return None

    @property
    def text_column(self) -> Column | None:
        """The column a generated test may write any words into ("<b>Tom & Jerry</b>", "Before the
        edit"): the display column when it is short or long text, else the first such column; None
        when the entity has none. A date, time, e-mail, phone, URL or choice column is no such
        column (the display may be one): free words there are a 422."""
        shown = self.display
        if shown is not None and shown.kind in FREE_TEXT_KINDS:
            return shown
        return next((c for c in self.columns if c.kind in FREE_TEXT_KINDS), None)

    def req_ids(self, *caps: str) -> tuple[str, ...]:
        """REQ ids of this entity with one of `caps`; all of its REQ ids when none match."""
        chosen = tuple(r.id for r in self.reqs if r.capability in caps)
        return chosen or tuple(r.id for r in self.reqs)


@dataclass(frozen=True)
class PageRoute:
    route: str
    name: str
    entity: str | None


@dataclass(frozen=True)
class AppModel:
    """The generator's view of a spec."""

    title: str
    auth: bool
    entities: tuple[Entity, ...]
    pages: tuple[PageRoute, ...]
    supported: tuple[Requirement, ...]
    unsupported: tuple[Requirement, ...]
    language: str = "en"
    email_login: bool = False   # accounts are e-mail addresses (email_login.py)
    roles: tuple[str, ...] = ()   # the first is the admin role, the last a new account's
    change_password: bool = False
    html: bool = True   # False: a JSON API only (AppSpec.html): no pages module, no HTML route

    @property
    def access(self) -> bool:
        """Rows are scoped by an access policy (roles, shared or assigned records), not only by
        their owner: the tables take a Viewer (src/people.py) and admins see everything."""
        return self.auth and bool(self.roles or any(e.shared or e.assigned or e.manage
                                                    for e in self.entities))

    def entity(self, ident: str) -> Entity:
        return next(e for e in self.entities if e.ident == ident)

    def ids(self, *caps: str) -> tuple[str, ...]:
        return tuple(r.id for r in self.supported if r.capability in caps)

    @property
    def has_dashboard(self) -> bool:
        return bool(self.ids("dashboard"))

    @property
    def entity_req_ids(self) -> tuple[str, ...]:
        wanted = {r.id for e in self.entities for r in e.reqs}
        return tuple(r.id for r in self.supported if r.id in wanted)

    @property
    def first_supported(self) -> tuple[str, ...]:
        return (self.supported[0].id,) if self.supported else ()

    def lineage(self, ident: str) -> list[Entity]:
        """The entity's ancestors, root first, then the entity itself."""
        chain = [self.entity(ident)]
        while chain[0].parent:
            chain.insert(0, self.entity(chain[0].parent))
        return chain
