"""Two records of a finished spec that may be one thing (#48, trial D6): "vehicles" in one sentence
and "car" in another made a `vehicle` and an unlinked `car` record, and "Each car has a plate number"
was reported built on a record the user did not mean. No merge is guessed: the word accounting
leaves the noun the request names later unaccounted wherever it names its record, and the reason and
the draft say which record it may be. Reads the spec and its clause texts only."""

from __future__ import annotations

from harness.offline.accounting.lexicon import stem, tokens, word_groups
from harness.models.spec import AppSpec

_GROUPS = "same_records_en.txt"


def later_names(spec: AppSpec) -> dict[str, str]:
    """record ident -> the name of the record it may be the same as: two one-word records of one
    group of same_records_en.txt with no link between them (parent, reference, many-to-many); the
    key is the one the request names later."""
    ents = [e for e in spec.data_model if len(tokens(e.name)) == 1]
    if len(ents) < 2:
        return {}
    links = {frozenset((e.ident, e.parent)) for e in spec.data_model if e.parent}
    links |= {frozenset((e.ident, f.ref)) for e in spec.data_model for f in e.fields if f.ref}
    links |= {frozenset((e.ident, other)) for e in spec.data_model for other in e.many}
    said = [stem(t.lower()) for c in spec.clauses for t in tokens(c.text)]

    def first(e) -> int:
        names = {stem(e.name.lower()), stem(e.plural.lower())}
        return next((k for k, s in enumerate(said) if s in names), len(said))

    out: dict[str, str] = {}
    for group in word_groups(_GROUPS):
        inside = sorted((e for e in ents if stem(e.name.lower()) in group), key=first)
        for k, later in enumerate(inside[1:], 1):
            earlier = next((e for e in inside[:k] if frozenset((e.ident, later.ident)) not in links), None)
            if earlier is not None and later.ident not in out:
                out[later.ident] = earlier.name
    return out


def same_record_notes(spec: AppSpec) -> dict[str, str]:
    """word stem of a record `later_names` flags -> ' (may be the same record as <name>)'."""
    by_ident = {e.ident: e for e in spec.data_model}
    out = {}
    for ident, other in later_names(spec).items():
        e = by_ident[ident]
        for name in (e.name, e.plural):
            out[stem(name.lower())] = f" (may be the same record as {other})"
    return out


def noted(phrase: str, notes: dict[str, str]) -> str:
    """The note of the first word of `phrase` that names a flagged record, or ""."""
    return next((notes[s] for s in (stem(t.lower()) for t in tokens(phrase)) if s in notes), "")
