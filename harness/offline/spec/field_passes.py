"""Field passes of the rule-based spec: which words of the request are an entity's fields.

Each pass marks the tokens it recognises with a `field:<entity>` role and adds FieldItems to
`Parsed.fields`: field lists after a trigger ("with", "including", "(", ":", "to choose"), column
lists ("the columns must be ..."), bullet lists under "fields for:" / "Store:", and ratings with
their range ("1 to 5 stars").
"""

from __future__ import annotations

from harness.offline.spec import lexicon as lx
from harness.offline.spec.build import Parsed
from harness.offline.spec.entities import is_noun, singular_name
from harness.offline.spec.fields import DETAIL_WORDS, FieldItem, add_fields, parse_field_list, read_enum
from harness.offline.spec.fields_before_record import fields_for_each
from harness.offline.spec.list_subjects import COLUMN_WORDS, heading_record, intro_list
from harness.offline.spec.pass_helpers import STOPS, main_record, nearest, use, word
from harness.offline.spec.tokens import Tok
from harness.offline.spec.wordsets import word_set, word_sets

WORDS = word_sets("field_passes")


def find_field_lists(toks: list[Tok], p: Parsed) -> None:
    for i, t in enumerate(toks):
        if not t.used and _possessive(toks, i) and is_noun(toks, i):
            start, lead = _view_list_start(toks, i + 1)
            items, consumed = parse_field_list(toks, start, False, STOPS)
            if len(items) >= 2:   # "record each plant's name, species and watering date"
                add_fields(toks, p, i, t, items, consumed + lead)
                t.used, t.role = False, ""   # the noun itself stays an entity position
            continue
        ahead = fields_for_each(toks, i, lambda k: parse_field_list(toks, k, False, STOPS))
        if ahead is not None:   # "Input fields for title, amount, and date for each entry"
            add_fields(toks, p, ahead[0], t, ahead[1], ahead[2])
            continue
        if t.used or t.w not in _LIST_STARTS:
            continue
        if t.w == "(" and word(toks, i + 1) in WORDS.comparisons and word(toks, i + 2) == "than":
            continue   # "young animals (less than 2 years of age)": a condition on the records, not fields
        if t.w == "(" and word(toks, i + 1) in WORDS.condition_leads:
            continue   # "their exercise (based on when their account was made)": a sentence, not fields
        intro = intro_list(toks, i) if t.w == ":" and word(toks, i + 1) == "." else None
        if intro:   # "List of the recipes, with some key information:" + "Recipe ID, Brand, ..."
            j, items, consumed, links = intro
            p.field_subjects.extend(links)
            add_fields(toks, p, j, t, items, consumed)
            continue
        j = i - 1
        if t.w in WORDS.verb_triggers:   # "a booking form to choose date and time"
            while j >= 0 and (toks[j].w in lx.FILLER or toks[j].w in WORDS.form_gap or toks[j].w in WORDS.form_words):
                j -= 1
            framed = _framed_record(toks, i) if t.w in WORDS.record_verbs else None
            if framed is not None:   # "With respect to owners the system shall: Store first name, ..."
                j, frame = framed
            elif j < 0 or not is_noun(toks, j) or j == i - 1 and not t.w.endswith("ing") \
                    and word(toks, j - 1) not in WORDS.each \
                    and (t.w not in WORDS.record_verbs or toks[j].w in lx.AUTH):
                continue   # "members specifying", "for each member record", "invoices store" (not "users store")
            aside = t.w.endswith("ing") and toks[i - 1].w == ","   # "workouts, recording the exercise, ..."
            links: list[int] = []
            items, consumed = parse_field_list(toks, i + 1, not aside, STOPS, links=links)
            refs = [k for k in links if lx.singularize(toks[k].w) == toks[k].w]
            if items and refs:   # "visits record the pet, the visit date ...": a reference to the pet
                items, consumed = items + [FieldItem(words=[toks[k].w]) for k in refs], consumed + refs
            p.field_subjects.extend(k for k in links if k not in refs)
            if framed is not None and items:   # "Store first name, ... and list of pets": the owner's pets
                k = max(consumed) + 1
                while word(toks, k) in WORDS.child_leads:
                    k += 1
                if is_noun(toks, k) and lx.singularize(toks[k].w) != toks[k].w:
                    p.listed_children.append((j, k))
            if items and t.w in WORDS.records and j == i - 1 and word(toks, max(consumed, default=i) + 1) not in (".", "", ";"):
                continue   # "doctors record notes for each visit": whose notes is said after the list
            if items:
                add_fields(toks, p, j, t, items, consumed + (frame if framed is not None else []))
            continue
        comma = False
        while j >= 0 and (toks[j].w in lx.FILLER or t.w == "(" and not toks[j].w and toks[j].orig):
            j -= 1   # "sinh viên đang thuê trọ (tên, ...)": words the lexicon ignored before "("
        if j >= 3 and toks[j].w in WORDS.destinations and word(toks, j - 1) in WORDS.destination_owners \
                and word(toks, j - 2) in WORDS.destination_preps and is_noun(toks, j - 3):
            j -= 3   # "add items to their inventory with details such as name, ...": the items' fields
        if j > 0 and toks[j].w == "," and t.w in WORDS.comma_triggers and is_noun(toks, j - 1) \
                and lx.singularize(toks[j - 1].w) != toks[j - 1].w:
            j, comma = j - 1, True   # "track individual products, including a name, ...": the records' fields
        action = None
        if j > 0 and toks[j].w in WORDS.form_words and is_noun(toks, j - 1) and t.w in lx.LOOSE_TRIGGERS:
            action, j = j, j - 1   # "an expense form with title, amount and date": the expense's fields
        elif j > 0 and toks[j].w in lx.ACTION_NOUNS and is_noun(toks, j - 1):
            action, j = j, j - 1   # "habit creation with a name": the habit has the name
        elif j > 0 and t.w != ":" and (toks[j].w in _RECORD_VIEWS or toks[j].w == "," and word(toks, j - 1)
                                       in _RECORD_VIEWS) and is_noun(toks, j - 1 - (toks[j].w == ",")):
            # "product information (name, SKU)", "the recipe details, including steps": the record's
            action, j = j, j - 1 - (toks[j].w == ",")
        elif t.w == "(" and toks[j].w in DETAIL_WORDS and heading_record(toks, j) is not None:
            action, j = j, heading_record(toks, j)   # "Add student: record the information (name, code)"
        strict = False
        if j < 0 or (t.w in ("(", ":") and lx.singularize(toks[j].w) in lx.FIELD_VOCAB
                     and not _column_list_of_record(toks, i, j)):
            continue   # "category (food, rent)": a field's values, not a record type with fields
        if not is_noun(toks, j):
            if t.w not in lx.LOOSE_TRIGGERS or toks[j].w not in lx.APP_HEADS:
                continue
            while j >= 0 and toks[j].w in lx.APP_HEADS:
                j -= 1
            if j < 0 or not is_noun(toks, j):
                continue
            strict = True
        kinds = _kind_values(toks, i) if t.w == "(" and not strict else None
        links: list[int] = []
        if kinds and p.vi and word(toks, j - 1) in WORDS.status_words:   # "trạng thái phòng (còn trống, đã thuê)"
            name = singular_name(toks[j].w)   # states the record can be in, any move allowed (no arrows)
            p.fields.setdefault(name, []).append(FieldItem(words=["status"], enum_values=kinds[0],
                                                           own=toks[j - 1].orig.lower()))
            for k in range(j - 1, kinds[1]):
                if k != j:
                    use(toks[k], f"field:{name}")
            continue
        if kinds:
            items, consumed = [FieldItem(words=["type"], enum_values=kinds[0])], list(range(i + 1, kinds[1]))
        else:
            items, consumed = parse_field_list(toks, i + 1, strict, STOPS, links=links)
        if comma and not items:
            continue   # "log workouts, including exercises, sets": records of their own, read later
        p.field_subjects.extend(links)   # "details including ingredients, steps": ingredients are records
        if t.w in lx.HAVE and items and is_noun(toks, j):   # "Orders have: recipient, items, total": the
            p.listed_children.extend((j, k) for k in links)  # order's items (relations.py)
        k = i + 1
        while k < len(toks) and toks[k].w in lx.DETERMINERS:
            k += 1
        if not items and k < len(toks) and toks[k].role == "workflow:":
            p.field_subjects.append(j)   # "applications with a status: draft / submitted"
        if items:
            k = max(consumed) + 1 if consumed else i + 1
            while k < len(toks) and toks[k].w in lx.SEPARATORS | lx.DETERMINERS:
                k += 1
            if is_noun(toks, k) and lx.singularize(toks[k].w) != toks[k].w:
                p.field_subjects.append(k)   # "products with a name and category, and categories"
            add_fields(toks, p, j, t, items, consumed + ([action] if action is not None else []))


