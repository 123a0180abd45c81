"""Which words of a request introduce the records of its spec (docs/accounting.md "A record must be
introduced"; the rule and its word lists are in introduced.py). `records_not_introduced` finds the
records named only where no managed thing is introduced; apply.py leaves their words unaccounted and
offline/spec builds the spec again without them. Reads the clause texts and the finished spec only."""

from __future__ import annotations

from harness.offline.accounting import context as bg
from harness.offline.accounting.account import _inline_label, clause_labels
from harness.offline.accounting.story_parts import ACTOR, NEGATED, PURPOSE, SELF_INTRO, story_parts
from harness.offline.accounting.elements import spec_words
from harness.offline.accounting.introduced import (_CUT, _DETS, _FILE, EXAMPLE, HEADING, MEASURE, PROBLEM, _phrases,
                                                   problem_spans)
from harness.offline.accounting.lexicon import closed, example_indices, is_vietnamese, keyed_words, stem, token_gaps, tokens
from harness.offline.accounting.role_rights import subject_spans
from harness.models.spec import AppSpec


def _measured(low: list[str], i: int) -> bool:
    """ "the number of reps", "the amount of water": the word right after "<measure> of" is what is
    counted; "the amount of each expense" names the expense's amount (a determiner: a record)."""
    return i >= 2 and low[i - 1] == "of" and stem(low[i - 2]) in _phrases()[0]


def _problem_subjects(low: list[str], gaps: list[str]) -> set[int]:
    """The words between the clause start (or the last comma) and a problem phrase."""
    out: set[int] = set()
    for a, _b in problem_spans(low):
        k = a
        while k > 0 and not any(ch in gaps[k] for ch in _CUT):
            k -= 1
        out |= set(range(k, a))
    return out


def _acts(word: str) -> bool:
    """Whether a heading's first word after the colon is a verb (who acts) or an -ly adverb."""
    verbs = keyed_words(_FILE).get("label_verbs", frozenset()) | keyed_words("framing_position_en.txt")["object_verbs"]
    return stem(word) in verbs or word.endswith("ly") and len(word) > 4


def _acting(low: list[str], k: int) -> bool:
    """Whether the subject of the modal before `k` acts ("can add", "should be able to"), rather
    than holding something or having something done to it ("must have a name", "can be listed")."""
    while k < len(low) and low[k] in closed("introduction adverbs"):
        k += 1
    if k >= len(low):
        return False
    return low[k] not in _phrases()[2] or low[k] == "be" and k + 1 < len(low) and low[k + 1] == "able"


def positions(text: str, sw) -> dict[int, str]:
    """Token index -> why the word there introduces no managed thing."""
    toks = tokens(text)
    low = [t.lower().replace("’", "'") for t in toks]
    gaps = _gaps(text, len(toks))
    story = story_parts(toks)
    actors = {i for span, start in subject_spans(low, _DETS) if _acting(low, start) for i in span}
    parts, _whole = bg.background(text, sw)
    out: dict[int, str] = {}
    for i in range(len(toks)):
        why = story.get(i) if story.get(i) in (PURPOSE, SELF_INTRO, NEGATED) else None
        why = why or (ACTOR if i in actors else None)
        why = why or parts[i] or (MEASURE if _measured(low, i) else None)
        if why:
            out[i] = why
    out.update({i: PROBLEM for i in _problem_subjects(low, gaps) if i not in out})
    out.update({i: EXAMPLE for i in example_indices(text) if i not in out})
    n = _inline_label(text)
    if n and n < len(low) and _acts(low[n]):   # "Mechanics: figure out …": who acts, no record
        out.update({i: HEADING for i in range(n) if i not in out})
    return out


def _gaps(text: str, n: int) -> list[str]:
    gaps = token_gaps(text)
    return gaps if len(gaps) == n else [" "] * n


def records_not_introduced(spec: AppSpec, sw=None) -> dict[str, str]:
    """record ident -> why none of its words introduces it (the place its first word stands), for
    every record named in the request only where no managed thing is introduced. A record the
    clauses never name, and any record of a Vietnamese request, is not judged here."""
    if spec.language == "vi" or not spec.data_model:
        return {}
    sw = sw or spec_words(spec)
    named: dict[str, str] = {}
    introduced: set[str] = set()
    for c in spec.clauses:
        if is_vietnamese(c.text):
            return {}
        where = positions(c.text, sw)
        toks = tokens(c.text)
        labels = clause_labels(c.text, spec, sw)
        for i, tok in enumerate(toks):
            ent = sw.entity_of.get(stem(tok.lower()))
            if ent is None or not sw.by_stem.get(stem(tok.lower()), "").startswith("entity "):
                continue
            if i in where:
                named.setdefault(ent, where[i])
            elif labels[i] == sw.by_stem[stem(tok.lower())]:   # unaccounted there: it judges nothing
                introduced.add(ent)
    return {ident: why for ident, why in named.items() if ident not in introduced}
