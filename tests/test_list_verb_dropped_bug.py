"""A word of the closed lists used as the clause's verb is not silently dropped (stranger trial
2026-12-07h c17/c18/c1b and the real request h9; harness/offline/accounting/rule_asks.py,
words/list_verbs_en.txt).

Before, "like" (a preposition of function_en.txt) and "love"/"want" (framing) were accounted as
function/framing words wherever they stood, so "Users can like posts" was credited to the record post
alone and the build said COMPLETE with no way to like anything. The test runs over both lists: every
word is classified in list_verbs_en.txt, and every word classified as asking for its own element,
used after "can" or "to" with a record as its object, is unaccounted.
"""

from __future__ import annotations

import pytest

from harness.offline.accounting.account import account_text
from harness.offline.accounting.lexicon import WORDS_DIR
from harness.offline.spec import parse_request

SPEC = parse_request("Users add posts with a title.")


def _words(name: str) -> list[str]:
    out = []
    for line in (WORDS_DIR / name).read_text(encoding="utf-8").splitlines():
        out += line.split("#", 1)[0].lower().split()
    return out


def _classes() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in (WORDS_DIR / "list_verbs_en.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0]
        if ":" in line:
            key, words = line.split(":", 1)
            out.setdefault(key.strip(), []).extend(words.split())
    return out


def test_every_word_of_the_lists_is_classified_once():
    classes = _classes()
    seen = [w for words in classes.values() for w in words]
    assert len(seen) == len(set(seen)), sorted({w for w in seen if seen.count(w) > 1})
    missing = set(_words("function_en.txt") + _words("framing_en.txt")) - set(seen)
    assert not missing, f"classify in list_verbs_en.txt: {sorted(missing)}"


@pytest.mark.parametrize("verb", _classes()["asks"])
@pytest.mark.parametrize("frame", ["Users can {} posts.", "As a user, I want to {} a post."])
def test_a_verb_of_the_lists_is_not_dropped_bug(verb, frame):
    acc = account_text(frame.format(verb), SPEC)
    assert verb in acc.unaccounted, (verb, acc.words)


@pytest.mark.parametrize("verb", _classes()["crud"])
def test_a_crud_verb_of_the_lists_is_realised_by_the_records_crud_or_named(verb):
    """Never a function or framing word there: the records' CRUD realises it, or it is named."""
    acc = account_text(f"Users can {verb} posts.", SPEC)
    assert acc.words.get(verb, "crud").startswith("crud") or verb in acc.unaccounted, acc.words


@pytest.mark.parametrize("text", ["I would like to add posts.", "I would like an app for posts.",
                                  "Users can have many posts.", "Users want to see posts."])
def test_like_and_want_as_framing_stay_framing(text):
    assert account_text(text, SPEC).unaccounted == []


def test_the_trial_request_is_not_built_naming_like_bug():
    spec = parse_request("Users add posts with a title. Users can like posts.")
    clause = next(c for c in spec.clauses if c.text.startswith("Users can like"))
    assert clause.status == "not_built" and "like" in (clause.reason or ""), (clause.status, clause.reason)
