"""A record named inside a clause about another record asks for a relation between the two, in the
direction the words say (#48, stranger trial 2026-12-07f O3/O4/O5).

The crud words ("choose", "select", "pick") and the record names were credited by the records
merely existing, so "choose one of the hairstylists" was reported built with nothing referring to a
hairstylist, "a hairstylist for each appointment" over a hairstylist belonging to one appointment
(the relation backwards), "Owner has …, pets" with no link between owners and pets and "I can add
their schedule" over a schedule tied to nothing. Now (words in `words/relation_asks_en.txt`):

- **choose X for (each) Y** is realised only when Y refers to X (Y's reference field or parent);
  **choose (one of the) X** without Y only when another record of the clause — or, when the
  clause names no other, of the spec — refers to X. Else the verb and X are unaccounted. A purpose
  after X ("select a task to view it") asks for no relation;
- **S has/have/includes … X** (S a record right before the verb, X a record in what follows):
  several X ("pets", "many pets") is realised only when X refers to S, one X ("a veterinarian")
  only when S refers to X; else X is unaccounted. "pet name" of a visit (a field of S whose name
  holds the record word) is the field, not the record;
- a record word right before another content word (no comma between; not a record, not a function
  word) names the kind of that word, not the record: "selecting the customer type", "a vaccine
  history (vaccine type, …)", "vaccine records" ask for no relation of their own; but before a field
  of that record ("Post contains: Client name": the client's name) it names the record;
- **X that/who <verb>** inside a clause about another record ("an expense with … the person that
  paid", "a booking … and the member who made it"): the relative clause says the role of X for the
  other record, realised by that record referring to X (its parent or reference field); else its
  words stay unaccounted (stranger trial 2026-12-07i O4: "person paid" was a yes/no field);
- **S belongs to X and Y** (stranger trial 2026-12-07i O5): every record of the list after the
  belong verb is realised only when S refers to it (its parent or a reference field); else it is
  unaccounted. Before, "Each grade belongs to a student and a class" was reported built over a grade
  whose parent was the student and which had no link to the class, credited because another clause
  made a class record;
- **their/its X** said by the speaker ("I can add their schedule") with no record before it in the
  clause: X belongs to records named elsewhere, so X must refer to another record; else X is
  unaccounted. "Users can edit their tasks" (people own them) is the login's, not this rule's.

A many-to-many link counts both ways. Reads the clause's words and the spec's words only.
"""

from __future__ import annotations

from harness.offline.accounting.clause_records import entity_at
from harness.offline.accounting.elements import SpecWords
from harness.offline.accounting.lexicon import keyed_words, stem

_LIST = "relation_asks_en.txt"


def relation_asks(toks: list[str], gaps: list[str], labels: list[str | None], sw: SpecWords) -> None:
    """Unaccount (in place) the record words whose relation the spec lacks; `gaps`: the text before
    each word (token_gaps)."""
    low = [t.lower().replace("’", "'") for t in toks]
    recs = {i: e for i in range(len(toks)) if (labels[i] or "").startswith("entity ")
            and (e := entity_at(toks, i, sw))}
    words = keyed_words(_LIST)
    named = {k: e for k, e in recs.items() if not _modifier(low, gaps, labels, k)}   # the records as objects
    _choose(low, labels, sw, recs, named, words)
    _have(low, labels, sw, recs, named, words)
    _possessed(low, labels, sw, recs, words)
    _belongs_to(low, labels, sw, recs, words)
    _relative(low, gaps, labels, sw, recs, words)
    _record_verb(low, gaps, labels, sw, recs, named, words)
    _membership(low, labels, sw, recs, named, words)


def _record_verb(low, gaps: list[str], labels, sw: SpecWords, recs: dict[int, str], named: dict[int, str],
                 words) -> None:
    """ "Guests book rooms": a verb whose record (book -> booking) takes another record as its object
    asks that the record refer to it (trial j F1: a booking with no room was reported built). Not a
    record's own name in a list ("an app for books, members and loans": the books are the records)."""
    for v, word in enumerate(low):
        made = recs.get(v)
        if made is None or not _is(word, words, "record_verbs") or (v and _is(low[v - 1], words, "object_skips")):
            continue
        if made in (word, word[:-1], word[:-2]) or (v + 1 < len(gaps) and "," in gaps[v + 1]):
            continue
        k = v + 1
        while k < len(low) and _is(low[k], words, "object_skips"):
            k += 1
        obj = named.get(k)
        if obj is not None and obj != made and not sw.refers(made, obj):
            labels[v] = labels[k] = None


def _membership(low, labels, sw: SpecWords, recs: dict[int, str], named: dict[int, str], words) -> None:
    """ "add or remove songs from an existing playlist", "add songs to playlists": a membership,
    realised only by a many-to-many link of the two records (trial j F3/O1: a song belonging to one
    playlist, or to an album and no playlist, was reported built)."""
    for v, word in enumerate(low):
        if not _is(word, words, "member_verbs") or labels[v] is None:
            continue
        verbs = [v]
        k = v + 1
        while k < len(low) and (_is(low[k], words, "member_verbs") or _is(low[k], words, "list_glue")
                                or _is(low[k], words, "object_skips")):
            if _is(low[k], words, "member_verbs"):
                verbs.append(k)
            k += 1
        item = named.get(k)
        if item is None or k + 1 >= len(low) or not _is(low[k + 1], words, "member_preps"):
            continue
        j = k + 2
        while j < len(low) and (_is(low[j], words, "object_skips") or _is(low[j], words, "member_holder_skips")):
            j += 1
        holder = named.get(j)
        owned = _is(low[k], words, "member_owned") or not (
            any(_is(low[i], words, "member_removals") for i in verbs) or _is(low[j], words, "member_collections"))
        if holder is None or holder == item or (sw.refers(item, holder) and sw.refers(holder, item)) or (
                owned and sw.refers(item, holder)):
            continue
        for i in (*verbs, j):
            labels[i] = None


