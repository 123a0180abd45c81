"""Words that ask who may do something — an account, an owner, a restriction — are realised only by
the spec element that enforces them (#48, stranger trial 2026-12-07f F1-F5, O6-O8).

Before, "own" and "only" were function words, "Signed in users" the actor, "As a signed up user"
the self-introduction, "Logged in" framing and "not remove it from the database" what the app need
not do; so "Signed in users can create events and update or delete their own events" was reported
built over a spec without accounts (any visitor deleted every event), and "Deleting an expense should
only mark it as deleted, not remove it from the database" over a hard DELETE. Now, by the lists of
`words/identity_asks_en.txt`:

- **a login phrase** ("signed in", "logged-in", "log in", "signed up", "registered users") is
  realised by the login (auth) and is unaccounted without one; negated ("without logging in", "not
  logged in") it is realised only by a spec *without* a login, like "No login required", or by one
  whose records the clause names anyone reads (`read = "public"`: "anyone can browse the recipes
  without logging in"). The person without an account ("unregistered", "anonymous") likewise. The subject of a log-in clause
  ("Students log in, …") is realised by the account, as the actor before a modal is;
- **"own" after a possessive** ("their own", "my own"), **"only (the) author/creator"**, and
  **someone else's records** after a negation ("cannot see other users' tasks") are realised by
  records private to the account that added them: the login on, the records not managed by a role,
  and not shared when what is restricted is reading ("see only their own reservations");
- **"only" restricting an action** ("can only delete their own comments", "should only mark it as
  deleted", "see only their own …") and **a negated action** ("not remove", "cannot delete") are
  realised only when an element that enforces a rule realises a word of what is restricted (the
  ownership above, a role, sharing, a bound, a capacity, no double booking, a soft delete); else they, and the
  action, are unaccounted. "only (the) <role>" stays role_rights.py's; "only one …" a number's.

Reads the clause's words and the spec's words only (SpecWords).
"""

from __future__ import annotations

from harness.offline.accounting import context as bg
from harness.offline.accounting.clause_records import clause_records
from harness.offline.accounting.elements import SpecWords
from harness.offline.accounting.lexicon import closed, closed_stems, keyed_forms, keyed_words, stem, word_list

_LIST = "identity_asks_en.txt"
OWNED = "login: each record belongs to the account that added it"
ACCOUNT = "auth (the account)"
_MODALS = closed("modals")
_DETS = closed("identity determiners")
# Labels of the elements that enforce a rule over what a negation or "only" restricts.
_ENFORCING = ("bound ", "capacity ", "feature no_double_booking", "feature capacity", "account role", "shared ",
              "manage ", "view ", "assigned ", "auth", OWNED, "required ",
              "soft_delete ")   # "only mark it as deleted, not remove it": the soft delete keeps the row
_PARTS = frozenset({",", ";", ":", ".", "(", ")"})
# What a word naming who logs in may have been labelled: nothing, framing ("Users") or the actor.
_SUBJECT_LABELS = (None, "request framing", "who uses it (actor)")


def _words(key: str) -> frozenset[str]:
    """The stems of a key's words (compare with stem(word))."""
    return keyed_words(_LIST).get(key, frozenset())


def _exact(key: str) -> frozenset[str]:
    """A key's words as written (compare with the lower-case word): "not" is no stem of "notes"."""
    return keyed_forms(_LIST).get(key, frozenset())