_TRIGGERS = lx.FIELD_TRIGGERS | WORDS.include_triggers   # "each order includes a date, ..."
# and the words the rows of "fields by entering" read after "by": "after adding the book" starts a list too
_LIST_STARTS = _TRIGGERS | WORDS.verb_triggers | word_set("by_entering.by_verbs") | word_set("by_entering.described_by")


def _possessive(toks: list[Tok], i: int) -> bool:
    """ "each plant's", and "students'" before a record view ("Students' profiles ...")."""
    own = toks[i].orig.lower()
    return own.endswith(("'s", "’s")) or own.endswith(("s'", "s’")) and word(toks, i + 1) in _RECORD_VIEWS


def _view_list_start(toks: list[Tok], k: int) -> tuple[int, list[int]]:
    """Where the field list after a possessive starts, and the words before it that say it is the
    record's: "'s profile shows the name, ...", "' profiles will be displayed on the page, including
    students' names, ..." (a record view, then a verb or a clause ending in ", including")."""
    if word(toks, k) not in _RECORD_VIEWS:
        return k, []
    if word(toks, k + 1) in _TRIGGERS or word(toks, k + 1) in WORDS.verb_triggers:
        return k + 2, [k, k + 1]
    for m in range(k + 1, min(len(toks), k + 12)):
        if toks[m].clause != toks[k].clause or toks[m].w in (".", ";"):
            break
        if toks[m].w == "," and word(toks, m + 1) in WORDS.comma_triggers:
            return m + 2, [x for x in range(k, m + 2) if not toks[x].used]   # "the page": a page, as it was
    return k, []


