"""Access that only a not-built clause asked for is not built either (stranger trial 2026-12-07e,
R4): "The Teacher should be able to view the attendance of all the students" was reported not
built, yet its words made attendance `shared = true` — every student saw every attendance, the
build said a PASSing "Every signed-in user sees all attendances", and a user who deleted the
not-built line from the draft (as the draft invites) kept the sharing.

Every access key the pattern rows set remembers the clauses that asked it (`Parsed.asked_in`). Once
the spec is word-accounted, a `shared` all of whose clauses are not built leaves the parse and the
spec is built again: the sharing the app has belongs to a built clause. Each such clause's reason
says what was left out (`left out: shared = true on attendances …`; the draft shows it under the
clause), so a user who fixes the clause can write it back. The keys that restrict (`manage`, a
`view` role the admin hands out, `assigned_to`) fail closed and stay.
"""

from __future__ import annotations

import copy

from harness.models.spec import AppSpec

WIDENING = ("shared", "public")   # access that lets more people see records than their creator
_WRITTEN = {"shared": ("shared = true", "every account would see every one"),
            "public": ('read = "public"', "anyone would read them without an account")}
LEFT_OUT = "left out: "


def unbuilt_asks(p, spec: AppSpec) -> list[tuple[str, str]]:
    """The (record, access key) entries every clause of which the spec reports not built."""
    status = {n: c.status for n, c in enumerate(spec.clauses)}
    return [key for key, clauses in p.asked_in.items() if key[1] in WIDENING
            and clauses and all(status.get(n) == "not_built" for n in clauses)]


def without(p, asks: list[tuple[str, str]]):
    """A copy of the parse without those access keys."""
    q = copy.deepcopy(p)
    for record, key in asks:
        q.access.get(record, {}).pop(key, None)
        q.asked_in.pop((record, key), None)
    return q


def note_left_out(p, spec: AppSpec, asks: list[tuple[str, str]]) -> AppSpec:
    """Each not-built clause that asked a dropped key says so in its reason (the draft shows it)."""
    plural = {e.name: e.plural for e in spec.data_model}
    for record, key in asks:
        for n in sorted(p.asked_in.get((record, key), ())):
            if n < len(spec.clauses):
                c = spec.clauses[n]
                written, meaning = _WRITTEN[key]
                c.reason = "; ".join(x for x in (c.reason, f"{LEFT_OUT}{written} on {plural.get(record, record)} "
                                                 f"({meaning}), asked only by this clause")
                                     if x)
    return spec
