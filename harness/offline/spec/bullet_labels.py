"""Inline bullet labels: "* Plant List: Add plants to your collection by entering ...".

A short Title Case label before a colon, followed by a sentence (a verb, an adverb, a pronoun or
an article starts it), only names the bullet; the sentence after it carries the ask. Its words
are context, never a record type ("Hydration Tracking:") nor a field trigger ("Journal Entries:
Type and save ..." is no field named "type"). A label followed by a list ("Products: name,
price") is left to the field rules.
"""

from __future__ import annotations

from harness.offline.spec import lexicon as lx
from harness.offline.spec import lexicon_roles as rl
from harness.offline.spec.tokens import Tok
from harness.offline.spec.wordsets import word_set

_LABEL_WORDS = 4
_SENTENCE_STARTS = word_set("bullet_labels.sentence_starts")


def _starts_sentence(toks: list[Tok], k: int) -> bool:
    if k >= len(toks) or not toks[k].orig[:1].isupper():
        return False
    w = toks[k].w
    verb = w in lx.VERBS or rl.is_supported_verb(w)
    if k + 1 < len(toks) and toks[k + 1].w in lx.SEPARATORS and not (
            verb and k + 2 < len(toks) and (toks[k + 2].w in lx.VERBS or rl.is_supported_verb(toks[k + 2].w))):
        return False   # "Products: Name, Price": a list of fields ("Type and save notes" is a sentence)
    return w in _SENTENCE_STARTS or w in lx.VERBS or rl.is_supported_verb(w) or w.endswith("ly") \
        or w.endswith("s") and w[:-1] in lx.VERBS   # "Resets the counter"


def mark_bullet_labels(toks: list[Tok]) -> None:
    """Mark the label words of "Label Words: Sentence ..." clauses (and their colon) as context."""
    start = 0
    for k, t in enumerate(toks):
        if k and toks[k - 1].clause != t.clause:
            start = k
        if t.w != ":" or t.used:
            continue
        label = toks[start:k]
        if not 1 <= len(label) <= _LABEL_WORDS or not all(x.orig[:1].isupper() for x in label if x.orig[:1].isalpha()):
            continue
        if any(x.used or not x.w[:1].isalpha() for x in label) or not _starts_sentence(toks, k + 1):
            continue
        for x in (*label, t):
            x.used, x.role = True, "context"
