"""Building blocks of the generated API (copied verbatim by the generator): one annotated type
per field kind, the strict request base, the documented error responses, two value helpers and the
operations of computed values (`calc_*`: a missing input gives a missing result, never an error).

Each alias carries its kind's constraints, so a malformed value is a 422 before any handler runs.
"""

import datetime as _dt
from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, model_validator

__all__ = [
    "MAX_ID", "Annotated", "BaseModel", "Clock", "Count", "Day", "Email", "Field", "Int64",
    "Literal", "LongText", "Moment", "Money", "Number", "Phone", "RecordId", "RequiredLongText",
    "RequiredShortText", "ShortText", "Strict", "Url", "any_case", "csv_cell", "error_responses", "iso",
    "calc_compare", "calc_day", "calc_divided", "calc_json", "calc_minus", "calc_plus", "calc_times",
    "calc_today", "model_validator",
]

MAX_ID = 2**63 - 1  # SQLite INTEGER range; larger numbers are 422, not an overflow
MAX_NUMBER = 1e15   # money and measures beyond this are typos, not data

Int64 = Annotated[int, Field(ge=-MAX_ID - 1, le=MAX_ID)]
Count = Annotated[int, Field(ge=0, le=MAX_ID)]
RecordId = Annotated[int, Field(ge=1, le=MAX_ID)]
Money = Annotated[float, Field(ge=0, le=MAX_NUMBER, allow_inf_nan=False)]
Number = Annotated[float, Field(ge=-MAX_NUMBER, le=MAX_NUMBER, allow_inf_nan=False)]
ShortText = Annotated[str, Field(max_length=200)]
LongText = Annotated[str, Field(max_length=5000)]
RequiredShortText = Annotated[str, Field(min_length=1, max_length=200)]
RequiredLongText = Annotated[str, Field(min_length=1, max_length=5000)]


def any_case(*values: str) -> BeforeValidator:
    """A choice in any letter case ("food", "FOOD") is that choice as the spec lists it ("Food"):
    the API, the database and the pages keep the user's one spelling."""
    spelling = {value.lower(): value for value in values}
    return BeforeValidator(lambda value: spelling.get(value.lower(), value) if isinstance(value, str) else value)


Email = Annotated[str, Field(max_length=254, pattern=r"^[^@\s]+@[^@\s]+\.[^@\s.]+$")]
Phone = Annotated[str, Field(max_length=32, pattern=r"^\+?[0-9][0-9 ().-]{5,30}$")]
Url = Annotated[str, Field(max_length=2000, pattern=r"^https?://[^\s/?#]+\.[^\s/?#]+(?:[/?#]\S*)?$")]
Clock = Annotated[str, Field(pattern=r"^(?:[01][0-9]|2[0-3]):[0-5][0-9](?::[0-5][0-9])?$")]
Day = _dt.date
Moment = _dt.datetime


class Strict(BaseModel):
    """Base of every request body: an unknown field is a 422, never silently dropped."""

    model_config = ConfigDict(extra="forbid")


def error_responses(auth: bool) -> dict[int | str, dict[str, str]]:
    """The error answers every entity route documents in the OpenAPI schema."""
    out: dict[int | str, dict[str, str]] = {
        404: {"description": "No record with that id (or not yours)"},
        409: {"description": "Conflict: still referred to, a status move not allowed, or a clash"},
        422: {"description": "Invalid input: wrong type, out of range, unknown field or reference"},
    }
    if auth:
        out[401] = {"description": "Missing or invalid bearer token"}
    return dict(sorted(out.items(), key=lambda item: str(item[0])))


def iso(value: object) -> object:
    """Dates and times as ISO text (how they are stored); anything else unchanged."""
    return value.isoformat() if isinstance(value, (_dt.date, _dt.time)) else value


def csv_cell(value: object) -> str:
    """A CSV cell; text that a spreadsheet would run as a formula gets a leading quote."""
    if value is None:
        return ""
    if isinstance(value, (int, float)):
        return str(value)
    text = str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


# ---- computed values: what the spec's expressions compile to (dates are datetime.date) ----

def calc_today() -> _dt.date:
    """Today on the server's clock."""
    return _dt.date.today()


def calc_day(value: object) -> _dt.date | None:
    """A stored date or date-time (ISO text) as a date; None when missing or unreadable."""
    try:
        return _dt.date.fromisoformat(str(value)[:10]) if value not in (None, "") else None
    except ValueError:
        return None


def calc_plus(a, b):
    """a + b; a date plus a number of days is a date; None when either is missing."""
    if a is None or b is None:
        return None
    if isinstance(a, _dt.date) or isinstance(b, _dt.date):
        day, days = (a, b) if isinstance(a, _dt.date) else (b, a)
        return day + _dt.timedelta(days=days)
    return a + b


def calc_minus(a, b):
    """a - b; a date minus a date is the number of days between them; None when either is missing."""
    if a is None or b is None:
        return None
    if isinstance(a, _dt.date) and isinstance(b, _dt.date):
        return (a - b).days
    if isinstance(a, _dt.date):
        return a - _dt.timedelta(days=b)
    return a - b


def calc_times(a, b):
    return None if a is None or b is None else a * b


def calc_divided(a, b):
    return None if a is None or b is None or b == 0 else a / b


def calc_compare(op: str, a, b) -> bool:
    """The comparison `a op b`; false when either side is missing."""
    if a is None or b is None:
        return False
    return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b, "=": a == b, "!=": a != b}[op]


def calc_json(value: object) -> object:
    """A computed value as JSON shows it: a date as ISO text."""
    return value.isoformat() if isinstance(value, _dt.date) else value
