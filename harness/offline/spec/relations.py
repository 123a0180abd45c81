"""Parent/child relations between the request's entities (one parent per entity)."""

from __future__ import annotations

from harness.offline.spec import lexicon as lx
from harness.offline.spec.booking import find_booked_resources
from harness.offline.spec.entities import based_on_records
from harness.offline.spec.build import Parsed
from harness.offline.spec.pass_helpers import use as _use
from harness.offline.spec.pass_helpers import word as _word
from harness.offline.spec.tokens import Tok
from harness.offline.spec.wordsets import word_sets

WORDS = word_sets("relations")


def _mention_after(toks: list[Tok], j: int, mentions: dict[int, str]) -> str | None:
    while j < len(toks) and toks[j].w in lx.QUANTIFIERS:
        j += 1
    return mentions.get(j)


def _more_listed(toks: list[Tok], j: int, mentions: dict[int, str]) -> list[str]:
    """The records after the first in "has orders and invoices.": a plural list ending the clause."""
    while j < len(toks) and toks[j].w in lx.QUANTIFIERS:
        j += 1
    if j not in mentions or lx.singularize(toks[j].w) == toks[j].w:
        return []
    out, k = [], j + 1
    while _word(toks, k) in WORDS.list_glue and k + 1 in mentions and lx.singularize(toks[k + 1].w) != toks[k + 1].w:
        out.append(mentions[k + 1])
        k += 2
    return out if _word(toks, k) in (".", "", ";") else []


def find_relations(toks: list[Tok], mentions: dict[int, str], p: Parsed) -> None:
    """Record each entity's parent in `p.parents` from what the request says ("tasks in a project",
    "a comment belongs to a post", "assign an instructor to a course", "a project has tasks",
    booked resources, a field naming another entity), one parent per entity; conflicts go to
    `p.notes`; known pairs are implied only where nothing was said."""
    found: list[tuple[str | None, str | None, list[int]]] = []
    for i, name in mentions.items():
        w1, w2 = _word(toks, i + 1), _word(toks, i + 2)
        if w1 in WORDS.with_own and w2 in WORDS.owners:
            found.append((mentions.get(i + 3), name, [i + 1, i + 2]))
        if w1 in WORDS.inside or (
                w1 in WORDS.for_of and w2 in lx.DETERMINERS | WORDS.every and w2 not in WORDS.back_possessives):
            found.append((name, _mention_after(toks, i + 2, mentions), [i + 1, i + 2]))
        j = i + 1
        while _word(toks, j) in lx.FILLER:
            j += 1
        if _word(toks, j) in lx.BELONG and _word(toks, j + 1) in WORDS.belong_preps:
            found.append((name, _mention_after(toks, j + 2, mentions), list(range(i + 1, j + 2))))
        elif _word(toks, j) == "part" and _word(toks, j + 1) == "of":
            found.append((name, _mention_after(toks, j + 2, mentions), list(range(i + 1, j + 2))))
        elif (h := based_on_records(toks, i)) is not None:   # "transactions based on different categories"
            found.append((name, mentions.get(h), list(range(i + 1, h))))
        elif _word(toks, j) in lx.HAVE and _one_of(toks, i, j + 1, mentions):
            found.append((name, _mention_after(toks, j + 2, mentions), list(range(i + 1, j + 1))))
        elif _word(toks, j) in lx.HAVE:
            found.append((_mention_after(toks, j + 1, mentions), name, list(range(i + 1, j + 1))))
            found += [(other, name, []) for other in _more_listed(toks, j + 1, mentions)]
        if toks[i].w in lx.FEEDBACK_NOUNS and w1 in WORDS.feedback_preps:
            found.append((name, _mention_after(toks, i + 2, mentions), [i + 1] + _feedback_verb(toks, i)))
        k = i - 1
        while _word(toks, k) in lx.DETERMINERS and k > i - 3:   # "assign an instructor to a course"
            k -= 1
        if _word(toks, k) in WORDS.assign and _word(toks, i + 1) == "to":
            found.append((name, _mention_after(toks, i + 2, mentions), [k, i + 1]))
        if _word(toks, i - 1) == "its":   # "open a class: its students are listed" -> student in class
            found.append((name, _owner_before(toks, i - 1, mentions), [i - 1]))
    found += find_booked_resources(toks, mentions, p)
    found += _references(toks, mentions)
    for owner, child in p.listed_children:   # "Orders have: recipient, items, total": the order's items
        named = mentions.get(child) or lx.singularize(toks[child].w)
        found.append((named if named in p.plurals else None, mentions.get(owner), []))
    for name in p.entities:   # a field naming another entity is a relation ("tasks with a project")
        for item in p.fields.get(name, []):
            if item.label in p.plurals:
                found.append((name, item.label, []))
    for child, parent, used in found:
        if child is None or parent is None or child == parent:
            continue
        for k in used:
            if not toks[k].used or toks[k].role == "":
                _use(toks[k], f"relation:{child}")
        if child in p.parents:
            note = (f"{child} is also linked to {parent}; only one parent per entity is "
                    f"supported ({child} belongs to {p.parents[child]})")
        elif _is_ancestor(child, parent, p.parents):
            note = f"{child} cannot belong to {parent}: {parent} already belongs to {child}"
        else:
            p.parents[child] = parent
            p.relation_clauses.setdefault(child, toks[used[0]].clause if used else -1)
            continue
        if p.parents.get(child) != parent and note not in p.notes:
            p.notes.append(note)
    for parent, child in lx.KNOWN_PARENTS:   # implied pairs only where nothing was said
        if child in p.plurals and parent in p.plurals and child not in p.parents \
                and not _is_ancestor(child, parent, p.parents):
            p.parents[child] = parent


