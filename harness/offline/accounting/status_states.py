"""A status the request names no states for (acct48 D2; stranger trial 2026-12-07e F2/M1).

"Users can create tickets with a title and a status", "I want to update the status of my plant":
the parser gives such a record the generated open → done status, and the clause was reported built
— with a requirement "Users can mark a plant as done" nobody asked for (a false BUILD COMPLETE in
the trial), or an over-claim when the states the user wanted (growing, dying …) were in another
clause. Open/done is a guess, so it realises nothing: when every status of the spec is that
generated one (`has_status`, no workflow) and no clause of the request says a state of it
(`done`, `complete`, `finished`, `checked` … — the `status` words of elements_en.txt but the
status nouns and `mark`), the status words of a clause ("status", "state") are unaccounted:
`not built: "status"`. The user names the states in the draft (`workflow = [...]`).

A status asked again each day ("mark habits as completed for the day", "tick off today's chores",
stranger trial 2026-12-07i O1): one open/done flag on the habit is done once and stays done, so the
day words (`per day` classes of accounting_closed_en.txt) are realised only when a record with a
status is one row of another per day (a child record with a date: a habit's log); else they are
unaccounted and the clause is not built, naming them.
"""

from __future__ import annotations

from harness.models.spec import AppSpec
from harness.offline.accounting.lexicon import closed, closed_stems, element_words, stem, tokens

_NOUNS = closed_stems("status nouns")
_NOT_STATES = _NOUNS | closed_stems("mark words")


def guessed_status(spec: AppSpec) -> bool:
    """Whether the spec's only status is the generated open/done one and no clause says a state."""
    stated = [e for e in spec.data_model if e.has_status or e.workflow]
    if not stated or any(e.workflow for e in stated):
        return False
    states = element_words().get("status", frozenset()) - _NOT_STATES
    return not any(stem(t.lower()) in states for c in spec.clauses for t in tokens(c.text))


def daily_status(spec: AppSpec) -> bool:
    """Whether a record with a status is a dated row of another record (one a day can be done)."""
    return any((e.has_status or e.workflow) and e.parent and any(f.kind == "date" for f in e.fields)
               for e in spec.data_model)


def per_day_asks(toks: list[str], labels: list[str | None], sw) -> None:
    """Leave the day words of a clause that completes a record per day unaccounted when no status
    is per day (in place)."""
    if sw.daily_status or not any((label or "").startswith("status") for label in labels):
        return
    low = [t.lower() for t in toks]
    for i, w in enumerate(low):
        if w in closed("per day words") or (w in closed("day nouns") and i and low[i - 1] in closed("per day determiners")):
            labels[i] = None


def status_asks(toks: list[str], labels: list[str | None], sw) -> None:
    """Leave a status noun unaccounted when the spec's status is a guess (in place)."""
    if not sw.guessed_status:
        return
    for i, tok in enumerate(toks):
        if stem(tok.lower()) in _NOUNS and (labels[i] or "").startswith("status"):
            labels[i] = None
