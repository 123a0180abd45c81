"""The word lists of the accounting (data files in harness/offline/words/, beside the parser's
word sets), the tokenizer and the stemmer. Nothing here reads the offline parser's conclusions; the Vietnamese phrase table is
read as a dictionary only (what a phrase means in English)."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from pathlib import Path

WORDS_DIR = Path(__file__).resolve().parent.parent / "words"   # shared with the parser's word sets
VI_MARKS = frozenset("ăâđêôơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ")
_TOKEN = re.compile(r"[^\W_]+(?:['’.\-][^\W_]+)*", re.UNICODE)
_IRREGULAR = {"people": "person", "children": "child", "men": "man", "women": "woman", "mice": "mouse",
              "feet": "foot", "teeth": "tooth", "geese": "goose", "data": "datum", "media": "medium",
              "indices": "index", "statuses": "status", "analyses": "analysis", "wrote": "write"}


def _lines(name: str) -> list[str]:
    text = (WORDS_DIR / name).read_text(encoding="utf-8")
    return [line.split("#", 1)[0].strip() for line in text.splitlines() if line.split("#", 1)[0].strip()]


@lru_cache(maxsize=None)
def word_list(name: str) -> frozenset[str]:
    """Every word of a list file (stemmed for English, syllables as written for Vietnamese)."""
    words = [w.lower() for line in _lines(name) for w in line.split()]
    if name.endswith("_vi.txt"):
        return frozenset(unicodedata.normalize("NFC", w) for w in words)
    return frozenset(stem(w) for w in words)


@lru_cache(maxsize=None)
def keyed_words(name: str) -> dict[str, frozenset[str]]:
    """key -> the stems of its words, from a "key: words" list file (lines of one key add up)."""
    out: dict[str, frozenset[str]] = {}
    for line in _lines(name):
        key, _, words = line.rpartition(":")
        out[key.strip()] = out.get(key.strip(), frozenset()) | frozenset(stem(w) for w in words.split())
    return out


@lru_cache(maxsize=None)
def keyed_forms(name: str) -> dict[str, frozenset[str]]:
    """key -> its words exactly as written (lower case), from a "key: words" list file: for closed
    words a crude stem would confuse ("notes" and "not" share one)."""
    out: dict[str, frozenset[str]] = {}
    for line in _lines(name):
        key, _, words = line.rpartition(":")
        out[key.strip()] = out.get(key.strip(), frozenset()) | frozenset(w.lower() for w in words.split())
    return out


@lru_cache(maxsize=None)
def word_groups(name: str) -> tuple[frozenset[str], ...]:
    """The stems of each line of a list file, one group a line (same_records_en.txt)."""
    return tuple(frozenset(stem(w.lower()) for w in line.split()) for line in _lines(name))


CLOSED_FILE = "accounting_closed_en.txt"


def closed(key: str) -> frozenset[str]:
    """One closed word class of the accounting's checks, exact forms (accounting_closed_en.txt);
    an unknown key is a KeyError, never an empty class."""
    return keyed_forms(CLOSED_FILE)[key]


def closed_stems(key: str) -> frozenset[str]:
    """The same class as stems (for a check that compares stems)."""
    return keyed_words(CLOSED_FILE)[key]


@lru_cache(maxsize=None)
def closed_phrases(key: str) -> tuple[tuple[str, ...], ...]:
    """A class of phrases in the file's order ("+" joins a phrase's words): tried first to last."""
    for line in _lines(CLOSED_FILE):
        name, _, words = line.rpartition(":")
        if name.strip() == key:
            return tuple(tuple(p.lower().split("+")) for p in words.split())
    raise KeyError(key)


def element_words() -> dict[str, frozenset[str]]:
    """element key ("auth", "feature:search" …) -> the stems it realises (elements_en.txt)."""
    return keyed_words("elements_en.txt")


def stem(word: str) -> str:
    """A crude, symmetric English stem: "bookings", "booked", "booking" and "book" meet."""
    w, cut = _stem_parts(word)
    return w[:-1] if cut is not None and w.endswith("e") and len(w) > 3 else w


def same_listed_word(word: str, forms: frozenset[tuple[str, bool | None]]) -> bool:
    """Whether `word` is one of a list's words, not only a word with the same crude stem: the stem
    drops a final "e", so "theme" meets "them" and "notes" meets "not". Two words without an -ing/-ed
    ending must agree on that "e" ("managing" still meets "manage"). `forms` are the list's words
    as `_stem_parts` gives them."""
    light, cut = _stem_parts(word)
    return any(cut or other_cut or light == other for other, other_cut in forms)


def same_form(word: str, forms: frozenset[tuple[str, bool | None]]) -> bool:
    """Whether `word` is one of a closed list's words as written there (a plural "s" aside): a
    function word is never inflected, so "owned" is not the "own" of "my own" (trial 2026-12-07e
    F1: "Item can be owned by a user" was reported built, "owned" accounted as a function word)."""
    light, cut = _stem_parts(word)
    return any(light == other and bool(cut) == bool(other_cut) for other, other_cut in forms)


@lru_cache(maxsize=None)
def listed_forms(name: str) -> dict[str, frozenset[tuple[str, bool | None]]]:
    """stem -> the words of an English list file (plain or "key: words") that have it, as
    `_stem_parts` gives them."""
    out: dict[str, set[tuple[str, bool | None]]] = {}
    for line in _lines(name):
        for w in line.rpartition(":")[2].lower().split():
            out.setdefault(stem(w), set()).add(_stem_parts(w))
    return {s: frozenset(forms) for s, forms in out.items()}


def _stem_parts(word: str) -> tuple[str, bool | None]:
    """The stem before its final "e" is dropped, and whether an -ing/-ed ending was cut (None for a
    word the stemmer leaves as it is: short, irregular or not all letters)."""
    w = word.lower().replace("’", "'")
    if w.endswith("'s"):
        w = w[:-2]
    w = w.rstrip("'")
    if w in _IRREGULAR:
        return _IRREGULAR[w], None
    if not w.isalpha() or len(w) <= 3:
        return w, None
    if w.endswith("ies") and len(w) > 4:
        w = w[:-3] + "y"
    elif w.endswith(("sses", "ches", "shes", "xes", "zes")):
        w = w[:-2]
    elif w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    for suffix, keep in (("ing", 4), ("ed", 4)):
        if w.endswith(suffix) and len(w) - len(suffix) >= keep - 1:
            w = w[:-len(suffix)]
            if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "lsz":
                w = w[:-1]   # "planned" -> "plan"
            return w, True
    return w, False


def is_vietnamese(text: str) -> bool:
    return any(ch in VI_MARKS for ch in unicodedata.normalize("NFC", text).lower())


def tokens(text: str) -> list[str]:
    """The words of `text` as written (numbers included, punctuation and emoji dropped)."""
    return [m.group(0).rstrip(".") for m in _TOKEN.finditer(unicodedata.normalize("NFC", text))]


def token_gaps(text: str) -> list[str]:
    """For each word of `tokens(text)`, the text between it and the word before it (",", " & ", " "):
    where a list of items is separated."""
    text = unicodedata.normalize("NFC", text)
    out, end = [], 0
    for m in _TOKEN.finditer(text):
        out.append(text[end:m.start()])
        end = m.end()
    return out


def example_indices(text: str) -> set[int]:
    """The indices (into `tokens(text)`) of the words that give example values: a bracketed
    example's opener and its quoted values (harness/utils/request_text.py)."""
    from harness.utils.request_text import example_value_spans

    text = unicodedata.normalize("NFC", text)
    spans = example_value_spans(text)
    return {i for i, m in enumerate(_TOKEN.finditer(text)) if any(a <= m.start() < b for a, b in spans)}


@lru_cache(maxsize=1)
def vi_phrases() -> tuple[dict[tuple[str, ...], str], int]:
    """Vietnamese phrase (syllables) -> English words, and the longest phrase's length."""
    from harness.offline.spec.lexicon_vi import VI_LEXICON, VI_MAX_WORDS

    return dict(VI_LEXICON), VI_MAX_WORDS


def vi_norm(syllable: str) -> str:
    from harness.offline.spec.lexicon_vi import normalize_vi

    return normalize_vi(unicodedata.normalize("NFC", syllable.lower()))
