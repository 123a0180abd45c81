"""Word classes for clause accounting: what the offline generator positively understands.

The default is flipped: a content word of a clause that no rule recognises makes the clause
`not_built`. These lists name what IS understood (verbs the generated CRUD app performs, words
that only frame a request), never what is not.
"""

from __future__ import annotations

from harness.offline.spec.wordsets import word_set


ENTITY_VERBS = word_set("lexicon_roles.entity_verbs")
# Verbs the generated CRUD app performs, or that only frame the ask ("I want", "users can").
SUPPORTED_VERBS = ENTITY_VERBS | word_set("lexicon_roles.supported_verbs_extra")
CONTEXT_WORDS = word_set("lexicon_roles.context_words")
UI_WORDS = word_set("lexicon_roles.ui_words")
# "I am a teacher", "as a manager": the noun after these is who asks, not what to store.
SELF_INTRO = (("i", "am"), ("i'm", None), ("im", None), ("we", "are"), ("we're", None),
              ("as", "a"), ("as", "an"), ("i", "run"), ("we", "run"), ("i", "own"), ("i", "work"))
PARTICLES = word_set("lexicon_roles.particles")
CAPABILITY_NOUNS = word_set("lexicon_roles.capability_nouns")
STORAGE_WORDS = word_set("lexicon_roles.storage_words")
LOCAL_RUN_WORDS = word_set("lexicon_roles.local_run_words")
NAV_HEADS = word_set("lexicon_roles.nav_heads")
ACCOUNT_WORDS = word_set("lexicon_roles.account_words")
# Suffixes of adjectives and verbs that are never record types ("comprehensive", "optimize").
NON_NOUN_SUFFIXES = ("ive", "ous", "ful", "ible", "ize", "ise", "ify", "izes", "ises")
ACTOR_WORDS = word_set("lexicon_roles.actor_words")


def verb_base(word: str) -> str:
    """A verb's base form for the inflections this parser meets (adds, added, adding)."""
    for suffix, repl in (("ies", "y"), ("ied", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            base = word[: -len(suffix)] + repl
            if base in SUPPORTED_VERBS or base + "e" in SUPPORTED_VERBS:
                return base if base in SUPPORTED_VERBS else base + "e"
            if len(base) > 3 and base[-1] == base[-2] and base[:-1] in SUPPORTED_VERBS:
                return base[:-1]   # "logged", "mapping"
    return word


def is_supported_verb(word: str) -> bool:
    return word in SUPPORTED_VERBS or verb_base(word) in SUPPORTED_VERBS


def is_entity_verb(word: str) -> bool:
    return word in ENTITY_VERBS or verb_base(word) in ENTITY_VERBS
