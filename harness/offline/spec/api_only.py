"""A request that rules out a client side: "Backend (No clientside required)", "no frontend",
"without a UI", "API only", "a headless backend". The app then has no HTML page per record type
(the JSON API and its index page only), whatever page word another clause used ("a Web
Application"): the draft says `pages = false`. Word sets: features.toml [api_only]."""

from __future__ import annotations

from harness.offline.spec import lexicon as lx
from harness.offline.spec.pass_helpers import negation_before, use, word
from harness.offline.spec.tokens import Tok
from harness.offline.spec.wordsets import word_set

_INTERFACE = word_set("api_only.interface_words")
_NOT_AFTER = word_set("api_only.not_after")
_ONLY_HEADS = word_set("api_only.only_heads")
_NOT_NEEDED = word_set("api_only.not_needed")
_SKIP = word_set("api_only.skip")
_HEADLESS = word_set("api_only.headless")
_REACH = 4


def _not_needed_after(toks: list[Tok], i: int) -> list[int]:
    """ "frontend is not required", "client side not needed": the tokens after word i that say so."""
    k = i + 1
    while k < len(toks) and toks[k].clause == toks[i].clause and toks[k].w in ("is", "are", "side"):
        k += 1
    if word(toks, k) in ("not", "never") and word(toks, k + 1) in _NOT_NEEDED and toks[k + 1].clause == toks[i].clause:
        return list(range(i + 1, k + 2))
    return []


def mark_api_only(toks: list[Tok], p) -> None:
    """Rule out the HTML pages when a clause rules out the client side; its words are the API's."""
    marked: list[int] = []
    for i, t in enumerate(toks):
        if t.w in _INTERFACE and word(toks, i + 1) not in _NOT_AFTER:
            neg = negation_before(toks, i, _SKIP, _REACH)
            after = _not_needed_after(toks, i)
            if neg is not None:
                marked += list(range(neg, i + 1))
                if word(toks, i + 1) in _NOT_NEEDED:
                    marked.append(i + 1)
            elif after:
                marked += [i, *after]
        elif t.w == "only" and word(toks, i - 1) in _ONLY_HEADS and toks[i - 1].clause == t.clause:
            marked += [i - 1, i]
        elif t.w in _HEADLESS:
            marked.append(i)
    if not marked:
        return
    p.pages, p.api = False, True
    for k in marked:
        if not toks[k].used or toks[k].role == "pages":
            use(toks[k], "api")
