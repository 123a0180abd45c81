"""The field-kind registry: one entry per `FieldKind` saying what a field of that kind becomes.

Each entry gives the name patterns that imply the kind, the storage type of `EntityField.type`,
the SQLite column type, the pydantic annotation used in generated code (the aliases live in the
generated app's `src/fieldtypes.py`), the HTML input, two valid sample values and values the
generated API must reject with 422. The rule-based parser asks `kind_for_name`; the generator
asks `KINDS[kind]`. Adding a kind is one entry here plus its tests.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass
from typing import Any, get_args

from harness.models.spec import FieldKind, FieldType, kind_of_type  # noqa: F401  (kind_of_type re-exported)


@dataclass(frozen=True)
class Bounds:
    """What one field adds to its kind: enum values and a numeric range."""

    values: tuple[str, ...] = ()
    lo: float | None = None
    hi: float | None = None


@dataclass(frozen=True)
class KindEntry:
    """What a field of one kind becomes in the generated app."""

    kind: FieldKind
    patterns: tuple[str, ...]        # regexes over the normalised name (" due date ")
    storage: FieldType               # EntityField.type for code that predates kinds
    sql: str                         # SQLite column type
    py: str                          # annotation in src/fieldtypes.py terms ({lo} {hi} {values})
    py_required: str                 # annotation when the field is required (non-empty text)
    out: str                         # annotation of the stored value in responses
    html: str                        # <input> attributes ("select" / "textarea" / "checkbox")
    samples: tuple[Any, Any]         # two valid values, variant 0 and 1
    invalid: tuple[Any, ...]         # values the API must answer with 422
    later: tuple[Any, Any] = (None, None)   # samples after `samples` (the end of a range)

    def annotation(self, bounds: Bounds, required: bool) -> str:
        """The pydantic annotation text of a field of this kind; a number kind's `min`/`max`
        narrow its alias (a given `min` replaces the kind's own floor, pydantic's later `ge` wins)."""
        text = self.py_required if required else self.py
        limits = ", ".join(f"{key}={_num(v, 0)!r}" for key, v in (("ge", bounds.lo), ("le", bounds.hi))
                           if v is not None)
        if self.kind in NUMBER_KINDS and limits:
            return f"Annotated[{self.py_required}, Field({limits})]" + ("" if required else " | None")
        values = ", ".join(repr(v) for v in bounds.values) or repr("")
        return text.format(lo=_num(bounds.lo, 1), hi=_num(bounds.hi, 5), values=values)

    def input_attrs(self, bounds: Bounds) -> str:
        """The HTML input's attributes; a number input carries the field's min and max."""
        if self.kind == "rating":
            return self.html.format(lo=int(_num(bounds.lo, 1)), hi=int(_num(bounds.hi, 5)))
        if self.kind not in NUMBER_KINDS:
            return self.html
        low = bounds.lo if bounds.lo is not None else _FLOORS[self.kind]
        return self.html + "".join(f' {key}="{_num(v, 0)}"' for key, v in (("min", low), ("max", bounds.hi))
                                   if v is not None)

    def sample(self, bounds: Bounds, variant: int = 0, end: bool = False) -> Any:
        """A valid JSON value of this kind (variant 1 differs from variant 0 when it can);
        `end`: a value after the plain samples, for the end of a date/time range."""
        if end and self.later[variant] is not None:
            return self.later[variant]
        if self.kind == "enum" and bounds.values:
            return bounds.values[variant % len(bounds.values)]
        if self.kind == "rating":
            lo, hi = int(_num(bounds.lo, 1)), int(_num(bounds.hi, 5))
            return min(lo + variant, hi)
        if self.kind in NUMBER_KINDS and not self._allows(bounds, self.samples[variant]):
            return self._bounded_sample(bounds, variant)
        return self.samples[variant]

    def bad_values(self, bounds: Bounds) -> tuple[Any, ...]:
        """Values of the right shape that the generated API must refuse (422): for a number kind
        with `min`/`max`, the nearest values just outside them."""
        if self.kind == "rating":
            return (int(_num(bounds.hi, 5)) + 1, int(_num(bounds.lo, 1)) - 1, "five")
        if self.kind not in NUMBER_KINDS:
            return self.invalid
        whole = self.kind == "integer"
        outside = [just_outside(v, side, whole) for v, side in ((bounds.lo, -1), (bounds.hi, 1)) if v is not None]
        kept = [v for v in self.invalid if not self._allows(bounds, v)]
        return tuple(outside + kept)

    def _allows(self, bounds: Bounds, value: Any) -> bool:
        """Whether a number kind's annotation accepts `value` (False for a value of another type)."""
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            return False
        if self.kind == "integer" and not float(value).is_integer():
            return False
        low = bounds.lo if bounds.lo is not None else _FLOORS[self.kind]
        return (low is None or value >= low) and (bounds.hi is None or value <= bounds.hi)

    def _bounded_sample(self, bounds: Bounds, variant: int) -> int | float:
        """A value inside the field's range: its low end plus `variant` steps, at most its high end."""
        low = bounds.lo if bounds.lo is not None else _FLOORS[self.kind]
        high = bounds.hi
        if self.kind == "integer":
            start = math.ceil(low) if low is not None else math.floor(high) - 1
            top = math.floor(high) if high is not None else start + 1
            return max(min(start + variant, top), start) if start <= top else start
        start = float(low) if low is not None else float(high) - 1
        top = float(high) if high is not None else start + 1
        return min(start + variant * 0.5, top)


