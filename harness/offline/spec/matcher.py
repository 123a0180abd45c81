"""The token matcher the pattern tables run on: token patterns with word sets, optional and
repeated tokens, captures and clause scope (the shape of spaCy's `Matcher`, over our `Tok`s).

A pattern is anchored at one token. `tokens` are matched forward from the anchor (the first of
them is the anchor), `before` backward from the token before it (written in reading order). Every
matched token lies in the anchor's clause. `not_before` (token specs) fails the match when they
match backward from the token before the anchor, `before_has` (a list of token-spec
sequences) holds when one of them does; `clause_has` / `clause_lacks` (a list of token
spec sequences) hold when one of the sequences does (none does) occur in the anchor's clause,
`clause_has_all` when each of them does; `clause_before_has` when one occurs in the clause before the
anchor's; `request_has` when one occurs in any clause of the request; `column_of` {"word": c1,
"record": c2, "alike": set}: the word of c1 is a column of the record c2's mention names (the last word of
one of its field labels; the words of `alike` name one column: a record with one has them all);
`followed_by` (a token spec): the token after the forward match satisfies it, or the clause ends there.
A token spec is a dict; every key present must hold:

    w / not_w        the word is (not) this word or one of these words
    set / not_set    the word is (not) in this word set or one of these (wordsets.py)
    any_number       true: set / not_set test the word and its singular ("reports" of "report")
    unused           true: no earlier pass consumed the token (false: one did)
    alpha            true: the word starts with a letter
    digit            true: the word is a number written in digits
    singular         true: the word is its own singular
    role / not_role  the token's role starts (does not start) with this prefix (or one of these)
    role_is          the token's role is exactly this (or one of these)
    letters          true: every character of the word is a letter
    alnum            true: the word starts with a letter or a digit
    any_of           a list of token specs: the token satisfies one of them
    is               a token test of token_tests.py, or a list of them: every one holds ("noun")
    not_is           a token test, or a list of them: none holds
    op               "?" optional, "*" any number, "+" one or more (default: exactly one)
    max              at most this many repetitions for "*" and "+"
    lazy             true: "*"/"+" try the fewest repetitions first (default: the most)
    atomic           true: "*"/"+" take every token they can and never give one back
    capture          a name for the tokens it matched
    as               {"capture": c, "forms": ["un{w}", ...]}: the word is one of these forms of
                     the first word of capture c, matched before it ("watched or unwatched")
    singular_as      a capture c: the word in the singular is the first word of c in the singular
                     ("watchlists" of a captured "watchlist")
    range            true: a numeric range as one spec, all its tokens ("from 1 to 5 stars", "1-5";
                     list_parts.read_range), matched forward only
    group            a list of token specs matched in turn, as one spec: with `op` the whole
                     sequence is optional or repeated ({"group": [sep, word], "op": "*"}; with
                     `atomic`, repeated as often as it can, never fewer)
    heads            "phrases" | "bullets": takes no token; `capture` gets the heads of the noun
                     phrase list that starts here ("recipes and ingredients"; entities.phrase_heads),
                     or the leading noun of each bullet line that starts here (entities.bullet_heads)

The first match found (greedy unless lazy, backtracking) is the match; `Match.captures` maps each
capture name to its token indexes in text order, and "match" to every forward token.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterator

from harness.offline.spec import lexicon as lx
from harness.offline.spec.entities import bullet_heads, phrase_heads
from harness.offline.spec.list_parts import read_range
from harness.offline.spec.tokens import Tok

WordSets = Callable[[str], frozenset]


@dataclass
class Match:
    anchor: int
    end: int                                   # one past the last forward token
    captures: dict[str, list[int]] = field(default_factory=dict)


def _names(value) -> list:
    return [value] if isinstance(value, str) else list(value)


def token_ok(t: Tok, spec: dict, sets: WordSets) -> bool:
    """Whether one token satisfies one spec (`op`, `max`, `lazy` and `capture` aside)."""
    w = t.w
    if "w" in spec and w not in _names(spec["w"]):
        return False
    if "not_w" in spec and w in _names(spec["not_w"]):
        return False
    forms = (w, lx.singularize(w)) if spec.get("any_number") else (w,)
    if "set" in spec and not any(f in sets(n) for n in _names(spec["set"]) for f in forms):
        return False
    if "not_set" in spec and any(f in sets(n) for n in _names(spec["not_set"]) for f in forms):
        return False
    if "unused" in spec and t.used == spec["unused"]:
        return False
    if "alpha" in spec and w[:1].isalpha() != spec["alpha"]:
        return False
    if "digit" in spec and w.isdigit() != spec["digit"]:
        return False
    if "singular" in spec and (lx.singularize(w) == w) != spec["singular"]:
        return False
    if "role" in spec and not t.role.startswith(tuple(_names(spec["role"]))):
        return False
    if "role_is" in spec and t.role not in _names(spec["role_is"]):
        return False
    if "letters" in spec and w.isalpha() != spec["letters"]:
        return False
    if "alnum" in spec and w[:1].isalnum() != spec["alnum"]:
        return False
    if "any_of" in spec and not any(token_ok(t, one, sets) for one in spec["any_of"]):
        return False
    if "is" in spec and not all(t in sets(f"is:{n}") for n in _names(spec["is"])):
        return False
    if "not_is" in spec and any(t in sets(f"is:{n}") for n in _names(spec["not_is"])):
        return False
    return not ("not_role" in spec and t.role.startswith(tuple(_names(spec["not_role"]))))


def _forms(toks: list[Tok], how: dict, caps: dict[str, list[int]]) -> list[str]:
    """The words a spec's "as" allows: its forms of the first word of the capture."""
    taken = caps.get(how["capture"])
    return [form.replace("{w}", toks[taken[0]].w) for form in how["forms"]] if taken else []


