"""The feature registry: one entry per `FeatureKind` saying what the offline generator builds.

The rule-based parser (and the honest-spec accounting) asks `can_build(feature, spec)`: a feature
is covered only when its entry is `built` and the spec gives it what it needs (an entity, fields
of the right kinds, accounts). Anything else stays `not_built` with the reason returned here.
Each entry names the generated files that implement it and the HTTP probe that shows it works.
Adding a feature is one entry here, its generator code and its tests.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import get_args

from harness.models.spec import AppSpec, DataEntity, Feature, FeatureKind, FieldKind
from harness.constructs import field_limit
from harness.constructs.capacity import CapacityError, of_spec
from harness.constructs.holding import HoldingError, booking_states, entity_states
from harness.constructs.parent_key import parent_key_of
from harness.offline.field_kinds import kind_of_type

TEXT_KINDS: tuple[FieldKind, ...] = ("short_text", "long_text", "email", "phone", "url")
NUMBER_KINDS: tuple[FieldKind, ...] = ("integer", "money", "decimal", "rating")
FILTER_KINDS: tuple[FieldKind, ...] = ("enum", "reference", "date", "datetime", "boolean",
                                       *NUMBER_KINDS, "short_text", "email", "phone", "url")
# The list route's own query parameters: a field with one of these names is no filter.
LIST_ROUTE_PARAMS = frozenset({"db", "user", "limit", "offset", "q", "sort", "order"})


@dataclass(frozen=True)
class FeatureEntry:
    """What one feature is, what it needs, where it is generated and how it is probed."""

    kind: FeatureKind
    summary: str
    needs_entity: bool
    needs_auth: bool
    field_kinds: tuple[FieldKind, ...]   # the entity needs a field of one of these kinds ("" = any)
    files: tuple[str, ...]               # generated files implementing it (<entity> = module ident)
    probe: str                           # the HTTP request that shows it works
    built: bool                          # False: the generator does not implement it yet
    req_text: str = ""                   # the requirement's text ({plural}, {name} of the entity)
    options: tuple[str, ...] = ()        # the `options` keys it reads; any other is an error


FEATURES: dict[FeatureKind, FeatureEntry] = {entry.kind: entry for entry in (
    FeatureEntry("search", "full-text search over the text fields: ?q=", True, False, TEXT_KINDS,
                 ("src/api_<entity>.py", "src/models.py", "src/pages.py"),
                 "GET /api/<plural>?q=<word of a stored record>", True),
    FeatureEntry("filter", "filter by enum / reference / boolean / short text value, date or number range",
                 True, False, FILTER_KINDS, ("src/api_<entity>.py", "src/models.py"),
                 "GET /api/<plural>?<field>=<value> and ?<field>_min=&<field>_max=", True),
    FeatureEntry("sort", "sort by any column: ?sort=<field>&order=asc|desc", True, False, (),
                 ("src/api_<entity>.py", "src/models.py"),
                 "GET /api/<plural>?sort=<field>&order=desc", True),
    FeatureEntry("aggregate", "totals of number/money fields, optionally grouped by an enum field",
                 True, False, NUMBER_KINDS, ("src/api_<entity>.py", "src/dashboard.py"),
                 "GET /api/<plural>/totals", True, options=("group_by",)),
    FeatureEntry("status_counts", "record counts per status / enum value on the dashboard",
                 True, False, ("enum",), ("src/api_<entity>.py", "src/dashboard.py"),
                 "GET /api/<plural>/counts", True),
    FeatureEntry("csv_export", "CSV download of the records", True, False, (),
                 ("src/api_<entity>.py",), "GET /api/<plural>/export.csv", True),
    FeatureEntry("no_double_booking",
                 "a slot is unique per resource: overlapping time ranges are refused with 409",
                 True, False, ("date", "time", "datetime"), ("src/api_<entity>.py",),
                 "POST the same slot twice -> 201 then 409", True, options=("while",)),
    FeatureEntry("newest_first", "the list shows the newest records first: by the record's date, else by "
                 "when it was added", True, False, (), ("src/models.py", "src/api_<entity>.py"),
                 "GET /api/<plural> after adding records out of date order", True),
    FeatureEntry("persistence", "records live in the SQLite file, sessions too: the app started afresh on it "
                 "lists what was saved, for the same login", True, False, (), ("src/models.py",),
                 "restart the app on the same database: GET /api/<plural> with the same token lists the record",
                 True),
    FeatureEntry("period_summary", "counts and totals of the number fields per week, month or year of a "
                 "date field (options.date; default the first date field)", True, False, ("date", "datetime"),
                 ("src/api_<entity>.py", "src/models.py"), "GET /api/<plural>/summary?period=month", True,
                 options=("date",)),
    FeatureEntry("capacity", "at most `limit` records hold the same place (a resource, optionally per day) "
                 "at once, counting everyone's records; one more is refused with 409 until a place frees up",
                 True, False, (), ("src/api_<entity>.py", "src/models.py"),
                 "POST up to the limit -> 201, one more -> 409, free one -> 201", True,
                 options=("limit", "while")),
    FeatureEntry("limit", "a number field is at most a number field of the record it refers to (a booking's "
                 "attendee count within its room's occupancy); more is refused with 422", True, False,
                 field_limit.LIMITED_KINDS, ("src/api_<entity>.py",),
                 "POST at the referenced record's bound -> 201, one more -> 422", True, options=field_limit.OPTIONS),
    FeatureEntry("ownership", "each user sees and changes only their own records", False, True, (),
                 ("src/auth.py", "src/models.py", "src/api_<entity>.py"),
                 "a second user's GET of the first user's record -> 404", True),
)}


REQ_TEXTS: dict[str, str] = {
    "search": "Users can search {plural}", "filter": "Users can filter {plural}",
    "sort": "Users can sort {plural}", "aggregate": "Users see totals of {plural}",
    "status_counts": "Users see how many {plural} there are per status",
    "csv_export": "Users can export {plural} as CSV",
    "no_double_booking": "A {name} cannot be booked twice for the same slot",
    "capacity": "No more {plural} than a place's capacity hold it at once: one more is refused",
    "limit": "A {name}'s {field} is at most its {resource}'s {bound}: more is refused",
    "ownership": "Each user only sees their own {plural}",
    "newest_first": "Users see {plural} listed newest first",
    "persistence": "Saved {plural} are kept after a refresh, a new login or a restart",
    "period_summary": "Users see weekly, monthly and yearly counts and totals of {plural}",
}


def feature_of_text(text: str) -> FeatureKind | None:
    """The feature a requirement's text asks for: the fixed words of its REQ_TEXTS template,
    in order ("Users can search tasks" -> "search")."""
    low = " ".join(text.lower().split())
    for kind, template in REQ_TEXTS.items():
        pattern = ".*".join(re.escape(p.strip().lower())
                            for p in re.split(r"\{\w+\}", template) if p.strip())
        if re.match(pattern, low):
            return kind
    return None


def _field_kinds(entity: DataEntity) -> set[str]:
    """The kinds of the entity's columns: its fields, its status (a choice), its parent key (a
    reference: `?<parent>_id=` filters a child even when it has no field of its own)."""
    kinds = {f.kind or kind_of_type(f.type) for f in entity.fields}
    return kinds | ({"enum"} if entity.workflow or entity.has_status else set()) \
        | ({"reference"} if entity.parent else set())


def can_build(feature: Feature, spec: AppSpec) -> tuple[bool, str]:
    """(True, "") when the generator builds `feature` for `spec`, else (False, the reason)."""
    entry = FEATURES.get(feature.kind)
    if entry is None or not entry.built:
        return False, f"the offline generator has no {feature.kind} feature"
    if entry.needs_auth and not spec.auth:
        return False, f"{feature.kind} needs accounts (authentication)"
    if not entry.needs_entity:
        return True, ""
    entity = spec.entity(feature.entity) if feature.entity else None
    if entity is None:
        return False, f"{feature.kind} needs a data entity to work on"
    unknown = sorted(k for k in feature.options if k not in entry.options)
    if unknown:
        allowed = ", ".join(entry.options) or "none"
        return False, f"{feature.kind} on {entity.plural}: unknown option {unknown[0]!r} (allowed: {allowed})"
    if entry.field_kinds and not _field_kinds(entity) & set(entry.field_kinds):
        wanted = ", ".join(entry.field_kinds)
        return False, f"{feature.kind} on {entity.plural} needs a field of kind {wanted}"
    if feature.kind == "filter" and feature.fields:
        refused = unfilterable(feature, entity, spec)
        if refused:
            return False, refused
    date = feature.options.get("date")
    if feature.kind == "period_summary" and date and not any(
            (f.kind or kind_of_type(f.type)) in ("date", "datetime") and normalise_name(str(date)) in (
                normalise_name(f.name), normalise_name(f.ident)) for f in entity.fields):
        return False, f"period_summary on {entity.plural}: options.date {date!r} is no date field"
    group = feature.options.get("group_by")
    if feature.kind == "aggregate" and group is not None and normalise_name(str(group)) not in _choices(entity):
        return False, (f"aggregate on {entity.plural}: options.group_by {group!r} is no choice field "
                       f"(its choice fields: {', '.join(sorted(_choices(entity))) or 'none'})")
    if feature.kind == "no_double_booking" and not _has_resource(entity, spec):
        return False, (f"no_double_booking on {entity.plural} needs the thing being booked "
                       "(a parent entity or a reference field)")
    if feature.kind == "no_double_booking":
        try:
            booking_states(entity.plural, feature.options, entity_states(entity))
        except HoldingError as exc:
            return False, str(exc)
    if feature.kind == "capacity":
        try:
            of_spec(feature, entity, spec)
        except CapacityError as exc:
            return False, str(exc)
    if feature.kind == "limit":
        try:
            field_limit.of_spec(feature, entity, spec)
        except field_limit.LimitError as exc:
            return False, str(exc)
    return True, ""


def req_words(feature: Feature, entity: DataEntity, spec: AppSpec) -> dict[str, str]:
    """The words a feature's requirement text names besides {plural} and {name}: a limit's field,
    the record it refers to and that record's bound ("A booking's attendee count is at most its
    room's maximum occupancy")."""
    if feature.kind != "limit":
        return {}
    lim = field_limit.of_spec(feature, entity, spec)
    resource = spec.entity(lim.resource)

    def label(e: DataEntity, ident: str) -> str:
        return next((f.name for f in e.fields if f.ident == ident), ident.replace("_", " "))

    return {"field": label(entity, lim.column), "resource": resource.name, "bound": label(resource, lim.bound)}


