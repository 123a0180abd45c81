"""Subject fields: "ads about services", "posts about a topic", "complaints about a product".

The noun after `about` that directly follows a record names what each record is about: a
short-text field of that record. A noun that names another record is left to the relation rules.
(The other way round, "information about the property", is rows of patterns/field_lists.jsonl.)
"""

from __future__ import annotations

from harness.offline.spec import lexicon as lx
from harness.offline.spec.build import Parsed
from harness.offline.spec.fields import FieldItem
from harness.offline.spec.nouns import is_noun, singular_name
from harness.offline.spec.pass_helpers import use, word
from harness.offline.spec.tokens import Tok


def find_about_fields(toks: list[Tok], mentions: dict[int, str], p: Parsed) -> None:
    """Add the subject field of every "<record> about <noun>" and mark those words as that field."""
    for i, entity in sorted(mentions.items()):
        if word(toks, i + 1) != "about":
            continue
        k = i + 2
        while word(toks, k) in lx.DETERMINERS:
            k += 1
        if k >= len(toks) or toks[k].used or toks[k].clause != toks[i].clause or not _subject_noun(toks, k):
            continue
        name = singular_name(toks[k].w)
        if name in p.entities or name == entity:
            continue
        items = p.fields.setdefault(entity, [])
        if all(it.label != name for it in items):
            items.append(FieldItem(words=[name]))
        for t in toks[i + 1:k + 1]:
            use(t, f"field:{entity}")


def _subject_noun(toks: list[Tok], k: int) -> bool:
    """A noun that can name a record's subject: an entity-like noun, or a product word ("services",
    "tools") that is never a record of its own but is a fine thing for an ad or a post to be about."""
    w = toks[k].w
    return is_noun(toks, k) or (w.isalpha() and singular_name(w) in lx.APP_HEADS)
