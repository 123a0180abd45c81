"""The words of a clause that name the app ("Lifting Diary is a workout tracker", "an app called
Pantry", "a tool library app"): realised by the spec's title (docs/accounting.md, rule 3)."""

from __future__ import annotations

from harness.offline.accounting.elements import SpecWords
from harness.offline.accounting.lexicon import closed, keyed_words, stem, word_list


def app_name_words(toks: list[str], sw: SpecWords) -> set[int]:
    """ "Lifting Diary is a workout tracker", "an app called Pantry": the words that name the app,
    realised by its title."""
    low = [t.lower() for t in toks]
    out: set[int] = set()
    for k, w in enumerate(low):
        if w in ("called", "named"):
            j = k + 1
            while j < len(low) and low[j] in sw.title:
                out.add(j)
                j += 1
    if "is" in low[1:5]:
        head = low[:low.index("is", 1)]
        if head and all(w in sw.title for w in head):
            out.update(range(len(head)))
    title = {stem(w) for w in sw.title}
    kinds = keyed_words("app_names_en.txt")["kinds"]
    out.update(k for k in _naming_phrase(low) if stem(low[k]) in kinds and stem(low[k]) in title)
    return out


_NAME_DETS = closed("app name determiners")
_NAME_REACH = 4   # words between the determiner and the head


def _naming_phrase(low: list[str]) -> set[int]:
    """The words of the phrase naming the app (app_names_en.txt): "a tool library app", "our
    office's booking system", "a recipe catalog", "an app for my tool library"."""
    names = keyed_words("app_names_en.txt")
    heads, kinds, function = names["heads"], names["kinds"], word_list("function_en.txt")
    out: set[int] = set()
    for k, w in enumerate(low):
        if stem(w) not in heads:
            continue
        j = k - 1
        while j >= 0 and k - j <= _NAME_REACH and low[j] not in _NAME_DETS and stem(low[j]) not in function:
            j -= 1
        if j >= 0 and low[j] in _NAME_DETS and not (low[j] == "the" and stem(w) in kinds):
            out.update(range(j + 1, k + 1))
        if low[k + 1:k + 3] in (["for", "my"], ["for", "our"]):
            m = k + 3
            while m < len(low) and m - k - 3 < 3 and stem(low[m]) not in function:
                out.add(m)
                m += 1
    return out
