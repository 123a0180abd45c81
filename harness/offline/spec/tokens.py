"""Request text -> tokens: NFC, Vietnamese phrases mapped to English, accents folded, phrases merged.

A token keeps the user's own text (`orig`) next to the normalized English word (`w`), so titles
and unsupported-feature texts can quote the request while the rules read English.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from harness.offline.spec import lexicon as lx
from harness.offline.spec import lexicon_vi as vlx
from harness.offline.generator.naming import ascii_fold
from harness.offline.spec.wordsets import word_set

_LINK_RE = re.compile(r"(?:https?://|www\.)\S+|[\w.+-]+@[\w-]+\.[\w.]+")
LINK = "@link"      # a URL or e-mail address: context, never a name
# A plural possessive keeps its apostrophe ("users' recipes"), so the owner reads as one.
_TOKEN_RE = re.compile(r"\w+(?:[-'’.$]\w+)*(?:(?<=s)['’](?=\s+\w))?|->|=>|→|[,;:.!?()/&+|]")


@dataclass
class Tok:
    w: str              # normalized lowercase English word or punctuation ("" = ignored word)
    orig: str           # the user's own text for this token
    used: bool = False  # consumed by an earlier pass
    clause: int = 0     # index of the request clause the token comes from
    role: str = ""      # what consumed it: "entity:task", "field:task", "auth", "context" ...
    brand: bool = False  # a capitalised unknown word inside a lowercase clause (Stripe, Notion)
    acronym: bool = False  # "GIF", "PDF" outside an all-capitals clause: a format, never a record
    possessive: bool = False  # "user's", "users'": the word owns what follows it


def tokenize(request: str, vi: bool | None = None) -> tuple[list[Tok], bool, list[str]]:
    """Tokens of `request` (Vietnamese phrases mapped to English), whether it is Vietnamese, and
    the Vietnamese words the lexicon does not know."""
    text = unicodedata.normalize("NFC", request or "")
    if vi is None:
        vi = any(ch in vlx.VI_MARKERS for ch in text.lower())
    links = _LINK_RE.findall(text)
    text = _LINK_RE.sub(" \x00 ", text)
    text = text.replace("\x00", " LINKTOKEN ")
    raw = [_unquoted(text, m) for m in _TOKEN_RE.finditer(text)]
    ignored: list[str] = []
    # ascii_fold drops a curly apostrophe: "user’s" read as "users"
    toks = _map_vietnamese(raw, ignored) if vi else [Tok(ascii_fold(r.lower().replace("’", "'")), r) for r in raw]
    for t in toks:
        if t.orig == "LINKTOKEN":
            t.w, t.orig = LINK, links.pop(0) if links else ""
            continue
        t.w = lx.HYPHEN_FORMS.get(t.w, "->" if t.w in ("=>", "→") else t.w)
        if _CAMEL.fullmatch(t.orig) and t.w not in lx.TECH_WORDS:
            t.w = _CAMEL_CUT.sub("_", t.orig).lower()   # "deliveryOn": the field delivery_on
        if t.w.endswith(("'s", "’s")):
            t.w, t.possessive = t.w[:-2], True
        elif t.w.endswith(("s'", "s’")):
            t.w, t.possessive = t.w[:-1], True
    for k in range(1, len(toks) - 1):
        if toks[k].w == "ex" and toks[k - 1].w == "(" and toks[k + 1].w == ".":
            toks[k].w = "e.g"   # "(ex. hours of sleep)": an example, as "(e.g. ...)"
    return _merge_phrases(toks), vi, ignored


# A name written as code, camelCase ("deliveryOn", "totalPrice"): one word, its parts joined by "_"
# as in a column; a brand with one lowercase letter first ("iPhone", "eBay") is none.
_CAMEL = re.compile(r"[a-z]{2,}(?:[A-Z][a-z]+)+")
_CAMEL_CUT = re.compile(r"(?<=[a-z])(?=[A-Z])")


def _unquoted(text: str, match: re.Match) -> str:
    """A token without the closing quote of a quoted word ("'projects' and"): no possessive."""
    token = match.group()
    if token[-1:] in ("'", "’") and match.start() > 0 and text[match.start() - 1] in "'’‘":
        return token[:-1]
    return token


def tokenize_clauses(clauses: list[str]) -> tuple[list[Tok], bool, list[str]]:
    """Tokens of every clause in order, each tagged with its clause index; a "." token separates
    clauses so no pattern reaches across two of them."""
    vi = any(ch in vlx.VI_MARKERS for text in clauses for ch in unicodedata.normalize("NFC", text).lower())
    out: list[Tok] = []
    ignored: list[str] = []
    for k, text in enumerate(clauses):
        toks, _vi, ign = tokenize(text, vi)
        for t in toks:
            t.clause = k
        out.extend(toks)
        out.append(Tok(".", "", clause=k))
        ignored.extend(ign)
    return out, vi, ignored


def _map_vietnamese(raw: list[str], ignored: list[str]) -> list[Tok]:
    out: list[Tok] = []
    passthrough: list[int] = []
    i = 0
    while i < len(raw):
        for n in range(min(vlx.VI_MAX_WORDS, len(raw) - i), 0, -1):
            key = tuple(vlx.normalize_vi(r.lower()) for r in raw[i:i + n])
            if key in vlx.VI_LEXICON:
                english = vlx.VI_LEXICON[key].lower().split()
                origs = [" ".join(raw[i:i + n])] + [""] * (len(english) - 1)
                out.extend(Tok(w, o) for w, o in zip(english, origs))
                i += n
                break
        else:
            low = raw[i].lower()
            out.append(Tok(low if low.isascii() else "", raw[i]))
            passthrough.append(len(out) - 1)
            i += 1
    # An unknown ASCII word next to an unknown Vietnamese one is a syllable of it ("khủng long").
    unknown = [k for k in passthrough if not out[k].w]
    for k in passthrough:
        near = any(0 <= n < len(out) and not out[n].w for n in (k - 1, k + 1))
        if out[k].w and out[k].w[0].isalpha() and near and out[k].w not in lx.KNOWN_ENGLISH:
            unknown.append(k)
    for k in sorted(unknown):
        out[k].w = ""
        ignored.append(out[k].orig)
    return out


def _merge_phrases(toks: list[Tok]) -> list[Tok]:
    out: list[Tok] = []
    i = 0
    while i < len(toks):
        pair = (toks[i].w, toks[i + 1].w) if i + 1 < len(toks) else None
        if pair in lx.PHRASES:
            out.append(Tok(lx.PHRASES[pair], f"{toks[i].orig} {toks[i + 1].orig}".strip()))
            i += 2
        elif pair and pair[0] in _JOURNALS and pair[1] in word_set("tokens.entry_heads"):
            out.append(Tok(" ".join(pair), f"{toks[i].orig} {toks[i + 1].orig}"))   # "journal entries"
            i += 2
        elif pair and _applied_for(toks, i):   # "job applications": one record, not the app
            out.append(Tok(" ".join(pair), f"{toks[i].orig} {toks[i + 1].orig}"))
            i += 2
        elif pair and _entry_of(*pair):   # "a plant entry", "book entries": plants, books
            plural = pair[1] == "entries"
            out.append(Tok(lx.pluralize(pair[0]) if plural else pair[0], f"{toks[i].orig} {toks[i + 1].orig}"))
            i += 2
        else:
            out.append(toks[i])
            i += 1
    return out


_JOURNALS = word_set("tokens.journals")
_ENTRY_CONTAINERS = word_set("tokens.entry_containers")


def _applied_for(toks: list[Tok], i: int) -> bool:
    """Whether toks[i] toks[i + 1] is "<noun> applications" ("job applications", "adoption
    applications"): a plural app word after a noun that is no app kind, adjective or verb."""
    word, head = toks[i].w, toks[i + 1].w
    if lx.singularize(head) == head or lx.singularize(head) not in word_set("nouns.plural_records"):
        return False
    if i and toks[i - 1].w in word_set("tokens.verb_markers"):
        return False   # "to review applications"
    return word.isalpha() and word.isascii() and len(word) > 2 and lx.singularize(word) == word \
        and word not in lx.FUNCTION and word not in lx.META and word not in lx.ADJECTIVES \
        and word not in lx.DETERMINERS and word not in lx.QUANTIFIERS and not word.endswith(("ing", "ed", "ly"))


def _entry_of(word: str, head: str) -> bool:
    """Whether "<word> entry" names a record of `word` ("plant entry" -> a plant)."""
    return head in word_set("tokens.entry_heads") and word.isalpha() and word.isascii() and len(word) > 2 \
        and lx.singularize(word) == word and word not in _ENTRY_CONTAINERS and word not in lx.FUNCTION \
        and word not in lx.META and word not in lx.ADJECTIVES and word not in lx.DETERMINERS \
        and word not in lx.QUANTIFIERS and not word.endswith(("ing", "ed", "ly"))
