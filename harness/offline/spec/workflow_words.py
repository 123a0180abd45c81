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
from harness.offline.spec.fields import FieldItem
from harness.offline.spec.tokens import Tok
from harness.offline.spec.wordsets import word_set

_STATUS_WORDS = lx.STATUS_WORDS
_EITHER_VERBS = word_set("workflow_words.either_verbs")
_NAMED_STATES = word_set("workflow_words.named_states")
_VALUE_LIST_WORDS = word_set("workflow_words.value_list_words")


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
        elif t.w in _VALUE_LIST_WORDS and _word(toks, i + 1) == ":" and not t.used:
            values, end = read_enum(toks, i + 1)   # "... can have the values: a, b and c"
            if len(values) >= 2:
                for k in range(i, end):
                    _use(toks[k], "field:")
                out.append((i, values))   # attach_state_values gives them their record
        elif t.w == "either" and _word(toks, i - 1) in _EITHER_VERBS and not t.used:
            values, end = read_enum(toks, i)   # "bookings are either confirmed or cancelled"
            if len(values) >= 2 and all(" " not in v and (v.endswith("ed") or v in _NAMED_STATES)
                                        for v in values):
                for k in range(i, end):
                    _use(toks[k], "workflow:")
                out.append((i, values))
    return out


def _state_column(toks: list[Tok], i: int, mentions: dict[int, str], p: Parsed) -> tuple[str, str] | None:
    """(record, status word) a value list's clause names: "appointment_state", "appointment status",
    or a status word next to a record."""
    clause = [k for k, t in enumerate(toks) if t.clause == toks[i].clause]
    for k in clause:
        head, _, tail = toks[k].w.rpartition("_")
        if tail in _STATUS_WORDS and head in p.plurals:
            return head, tail
        if toks[k].w in _STATUS_WORDS and (k - 1) in mentions:
            return mentions[k - 1], toks[k].w
    return None


def attach_state_values(toks: list[Tok], mentions: dict[int, str], status_enums: list, p: Parsed) -> None:
    """ "The property "name" in the table "appointment_state" can have the values: "Pending",
    "Processed" and "Canceled"": the values are the states of that record's state column (an enum:
    a set of values, no order is said), in a clause that names a record's state (trial I3); in a
    clause that names none the values stay unused (not understood)."""
    for i, values in status_enums:
        if toks[i].w not in _VALUE_LIST_WORDS:
            continue
        end = next(k for k in range(i + 2, len(toks) + 1) if k == len(toks) or toks[k].role != "field:")
        named = _state_column(toks, i, mentions, p)
        if named is None:
            for k in range(i, end):
                toks[k].used, toks[k].role = False, ""
            continue
        record, status_word = named
        items = p.fields.setdefault(record, [])
        item = next((it for it in items if len(it.words) == 1 and it.words[0] in _STATUS_WORDS), None)
        if item is None:
            item = FieldItem(words=[status_word])
            items.append(item)
        item.enum_values = values
        for k in range(i, end):
            _use(toks[k], f"field:{record}")



def attach_workflows(toks: list[Tok], mentions: dict[int, str], status_enums: list, p: Parsed) -> None:
    for i, values in status_enums:
        if toks[i].w in _VALUE_LIST_WORDS:
            continue   # a value list: attach_state_values
        entity = _nearest(toks, i, mentions, reach=20)
        if entity:
            p.workflows.setdefault(entity, values)
            for t in toks:
                if t.clause == toks[i].clause and t.role == "workflow:":
                    t.role = f"workflow:{entity}"
    for entity, states in find_workflow_chains(toks, mentions):
        p.workflows.setdefault(entity, states)
