"""The row keys of a pattern that read the parse's flags and the text of the anchor's clause
rather than its tokens (docs/request-parser.md, "Row keys"): `if_set`, `unless_set`, `clause_max_words`,
`clause_re`, `clause_not_re`, `re_cased`, `next_clause_not_re` — for what a token pattern cannot
say, such as "the first number said is 8" (the pass "account rules") or a heading: a short clause
ending in ":" before one that is no heading (the pass "framing")."""

from __future__ import annotations

import re

from harness.offline.spec.tokens import Tok


def clause_holds(toks: list[Tok], i: int, pattern: dict, p) -> bool:
    """`if_set`: these flags of the parse are true (`unless_set`: none is); `clause_max_words`: the anchor's clause has at
    most that many words; `clause_re` / `clause_not_re`: each (none) of these regular expressions is
    found in its text (lower case, spaces collapsed; with `re_cased` as written); `next_clause_not_re`:
    a clause follows the anchor's and none of these is found in it."""
    if not all(getattr(p, flag) for flag in pattern.get("if_set", [])) \
            or any(getattr(p, flag) for flag in pattern.get("unless_set", [])):
        return False
    if not {"clause_re", "clause_not_re", "clause_max_words", "next_clause_not_re"} & set(pattern):
        return True

    def text(k: int) -> str:
        return " ".join((p.clauses[k] if pattern.get("re_cased") else p.clauses[k].lower()).split())
    own, after = text(toks[i].clause), toks[i].clause + 1
    if "next_clause_not_re" in pattern and (after >= len(p.clauses) or any(
            re.search(x, text(after)) for x in pattern["next_clause_not_re"])):
        return False
    return len(own.split()) <= pattern.get("clause_max_words", len(own.split())) \
        and all(re.search(x, own) for x in pattern.get("clause_re", [])) \
        and not any(re.search(x, own) for x in pattern.get("clause_not_re", []))