def identity_asks(toks: list[str], gaps: list[str], labels: list[str | None], sw: SpecWords) -> None:
    """Relabel in place: the words asking for an account, an owner or a restriction are realised by
    the element that enforces them, or unaccounted."""
    low = [t.lower().replace("’", "'") for t in toks]
    records = clause_records(toks, sw)
    negated = _negated_spans(low, gaps)
    login = [k for k in range(len(low)) if _login_at(low, k)]
    for k in login:
        _login_words(low, k, labels, sw, _login_negated(low, gaps, k), records)
    for k in _without_an_account(low):   # "read the posts without an account"
        labels[k] = public_read(sw, records) or labels[k]
    for k, w in enumerate(low):
        if stem(w) in _words("anonymous"):
            labels[k] = public_read(sw, records) or bg.scope_element("login", sw) or None
    for k in login:
        _login_subject(low, k, labels, sw)
    for k, w in enumerate(low):
        if w == "own" and k and low[k - 1] in _exact("possessives") and not _names_the_app(low, k):
            labels[k] = _ownership(low, k, sw, records)
    for k, w in enumerate(low):
        if w == "only":
            _only(low, gaps, k, labels, sw, records)
    for span in negated:
        _negation(low, span, labels, sw, records)


def _login_at(low: list[str], k: int) -> bool:
    """A login phrase starts at k: "signed in", "signed-in", "log into", "registered users"."""
    w = low[k]
    head, _, tail = w.partition("-")
    if stem(head) in _words("login_verbs") and (tail in _exact("login_particles") if tail else
                                                 k + 1 < len(low) and low[k + 1] in _exact("login_particles")):
        return True
    return stem(w) in _words("login_adjectives") and k + 1 < len(low) and _people(low[k + 1])


def _people(word: str) -> bool:
    """A word naming people: the framing or actor words of a request (user, member, student …)."""
    s = stem(word)
    return s in keyed_words("framing_position_en.txt").get("stored_nouns", frozenset()) or s in _PEOPLE


_PEOPLE = closed_stems("identity people")


def _login_negated(low: list[str], gaps: list[str], k: int) -> bool:
    """ "without logging in", "users who are not signed in": a login said not to be needed. Not in a
    condition ("If the user is not logged in, they can't access …"): there the login refuses them."""
    j = k - 1
    while j >= 0 and low[j] in _exact("between") | closed("identity between more"):
        j -= 1
    if j < 0 or not (low[j] == "without" or low[j] in _exact("negations")):
        return False
    start = j
    while start > 0 and not any(ch in _PARTS for ch in gaps[start]):
        start -= 1
    return not keyed_forms("background_en.txt").get("conditions", frozenset()) & set(low[start:j])


def _without_an_account(low: list[str]) -> list[int]:
    """The account word of "without an account", "without any registration" (a login phrase such
    as "without logging in" is the login's, above)."""
    out = []
    for k, w in enumerate(low):
        j = k - 1 - (k > 1 and low[k - 1] in closed("count articles"))
        if stem(w) in _words("account_nouns") and j >= 0 and low[j] == "without":
            out.append(k)
    return out


def public_read(sw: SpecWords, records: frozenset[str]) -> str | None:
    """ "without logging in", "anonymous visitors": with a login, realised by records anyone reads
    (`read = "public"`) — of the records the clause names, or any when it names none."""
    label = sw.present.get("access:public")
    public = sw.on_records.get("access:public", frozenset())
    return label if label and (not records or records & public) else None


def _login_words(low: list[str], k: int, labels: list[str | None], sw: SpecWords, negated: bool,
                 records: frozenset[str]) -> None:
    """The words of the login phrase at k: the login, or, negated, the spec without one (or with
    records anyone reads without one)."""
    span = [k] if "-" in low[k] else [k, k + 1]   # "registered users": the users are the accounts
    if negated:
        label = public_read(sw, records) or bg.scope_element("login", sw) or None
    else:
        label = sw.present.get("auth")
    for j in span:
        labels[j] = label


def _login_subject(low: list[str], k: int, labels: list[str | None], sw: SpecWords) -> None:
    """ "Students log in, add homework …": the subject of a clause-opening log-in is the account."""
    if "auth" not in sw.present or stem(low[k]) in _words("login_adjectives"):
        return
    start = 0
    while start < k and low[start] in _DETS:
        start += 1
    if not 0 < k - start <= 3 or any(labels[j] not in _SUBJECT_LABELS for j in range(start, k)):
        return   # "when logged in, …": no subject; "Tasks log in" is no person
    if any(w in _MODALS for w in low[start:k]):
        return
    for j in range(start, k):
        labels[j] = ACCOUNT