def unfilterable(feature: Feature, entity: DataEntity, spec: AppSpec) -> str:
    """Why a field a filter names cannot be filtered by ("" when each can): a filter is built for
    every field it names or not at all, never with one silently left out."""
    status = entity.workflow or entity.has_status
    for name in feature.fields:
        field = next((f for f in entity.fields if f.ident == name), None)
        if field is None:
            if (name == "status" and status) or name == parent_key_of(spec, entity):
                continue
            return f"filter on {entity.plural}: {name!r} is no field of {entity.name}"
        kind = field.kind or kind_of_type(field.type)
        if name in LIST_ROUTE_PARAMS:
            return (f"filter on {entity.plural}: a field named {name!r} is no filter (?{name}= is the "
                    "list route's own parameter)")
        if kind not in FILTER_KINDS:
            return (f"filter on {entity.plural}: {field.name!r} is a {kind} field, which no filter takes "
                    f"(filters take {', '.join(FILTER_KINDS)}); give it kind = \"short_text\" to filter "
                    "by its exact value, or search it with \"search\"")
    return ""


def normalise_name(name: str) -> str:
    return re.sub(r"[^0-9a-z]+", "_", name.lower()).strip("_")


def _choices(entity: DataEntity) -> set[str]:
    """The fields `aggregate` can group by: enum fields, and `status` with a workflow."""
    enums = {f.ident for f in entity.fields if (f.kind or kind_of_type(f.type)) == "enum"}
    return enums | ({"status"} if entity.workflow or entity.has_status else set())


def _has_resource(entity: DataEntity, spec: AppSpec) -> bool:
    refs = [f.ref for f in entity.fields if f.kind == "reference" and f.ref]
    return any(spec.entity(i) is not None for i in [entity.parent, *refs] if i)


assert set(FEATURES) == set(get_args(FeatureKind)), "every FeatureKind needs a registry entry"
