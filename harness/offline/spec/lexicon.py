"""Vocabulary for the rule-based spec parser: English word classes and number inflection.

The word classes are data: harness/offline/words/word_classes.toml, section [lexicon] (wordsets.py);
here they get their names, are combined, and two pure functions (`singularize`, `pluralize`)
inflect. The Vietnamese phrase table lives in lexicon_vi.py. Sets are used only for membership
tests; everything that is iterated is a tuple or a dict (stable order).
"""

from __future__ import annotations

from harness.offline.spec.wordsets import word_map, word_set


# --- word classes (English, lowercase, accents folded) -------------------------------------------

FUNCTION = word_set("lexicon.function")

DETERMINERS = word_set("lexicon.determiners")

REL_PRONOUNS = word_set("lexicon.rel_pronouns")
NEG_CONTRACTIONS = word_set("lexicon.neg_contractions")
FEEDBACK_NOUNS = word_set("lexicon.feedback_nouns")
FEEDBACK_VERBS = word_set("lexicon.feedback_verbs")
STATUS_WORDS = word_set("lexicon.status_words")
WHEN_WORDS = word_set("lexicon.when_words")
# Pronoun + auxiliary contractions ("any workouts they've saved", "we're adding"): function words,
# like the pronoun and auxiliary they stand for.
PRONOUN_CONTRACTIONS = frozenset(f"{pronoun}'{aux}" for pronoun in word_set("lexicon.contraction_pronouns")
                                 for aux in word_set("lexicon.contraction_auxes"))
FUNCTION = FUNCTION | PRONOUN_CONTRACTIONS
MODALS = word_set("lexicon.modals") | NEG_CONTRACTIONS
NEGATIONS = word_set("lexicon.negations") | NEG_CONTRACTIONS
KEY_COLUMNS = word_set("lexicon.key_columns")
PRIMARY_KEY_WORDS = word_set("lexicon.primary_key_words")

VERBS = word_set("lexicon.verbs")

COUNTED_META = word_set("lexicon.counted_meta")

VERB_NOUNS = word_set("lexicon.verb_nouns")

META = word_set("lexicon.meta")

ADJECTIVES = word_set("lexicon.adjectives")

DOMAIN_AREAS = word_set("lexicon.domain_areas")


NOUN_ING = word_set("lexicon.noun_ing")
STATE_WORDS = word_set("lexicon.state_words")
QUANTITY_WORDS = word_set("lexicon.quantity_words")
NOUN_LY = word_set("lexicon.noun_ly")
PEOPLE_SUBJECTS = word_set("lexicon.people_subjects")

AUTH = word_set("lexicon.auth")
DASHBOARD = word_set("lexicon.dashboard")
COMPLETE = word_set("lexicon.complete")
PAGE_WORDS = word_set("lexicon.page_words")
API_WORDS = word_set("lexicon.api_words")
FRAMEWORKS = word_map("lexicon.frameworks")
OTHER_BACKENDS = word_map("lexicon.other_backends")
OTHER_DBS = word_map("lexicon.other_dbs")
BROWSER_STORES = word_map("lexicon.browser_stores")
STACK_NAMES = word_map("lexicon.stack_names")
# Stack names a request may write in camelCase ("localStorage", "indexedDB"): names, not columns.
TECH_WORDS = frozenset(FRAMEWORKS) | frozenset(OTHER_BACKENDS) | frozenset(OTHER_DBS) \
    | frozenset(BROWSER_STORES) | frozenset(STACK_NAMES)

APP_HEADS = word_set("lexicon.app_heads")
TITLE_HEADS = word_set("lexicon.title_heads")
COLLECTION_HEADS = word_set("lexicon.collection_heads")

TITLE_NOUNS = word_set("lexicon.title_nouns")
UNNAMED_NOUNS = word_set("lexicon.unnamed_nouns")
INSTANCE_NOUNS = word_set("lexicon.instance_nouns")
STATUS_NOUNS = word_set("lexicon.status_nouns")

FIELD_ONLY = word_set("lexicon.field_only")
INT_WORDS = word_set("lexicon.int_words")
FLOAT_WORDS = word_set("lexicon.float_words")
DATE_WORDS = word_set("lexicon.date_words")
DATETIME_WORDS = word_set("lexicon.datetime_words")
BOOL_WORDS = word_set("lexicon.bool_words")
TEXT_WORDS = word_set("lexicon.text_words")
STR_NUMBERS = word_set("lexicon.str_numbers")
FIELD_NOUNS = word_set("lexicon.field_nouns")
FIELD_VOCAB = (FIELD_ONLY | INT_WORDS | FLOAT_WORDS | DATE_WORDS | DATETIME_WORDS | BOOL_WORDS
               | TEXT_WORDS | FIELD_NOUNS | word_set("lexicon.field_extra"))