def _ownership(low: list[str], k: int, sw: SpecWords, records: frozenset[str]) -> str | None:
    """What realises an owner word at k: records private to the account that added them (login on,
    no role managing them, not shared when the clause restricts reading)."""
    if "auth" not in sw.present or any(r in sw.manage_of for r in records):
        return None
    shared = sw.on_records.get("access:shared", frozenset())   # public records are shared too
    if records & shared and _reads(low, k):
        return None
    return OWNED


def _names_the_app(low: list[str], k: int) -> bool:
    """ "Create your own expense tracker": "own" of the app being asked for, not of its records."""
    heads = keyed_words("app_names_en.txt").get("heads", frozenset()) | _words("app_words")
    return any(stem(w) in heads for w in low[k + 1:k + 5])


def _reads(low: list[str], k: int) -> bool:
    """The action nearest before k (or after it, when none is before) reads: "see only their own"."""
    before = [j for j in range(k) if stem(low[j]) in _words("restricted_actions")]
    after = [j for j in range(k + 1, len(low)) if stem(low[j]) in _words("restricted_actions")]
    j = before[-1] if before else after[0] if after else None
    return j is not None and stem(low[j]) in _words("reading")


def _part_end(low: list[str], gaps: list[str], k: int) -> int:
    """Where the part holding k ends: a comma, semicolon or stop, or "but"."""
    for j in range(k + 1, len(low)):
        if any(ch in _PARTS for ch in gaps[j]) or low[j] in closed("identity list ends"):
            return j
    return len(low)


def _owner_words(low: list[str], start: int, end: int) -> list[int]:
    """The owner words from start to end: "their own", "(the) author", "other users'", "someone else's"."""
    out = []
    for j in range(start, end):
        if low[j] == "own" and j and low[j - 1] in _exact("possessives"):
            out += [j - 1, j]
        elif stem(low[j]) in _words("author_words") and j and low[j - 1] in (*_DETS, "only"):
            out.append(j)
        elif stem(low[j].rstrip("'s")) in _words("others"):
            out.append(j)   # "other users' tasks": the other accounts' records
            if j + 1 < end and _people(low[j + 1]):
                out.append(j + 1)
    return out


def _author_clause(low: list[str], j: int) -> list[int]:
    """ "if they posted (it)", "(the) user who created (it)": the words naming a record's author, or []
    (stranger trial 2026-12-08k B02: "only if they posted it" was function words over an app without
    accounts, where anyone edits every spot)."""
    if j + 2 < len(low) and low[j] == "if" and low[j + 1] in _exact("subject_pronouns") \
            and stem(low[j + 2]) in _words("author_verbs"):
        return [j, j + 1, j + 2]
    if j + 2 < len(low) and _people(low[j]) and low[j + 1] in _exact("relative_pronouns") \
            and stem(low[j + 2]) in _words("author_verbs"):
        return [j, j + 1, j + 2]
    return []


