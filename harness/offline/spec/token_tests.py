"""Token tests a pattern names with the token-spec key "is" (matcher.py): what a token is at its
place in the request, which a word set cannot say because it depends on the words around the token,
on what earlier passes did or on the parse ("is": "noun", "is": ["mention"]).

    noun      the token can name a record type where it stands (nouns.is_noun)
    mention   the token names a record of the parse (entities.find_entities' mentions)
    app_head  the word, in the singular, is a word for the app itself ("tool", "services")
    supported_verb  the word is a verb the app supports, in any form ("manage", "tracks")
    entity_verb  the word is a verb acting on records, in any form ("add", "deleted", "book")
    compound_actor  a noun that is also a verb, modifying the actor noun after it ("as a book lender")
    range_start  a numeric range starts at the token ("from" or "1" of "from 1 to 5"; list_parts.read_range)
    possessive  the user wrote the word with 's or s' ("shop's", "users'")
    claims      an earlier pass read the word as an ask: used, with a role other than context or a
                pending one ending in ":" ("newest:")
    clause_start  the token is the first of its clause
    auth_context  the word, said of users, asks for accounts: "user accounts", "users log in", "create
                a user", "each user's notes" (not "users can add recipes")
    bare_subject  a noun opening a clause that names records and what they have ("Projects and tasks.")
    owner_possessive  a possessive account holder before a noun ("the user's recipes"; entities.owner)
    verb_like   a verb, not a noun here ("share" of "store and share recipes")
    records_have_records  "have" between plural records that ends its clause ("Owners have pets.")
    registers_record  "register" whose object is a record ("register each transaction"), not a sign-up
    registration_of_record  "registration" after the record it registers ("an appointment registration")
    title_word  the token is among the request's first four words (counted from its first word),
                in its first clause ("A movie watchlist: ...")
    sole_word   the token is the only word of its clause (the only token starting with a letter)
    capital_word  the user wrote the word starting with a capital letter ("Pennywise", not "3D" or "(")
    capitalized  the user wrote the word with a capital letter (or it starts with no letter)
    before_sentence  the token after this one starts a sentence: a capitalised verb, adverb, pronoun
                or article, and no list of fields ("Plant List: Add plants ...", not "Products: Name, Price")
    named_plural  the request names the word in the plural elsewhere ("recipe" of "a recipe book app"
                beside "add recipes"): the records the words after it collect
    column_list  the token opens a parenthesised list naming columns, not values ("(vaccine type, date
                given)"; enum_values.names_columns)
    bool_state  the token is read as a field (or a feature over one) of a record whose yes/no field
                the word names ("watched" of a movie with a yes/no field "watched")
"""

from __future__ import annotations

from typing import Callable

from harness.offline.spec import lexicon as lx
from harness.offline.spec import lexicon_roles as rl
from harness.offline.spec.entities import bare_subject, owner, records_have_records, verb_like
from harness.offline.spec.enum_values import names_columns, read_enum
from harness.offline.spec.list_parts import read_range
from harness.offline.spec.nouns import is_noun, singular_name
from harness.offline.spec.register_verb import registers_a_record, registration_of_a_record
from harness.offline.spec.tokens import Tok
from harness.offline.spec.wordsets import word_set

def _compound_actor(toks: list[Tok], k: int) -> bool:
    nxt = toks[k + 1] if k + 1 < len(toks) else None
    return (toks[k].w in lx.VERB_NOUNS and nxt is not None and nxt.clause == toks[k].clause and nxt.w[:1].isalpha()
            and nxt.w not in lx.FUNCTION and not rl.is_supported_verb(nxt.w))


def _before_sentence(toks: list[Tok], i: int) -> bool:
    k = i + 1
    if k >= len(toks) or not toks[k].orig[:1].isupper():
        return False
    w = toks[k].w
    verb = w in lx.VERBS or rl.is_supported_verb(w)
    if k + 1 < len(toks) and toks[k + 1].w in lx.SEPARATORS and not (
            verb and k + 2 < len(toks) and (toks[k + 2].w in lx.VERBS or rl.is_supported_verb(toks[k + 2].w))):
        return False   # "Products: Name, Price": a list of fields ("Type and save notes" is a sentence)
    return w in word_set("bullet_labels.sentence_starts") or verb or w.endswith("ly") \
        or w.endswith("s") and w[:-1] in lx.VERBS   # "Resets the counter"


