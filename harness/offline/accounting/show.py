"""The word accounting as people read it: `builder status`, `--json` and the report show every
clause (none cut), what realises each of its words, and what was not understood."""

from __future__ import annotations

from harness.offline.accounting.account import FRAMING, FUNCTION
from harness.offline.accounting.context import KINDS
from harness.models.spec import Clause

_QUIET = (FUNCTION, FRAMING, *KINDS)


def run_clauses(store, state) -> list[Clause]:
    """The run's clauses: spec.json's, or clauses.json when the spec stage stopped."""
    if state.spec is not None:
        return list(state.spec.clauses)
    raw = store.read_artifact(state.run_id, "clauses") or []
    return [Clause.model_validate(c) for c in raw if isinstance(c, dict)]


def realised(c: Clause) -> str:
    """ "game → entity game; 5 → bound book.rating 1..5" (function and framing words left out)."""
    return "; ".join(f"{w} → {label}" for w, label in c.words.items() if label not in _QUIET)


def clause_lines(clauses: list[Clause]) -> list[str]:
    out = []
    for c in clauses:
        out.append(f'  {c.id} {c.status:<9} "{c.text}"')
        if c.unaccounted:
            out.append("      not understood: " + ", ".join(f'"{w}"' for w in c.unaccounted))
        elif c.status == "not_built" and c.reason:
            out.append(f"      not built: {c.reason}")
        elif c.status == "context" and c.reason.startswith("set aside"):
            out.append(f"      {c.reason} (nothing is built for it; if it asks something, say so in the draft)")
        if realised(c):
            out.append(f"      realised: {realised(c)}")
    return out
