"""Field types of the generated API, one per field kind (copied verbatim by the generator).

Each alias carries its kind's constraints, so a malformed value is a 422 before any handler runs.
"""

import datetime as _dt
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "Annotated", "Clock", "Count", "Day", "Email", "Field", "Int64", "Literal", "LongText",
    "MAX_ID", "Moment", "Money", "Number", "Phone", "RecordId", "RequiredLongText",
    "RequiredShortText", "ShortText", "Strict", "Url",
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
Email = Annotated[str, Field(max_length=254, pattern=r"^[^@\s]+@[^@\s]+\.[^@\s.]+$")]
Phone = Annotated[str, Field(max_length=32, pattern=r"^\+?[0-9][0-9 ().-]{5,30}$")]
Url = Annotated[str, Field(max_length=2000, pattern=r"^https?://[^\s/?#]+\.[^\s/?#]+(?:[/?#]\S*)?$")]
Clock = Annotated[str, Field(pattern=r"^(?:[01][0-9]|2[0-3]):[0-5][0-9](?::[0-5][0-9])?$")]
Day = _dt.date
Moment = _dt.datetime


class Strict(BaseModel):
    """Base of every request body: an unknown field is a 422, never silently dropped."""

    model_config = ConfigDict(extra="forbid")
