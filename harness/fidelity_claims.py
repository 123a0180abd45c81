"""Over-claimed clauses for `builder bench --fidelity` (#48): a clause the run reports built
(`mapped`) although an expected item it names — an entity, or a field together with its record,
of the request's expectations — is missing from the spec. Counted beside false PASS; 0 is the bar."""

from __future__ import annotations

from harness.models.spec import AppSpec


def _stems(text: str) -> list[str]:
    from harness.offline.accounting.lexicon import stem, tokens

    return [stem(t) for t in tokens(text)]


def _names(clause_stems: list[str], item: str) -> bool:
    """Whether a clause names `item` (every word of it, as stems, in order and adjacent)."""
    want = _stems(item)
    n = len(want)
    return bool(want) and any(clause_stems[i:i + n] == want for i in range(len(clause_stems) - n + 1))


def over_claims(expected: dict, spec: AppSpec | None, missing_entities: list[str],
                missing_fields: list[tuple[str, str]]) -> list[str]:
    """'C-003 claims field "pages read" of reading session' for every mapped clause naming a
    missing expected entity or field."""
    if spec is None:
        return []
    out = []
    for c in spec.clauses:
        if c.status != "mapped":
            continue
        words = _stems(c.text)
        for name in missing_entities:
            if _names(words, name):
                out.append(f'{c.id} claims entity "{name}"')
        for entity, f in missing_fields:   # a field is the clause's item when it names its record too
            if _names(words, f) and _names(words, entity):
                out.append(f'{c.id} claims field "{f}" of {entity}')
    return out
