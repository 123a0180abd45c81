"""The row keys of a pattern that read the parse's flags and the text of the anchor's clause
rather than its tokens (docs/request-parser.md, "Row keys"): `if_set`, `clause_max_words`,
`clause_re`, `clause_not_re` — for what a token pattern cannot say, such as "the first number
said is 8" (the pass "account rules")."""

from __future__ import annotations

import re

from harness.offline.spec.tokens import Tok


def clause_holds(toks: list[Tok], i: int, pattern: dict, p) -> bool:
    """`if_set`: these flags of the parse are true; `clause_max_words`: the anchor's clause has at
    most that many words; `clause_re` / `clause_not_re`: each (none) of these regular expressions is
    found in its text (lower case, spaces collapsed)."""
    if not all(getattr(p, flag) for flag in pattern.get("if_set", [])):
        return False
    if not {"clause_re", "clause_not_re", "clause_max_words"} & set(pattern):
        return True
    text = " ".join(p.clauses[toks[i].clause].lower().split())
    return len(text.split()) <= pattern.get("clause_max_words", len(text.split())) \
        and all(re.search(x, text) for x in pattern.get("clause_re", [])) \
        and not any(re.search(x, text) for x in pattern.get("clause_not_re", []))
