"""A record no word of the request introduces leaves the spec (#48, stranger trial 2026-12-07e
R2/R7; docs/accounting.md "A record must be introduced").

The word accounting (`accounting/introduced.py`) finds the records named only where a request
introduces no managed thing — a story's purpose ("so I can log the number of reps"), a measure, the
subject of a problem statement ("mechanics have a difficult time …") — and leaves their words
unaccounted. Like access asked only by a not-built clause (unbuilt_access.py), such a record is
then taken out of the parse and the spec is built again: before, each one carried a PASSing
create/list/update/delete requirement nobody asked for. Every clause that names it says
`left out: record rep (named only as …)`, and the draft shows it under the clause.
"""

from __future__ import annotations

import copy

from harness.errors import SpecError
from harness.models.spec import AppSpec
from harness.offline.accounting.lexicon import stem, tokens
from harness.offline.spec.pass_helpers import forget_records
from harness.offline.spec.unbuilt_access import LEFT_OUT


def invented_names(spec: AppSpec, invented: dict[str, str]) -> dict[str, str]:
    """record name (the parse's key) -> why, for the record idents `invented`."""
    return {e.name: invented[e.ident] for e in spec.data_model if e.ident in invented}


def without_records(p, names: dict[str, str]):
    """A copy of the parse without those records (and what hangs on them)."""
    q = copy.deepcopy(p)
    forget_records(q, names)
    if not q.entities:
        from harness.offline.spec.rules import NO_ENTITY_MESSAGE

        err = SpecError(NO_ENTITY_MESSAGE + "; " + "; ".join(_note(n, why) for n, why in names.items()))
        err.clauses = list(p.clauses)   # the draft of a run that stops here still lists them
        raise err
    return q


def _note(name: str, why: str) -> str:
    return f"{LEFT_OUT}record {name} (named only as {why})"


def note_invented(spec: AppSpec, names: dict[str, str]) -> AppSpec:
    """Each clause naming a left-out record that is not built says so in its reason (a built clause
    named it where it asks for nothing: as its actor, in its purpose)."""
    for name, why in names.items():
        stems = {stem(t.lower()) for t in tokens(name)}
        for c in spec.clauses:
            if c.status == "not_built" and stems & {stem(t.lower()) for t in tokens(c.text)}:
                c.reason = "; ".join(x for x in (c.reason, _note(name, why)) if x)
    return spec