# The kinds whose `unique = true` the generated app enforces (409 for a second record with the value):
# values the generated tests can make distinct, and a reference (one record per referenced record).
# A spec file refuses `unique` on any other kind rather than build an app that ignores it.
UNIQUE_KINDS: tuple[str, ...] = ("short_text", "long_text", "email", "url", "phone", "integer", "reference")

# The number kinds whose `min`/`max` the generated API enforces (rating has its own range), and
# the floor each kind keeps when no `min` is given.
NUMBER_KINDS = ("integer", "money", "decimal")
_FLOORS: dict[str, float | None] = {"integer": 0, "money": 0, "decimal": None}


def just_outside(bound: float, side: int, whole: bool) -> int | float:
    """The nearest value beyond `bound` (side -1: below, +1: above) that a range check must refuse."""
    if whole:
        return math.ceil(bound) - 1 if side < 0 else math.floor(bound) + 1
    step = 0.01 if abs(bound) < 1e9 else 1.0
    return round(bound + side * step, 6) if abs(bound) < 1e9 else bound + side * step


def _num(value: float | None, default: float) -> float | int:
    value = default if value is None else value
    return int(value) if float(value).is_integer() else value


def _words(*names: str) -> str:
    """A regex matching any of the names as whole words."""
    return r"\b(?:" + "|".join(re.escape(n) for n in names) + r")\b"


_DATE_LAST = r"\b(?:date|day|deadline|due|birthday|birthdate|dob|ngay|han)\s$"
_TIME_LAST = r"\b(?:time|start|end|starts|ends|clock in|clock out|check in|check out|gio)\s$"
# The moment a record's own one-off event happened ("submission time", "creation time"): a date
# and a time, not a clock time of every day. Scheduled events ("arrival time") stay clock times.
_EVENT_MOMENT = (r"\b(?:submission|creation|registration|publication|cancellation|confirmation|approval|"
                 r"signup|sign up)\s(?:time|timestamp)\s$")

