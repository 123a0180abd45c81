"""Whether a token can name a record type at all, wherever it stands: nouns, not UI words,
function words, adjectives, formats (acronyms), brand-like capitalised words or verbs."""

from __future__ import annotations

from harness.offline.spec.wordsets import word_set
from harness.offline.spec import lexicon as lx
from harness.offline.spec import lexicon_roles as rl
from harness.offline.spec.tokens import Tok

_MAX_WORD = 40
FIELD_WORDS = (lx.INT_WORDS | lx.FLOAT_WORDS | lx.DATE_WORDS | lx.DATETIME_WORDS | lx.BOOL_WORDS
                | lx.TEXT_WORDS) - lx.FIELD_NOUNS
_NON_ENTITY = (lx.FUNCTION | lx.META | lx.ADJECTIVES | lx.DOMAIN_AREAS | lx.FIELD_ONLY | rl.UI_WORDS
               | rl.PARTICLES | rl.CAPABILITY_NOUNS | rl.STORAGE_WORDS | (rl.ACTOR_WORDS - {"member", "members"})
               | lx.DETERMINERS | lx.QUANTIFIERS | lx.NEG_CONTRACTIONS | lx.STATE_WORDS
               | lx.QUANTITY_WORDS
               | rl.CONTEXT_WORDS - word_set("nouns.context_records"))
# Domain areas that are countable places: their plural names records ("shops", "restaurants"),
# and once it does, so does the singular ("each order belongs to a shop"; entities._mentions).
PLACES = word_set("nouns.places") & lx.DOMAIN_AREAS
_EACH = word_set("nouns.each_record")
_PLURAL_RECORDS = word_set("nouns.plural_records")
_BOOKED_UI = word_set("nouns.booked_ui_words")
_BOOKING = word_set("nouns.booking_words")


def singular_name(w: str) -> str:
    """Singular of a (possibly multi-word) noun: only the last word is inflected."""
    head, _, last = w.rpartition(" ")
    sing = lx.singularize(last)
    return f"{head} {sing}" if head else sing


_VERB_FORMS = frozenset(f for v in lx.VERBS for f in (v, v + "s", v + "es", v[:-1] + "ies"
                                                      if v.endswith("y") else v + "s")) - lx.VERB_NOUNS


def is_noun(toks: list[Tok], i: int) -> bool:
    """Whether token i can name a record type (an entity candidate), wherever it stands."""
    if not 0 <= i < len(toks):
        return False
    t = toks[i]
    w = t.w
    if t.used or not w or not w[0].isalpha() or "." in w or "@" in w or any(c.isdigit() for c in w):
        return False
    if " " in w:
        return True
    if w in lx.KEY_COLUMNS or w.endswith("_id"):
        return False   # "id (PK)", "category_id (FK)": key columns of a table, never a record type
    if "-" in w:
        return False   # "real-time", "user-friendly": compound modifiers
    sing = singular_name(w)
    if word_at(toks, i - 1) == "to" and rl.is_entity_verb(w) and sing == w:
        return False   # "an app to track service records": the verb, not a record of tracks
    if w in _BOOKED_UI and any(other.w in _BOOKING for other in toks):
        return True   # "tables and bookings": a restaurant's tables, not an HTML table
    if not 2 <= len(w) <= _MAX_WORD or w in _NON_ENTITY or (sing in _NON_ENTITY and not (
            sing != w and sing in PLACES | _PLURAL_RECORDS)):
        return False   # "an online shop" is the app's domain; "manage shops and orders" names records
    if w in FIELD_WORDS and sing == w and not (word_at(toks, i - 1) in _EACH and word_at(toks, i + 1) in lx.HAVE):
        return False   # "the total", "a rating": a column; "budgets", "ratings", "each note has" may be records
    if sing in lx.NON_GOAL_WORDS or lx.pluralize(sing) in lx.NON_GOAL_WORDS:
        return False   # "io" -> "ios" would read as the mobile-app non-goal
    if t.brand or t.acronym:
        return False
    plural = sing != w
    if w.endswith("ly") and w not in lx.NOUN_LY:
        return False   # adverbs
    if w.endswith(rl.NON_NOUN_SUFFIXES) and len(w) > 5 and w not in lx.KNOWN_ENGLISH \
            and sing not in lx.VERB_NOUNS:
        return False   # "comprehensive", "optimize" (not "exercises": the plural of a noun)
    if _imperative(toks, i):
        return False   # "Fetch the recipes", "Ensure that ..."
    if not plural and ((w.endswith("ing") and w not in lx.NOUN_ING) or (w.endswith("ed") and len(w) > 4)):
        return False   # gerunds and participles
    if sing in lx.VERB_NOUNS:   # "book", "log": a noun after a determiner, adjectives between ("a new book")
        k = i - 1
        while k > 0 and word_at(toks, k) in lx.ADJECTIVES:
            k -= 1
        return plural or word_at(toks, k) in lx.DETERMINERS or word_at(toks, i + 1) in lx.APP_HEADS
    if w in lx.NOUN_ING or sing in lx.TITLE_NOUNS:
        return True
    return w not in _VERB_FORMS and sing not in _VERB_FORMS and not rl.is_supported_verb(w)


def _imperative(toks: list[Tok], i: int) -> bool:
    """A clause-initial word followed by a determiner is a verb ("Streamline the process")."""
    j = i - 1
    if j >= 0 and toks[j].clause == toks[i].clause and toks[j].w not in (".", ":", ";"):
        return False
    return word_at(toks, i + 1) in lx.DETERMINERS | word_set("nouns.imperative_objects")


def mark_brands(toks: list[Tok]) -> None:
    """Flag capitalised unknown words inside mostly lowercase clauses (Stripe, Airbnb, Notion),
    and acronyms (GIF, PDF, SMS) outside all-capitals clauses: formats and technologies."""
    by_clause: dict[int, list[Tok]] = {}
    for t in toks:
        if t.orig[:1].isalpha():
            by_clause.setdefault(t.clause, []).append(t)
    # "register members for classes … create and edit Members": a word the request also writes in
    # lowercase is that word, capitalised for emphasis or as a bullet's label, not a product name
    lowercase = {lx.singularize(t.w) for t in toks if t.orig[:1].islower()}
    for same in by_clause.values():
        caps = [t for t in same if _is_acronym(t.orig)]
        if len(caps) * 2 < len(same):
            for t in caps:
                t.acronym = True
        if sum(1 for t in same if t.orig[:1].isupper()) * 2 >= len(same):
            continue   # Title Case or ALL CAPS clause: capitals say nothing
        for t in same[1:]:
            if t.orig[:1].isupper() and t.w not in lx.KNOWN_ENGLISH and t.w not in lx.TITLE_NOUNS \
                    and lx.singularize(t.w) not in lx.KNOWN_ENGLISH and lx.singularize(t.w) not in lowercase:
                t.brand = True


def _is_acronym(orig: str) -> bool:
    """ "GIF", "GIFs", "PDF": 2-5 capitals, an optional plural s."""
    core = orig[:-1] if orig.endswith("s") else orig
    return 2 <= len(core) <= 5 and core.isalpha() and core.isascii() and core.isupper()


def word_at(toks: list[Tok], i: int) -> str:
    return toks[i].w if 0 <= i < len(toks) else ""
