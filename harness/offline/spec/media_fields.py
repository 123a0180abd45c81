"""Picture fields: "there should be a small picture of the dish on each row", "users can see a photo
showing what the item looks like": a picture someone sees is a field (a link to the image) of the
record it shows: the record named after "of", else the nearest record in the clause, else the
record the request is about (the one it names most often). Asking to upload, scan or capture one
is a file feature the offline generator does not build: such a clause adds no field.
"""

from __future__ import annotations

from harness.offline.spec import lexicon as lx
from harness.offline.spec.build import Parsed
from harness.offline.spec.fields import FieldItem, kind_for_name
from harness.offline.spec.pass_helpers import nearest, use, word
from harness.offline.spec.tokens import Tok
from harness.offline.spec.wordsets import word_set

MEDIA = word_set("media_fields.media")
_FILE_VERBS = word_set("media_fields.file_verbs")
_SIZES = word_set("media_fields.sizes")


def find_media_fields(toks: list[Tok], mentions: dict[int, str], p: Parsed) -> None:
    """Give the record each seen picture belongs to a picture field; mark the words it used."""
    main = _main_record(mentions)
    for i, t in enumerate(toks):
        if t.used or t.w not in MEDIA or not _in_noun_phrase(toks, i):
            continue
        clause = [k for k in range(len(toks)) if toks[k].clause == t.clause]
        if any(toks[k].w in _FILE_VERBS for k in clause):
            continue
        owner_at = _of_record(toks, i, mentions)
        entity = mentions.get(owner_at) if owner_at is not None else nearest(toks, i, mentions)
        if entity is None and not any(k in mentions for k in clause):
            entity = main
        if entity is None:
            continue
        items = p.fields.setdefault(entity, [])
        if not any(kind_for_name(it.words)[0] == "url" and it.words[-1] in MEDIA | {"photo", "image"}
                   for it in items):
            items.append(FieldItem(words=[lx.singularize(t.w)]))
        start = i
        while start > 0 and toks[start - 1].w in _SIZES and not toks[start - 1].used:
            start -= 1
        for k in range(start, i + 1):
            use(toks[k], f"field:{entity}")


def _in_noun_phrase(toks: list[Tok], i: int) -> bool:
    """ "a (small) picture", "the photo", "their avatar": the word is a noun someone has or sees."""
    k = i - 1
    while k >= 0 and toks[k].w in _SIZES:
        k -= 1
    return k >= 0 and (toks[k].w in lx.DETERMINERS or toks[k].w in ("its", "their", "his", "her", "each"))


def _of_record(toks: list[Tok], i: int, mentions: dict[int, str]) -> int | None:
    """ "a photo of the plant": the index of the record named after "of", else None."""
    if word(toks, i + 1) != "of":
        return None
    k = i + 2
    while word(toks, k) in lx.DETERMINERS or word(toks, k) in ("each", "every"):
        k += 1
    return k if k in mentions else None


def _main_record(mentions: dict[int, str]) -> str | None:
    """The record the request names most often (the earliest of a tie)."""
    counts: dict[str, int] = {}
    for k in sorted(mentions):
        counts[mentions[k]] = counts.get(mentions[k], 0) + 1
    return max(counts, key=counts.get) if counts else None