KINDS: dict[FieldKind, KindEntry] = {entry.kind: entry for entry in (
    KindEntry("short_text", (r"\s(?:by|to)\s$",), "str", "TEXT", "ShortText | None", "RequiredShortText", "str",
              'type="text" maxlength="200"', ("Sample text", "Changed text"), ("x" * 201, 12345)),
    KindEntry("long_text",
              (_words("description", "notes", "note", "details", "comment", "comments", "bio",
                      "content", "body", "instructions", "steps", "directions", "ingredients", "address", "summary",
                      "message", "reason", "feedback", "review", "information", "info", "references", "text",
                      "mo ta", "ghi chu", "noi dung",
                      "dia chi"),),
              "text", "TEXT", "LongText | None", "RequiredLongText", "str", "textarea",
              ("A longer sample description.", "A changed description."), ("x" * 5001, 12345)),
    KindEntry("integer",
              (_words("quantity", "qty", "count", "number of", "hours", "minutes", "age", "capacity",
                      "seats", "servings", "calories", "reps", "sets", "pages", "points", "year",
                      "duration", "stock", "floor", "guests", "interval", "quota", "participants",
                      "attendees", "reorder level", "reorder point", "stock level", "so luong"),
               r"^\s(?:daily\s)?steps\s$"),   # a step count; "preparation steps" are text
              "int", "INTEGER", "Count | None", "Count", "int", 'type="number" step="1"',
              (7, 8), (-1, "many", 1.5)),
    KindEntry("money",
              (_words("amount", "price", "cost", "fee", "fees", "total", "salary", "budget", "balance",
                      "payment", "income", "expense", "rent", "wage", "wages", "tip", "deposit",
                      "revenue", "spent", "spending", "hourly rate", "gia", "so tien", "tien", "tien luong"),),
              "float", "REAL", "Money | None", "Money", "float",
              'type="number" step="0.01"', (12.5, 30.25), (-3000, "lots", "NaN")),
    KindEntry("decimal",
              (_words("weight", "height", "distance", "percentage", "percent", "temperature",
                      "latitude", "longitude", "km", "miles", "kg", "rate", "ratio",
                      "limit", "cap", "threshold"),),
              "float", "REAL", "Number | None", "Number", "float", 'type="number" step="any"',
              (1.5, 2.25), ("heavy", "Infinity")),
    KindEntry("date", (_DATE_LAST, r"\bbirth\b"), "date", "TEXT", "Day | None", "Day", "str",
              'type="date"', ("2024-01-02", "2024-02-03"), ("not-a-date", "2024-13-45"),
              ("2024-01-05", "2024-02-08")),
    KindEntry("time", (_TIME_LAST,), "str", "TEXT", "Clock | None", "Clock", "str",
              'type="time"', ("09:30", "17:45"), ("25:00", "noon"), ("11:00", "18:30")),
    KindEntry("datetime",
              (r"\bat\s$", _words("timestamp", "datetime", "date and time", "thoi gian"), _EVENT_MOMENT),
              "datetime", "TEXT", "Moment | None", "Moment", "str",
              'type="datetime-local" step="1"', ("2024-01-02T03:04:05", "2024-02-03T04:05:06"),
              ("yesterday", "2024-01-02T25:00:00"), ("2024-01-02T05:00:00", "2024-02-03T06:00:00")),
    KindEntry("boolean",
              (r"^\s(?:is|has|can|allow|enable|enabled)\b",
               _words("paid", "active", "available", "enabled", "verified", "published", "archived",
                      "in stock", "yes no", "done", "completed", "attended", "present"),),
              "bool", "INTEGER", "bool | None", "bool", "bool", "checkbox", (True, False),
              ("maybe",)),
    KindEntry("email", (_words("email", "e mail", "mail"),), "str", "TEXT", "Email | None",
              "Email", "str", 'type="email" maxlength="254"',
              ("ada@example.com", "grace@example.org"), ("not-an-email", "a@b")),
    KindEntry("phone",
              (_words("phone", "mobile", "telephone", "tel", "cell", "dien thoai", "sdt"),),
              "str", "TEXT", "Phone | None", "Phone", "str", 'type="tel" maxlength="32"',
              ("+1 555 0100", "+84 90 123 4567"), ("call me", "1")),
    KindEntry("url", (_words("url", "website", "link", "homepage", "web site", "image", "photo", "picture",
                             "logo", "avatar", "thumbnail", "headshot", "portrait"),), "str", "TEXT",
              "Url | None", "Url", "str", 'type="url" maxlength="2000"',
              ("https://example.com/a", "https://example.org/b"),
              ("not a url", "javascript:alert(1)")),
    KindEntry("rating", (_words("rating", "stars", "star", "danh gia"),), "int", "INTEGER",
              "Annotated[int, Field(ge={lo}, le={hi})] | None",
              "Annotated[int, Field(ge={lo}, le={hi})]", "int",
              'type="number" step="1" min="{lo}" max="{hi}"', (1, 2), ()),
    KindEntry("enum", (), "str", "TEXT", "Annotated[Literal[{values}], any_case({values})] | None",
              "Annotated[Literal[{values}], any_case({values})]", "str",
              "select", ("", ""), ("not-a-choice", 3)),
    KindEntry("reference", (), "int", "INTEGER", "RecordId | None", "RecordId", "int", "select",
              (None, None), (0, "first")),
)}

