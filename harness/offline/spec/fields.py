"""Field lists of the request: "tasks with a title, due date and priority (low, medium, high)".

`parse_field_list` reads the items after a trigger; each item may carry enum values
("(a, b, c)", "a / b / c", "a or b") and a numeric range ("1 to 5 stars"). The kind of a field
comes from its name (`kind_for_name`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from harness.offline.field_kinds import UNIQUE_KINDS
from harness.offline.spec import lexicon as lx
from harness.offline.spec.name_kinds import kind_for_name
from harness.offline.spec.nouns import singular_name
from harness.offline.spec.enum_values import ENUM_HEADS, YES_NO, names_columns, own_words, read_enum, value_run, yes_no_aside
from harness.offline.spec.field_words import COMPOUND_HEADS, DETAIL_WORDS, column_follows, field_word, ing_compound, modifier
from harness.offline.spec.field_words import soft_wrap, split_run
from harness.offline.spec.list_parts import PRONOUNS, past_link, read_range, scale, share_head
from harness.offline.spec.pass_helpers import word as _word
from harness.offline.spec.tokens import Tok
from harness.offline.spec.wordsets import word_sets

WORDS = word_sets("fields")


@dataclass
class FieldItem:
    """One requested field: its words plus what the request said about it."""

    words: list[str]
    required: bool | None = None
    unique: bool = False                         # "no two contacts can have the same email" (required_fields.py)
    hint: str | None = None                      # storage type from a unit ("in minutes" -> int)
    enum_values: list[str] = field(default_factory=list)
    min_value: float | None = None
    max_value: float | None = None
    own: str = ""                                # the user's words when they are no English ("số phòng")
    by_filter: bool = False                      # named only as what a filter or sort goes by

    @property
    def label(self) -> str:
        return " ".join(self.words)

    def unique_for(self, kind: str) -> bool:
        """Unique when asked and of a kind the generated app keeps unique (409 for a second record)."""
        return self.unique and kind in UNIQUE_KINDS


def _aside(toks: list[Tok], j: int) -> tuple[list[str], int]:
    """A parenthetical after a field: its example values (after "e.g"/"like") or nothing; the
    index after ")" (j when there is no closing parenthesis nearby)."""
    close = next((k for k in range(j + 1, min(j + 20, len(toks))) if toks[k].w == ")"), None)
    if close is None:
        return [], j
    intro = next((k for k in range(j + 1, close) if toks[k].w in WORDS.intro), None)
    if intro is not None:
        fake = [Tok("(", "")] + [t for t in toks[intro + 1:close] if t.w not in WORDS.intro] + [Tok(")", "")]
        values, _end = read_enum(fake, 0)
        return values, close + 1
    return [], close + 1


# Plural column words kept as written ("steps" of a recipe are its instructions, not a record).
PLURAL_FIELDS = lx.KEEP_PLURAL_FIELDS | WORDS.plural_fields_extra


def parse_field_list(toks: list[Tok], start: int, strict: bool, stops: frozenset[str],
                     keep_plural: frozenset[str] = PLURAL_FIELDS,
                     links: list[int] | None = None) -> tuple[list[FieldItem], list[int]]:
    """The field items from `start` up to the first word that is no field; consumed indices.
    `links` (when given) receives the indices of record nouns the list named between its fields.
    A list that calls some of its fields optional ("an amount, a date and an optional note") asks
    for the others: they are required (a yes/no field always has a value: it stays as it is)."""
    items, consumed = _parse_field_list(toks, start, strict, stops, keep_plural, links)
    for a, b in zip(items, items[1:]):   # "a start and end time": the start time and the end time
        if len(a.words) == 1 and len(b.words) == 2 and {a.words[0], b.words[0]} <= WORDS.bound_words:
            a.words = [a.words[0], b.words[1]]
    if len(items) > 1 and any(it.required is False for it in items):
        for it in items:
            if it.required is None and it.hint != "bool" and it.words[-1:] != ["flag"]:
                it.required = True
    return items, consumed


def _relative_end(toks: list[Tok], j: int) -> int | None:
    """Where the relative clause at j ("that paid", "who made it") ends; None when it holds no word or
    a word an earlier pass read ("a checkbox which sets it completed": the status)."""
    end = j + 1
    while end < len(toks) and _word(toks, end) not in lx.SEPARATORS | {".", ";", ")", ""}:
        end += 1
    words = range(j + 1, end)
    return end if words and _word(toks, j + 1).isalpha() and not any(toks[k].used for k in words) else None


def _parse_field_list(toks: list[Tok], start: int, strict: bool, stops: frozenset[str],
                      keep_plural: frozenset[str], links: list[int] | None) -> tuple[list[FieldItem], list[int]]:
    items: list[FieldItem] = []
    consumed: list[int] = []
    words: list[str] = []
    idx: list[int] = []
    cur = FieldItem(words=[])

    def commit() -> bool:
        nonlocal cur
        if not words:
            idx.clear()
            return True
        last = words[-1]
        sing = lx.singularize(last)
        counted = words[:2] == ["number", "of"]   # "number of people": the plural is what is counted
        if last in lx.MEDIA_PLURALS:
            last = sing   # "products with photos": a photo field (a link), not a record of photos
        if sing != last and last not in keep_plural and not counted and (
                sing not in lx.FIELD_VOCAB or sing in lx.FIELD_NOUNS):
            return False   # a plural record noun ends the field list ("... and projects")
        head = words[words.index("of") - 1] if "of" in words[1:] else last   # "date of birth"
        known = lx.FIELD_VOCAB | WORDS.of_heads
        if strict and sing not in known and last not in known and head not in known \
                and kind_for_name(words)[0] == "short_text":
            return False   # strict: a known column word, or one the kind registry types ("points")
        if len(words) >= 2 and last == "number" and cur.hint in ("int", "float"):
            words.pop()   # "a watering frequency number in days": the frequency, counted in days
            last, sing = words[-1], lx.singularize(words[-1])
        cur.words = words[:-1] + [last if last in keep_plural or counted else sing]
        if len(cur.words) >= 3 and all(w in lx.FIELD_VOCAB for w in cur.words):
            items.extend(FieldItem(words=ws) for ws in split_run(cur.words))
        else:
            cur.own = own_words(toks, idx, words)
            items.append(cur)
        consumed.extend(idx)
        words.clear(), idx.clear()
        cur = FieldItem(words=[])
        return True

    j = start
    while j < len(toks):
        t = toks[j]
        if soft_wrap(toks, j):
            idx.append(j)   # "containing the\nrecipe title": a hard-wrapped line, not a sentence end
            j += 1
            continue
        if t.used and not words and t.role.startswith("workflow:"):
            k = j
            while k < len(toks) and toks[k].used and toks[k].role == t.role:
                k += 1
            if _word(toks, k) not in lx.SEPARATORS:
                break
            j = k   # "status (new, contacted, lost), estimated value": the status is read, the list goes on
            continue
        if words and t.used and t.w in lx.STATUS_WORDS and t.role.startswith(("workflow:", "complete:")):
            consumed.extend(idx)   # "a payment status (paid, pending)": the words name the record's status,
            words.clear(), idx.clear()   # they are no column of their own
            cur = FieldItem(words=[])
            continue
        if t.used or not t.w:
            break
        if not words and t.w in DETAIL_WORDS and _word(toks, j + 1) in WORDS.intro:
            idx.append(j)   # "details such as", "information like"
            j += 1
            continue
        if not words and t.w in WORDS.collection_heads and _word(toks, j + 1) == "of" \
                and _word(toks, j + 2) in DETAIL_WORDS:
            idx.extend((j, j + 1, j + 2))   # "a set of attributes like"
            j += 3
            continue
        if not words and not items and t.w == ":" and j == start:
            idx.append(j)   # "leads have: name, company"
            j += 1
            continue
        if not words and toks[j].orig.lower().endswith(("s'", "s’")) \
                and j + 1 < len(toks) and toks[j + 1].w[:1].isalpha() and not toks[j + 1].used:
            idx.append(j)   # "including students' names, headshots": whose names the list says already
            j += 1
            continue
        if not words and (t.w in WORDS.intro or t.w in WORDS.show_verbs and not items):
            idx.append(j)   # "(showing name, code, class)": the list after the verb
            j += 1
            continue
        if words and t.w == "(" and _word(toks, j + 1) in lx.TYPE_ASIDES and _word(toks, j + 2) == ")":
            cur.hint = lx.TYPE_ASIDES[toks[j + 1].w]   # "deliveryOn (date)", "total (number)": its type
            idx.extend((j, j + 1, j + 2))
            j += 3
            continue
        if words and t.w in ("(", ":") and j + 1 < len(toks):
            rng = read_range(toks, j + 1)
            values, end = read_enum(toks, j) if rng is None else ([], j)
            if rng is not None and rng[2] < len(toks) and (t.w == ":" or toks[rng[2]].w == ")"):
                cur.min_value, cur.max_value = rng[0], rng[1]
                end = rng[2] + (t.w == "(")
            elif not values and t.w == "(":
                values, end = _aside(toks, j)   # "(dropdown with e.g groceries, bills)": values after e.g.
                if end == j:
                    break
                if any(toks[k].w in WORDS.unbuilt_asides for k in range(j, end)):
                    j = end   # "(default: 0 if not provided)": an ask no rule builds, left unrecognised
                    continue
            elif not values:
                break
            if t.w == "(" and names_columns(values):
                break   # "a vaccination schedule (vaccine type, due date)": columns, not its values
            if len(values) == 2 and set(values) <= YES_NO:
                cur.hint, values = "bool", []   # "paid (yes/no)": a yes/no field, not a two-word enum
            cur.enum_values = values
            idx.extend(range(j, end))
            j = end
            continue
        if words and t.w in ("from", "between") and read_range(toks, j):
            low, high, end = read_range(toks, j)
            cur.min_value, cur.max_value = low, high
            idx.extend(range(j, end))
            j = end
            continue
        if t.w in lx.SEPARATORS:
            if not commit():
                after = past_link(toks, j - 1, words)
                if after is None:
                    return items, consumed
                if links is not None:
                    links.append(idx[-1])
                words.clear(), idx.clear()   # "including ingredients, steps and an image": the
                cur = FieldItem(words=[])     # records named in the list are linked, not fields
                j = after
                continue
        elif not words and t.w in ("list", "set") and _word(toks, j + 1) == "of" and past_link(toks, j + 2, []):
            if links is not None:
                links.append(j + 2)
            j = past_link(toks, j + 2, [])   # "the list of ingredients (with amounts), and the steps"
            idx.clear()
            continue
        elif t.w in DETAIL_WORDS and (words or items) and _word(toks, j - 1) not in lx.DETERMINERS:
            if share_head(items, words, t.w):   # "their personal, financial and references information"
                items.append(FieldItem(words=list(words)))
                consumed.extend([*idx, j])
            return items, consumed
        elif words[:2] == ["number", "of"] and len(words) == 3 and t.w in PRONOUNS \
                and _word(toks, j + 1).isalpha() and not field_word(_word(toks, j + 2), stops):
            words.extend((t.w, toks[j + 1].w))   # "number of people it serves": the count it names
            idx.extend((j, j + 1))
            j += 1
        elif not t.w[0].isalnum():
            break
        elif not words and t.w in WORDS.field_heads and _word(toks, j + 1) == "for" \
                and field_word(_word(toks, j + 2), stops):
            idx.extend((j, j + 1))   # "with fields for title, amount and date"
            j += 1
        elif words and t.w in WORDS.relative_pronouns and _relative_end(toks, j) is not None:
            if not commit():
                break
            end = _relative_end(toks, j)   # "the person that paid (it)": the link's role; the accounting
            consumed.extend(range(j, end))   # credits it only when the record is linked (relation_asks.py)
            j = end - 1
        elif t.w in lx.DETERMINERS or t.w in lx.FIELD_SKIP:
            idx.append(j)
        elif words and t.w in WORDS.choice_ui and _word(toks, j + 1) in lx.SEPARATORS | {".", "", ")", "("}:
            idx.append(j)   # "category selection", "status dropdown": the field, chosen from a list
        elif not words and t.w in WORDS.type_adjectives and field_word(_word(toks, j + 1), stops) \
                and _word(toks, j + 2) in lx.SEPARATORS | {".", "", ")", "("}:
            idx.append(j)   # "a text nickname": the kind of the field, not part of its name
        elif t.w == "of" and words == ["number"] and (field_word(_word(toks, j + 1), stops)
                                                      or _word(toks, j + 1) in lx.COUNTED_META):
            words.append(t.w)   # "number of people": one integer field
            idx.append(j)
        elif not words and t.w in WORDS.order_modifiers and column_follows(toks, j + 1, stops):
            words.append(t.w)   # "next due date": which date of the series, part of the column's name
            idx.append(j)
        elif not words and (t.w in WORDS.column_modifiers or t.w in WORDS.name_modifiers and _word(toks, j + 1) == "name") \
                and field_word(_word(toks, j + 1), stops):
            words.append(t.w)   # "the main ingredient", "a primary contact"
            idx.append(j)
        elif words and t.w == "on" and _word(toks, j + 1) in ("a", "the") and scale(toks, j + 2):
            cur.min_value, cur.max_value, end = scale(toks, j + 2)   # "a rating on a 1-100 scale"
            idx.extend(range(j, end))
            j = end
            continue
        elif t.w == "of" and words and words[-1] in WORDS.of_heads and len(words) <= 2 and field_word(_word(toks, j + 1), stops) \
                and lx.singularize(_word(toks, j + 1)) == _word(toks, j + 1) \
                and _word(toks, j + 2) in lx.SEPARATORS | {".", ")", "("}:
            words.extend((t.w, toks[j + 1].w))   # "date of birth", "method of payment"
            idx.extend((j, j + 1))
            j += 1
        elif not words and t.w == "whether" and _word(toks, j + 1) in PRONOUNS and _word(toks, j + 2) in WORDS.forms_of_be \
                and _word(toks, j + 3).isalpha() and _word(toks, j + 3) not in lx.COMPLETE \
                and _word(toks, j + 4) in lx.SEPARATORS | {".", ""}:   # ("whether it is done": the status)
            cur.hint = "bool"   # "and whether it is paid": a yes/no field
            words.append(toks[j + 3].w)
            idx.extend(range(j, j + 4))
            j += 3
        elif words and words[-1] in ENUM_HEADS and (t.w in ("of", "/") or _word(toks, j + 1) == "/") \
                and value_run(toks, j + (t.w == "of")):
            cur.enum_values, end = value_run(toks, j + (t.w == "of"))   # "a priority of low, medium or high"
            idx.extend(range(j, end))   # "priority low/medium/high"
            j = end
            continue
        elif not words and t.w.isalpha() and _word(toks, j + 1) == "(" and yes_no_aside(toks, j + 1):
            words.append(t.w)   # "read (true/false)": the word is the yes/no field whatever it is
            idx.append(j)
        elif t.w in WORDS.required_words:
            cur.required = t.w != "optional"
            idx.append(j)
        elif t.w == "in" and words and j + 1 < len(toks) and toks[j + 1].w in lx.UNIT_TYPES:
            cur.hint = lx.UNIT_TYPES[toks[j + 1].w]
            idx.extend((j, j + 1))
            j += 1
        elif t.w == "by" and len(words) == 1 and (words[0].endswith("ed") or words[0] in WORDS.by_participles) \
                and (_word(toks, j + 1) in lx.SEPARATORS or _word(toks, j + 1) in ("", ".", ")")):
            words.append(t.w)   # "paid by", "approved by": who did it is the column
            idx.append(j)
        elif words and (t.w.endswith("ed") and len(t.w) > 4 or t.w in WORDS.measure_participles) \
                and t.w not in lx.FIELD_VOCAB:
            if _word(toks, j + 1) in WORDS.date_heads or t.w in WORDS.measure_participles:
                words.append(t.w)   # "last watered date", "pages read": the participle says which one
            idx.append(j)   # "calories burned": the participle adds nothing to the column
        elif words == ["number", "of"] and t.w in lx.COUNTED_META:
            words.append(t.w)   # "a number of sets": what is counted
            idx.append(j)
        elif links is not None and not words and t.w in lx.APP_HEADS and _word(toks, j - 1) in lx.DETERMINERS \
                and _word(toks, j + 1) in lx.SEPARATORS:
            words.append(t.w)   # "each loan records the tool, the member ...": a record the list names
            idx.append(j)
        elif (field_word(t.w, stops) or ing_compound(toks, j, stops) or modifier(toks, j)) and (
                not t.brand or t.w in lx.FIELD_VOCAB or words and t.w in COMPOUND_HEADS) and (
                len(words) < 3 or len(words) < 8 and all(
                w in lx.FIELD_VOCAB for w in [*words, t.w])):
            words.append(t.w)
            idx.append(j)
        else:
            break
        j += 1
    if not items and len(words) == 1 and lx.singularize(words[0]) != words[0] and _word(toks, j) == "with" \
            and _word(toks, j + 1) in lx.DETERMINERS:
        words.clear(), idx.clear()   # "notebooks have notes with a title": records that have fields
    commit()
    return items, consumed



def add_fields(toks: list[Tok], p, j: int, trigger: Tok, items: list, consumed: list[int], unprefixed: bool = False) -> str:
    """The items are fields of the record the word at j names (its singular: a record type the
    entities pass finds there); the trigger and the consumed words are its; its name. With
    `unprefixed`, "animal species" filled in for an animal is its species; "a donor id" in the
    donor's own list is its `id`, the app's own column (a field named id is left out)."""
    name = singular_name(toks[j].w)
    for it in items:
        if unprefixed and len(it.words) > 1 and it.words[0] == name and not it.own:
            it.words = it.words[1:]
        if len(it.words) == 2 and it.words[0] == name and it.words[1] in lx.PRIMARY_KEY_WORDS and not it.own:
            it.words = it.words[1:]
    p.fields.setdefault(name, []).extend(items)
    p.field_subjects.append(j)
    for t in [trigger, *(toks[k] for k in consumed)]:
        t.used, t.role = True, f"field:{name}"
    return name