def _one_of(toks: list[Tok], i: int, j: int, mentions: dict[int, str]) -> bool:
    """ "loans have a tool, a member and a due date": each of the plural records (at i) has one of
    the singular record after "a" (at j) — it belongs to that record (the other way round from "a
    project has tasks")."""
    return (lx.singularize(toks[i].w) != toks[i].w and _word(toks, j) in WORDS.one and j + 1 in mentions
            and mentions[j + 1] != mentions[i] and lx.singularize(toks[j + 1].w) == toks[j + 1].w)


def _feedback_verb(toks: list[Tok], i: int) -> list[int]:
    """The verb a feedback record is left with ("leave", "write" before "comments"), as a list."""
    k = i - 1
    while k >= 0 and toks[k].w in lx.DETERMINERS and k > i - 3:
        k -= 1
    return [k] if k >= 0 and toks[k].w in lx.FEEDBACK_VERBS and toks[k].clause == toks[i].clause else []


_REFERENCE_SKIP = lx.DETERMINERS | WORDS.reference_skip


def _references(toks: list[Tok], mentions: dict[int, str]) -> list[tuple[str | None, str | None, list[int]]]:
    """ "this review should be saved ... with a reference to both the user and the book": the
    record named before "reference to" belongs to each record type after it (the user is the
    login's owner, which every record has)."""
    found = []
    for i, t in enumerate(toks):
        if t.w not in WORDS.reference or toks[i + 1:i + 2] == [] or toks[i + 1].w != "to":
            continue
        child = next((mentions[j] for j in range(i - 1, -1, -1) if j in mentions and toks[j].clause == t.clause), None)
        j = i + 2
        while j < len(toks) and toks[j].clause == t.clause and (toks[j].w in _REFERENCE_SKIP or j in mentions):
            if j in mentions:
                found.append((child, mentions[j], [i, i + 1]))
            j += 1
    return found


def _owner_before(toks: list[Tok], i: int, mentions: dict[int, str]) -> str | None:
    """The one entity named before "its" in the same clause (None when none or several)."""
    named = {mentions[j] for j in range(i) if j in mentions and toks[j].clause == toks[i].clause}
    return next(iter(named)) if len(named) == 1 else None


def _is_ancestor(node: str, of: str, parents: dict[str, str]) -> bool:
    cur: str | None = of
    for _ in range(len(parents) + 1):
        if cur == node:
            return True
        cur = parents.get(cur) if cur else None
    return False