# The order names are matched in: the first kind whose pattern matches wins ("due date" is a
# date although "due" is no money word; "is paid" is a boolean although "paid" ends like money).
# "paid by" / "assigned to" name a person: short text, before "paid" makes it a boolean.
MATCH_ORDER: tuple[FieldKind, ...] = (
    "short_text", "boolean", "email", "phone", "url", "rating", "datetime", "date", "time", "money", "integer",
    "decimal", "long_text",
)
_COMPILED = {kind: tuple(re.compile(p) for p in KINDS[kind].patterns) for kind in MATCH_ORDER}


def normalise(name: str) -> str:
    """Lower-case ASCII words separated by single spaces, padded: "Clock-In_Time" -> " clock in time "."""
    folded = unicodedata.normalize("NFKD", name.replace("đ", "d").replace("Đ", "D"))
    words = re.sub(r"[^0-9a-z]+", " ", folded.encode("ascii", "ignore").decode().lower()).split()
    return " " + " ".join(words) + " "


# How long an activity takes ("cooking time", "prep time"): a number of minutes, not a clock time.
_DURATION = re.compile(r"\b(?:cooking|cook|prep|preparation|baking|bake|travel|waiting|wait|reading|"
                       r"running|estimated|response|total|processing|delivery|lead)\s(?:time|duration)\s$")


# A participle after a column's noun says what happened to it, not the column's kind: "amount paid"
# is money and "date paid" a date (both were booleans, from "paid"); "is paid" stays a boolean.
_PARTICIPLES = frozenset({"paid", "done", "made", "received", "spent", "completed", "sent", "given"})
_OF_AMOUNTS = frozenset({"number", "count", "amount", "quantity", "total"})   # "number of guests"
_OF_NAMES = frozenset({"method", "mode", "type", "kind", "place", "country", "city", "proof", "name"})


def kind_for_name(field_name: str) -> FieldKind:
    """The kind a field's name implies; "short_text" when nothing matches.

    Enum and reference are never implied by a name alone: they need values or an entity.
    """
    text = normalise(field_name)
    if _DURATION.search(text):
        return "integer"
    words = text.split()
    if len(words) >= 2 and words[-1] in _PARTICIPLES:   # "amount paid", "date paid": the noun's kind
        kind = kind_for_name(" ".join(words[:-1]))
        if kind not in ("short_text", "boolean"):
            return kind
    head, of, _rest = text.partition(" of ")
    if of and head.split()[-1] not in _OF_AMOUNTS:   # "date of birth": the kind of its head noun
        kind = kind_for_name(head)
        if kind != "short_text" or head.split()[-1] in _OF_NAMES:
            return kind
    for kind in MATCH_ORDER:
        if any(p.search(text) for p in _COMPILED[kind]):
            return kind
    return "short_text"


assert set(KINDS) == set(get_args(FieldKind)), "every FieldKind needs a registry entry"
