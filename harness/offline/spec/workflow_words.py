"""Workflows: "status: draft / submitted / approved" (ordered states), attached to the record
nearest to it. Completion words ("mark as done") and cancelling ("book or cancel") are the table
passes "completion status" and "cancel status" (patterns/features.jsonl)."""

from __future__ import annotations

from harness.offline.spec import lexicon as lx
from harness.offline.spec.build import Parsed
from harness.offline.spec.features import find_workflow_chains
from harness.offline.spec.fields import read_enum
from harness.offline.spec.pass_helpers import nearest as _nearest
from harness.offline.spec.pass_helpers import use as _use
from harness.offline.spec.pass_helpers import word as _word
from harness.offline.spec.tokens import Tok

_STATUS_WORDS = lx.STATUS_WORDS


def find_status_enums(toks: list[Tok]) -> list[tuple[int, list[str]]]:
    """ "status: draft / submitted / approved", "state (open, closed)": ordered states."""
    out = []
    for i, t in enumerate(toks):
        if t.w in _STATUS_WORDS and _word(toks, i + 1) in ("(", ":") and not t.used:
            values, end = read_enum(toks, i + 1)
            if values:
                for k in range(i, end):
                    _use(toks[k], "workflow:")
                out.append((i, values))
    return out



def attach_workflows(toks: list[Tok], mentions: dict[int, str], status_enums: list, p: Parsed) -> None:
    for i, values in status_enums:
        entity = _nearest(toks, i, mentions, reach=20)
        if entity:
            p.workflows.setdefault(entity, values)
            for t in toks:
                if t.clause == toks[i].clause and t.role == "workflow:":
                    t.role = f"workflow:{entity}"
    for entity, states in find_workflow_chains(toks, mentions):
        p.workflows.setdefault(entity, states)
