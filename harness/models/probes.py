"""HTTP probes the running app must answer, declared by the plan per requirement (runtime check)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, field_validator, model_validator

Method = Literal["GET", "POST", "PUT", "PATCH", "DELETE"]


class Probe(BaseModel):
    """One request against the running app and the status it must get.

    `path` and body values that are exactly "{name}" take a value captured by an earlier probe
    (`capture` maps a name to a key of that probe's JSON answer). Probes run in plan order on a
    fresh database, so a probe may rely on what earlier probes created. Redirects are not
    followed: a probe of a redirect declares its 3xx and, optionally, the `expect_location`.
    """

    requirement: str = ""              # the REQ id this probe shows working at runtime
    name: str = ""
    method: Method = "GET"
    path: str
    body: dict | None = None
    expect_status: int = 200
    expect_location: str | None = None  # for a 3xx: the Location it must send ("{name}" filled in)
    capture: dict[str, str] = Field(default_factory=dict)
    auth: bool = False                 # send "Authorization: Bearer {token}" (captured as "token")

    @field_validator("method", mode="before")
    @classmethod
    def _upper(cls, value):
        return value.upper() if isinstance(value, str) else value

    @field_validator("path")
    @classmethod
    def _absolute(cls, value: str) -> str:
        if not value.startswith("/"):
            raise ValueError(f"path {value!r} must start with '/'")
        return value

    @model_validator(mode="after")
    def _named(self) -> "Probe":
        if not self.name:
            self.name = f"{self.method} {self.path}"
        return self
