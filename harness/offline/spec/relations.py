"""Parent/child relations between the request's entities (one parent per entity)."""

from __future__ import annotations

from harness.offline.spec import lexicon as lx
from harness.offline.spec.booking import find_booked_resources
from harness.offline.spec.build import Parsed
from harness.offline.spec.pass_helpers import use as _use
from harness.offline.spec.tokens import Tok
from harness.offline.spec.wordsets import word_sets

WORDS = word_sets("relations")


def claim(toks: list[Tok], m, how: dict, p, mentions: dict[int, str]) -> None:
    """Action `relation` {"child": c, "parent": c2 or "sole_before", "used": c3, "more": c4} of the passes
    "relation phrases" and "relation verbs": the record c names belongs to the one c2 names ("sole_before":
    the one record named before the anchor in its clause, "a class: its students"), the words of c3 say
    so; so do the records of c4, said with no words of their own ("has orders and invoices.")."""
    if how["parent"] == "sole_before":
        named = {n for j, n in mentions.items() if j < m.anchor and toks[j].clause == toks[m.anchor].clause}
        parent = next(iter(named)) if len(named) == 1 else None
    else:
        parent = mentions.get(m.captures[how["parent"]][0])
    p.relation_claims.append((m.anchor, mentions.get(m.captures[how["child"]][0]), parent,
                              m.captures.get(how.get("used", ""), [])))
    p.relation_claims += [(m.anchor, mentions.get(x), parent, []) for x in m.captures.get(how.get("more", ""), [])]


def find_relations(toks: list[Tok], mentions: dict[int, str], p: Parsed) -> None:
    """Record each entity's parent in `p.parents` from what the request says ("tasks in a project",
    "a comment belongs to a post", "assign an instructor to a course", "a project has tasks",
    booked resources, a field naming another entity), one parent per entity; conflicts go to
    `p.notes`; known pairs are implied only where nothing was said."""
    # the rows of "relation phrases" and "relation verbs", in text order (the first pass's first)
    found = [(child, parent, used) for _at, child, parent, used in sorted(p.relation_claims, key=lambda c: c[0])]
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


def _is_ancestor(node: str, of: str, parents: dict[str, str]) -> bool:
    cur: str | None = of
    for _ in range(len(parents) + 1):
        if cur == node:
            return True
        cur = parents.get(cur) if cur else None
    return False
