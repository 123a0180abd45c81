"""Words that qualify an element and are realised by how the element is built (stranger trial
2026-12-07i; each failed a build on one word):

- **optional** before or after a field ("an optional category", "a category (optional)") is realised
  by that field being not required — the app takes a record without it. A field the spec makes
  required leaves the word unaccounted (the request said it may be left out);
- **secure** beside a login word ("a secure password", "log in securely") is realised by the login:
  its passwords are stored hashed (PBKDF2) and every record route needs the token. Elsewhere ("secure
  payments") it stays unaccounted.

Reads the clause's words, their labels and the spec's words only."""

from __future__ import annotations

from harness.offline.accounting.elements import SpecWords
from harness.offline.accounting.lexicon import closed

_OPTIONAL = closed("optional words")
_SECURE = closed("secure words")
_SKIP = closed("record determiners")


def qualifier_asks(toks: list[str], labels: list[str | None], sw: SpecWords) -> None:
    """Label "optional" by the optional field, "secure" by the login (in place)."""
    low = [t.lower() for t in toks]
    auth = sw.present.get("auth")
    for k, w in enumerate(low):
        if labels[k] is not None:
            continue
        if w in _OPTIONAL:
            field = _field_near(low, labels, k)
            if field and field not in sw.required:
                labels[k] = "optional " + field[len("field "):]
        elif w in _SECURE and auth and any(labels[j] == auth for j in range(max(0, k - 2), min(len(low), k + 3)) if j != k):
            labels[k] = auth + " (passwords stored hashed)"


def _field_near(low: list[str], labels: list[str | None], k: int) -> str | None:
    """The field "optional" qualifies: the next one ("an optional category"), else the one right
    before it ("a category (optional)", "category is optional")."""
    j = k + 1
    while j < len(low) and low[j] in _SKIP:
        j += 1
    if j < len(low) and (labels[j] or "").startswith("field "):
        return labels[j]
    for j in range(k - 1, max(-1, k - 3), -1):
        if (labels[j] or "").startswith("field "):
            return labels[j]
    return None