def _same_singular(toks: list[Tok], j: int, taken: list[int] | None) -> bool:
    return bool(taken) and lx.singularize(toks[j].w) == lx.singularize(toks[taken[0]].w)


def _counts(spec: dict, run: int) -> list[int]:
    """The repetition counts to try, in order, when `run` tokens from here satisfy the spec."""
    op = spec.get("op", "")
    low = 1 if op in ("", "+") else 0
    high = min(run, 1 if op in ("", "?") else spec.get("max", 10_000))
    if spec.get("atomic"):
        return [high] if high >= low else []
    return list(range(low, high + 1)) if spec.get("lazy") else list(range(high, low - 1, -1))


def _walk(toks: list[Tok], specs: list[dict], k: int, pos: int, step: int, clause: int | None,
          sets: WordSets, caps: dict[str, list[int]]) -> Iterator[tuple[int, dict]]:
    """Every way specs[k:] match from `pos` going `step`, as (position after, captures)."""
    if k == len(specs):
        yield pos, caps
        return
    spec = specs[k]
    if "group" in spec:
        yield from _repeat(toks, specs, k, pos, step, clause, sets, caps, 0)
        return
    if "heads" in spec:
        heads = (phrase_heads if spec["heads"] == "phrases" else bullet_heads)(toks, pos)
        yield from _walk(toks, specs, k + 1, pos, step, clause, sets, {**caps, spec["capture"]: heads})
        return
    if spec.get("range"):
        found = read_range(toks, pos) if step > 0 and 0 <= pos < len(toks) else None
        if found and all(_in(toks[j], clause) for j in range(pos, found[2])):
            taken = list(range(pos, found[2]))
            new = {**caps, spec["capture"]: caps.get(spec["capture"], []) + taken} if "capture" in spec else caps
            yield from _walk(toks, specs, k + 1, found[2], step, clause, sets, new)
        return
    run = 0   # how many tokens from pos this spec can take at most
    limit = spec.get("max", 10_000) if spec.get("op") in ("*", "+") else 1
    while run < limit:
        j = pos + step * run
        if not (0 <= j < len(toks)) or not _in(toks[j], clause) or not token_ok(toks[j], spec, sets) \
                or "as" in spec and toks[j].w not in _forms(toks, spec["as"], caps) \
                or "singular_as" in spec and not _same_singular(toks, j, caps.get(spec["singular_as"])):
            break
        run += 1
    for n in _counts(spec, run):
        taken = [pos + step * m for m in range(n)]
        new = caps
        if "capture" in spec:
            new = {**caps, spec["capture"]: caps.get(spec["capture"], []) + taken}
        yield from _walk(toks, specs, k + 1, pos + step * n, step, clause, sets, new)


