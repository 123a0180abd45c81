"""A word for "the record of" after a record type: "book listings", "job listings", "book records".

"I want to create a book listing on my account with a title, author, genre and ISBN number" asks for
books; the head noun made a second `listing` record type with an invented name, and the clause's
fields, which the book has, were reported as words no rule understood. When every mention of such
an entity comes right after a mention of another record type, it is that record type: its mentions
become the other's, its fields move over, and the words of those clauses that name the other
record's fields are its fields.
"""

from __future__ import annotations

from harness.offline.spec import lexicon as lx
from harness.offline.spec import lexicon_roles as rl
from harness.offline.spec.pass_helpers import forget_records
from harness.offline.spec.tokens import Tok
from harness.offline.spec.wordsets import word_sets

WORDS = word_sets("record_words")

RECORD_WORDS = WORDS.record_words


_NOT_OWNERS = lx.FUNCTION | lx.DETERMINERS | lx.QUANTIFIERS | lx.ADJECTIVES | lx.META | lx.AUTH


def _owner_word(toks: list[Tok], i: int, name: str) -> str | None:
    """The record type named right before the record word at i ("book" in "book listings")."""
    if i == 0 or toks[i - 1].clause != toks[i].clause:
        return None
    before = toks[i - 1]
    if before.role == f"entity:{name}":   # read as the compound's modifier ("job listings" -> listing)
        return lx.singularize(before.w) if before.w.isalpha() and before.w not in _NOT_OWNERS else None
    if not before.w.isalpha() or before.w in _NOT_OWNERS or before.used and not before.role.startswith("entity:"):
        return None
    if rl.is_supported_verb(before.w) and not before.role.startswith("entity:"):
        # "Track listings" is a verb; "create book listings", "a book listing" a noun
        two = toks[i - 2] if i >= 2 and toks[i - 2].clause == before.clause else None
        if two is None or not (two.w in lx.DETERMINERS | lx.QUANTIFIERS | WORDS.noun_before or rl.is_supported_verb(two.w)):
            return None
    return before.role[7:] if before.role.startswith("entity:") else lx.singularize(before.w)


def merge_record_word_entities(toks: list[Tok], mentions: dict[int, str], p) -> None:
    for name in [e for e in p.entities if e in RECORD_WORDS]:
        spots = [i for i, n in mentions.items() if n == name]
        # "an equipment item ... the fee for each item": a mention after a determiner points back
        owners = {_owner_word(toks, i, name) for i in spots if not (i and toks[i - 1].w in WORDS.back_references)} or {None}
        if not spots or len(owners) != 1 or None in owners or name in p.parents or name in p.parents.values():
            continue
        owner = owners.pop()
        if owner == name:
            continue
        _merge_into(toks, mentions, p, name, owner, spots)
        for i in spots:
            toks[i - 1].used, toks[i - 1].role = True, f"entity:{owner}"




def merge_collection_compounds(toks: list[Tok], mentions: dict[int, str], p) -> None:
    """ "view their inventory items" beside "add items to their inventory": a compound whose
    modifier names the app's collection ("inventory", "catalog", "list") and whose head is another
    record type of the parse is that record type, not a second record with an invented name."""
    for name in [e for e in p.entities if " " in e]:
        first, head = name.split()[0], name.split()[-1]
        if first not in WORDS.collection_modifiers or head == name or head not in p.entities:
            continue
        if name in p.parents or name in p.parents.values():
            continue
        _merge_into(toks, mentions, p, name, head, [i for i, n in mentions.items() if n == name])


def _merge_into(toks: list[Tok], mentions: dict[int, str], p, name: str, owner: str, spots: list[int]) -> None:
    """The entity `name` becomes `owner`: its mentions, fields and rules move over."""
    at = p.entities.index(name)
    p.entities.remove(name)
    if owner not in p.entities:   # "job listings": the record type is the job
        p.entities.insert(at, owner)
        p.plurals[owner] = lx.pluralize(owner)
        if name in p.entity_rules:
            p.entity_rules[owner] = p.entity_rules[name]
    p.plurals.pop(name, None)
    p.entity_rules.pop(name, None)
    moved = p.fields.pop(name, [])
    have = {it.label for it in p.fields.get(owner, [])}
    p.fields.setdefault(owner, []).extend(it for it in moved if it.label not in have)
    labels = {lx.singularize(it.label) for it in p.fields.get(owner, []) if len(it.words) == 1}
    clauses = {toks[i].clause for i in spots}
    for i in spots:
        mentions[i] = owner
    for t in toks:
        if t.role == f"entity:{name}":
            t.role = f"entity:{owner}"
        elif t.clause in clauses and not t.used and lx.singularize(t.w) in labels:
            t.used, t.role = True, f"field:{owner}"


ACTOR_MODIFIERS = WORDS.actor_modifiers


def drop_actor_entities(toks: list[Tok], mentions: dict[int, str], p) -> None:
    """ "Staff members can add new books", "a staff member schedules the meeting": who may act, a
    role the generated app does not have, not a record type (a `member` CRUD nobody asked for made
    the staff-only clauses look built). A member entity every mention of which follows "staff" is
    dropped; "staff" stays a word no rule understands, so those clauses are reported not built."""
    for name in [e for e in p.entities if e in WORDS.actor_heads]:
        spots = [i for i, n in mentions.items() if n == name]
        if not spots or not all(i > 0 and toks[i - 1].w in ACTOR_MODIFIERS for i in spots):
            continue
        if name in p.parents.values():
            continue
        forget_records(p, [name], mentions)
        for t in toks:
            if t.role == f"entity:{name}" or t.role == f"field:{name}" or t.role == f"relation:{name}":
                t.used, t.role = (True, "context") if lx.singularize(t.w) == name else (False, "")