def _auth_context(toks: list[Tok], i: int) -> bool:
    def word(j: int) -> str:
        return toks[j].w if 0 <= j < len(toks) else ""
    near = {word(j) for j in range(i - 2, i + 4)}
    before = word(i - 2) if word(i - 1) in word_set("feature_words.account_article_skip") else word(i - 1)
    return bool(near & (lx.AUTH - word_set("feature_words.user_words"))) or word(i - 1) in word_set("feature_words.many_users") \
        or before in word_set("feature_words.account_verbs") \
        or toks[i].possessive and (toks[i].w == "users" or word(i - 1) in word_set("feature_words.each_user"))


def _title_word(toks: list[Tok], i: int) -> bool:
    start = next((k for k in range(len(toks)) if toks[k].w[:1].isalnum()), 0)
    return i - start <= 3 and toks[start].clause == toks[i].clause == 0


def _named_plural(toks: list[Tok], i: int) -> bool:
    w = toks[i].w
    return w.isalpha() and any(t.w != w and lx.singularize(t.w) == w for t in toks)


def _bool_state(toks: list[Tok], i: int, p) -> bool:
    t = toks[i]
    record = t.role.rpartition(":")[2] if t.role.startswith(("field:", "feature:")) else ""
    return bool(record) and any(it.hint == "bool" and it.label == t.w for it in p.fields.get(record, []))


TESTS: dict[str, Callable[[list[Tok], int, dict[int, str], object], bool]] = {
    "noun": lambda toks, i, mentions, p: is_noun(toks, i),
    "mention": lambda toks, i, mentions, p: i in mentions,
    "app_head": lambda toks, i, mentions, p: singular_name(toks[i].w) in lx.APP_HEADS,
    "supported_verb": lambda toks, i, mentions, p: rl.is_supported_verb(toks[i].w),
    "entity_verb": lambda toks, i, mentions, p: rl.is_entity_verb(toks[i].w),
    "compound_actor": lambda toks, i, mentions, p: _compound_actor(toks, i),
    "range_start": lambda toks, i, mentions, p: read_range(toks, i) is not None,
    "possessive": lambda toks, i, mentions, p: toks[i].possessive,
    "claims": lambda toks, i, mentions, p: toks[i].used and toks[i].role not in ("", "context")
    and not toks[i].role.endswith(":"),
    "clause_start": lambda toks, i, mentions, p: i == 0 or toks[i - 1].clause != toks[i].clause,
    "sole_word": lambda toks, i, mentions, p: all(t is toks[i] or t.clause != toks[i].clause or not t.w[:1].isalpha()
                                                  for t in toks),
    "capital_word": lambda toks, i, mentions, p: toks[i].orig[:1].isupper() and toks[i].orig[:1].isalpha(),
    "capitalized": lambda toks, i, mentions, p: not toks[i].orig[:1].isalpha() or toks[i].orig[:1].isupper(),
    "before_sentence": lambda toks, i, mentions, p: _before_sentence(toks, i),
    "bool_state": lambda toks, i, mentions, p: _bool_state(toks, i, p),
    "column_list": lambda toks, i, mentions, p: toks[i].w == "(" and names_columns(read_enum(toks, i, own=False)[0]),
    "named_plural": lambda toks, i, mentions, p: _named_plural(toks, i),
    "title_word": lambda toks, i, mentions, p: _title_word(toks, i),
    "auth_context": lambda toks, i, mentions, p: _auth_context(toks, i),
    "bare_subject": lambda toks, i, mentions, p: bare_subject(toks, i),
    "owner_possessive": lambda toks, i, mentions, p: owner(toks, i),
    "verb_like": lambda toks, i, mentions, p: verb_like(toks, i),
    "records_have_records": lambda toks, i, mentions, p: records_have_records(toks, i),
    "registers_record": lambda toks, i, mentions, p: registers_a_record(toks, i),
    "registration_of_record": lambda toks, i, mentions, p: registration_of_a_record(toks, i),
}


class TokenTest:
    """The tokens that pass one test, as a set the matcher asks `tok in ...` (by identity: a test
    reads the token's place, and runs when asked, after the marks the pass made so far)."""

    def __init__(self, name: str, toks: list[Tok], mentions: dict[int, str], p=None) -> None:
        if name not in TESTS:
            raise KeyError(f"no token test named {name!r} (token_tests.py)")
        self.test, self.toks, self.mentions, self.p = TESTS[name], toks, mentions, p
        self.index = {id(t): i for i, t in enumerate(toks)}

    def __contains__(self, t: Tok) -> bool:
        i = self.index.get(id(t))
        return i is not None and self.test(self.toks, i, self.mentions, self.p)