def _belongs_to(low: list[str], labels: list[str | None], sw: SpecWords, recs: dict[int, str], words) -> None:
    """ "Each grade belongs to a student and a class": every listed record needs the subject's link."""
    for k in range(1, len(low) - 1):
        if stem(low[k]) not in words["belong_verbs"] or low[k + 1] not in words["belong_preps"]:
            continue
        subject = next((recs[j] for j in range(k - 1, -1, -1) if j in recs), None)
        if subject is None:
            continue
        j = k + 2
        while j < len(low) and (j in recs or low[j] in words["object_skips"] or low[j] in words["list_glue"]):
            if j in recs and recs[j] != subject and not sw.refers(subject, recs[j]):
                labels[j] = None
            j += 1


def _modifier(low: list[str], gaps: list[str], labels: list[str | None], k: int) -> bool:
    """The record word at k names the kind of the next word ("customer type", "vaccine history",
    "a field "pet name""), not the record; a field of the record itself said with its name ("Client
    name": the client's name) still names the record."""
    if k + 1 >= len(low) or gaps[k + 1].strip():
        return False
    nxt = labels[k + 1] or ""
    if nxt.startswith(("entity ", "function word")):
        return False
    own_field = nxt.startswith("field ") and stem(low[k]) not in {
        stem(w) for w in nxt.partition(".")[2].lower().split()}
    return not own_field


def _is(word: str, words: dict[str, frozenset[str]], key: str) -> bool:
    return stem(word) in words.get(key, frozenset())


def _choose(low, labels, sw: SpecWords, recs: dict[int, str], named: dict[int, str], words) -> None:
    for v, word in enumerate(low):
        if not _is(word, words, "choose_verbs") or labels[v] is None:
            continue
        k = v + 1
        while k < len(low) and _is(low[k], words, "object_skips"):
            k += 1
        picked = named.get(k)
        if picked is None or (
                k + 1 < len(low) and _is(low[k + 1], words, "purpose_words") and not _for_record(low, k + 1, recs, words)):
            continue
        target = _for_record(low, k + 1, recs, words)
        if target is not None:
            ok = sw.refers(target, picked)
        else:
            others = {e for e in recs.values() if e != picked} or set(sw.entity_of.values()) - {picked}
            ok = any(sw.refers(o, picked) for o in others)
        if not ok:
            labels[v] = labels[k] = None


def _for_record(low, j: int, recs: dict[int, str], words) -> str | None:
    """The record after "for (each)" at j ("… for each appointment"), or None."""
    if j >= len(low) or not _is(low[j], words, "for_words"):
        return None
    j += 1
    while j < len(low) and _is(low[j], words, "object_skips"):
        j += 1
    return recs.get(j)


def _have(low, labels, sw: SpecWords, recs: dict[int, str], named: dict[int, str], words) -> None:
    verbs = [h for h, word in enumerate(low) if _is(word, words, "have_verbs")]
    for n, h in enumerate(verbs):
        k = h - 1
        while k >= 0 and _is(low[k], words, "before_have"):
            k -= 1
        owner = recs.get(k)
        if owner is None:
            continue
        end = verbs[n + 1] if n + 1 < len(verbs) else len(low)
        for i in range(h + 1, end):
            item = named.get(i)
            if item is None or item == owner or labels[i] is None or _field_of(low, i, owner, sw):
                continue
            several = _is(low[i - 1], words, "many_words") or _plural(low[i], labels[i] or "")
            if not (sw.refers(item, owner) if several else sw.refers(owner, item)):
                labels[i] = None


def _field_of(low, i: int, owner: str, sw: SpecWords) -> bool:
    """ "pet name" of a visit: a field of the record that has it, whose name holds both words."""
    nxt = stem(low[i + 1]) if i + 1 < len(low) else ""
    return any(ent == owner and {stem(low[i]), nxt} <= names for _l, ent, names in sw.owned.get(nxt, []))


def _plural(word: str, label: str) -> bool:
    """A record word other than its record's singular name ("pets", "people")."""
    name = label.lower().removeprefix("entity ").split()
    return bool(name) and word.removesuffix("'s").removesuffix("'") not in name


def _possessed(low, labels, sw: SpecWords, recs: dict[int, str], words) -> None:
    first = min(recs, default=len(low))
    for i, rec in recs.items():
        if i != first or not i or not _is(low[i - 1], words, "possessives") or labels[i] is None:
            continue
        if not any(_is(w, words, "speaker_words") for w in low[:i - 1]):
            continue
        if not any(sw.refers(rec, other) for other in set(sw.entity_of.values()) - {rec}):
            labels[i] = None


def _relative(low, gaps: list[str], labels, sw: SpecWords, recs: dict[int, str], words) -> None:
    """Credit the words of "X that/who <verb> (it)" to the link from another record of the clause to X."""
    for k, rec in recs.items():
        if k + 2 >= len(low) or not _is(low[k + 1], words, "relative_pronouns") or labels[k] is None:
            continue
        if not any(sw.refers(other, rec) for other in set(recs.values()) - {rec}):
            continue
        j = k + 2
        while j < len(low) and not any(c in gaps[j] for c in ",;.:()") and not _is(low[j], words, "list_glue"):
            if labels[j] is None:
                labels[j] = labels[k]
            j += 1