def _framed_record(toks: list[Tok], i: int) -> tuple[int, list[int]] | None:
    """ "With respect to owners the system shall: Store ...", "Regarding customers, we store ...":
    the plural record a clause opens with is the one whose fields the verb at i lists, and the
    frame's words."""
    k = i - 1
    while k >= 0 and toks[k].clause == toks[i].clause and (
            toks[k].w in WORDS.frame_gap or toks[k].w in lx.FILLER or toks[k].w in lx.DETERMINERS or toks[k].w in lx.APP_HEADS):
        k -= 1
    if k < 1 or toks[k].clause != toks[i].clause or not is_noun(toks, k) or lx.singularize(toks[k].w) == toks[k].w:
        return None
    m = k - 1
    while m >= 0 and toks[m].w in lx.DETERMINERS:
        m -= 1
    if m < 0 or toks[m].w not in WORDS.frame_words:
        return None
    start = m - 2 if toks[m].w == "to" and m >= 2 and toks[m - 1].w in WORDS.frame_to_heads else m
    if toks[m].w == "to" and start == m:
        return None   # "Allow owners to store ...": no frame
    if start > 0 and toks[start - 1].w in WORDS.frame_leads:
        start -= 1   # "with respect to", "in regard to"
    if start and toks[start - 1].clause == toks[i].clause:
        return None
    return k, [x for x in range(start, k) if not toks[x].used and toks[x].w in WORDS.frame_words | WORDS.frame_to_heads | WORDS.frame_leads]


def _column_list_of_record(toks: list[Tok], i: int, j: int) -> bool:
    """ "Supplier: name, email, phone": a word that can be a record or a column ("supplier") is the
    record when two or more column names follow it (values such as "food, rent" are no columns)."""
    if lx.singularize(toks[j].w) not in lx.FIELD_NOUNS:
        return False
    items, _consumed = parse_field_list(toks, i + 1, True, STOPS)
    return len(items) >= 2


