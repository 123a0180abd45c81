"""The feature words of a request: login and accounts, dashboard, pages, API, the stack it names,
and the completion words whose record is found later (rules.py's pass table)."""

from __future__ import annotations

from harness.offline.spec import lexicon as lx
from harness.offline.spec.build import Parsed
from harness.offline.spec.pass_helpers import negation_before
from harness.offline.spec.pass_helpers import use as _use
from harness.offline.spec.pass_helpers import word as _word
from harness.offline.spec.register_verb import registers_a_record, registration_of_a_record
from harness.offline.spec.tokens import Tok
from harness.offline.spec.wordsets import word_set

_REST_PERIODS = word_set("feature_words.rest_periods")


def find_feature_words(toks: list[Tok], p: Parsed, negated: set[int] = frozenset()) -> None:
    """Mark the feature words (login, dashboard, pages, API, mark-as-complete …); `negated`: the
    clauses of bullet lists under a negating heading (negated_lists.py), whose login is not asked for."""
    for i, t in enumerate(toks):
        w = t.w
        if t.used or not w:
            continue
        role = w
        if w in lx.AUTH:
            if w in ("user", "users") and not _auth_context(toks, i):
                continue
            if _negated(toks, i, lx.AUTH) or t.clause in negated:   # "available without registration and login"
                _use(t, "context")
                continue
            if w == "register" and registers_a_record(toks, i):
                continue   # "register each transaction": recording a record, not signing up
            if registration_of_a_record(toks, i):
                continue   # "an appointment registration": registering that thing, not signing up
            p.auth, role = True, "auth"
        elif w in lx.DASHBOARD:
            p.dashboard, role = True, "dashboard"
        elif w in lx.COMPLETE:
            if w.startswith("complete") and _word(toks, i - 1) in word_set("feature_words.complete_before"):
                continue
            role = "complete:"   # the pass "completion status" gives it its record
        elif w in lx.FRAMEWORKS:
            p.pages = True
            p.frameworks.append(lx.FRAMEWORKS[w])
            role = f"stack:{lx.FRAMEWORKS[w]}"
        elif w in lx.PAGE_WORDS:
            if _word(toks, i + 1) in _PAGE_COLUMN_NEXT and _word(toks, i - 1) != "the" \
                    or _word(toks, i + 1) in _PAGE_MEASURE_NEXT or _word(toks, i - 1) in _PAGE_COLUMN_PREV \
                    or _word(toks, i + 1) == ")" and _word(toks, i - 1) in _PAGE_LIST_PREV:   # "books (title, pages)"
                continue   # "page count", "pages read", "number of pages": a column of a book, not the app's pages
            p.pages = True
            p.settings = p.settings or w == "settings"
            role = "stack:settings page" if w == "settings" else "pages"
        elif w in lx.API_WORDS and not (w == "rest" and _word(toks, i + 1) in _REST_PERIODS):   # "rest time"
            p.api = True
            role = "stack:GraphQL" if w == "graphql" else "api"
        elif w in lx.OTHER_BACKENDS:
            role = f"stack:{lx.OTHER_BACKENDS[w]}"
        elif w in lx.OTHER_DBS:
            role = f"stack:{lx.OTHER_DBS[w]}"
        else:
            continue
        _use(t, role)


_ACCOUNT_VERBS = word_set("feature_words.account_verbs")
_PAGE_COLUMN_NEXT = word_set("feature_words.page_column_next")
_PAGE_COLUMN_PREV = word_set("feature_words.page_column_prev")
_PAGE_MEASURE_NEXT = word_set("feature_words.page_measure_next")
_PAGE_LIST_PREV = word_set("feature_words.page_list_prev")
_NEGATED_REACH = 6
_NEGATION_SKIP = word_set("feature_words.negation_skip")


def _negated(toks: list[Tok], i: int, group: frozenset[str]) -> bool:
    """Whether word i is negated: "without registration and login", "no need to log in", "doesn't
    require an account" (back over words of `group` and linking words to a negation)."""
    return negation_before(toks, i, group | _NEGATION_SKIP, _NEGATED_REACH) is not None


def _auth_context(toks: list[Tok], i: int) -> bool:
    """ "user accounts", "users log in": the word asks for login, not "users can add recipes".
    "Create a user" is an account, under the login the request asks for; "all users' recipes",
    "each user's notes" are records owned by account holders."""
    near = {_word(toks, j) for j in range(i - 2, i + 4)}
    before = _word(toks, i - 2) if _word(toks, i - 1) in ("a", "an", "new") else _word(toks, i - 1)
    return bool(near & (lx.AUTH - {"user", "users"})) or _word(toks, i - 1) in ("multiple", "different") \
        or before in _ACCOUNT_VERBS \
        or toks[i].possessive and (toks[i].w == "users" or _word(toks, i - 1) in ("each", "every"))

