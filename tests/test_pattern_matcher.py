"""The token matcher the pattern tables run on (harness/offline/spec/matcher.py)."""

from __future__ import annotations

import pytest

from harness.offline.spec.matcher import match_at
from harness.offline.spec.tokens import Tok, tokenize_clauses

SETS = {"verbs": frozenset({"take", "upload"}), "media": frozenset({"photo", "image"})}.__getitem__


def toks(*clauses: str) -> list[Tok]:
    return tokenize_clauses(list(clauses))[0]


def words(ts: list[Tok], idx: list[int]) -> str:
    return " ".join(ts[i].w for i in idx)


def test_a_word_list_and_a_word_set_match_one_token_each():
    ts = toks("take photo")
    m = match_at(ts, 0, {"tokens": [{"set": "verbs"}, {"w": ["photo", "image"], "capture": "what"}]}, SETS)
    assert m is not None and words(ts, m.captures["what"]) == "photo" and m.end == 2
    assert match_at(ts, 0, {"tokens": [{"set": "media"}]}, SETS) is None


@pytest.mark.parametrize("text, found", [("take photo", True), ("take a photo", True), ("take a nice photo", False)])
def test_optional_token(text, found):
    pattern = {"tokens": [{"set": "verbs"}, {"w": "a", "op": "?"}, {"set": "media"}]}
    assert (match_at(toks(text), 0, pattern, SETS) is not None) is found


def test_repeat_is_greedy_unless_lazy_and_stops_at_its_max():
    ts = toks("take the photo and the image")
    greedy = {"tokens": [{"set": "verbs"}, {"op": "*", "capture": "gap"}, {"set": "media"}]}
    lazy = {"tokens": [{"set": "verbs"}, {"op": "*", "lazy": True, "capture": "gap"}, {"set": "media"}]}
    assert words(ts, match_at(ts, 0, greedy, SETS).captures["gap"]) == "the photo and the"
    assert words(ts, match_at(ts, 0, lazy, SETS).captures["gap"]) == "the"
    assert match_at(ts, 0, {"tokens": [{"set": "verbs"}, {"op": "+", "max": 0}]}, SETS) is None
    capped = {"tokens": [{"set": "verbs"}, {"op": "*", "max": 2}, {"set": "media"}]}
    assert match_at(ts, 0, capped, SETS).end == 3


def test_a_match_never_leaves_the_anchor_clause():
    ts = toks("take the", "photo")
    assert match_at(ts, 0, {"tokens": [{"set": "verbs"}, {"op": "*"}, {"set": "media"}]}, SETS) is None


def test_before_is_matched_backward_in_reading_order():
    ts = toks("the app does not send mail")
    pattern = {"before": [{"w": "app", "capture": "who"}, {"op": "*", "max": 1}], "tokens": [{"w": "not"}]}
    m = match_at(ts, 3, pattern, SETS)
    assert m is not None and words(ts, m.captures["who"]) == "app" and m.captures["match"] == [3]
    pattern["before"][1]["max"] = 0
    assert match_at(ts, 3, pattern, SETS) is None


def test_token_conditions_used_role_alpha_singular():
    ts = toks("cats , dog")
    ts[2].used, ts[2].role = True, "entity:dog"
    assert match_at(ts, 0, {"tokens": [{"singular": False}, {"alpha": False}, {"role": "entity:"}]}, SETS)
    assert match_at(ts, 2, {"tokens": [{"unused": True}]}, SETS) is None
    assert match_at(ts, 0, {"tokens": [{"not_w": "cats"}]}, SETS) is None
    assert match_at(ts, 2, {"tokens": [{"not_role": "entity:"}]}, SETS) is None


def test_clause_conditions_look_at_the_whole_anchor_clause_only():
    ts = toks("i want a photo , take it", "upload")
    pattern = {"clause_has": [[{"w": "we"}], [{"w": "i"}, {"w": "want"}]], "tokens": [{"set": "verbs"}]}
    assert match_at(ts, 5, pattern, SETS) is not None
    assert match_at(ts, 8, pattern, SETS) is None   # "upload" is in the second clause
    assert match_at(ts, 5, {"clause_lacks": [[{"set": "media"}]], "tokens": [{"set": "verbs"}]}, SETS) is None
    assert match_at(ts, 8, {"clause_lacks": [[{"set": "media"}]], "tokens": [{"set": "verbs"}]}, SETS) is not None


def test_not_before_fails_a_match_the_tokens_before_the_anchor_rule_out():
    ts = toks("choose if you want , or if not")
    pattern = {"not_before": [{"w": ["choose", "decide"]}], "tokens": [{"w": "if"}]}
    assert match_at(ts, 1, pattern, SETS) is None and match_at(ts, 6, pattern, SETS) is not None


def test_exact_role_whole_word_letters_and_any_of_one_spec():
    ts = toks("take photo2 image")
    ts[0].used, ts[0].role = True, "complete:"
    ts[2].used, ts[2].role = True, "complete:task"
    either = {"any_of": [{"unused": True}, {"role_is": "complete:"}]}
    assert match_at(ts, 0, {"tokens": [either]}, SETS) is not None            # role exactly "complete:"
    assert match_at(ts, 2, {"tokens": [either]}, SETS) is None                # a longer role is not it
    assert match_at(ts, 1, {"tokens": [{**either, "alpha": True}]}, SETS) is not None
    assert match_at(ts, 1, {"tokens": [{"letters": True}]}, SETS) is None     # "photo2": not all letters


def test_followed_by_holds_before_that_token_or_at_the_clause_end_only():
    pattern = {"tokens": [{"set": "verbs"}, {"set": "media"}], "followed_by": {"w": "."}}
    assert match_at(toks("take photo."), 0, pattern, SETS) is not None
    assert match_at(toks("take photo", "image"), 0, pattern, SETS) is not None   # the clause ends there
    assert match_at(toks("take photo now"), 0, pattern, SETS) is None


@pytest.mark.parametrize("text, taken", [
    ("take photo / image / photo", "take photo / image / photo"),   # the whole sequence repeats
    ("take photo / image /", "take photo / image"),                 # a half sequence is not taken
    ("take photo", None),                                           # "+": once at least
])
def test_a_group_repeats_a_sequence_of_specs_as_one(text, taken):
    ts = toks(text)
    pattern = {"tokens": [{"set": "verbs"}, {"set": "media"},
                          {"group": [{"w": "/"}, {"set": "media"}], "op": "+"}]}
    m = match_at(ts, 0, pattern, SETS)
    assert (words(ts, m.captures["match"]) if m else None) == taken


def test_a_group_before_the_anchor_is_matched_backward_in_reading_order():
    ts = toks("photo / image take")
    pattern = {"before": [{"set": "media", "capture": "m"}, {"group": [{"w": "/"}, {"set": "media", "capture": "m"}]}],
               "tokens": [{"set": "verbs"}]}
    assert words(ts, match_at(ts, 3, pattern, SETS).captures["m"]) == "photo image"
