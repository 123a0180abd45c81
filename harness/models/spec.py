"""The application spec: what the user asked for, as validated data."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

SCHEMA_VERSION = 1

FieldType = Literal["str", "text", "int", "float", "bool", "date", "datetime"]

# What a requirement asks the generator for. "unsupported" marks a requirement the
# offline generator cannot implement; it stays in the spec and FAILs honestly.
Capability = Literal[
    "health", "create", "list", "complete", "crud", "relation", "auth", "dashboard",
    "pages", "unsupported", "other",
]


class Stack(BaseModel):
    frontend: str = "FastAPI"
    backend: str = "FastAPI"
    db: str = "SQLite"


class EntityField(BaseModel):
    """One column of an entity; `name` is the display name, `ident` the safe identifier."""

    name: str
    ident: str
    type: FieldType = "str"
    required: bool = False


class DataEntity(BaseModel):
    """A data entity: one SQLite table, one CRUD API, optionally a parent (foreign key)."""

    name: str                      # singular display name, e.g. "task"
    plural: str                    # plural display name, e.g. "tasks"
    ident: str                     # safe Python identifier, e.g. "task"
    fields: list[EntityField] = Field(default_factory=list)
    parent: str | None = None      # ident of the parent entity
    has_status: bool = False       # adds a `status` field and a complete action


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
    pages: list[Page] = Field(default_factory=list)
    components: list[Component] = Field(default_factory=list)
    data_model: list[DataEntity] = Field(default_factory=list)
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