def _only(low: list[str], gaps: list[str], k: int, labels: list[str | None], sw: SpecWords,
          records: frozenset[str]) -> None:
    """ "only" restricting an action or naming an owner: realised by what enforces the restriction."""
    j = k + 1
    while j < len(low) and low[j] in _DETS:
        j += 1
    author = _author_clause(low, j)
    if author:   # "only if they posted it", "only the user who posted a spot": its author
        label = _ownership(low, author[-1], sw, records)
        for i in (k, *author):
            labels[i] = label
        return
    if j >= len(low) or any(ch.isdigit() for ch in low[j]) or low[j] in closed("not count followers"):
        return   # "only one vet", "only if": a number or a condition, not a restriction
    role = (labels[j] or "").startswith("account role") or stem(low[j]) in word_list("asks_en.txt")
    if role:
        return   # "only admins can …": role_rights.py
    end = _part_end(low, gaps, k)
    owners = _owner_words(low, k + 1, end)
    if j < len(low) and (_login_at(low, j) or _people(low[j])):
        if _login_at(low, j):   # "only registered users", "only signed-in users": the login
            labels[k] = sw.present.get("auth")
        return
    restricts = (k and low[k - 1] in _MODALS) or stem(low[j]) in _words("restricted_actions") \
        or (k and stem(low[k - 1]) in _words("restricted_actions")) or owners
    if not restricts:
        return
    label = _ownership(low, owners[-1], sw, records) if owners else None
    if label is None and not owners:   # "members can only see them" of a shared record a role manages
        keys = [f"access:{key}" for key in ("shared", "manage", "view")]
        ruled = all(any(r in sw.on_records.get(key, ()) for key in keys) for r in records) if records \
            else any(key in sw.present for key in keys)   # "… can only see them": the records said before
        enforced = [labels[i] for i in range(k if ruled else k + 1, end) if (labels[i] or "").startswith(_ENFORCING)]
        label = enforced[0] if enforced else None
    labels[k] = label
    for i in owners:
        labels[i] = label
    if label is None:   # what is restricted is not restricted: the action asked is not what is built
        for i in range(k + 1, end):
            if stem(low[i]) in _words("restricted_actions"):
                labels[i] = None
                break


def _negated_spans(low: list[str], gaps: list[str]) -> list[range]:
    """The parts after a negation of an action ("not remove it", "cannot be deleted", "without
    logging in"): from the negation to the part's end."""
    out = []
    for k, w in enumerate(low):
        if w in ("without",) and k + 1 < len(low) and _login_at(low, k + 1):
            out.append(range(k, k + 3))
            continue
        if not _restricting_negation(low, gaps, k):
            continue
        j = k + 1
        while j < len(low) and low[j] in _exact("between"):
            j += 1
        if j < len(low) and (stem(low[j]) in _words("restricted_actions") or _login_at(low, j)):
            out.append(range(k, _part_end(low, gaps, k)))
    return out


def _restricting_negation(low: list[str], gaps: list[str], k: int) -> bool:
    """A negation at k that refuses an action: "cannot", "must not", "should never", or "not" opening
    a part ("…, not remove it"). Not a description ("plants that are not marked"), a spared need ("need
    not be added") or an instruction to the builder ("Do not add technical details")."""
    w = low[k]
    if w not in _exact("negations"):
        return False
    if w not in ("not", "never"):
        return True
    prev = low[k - 1] if k else ""
    return prev in _MODALS or not k or any(ch in _PARTS for ch in gaps[k])


def _negation(low: list[str], span: range, labels: list[str | None], sw: SpecWords,
              records: frozenset[str]) -> None:
    """A negated action is realised when an element enforcing a rule realises a word it restricts;
    else the negation and the action are unaccounted. A negated login is _login_words'."""
    k = span[0]
    j = k + 1
    while j < len(low) and low[j] in _exact("between"):
        j += 1
    if low[k] == "without" or j < len(low) and _login_at(low, j):
        labels[k] = labels[k] if low[k] == "without" else labels[j]
        return
    owners = _owner_words(low, j + 1, span[-1] + 1)
    label = _ownership(low, owners[-1], sw, records) if owners else None
    for i in owners:
        labels[i] = label
    if label is None:
        enforced = [labels[i] for i in span if (labels[i] or "").startswith(_ENFORCING)]
        label = enforced[0] if enforced else _kept_not_removed(low, j, labels)
    labels[k] = label
    if j < len(low):
        labels[j] = label


def _kept_not_removed(low: list[str], j: int, labels: list[str | None]) -> str | None:
    """ "…, not remove it" of a record the clause soft-deletes ("only mark it as deleted"): the soft
    delete (its label on a word of the clause) realises the negated removal; nothing else does."""
    if j >= len(low) or stem(low[j]) not in _words("removals"):
        return None
    return next((label for label in labels if (label or "").startswith("soft_delete ")), None)