def _kind_values(toks: list[Tok], i: int) -> tuple[list[str], int] | None:
    """ "inventory movement (inflow, outflow, adjustments)": one-word items none of which is a
    column name are the kinds of the record (a `type` enum), not its fields; (values, end)."""
    values, end = read_enum(toks, i, own=False)
    if not values or any(" " in v or v in lx.FIELD_VOCAB or lx.singularize(v) in lx.FIELD_VOCAB
                         or v in lx.FUNCTION or v in lx.META or v in lx.VERBS for v in values):
        return None
    own = read_enum(toks, i)[0]
    return [v if o != v else lx.singularize(v) for v, o in zip(own, values)], end


def find_column_lists(toks: list[Tok], mentions: dict[int, str], p: Parsed) -> int:
    """ "the columns must be Title, Author, ISBN and Price": fields of the entity in the clause."""
    found = 0
    for i, t in enumerate(toks):
        if t.used or t.w not in COLUMN_WORDS:
            continue
        j = i + 1
        while word(toks, j) in WORDS.column_links:
            j += 1
        entity = nearest(toks, i, mentions, reach=20) or next(   # else the record named last before
            (mentions[k] for k in range(i - 1, max(-1, i - 41), -1) if k in mentions), None)
        if j == i + 1 or entity is None:
            continue
        items, consumed = parse_field_list(toks, j, False, STOPS)
        if items:
            p.fields.setdefault(entity, []).extend(items)
            for k in [i, *range(i + 1, j), *consumed]:
                use(toks[k], f"field:{entity}")
            found += 1
    return found


def find_field_bullets(toks: list[Tok], mentions: dict[int, str], p: Parsed) -> int:
    """ "a form to add a transaction with fields for:" followed by "- Date (date picker)" lines:
    each following short clause that is one field belongs to that entity."""
    found = 0
    for i, t in enumerate(toks):
        before = range(max(0, i - 3), i)
        store = any(toks[k].w in WORDS.store_verbs for k in before)
        if t.w != ":" or word(toks, i + 1) != "." or not store and not any(
                toks[k].role.startswith("field:") or toks[k].w in COLUMN_WORDS | WORDS.bullet_intros
                for k in before):
            continue
        entity = nearest(toks, i, mentions, reach=20) or (main_record(mentions) if store else None)
        k = i + 2
        upper = _word_case(toks, k)
        while entity and k < len(toks):
            end = next((m for m in range(k, len(toks)) if toks[m].w == "."), len(toks))
            if _word_case(toks, k) != upper:
                break   # "- date / - amount" then "Quality": the list's style changed, a heading
            items, consumed = parse_field_list(toks, k, False, STOPS)
            if not items and any(m in mentions for m in range(k, end)) and all(
                    m in mentions or toks[m].w in WORDS.required_words or toks[m].w in lx.DETERMINERS
                    for m in range(k, end)):
                links = p.fields.setdefault(entity, [])   # "- category" when categories are records of
                for m in range(k, end):                   # their own: a link to them (a relation)
                    if m in mentions and mentions[m] != entity and all(it.label != mentions[m] for it in links):
                        links.append(FieldItem(words=mentions[m].split()))
                k = end + 1
                continue
            if not 1 <= len(items) <= 3 or end - k > 14 or any(
                    toks[m].role == "" and not toks[m].used and toks[m].w[:1].isalpha() and m not in consumed
                    and toks[m].w not in WORDS.bullet_tail for m in range(k, end)):
                break
            p.fields.setdefault(entity, []).extend(items)
            for m in range(k, end):
                use(toks[m], f"field:{entity}")
            found += 1
            k = end + 1
    return found


def _word_case(toks: list[Tok], k: int) -> bool:
    """Whether the first word of the clause at k starts with a capital (as the user wrote it)."""
    return k < len(toks) and toks[k].orig[:1].isupper()


# "<record> information / details / card containing ...": what follows describes the record.
_RECORD_VIEWS = DETAIL_WORDS | WORDS.card_words


