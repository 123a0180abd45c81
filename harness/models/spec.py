"""The application spec: what the user asked for, as validated data."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

SCHEMA_VERSION = 1

FieldType = Literal["str", "text", "int", "float", "bool", "date", "datetime"]

# The field-kind registry's names (harness/offline owns what each kind generates). `kind` is the
# user-level meaning; `type` stays the storage type for code that predates kinds.
FieldKind = Literal[
    "short_text", "long_text", "integer", "money", "decimal", "date", "time", "datetime",
    "boolean", "email", "phone", "url", "rating", "enum", "reference",
]

def kind_of_type(field_type: FieldType) -> FieldKind:
    """The kind of a field that only has a storage type (specs written before kinds existed)."""
    return {"str": "short_text", "text": "long_text", "int": "integer", "float": "decimal",
            "bool": "boolean", "date": "date", "datetime": "datetime"}[field_type]


# The feature registry's names (harness/offline owns what each feature generates).
FeatureKind = Literal[
    "search", "filter", "sort", "aggregate", "status_counts", "csv_export",
    "no_double_booking", "ownership", "newest_first", "persistence", "period_summary",
    "capacity", "limit",
]

# How a request clause is accounted for: implemented by requirements, not built (with the
# reason, and an `unsupported` requirement that FAILs), or context that asks for nothing.
ClauseStatus = Literal["mapped", "not_built", "context"]

# What a requirement asks the generator for. "unsupported" marks a requirement the
# offline generator cannot implement; it stays in the spec and FAILs honestly.
Capability = Literal[
    "health", "create", "list", "complete", "crud", "relation", "auth", "dashboard",
    "pages", "feature", "workflow", "unsupported", "other", "access", "account", "link",
    "calendar", "import", "attachment", "computed", "soft_delete",
]


class Stack(BaseModel):
    frontend: str = "FastAPI"
    backend: str = "FastAPI"
    db: str = "SQLite"


class EntityField(BaseModel):
    """One column of an entity; `name` is the display name, `ident` its snake_case JSON/SQL name
    (the user's word, even a Python keyword or builtin such as "type": the generator aliases it)."""

    name: str
    ident: str
    type: FieldType = "str"
    required: bool = False
    kind: FieldKind | None = None            # None: derived from `type` by the generator
    enum_values: list[str] = Field(default_factory=list)   # kind == "enum"
    min_value: float | None = None           # rating range, numeric lower bound
    max_value: float | None = None
    ref: str | None = None                   # kind == "reference": ident of the referenced entity
    unique: bool = False


class DataEntity(BaseModel):
    """A data entity: one SQLite table, one CRUD API, optionally a parent (foreign key)."""

    name: str                      # singular display name, e.g. "task"
    plural: str                    # plural display name, e.g. "tasks"
    ident: str                     # safe Python identifier, e.g. "task"
    fields: list[EntityField] = Field(default_factory=list)
    parent: str | None = None      # ident of the parent entity
    has_status: bool = False       # adds a `status` field and a complete action
    # Ordered workflow states ("draft", "submitted", "approved"): a `status` enum whose allowed
    # moves are `transitions` (default: each state to the next one); an invalid move is a 409.
    workflow: list[str] = Field(default_factory=list)
    transitions: dict[str, list[str]] = Field(default_factory=dict)
    # date field ident -> the state whose arrival sets it to today (harness/offline/spec_stamp.py)
    stamps: dict[str, str] = Field(default_factory=dict)
    on_parent_delete: Literal["restrict", "cascade"] = "restrict"
    # Who sees and changes the records when the app has accounts (docs/spec-language.md):
    shared: bool = False           # every signed-in user sees every record (only its owner changes it)
    manage: str | None = None      # only this role (and the admin role) creates, changes, deletes
    view: str | None = None        # this role also reads every record (and changes only its own)
    assigned: bool = False         # `assigned_to`: a user who then sees and updates the record
    read: Literal["public"] | None = None   # "public": anyone reads, without an account (shared too)
    many: list[str] = Field(default_factory=list)   # idents of entities linked many-to-many
    # Record tools (harness/offline/spec_record_tools.py): an agenda by a date field, CSV import,
    # files attached to a record
    calendar: str | None = None    # ident of the date or date-time field the calendar groups by
    csv_import: int = 0            # most rows one CSV import takes (0: no import)
    attachment_types: list[str] = Field(default_factory=list)   # allowed content types ([]: none)
    attachment_max_kb: int = 0     # largest attachment in KiB
    soft_delete: bool = False      # `delete = "soft"`: DELETE marks the record deleted; a list of
                                   # deleted records and a restore bring it back
    # Values computed from the record on every read (harness/constructs/computed_expr.py):
    # name -> expression, in order (a later one may use an earlier one)
    computed: dict[str, str] = Field(default_factory=dict)


class Feature(BaseModel):
    """One entry of the feature registry applied to an entity (search, filters, CSV export …)."""

    kind: FeatureKind
    entity: str | None = None      # entity ident; None for app-wide features
    fields: list[str] = Field(default_factory=list)   # field idents the feature works on
    options: dict[str, str | int | float | bool | list[str]] = Field(default_factory=dict)


class Clause(BaseModel):
    """One part of the request (sentence, bullet, user story, "X; Y" part) and how it is covered."""

    id: str                        # "C-001"
    text: str
    status: ClauseStatus
    reqs: list[str] = Field(default_factory=list)   # REQ ids implementing it (or its unsupported REQ)
    reason: str = ""               # why it is not built / why it is context
    # Word accounting (harness/offline/accounting): each word of the clause -> the spec element that
    # realises it ("field book.title", "function word"), and the words nothing realises.
    words: dict[str, str] = Field(default_factory=dict)
    unaccounted: list[str] = Field(default_factory=list)


class Page(BaseModel):
    name: str
    route: str = "/"
    entity: str | None = None      # ident of the entity the page shows


class Component(BaseModel):
    name: str
    description: str = ""


class Requirement(BaseModel):
    id: str
    text: str
    must_have: bool = True
    acceptance: str = ""
    capability: Capability = "other"
    entity: str | None = None      # entity ident the requirement is about, when any


class AppSpec(BaseModel):
    schema_version: int = SCHEMA_VERSION
    app_type: str = "web"
    title: str = ""
    stack: Stack = Field(default_factory=Stack)
    auth: bool = False
    login: Literal["username", "email"] = "username"   # what an account signs in with
    roles: list[str] = Field(default_factory=list)     # first: the admin role; last: new accounts'
    change_password: bool = False                      # POST /api/auth/password
    pages: list[Page] = Field(default_factory=list)
    # False: a JSON API only, as an API-only request asks ("no frontend", "just a REST API"): no HTML
    # index, login or record page, and no check of one.
    html: bool = True
    components: list[Component] = Field(default_factory=list)
    data_model: list[DataEntity] = Field(default_factory=list)
    features: list[Feature] = Field(default_factory=list)
    clauses: list[Clause] = Field(default_factory=list)
    language: Literal["en", "vi"] = "en"
    requirements: list[Requirement] = Field(default_factory=list)
    must_have: list[str] = Field(default_factory=list)
    explicit_non_goals: list[str] = Field(default_factory=list)
    acceptance_criteria: list[str] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)

    model_config = ConfigDict(extra="forbid")

    def entity(self, ident: str) -> DataEntity | None:
        """The entity with that ident, or None."""
        return next((e for e in self.data_model if e.ident == ident), None)

    def requirement(self, req_id: str) -> Requirement | None:
        return next((r for r in self.requirements if r.id == req_id), None)