KEEP_PLURAL_FIELDS = word_set("lexicon.keep_plural_fields")
FIELD_SKIP = word_set("lexicon.field_skip")
FIELD_DROP = word_set("lexicon.field_drop")

# (parent, child) pairs that imply a relation when both are entities and nothing else was said.
KNOWN_PARENTS = tuple((parent, child) for child, parents in word_map("lexicon.known_parents").items()
                      for parent in parents.split())

# Multi-word English phrases merged into one token (after Vietnamese mapping).
PHRASES = {tuple(pair.split()): token for pair, token in word_map("lexicon.phrases").items()}
TYPE_ASIDES = word_map("lexicon.type_asides")
MEDIA_PLURALS = word_set("lexicon.media_plurals")
MEDIA_FILES = MEDIA_PLURALS | word_set("lexicon.file_plurals")
UNIT_TYPES = word_map("lexicon.unit_types")
HYPHEN_FORMS = word_map("lexicon.hyphen_forms")

SEPARATORS = word_set("lexicon.separators")
FIELD_TRIGGERS = word_set("lexicon.field_triggers")
LOOSE_TRIGGERS = word_set("lexicon.loose_triggers")
BELONG = word_set("lexicon.belong")
HAVE = word_set("lexicon.have")
ACTION_NOUNS = word_set("lexicon.action_nouns")
FILLER = word_set("lexicon.filler")
QUANTIFIERS = DETERMINERS | word_set("lexicon.quantifier_extra")

DEFAULT_NON_GOALS = ("deployment", "mobile-app", "browser-automation")
# Words the spec validator reads as those non-goals: never entity names, and an unsupported
# feature that uses one lifts that non-goal.
_NON_GOAL_OF = word_map("lexicon.non_goal_terms")
NON_GOAL_TERMS = {goal: frozenset(w for w, g in _NON_GOAL_OF.items() if g == goal) for goal in DEFAULT_NON_GOALS}
NON_GOAL_WORDS = frozenset().union(*NON_GOAL_TERMS.values())


# Words the rules know; in Vietnamese text they are never taken for a syllable ("deploy").
KNOWN_ENGLISH = (FUNCTION | VERBS | VERB_NOUNS | META | ADJECTIVES | DOMAIN_AREAS | AUTH | DASHBOARD
                 | COMPLETE | PAGE_WORDS | API_WORDS | FIELD_VOCAB | TITLE_NOUNS | frozenset(FRAMEWORKS)
                 | frozenset(BROWSER_STORES) | frozenset(STACK_NAMES) | word_set("lexicon.known_extra"))


# --- number inflection ----------------------------------------------------------------------------

_IRREGULAR = word_map("lexicon.irregular")
_IRREGULAR_PLURAL = {v: k for k, v in _IRREGULAR.items()}
_SAME = word_set("lexicon.same")
_IES_KEEP = word_set("lexicon.ies_keep")
_CH_KEEP = word_set("lexicon.ch_keep")
_S_SINGULAR_ENDS = ("ss", "us", "is")


def singularize(word: str) -> str:
    """The singular of an English noun (`word` lowercase); unknown forms come back unchanged."""
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if word in _SAME or len(word) < 3 or not word.endswith("s") or word.endswith(_S_SINGULAR_ENDS):
        return word
    if word.endswith("ies") and word not in _IES_KEEP:
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "zzes", "shes")) or (word.endswith("ches") and word not in _CH_KEEP):
        return word[:-3] if word.endswith("zzes") else word[:-2]
    return word[:-1]


def pluralize(word: str) -> str:
    """The plural of an English singular noun (`word` lowercase, last word inflected)."""
    head, _, last = word.rpartition(" ")
    prefix = head + " " if head else ""
    if last in _IRREGULAR_PLURAL:
        return prefix + _IRREGULAR_PLURAL[last]
    if last in _SAME:
        return word
    if last.endswith("y") and len(last) > 1 and last[-2] not in "aeiou":
        return prefix + last[:-1] + "ies"
    if last.endswith(("s", "x", "z", "ch", "sh")):
        return prefix + last + "es"
    return prefix + last + "s"