def _repeat(toks: list[Tok], specs: list[dict], k: int, pos: int, step: int, clause: int | None,
            sets: WordSets, caps: dict[str, list[int]], done: int) -> Iterator[tuple[int, dict]]:
    """A group spec (specs[k]) after `done` repetitions: one more first (greedy), then the rest."""
    spec, op = specs[k], specs[k].get("op", "")
    inner = spec["group"] if step > 0 else list(reversed(spec["group"]))
    more = False
    if done < (1 if op in ("", "?") else spec.get("max", 10_000)):
        for after, new in _walk(toks, inner, 0, pos, step, clause, sets, caps):
            if after != pos:
                more = True
                yield from _repeat(toks, specs, k, after, step, clause, sets, new, done + 1)
    if done >= (1 if op in ("", "+") else 0) and not (more and spec.get("atomic")):
        yield from _walk(toks, specs, k + 1, pos, step, clause, sets, caps)


def _clause_has(toks: list[Tok], i: int | None, sequences: list[list[dict]], sets: WordSets, back: int = 0) -> bool:
    """One of the sequences occurs in the clause of token i (i None: in any clause; `back`: in the
    clause that many before it)."""
    return any(next(_walk(toks, specs, 0, k, 1, toks[k].clause, sets, {}), None) is not None
               for specs in sequences for k in range(len(toks)) if i is None or toks[k].clause == toks[i].clause - back)


def _is_column(toks: list[Tok], caps: dict[str, list[int]], how: dict, sets: WordSets) -> bool:
    """`column_of`: the word of capture "word" is a column of the record capture "record" names."""
    role = toks[caps[how["record"]][0]].role
    return role.startswith("entity:") and toks[caps[how["word"]][0]].w in \
        sets("COLUMNS")(role[len("entity:"):], sets(how.get("alike", "")) if how.get("alike") else frozenset())


def _in(t: Tok, clause: int | None) -> bool:
    return clause is None or t.clause == clause


def _before(toks: list[Tok], i: int, specs: list[dict], sets: WordSets, caps: dict,
            clause: int | None = -1) -> Iterator[tuple[int, dict]]:
    return _walk(toks, list(reversed(specs)), 0, i - 1, -1, toks[i].clause if clause == -1 else clause, sets, caps)


def match_at(toks: list[Tok], i: int, pattern: dict, sets: WordSets, caps: dict | None = None) -> Match | None:
    """The pattern's match anchored at token i, or None (`caps`: captures of an enclosing match that
    its specs may name)."""
    if not token_ok(toks[i], pattern["tokens"][0], sets):   # the anchor first: most tokens fail here
        return None
    clause = None if pattern.get("cross_clauses") else toks[i].clause
    for end, caps in _walk(toks, pattern["tokens"], 0, i, 1, clause, sets, caps or {}):
        if "followed_by" in pattern and end < len(toks) and _in(toks[end], clause) \
                and not token_ok(toks[end], pattern["followed_by"], sets):
            continue
        for _start, back in _before(toks, i, pattern.get("before", []), sets, caps, clause):
            if not _conditions(toks, i, pattern, sets, back):
                return None
            out = {name: sorted(idx) for name, idx in back.items()}
            out["match"] = list(range(i, end))
            return Match(i, end, out)
    return None


def _conditions(toks: list[Tok], i: int, pattern: dict, sets: WordSets, caps: dict[str, list[int]]) -> bool:
    """The pattern's clause conditions, before_has, not_before and column_of hold at anchor i."""
    if "clause_before_has" in pattern and not _clause_has(toks, i, pattern["clause_before_has"], sets, back=1):
        return False
    if "column_of" in pattern and not _is_column(toks, caps, pattern["column_of"], sets):
        return False
    if "clause_has" in pattern and not _clause_has(toks, i, pattern["clause_has"], sets):
        return False
    if "clause_lacks" in pattern and _clause_has(toks, i, pattern["clause_lacks"], sets):
        return False
    if any(not _clause_has(toks, i, [one], sets) for one in pattern.get("clause_has_all", [])):
        return False
    if "request_has" in pattern and not _clause_has(toks, None, pattern["request_has"], sets):
        return False
    if "before_has" in pattern and not any(next(_before(toks, i, one, sets, {}), None) is not None
                                           for one in pattern["before_has"]):
        return False
    return not ("not_before" in pattern and next(_before(toks, i, pattern["not_before"], sets, {}), None) is not None)
