"""Period fields: "track a habit on a daily or weekly basis" (a frequency), "their daily expenses"
(a date), "weekly / monthly total income" (a period and its money column).
"""

from __future__ import annotations

from harness.offline.spec.build import Parsed
from harness.offline.spec.fields import FieldItem, kind_for_name
from harness.offline.spec.pass_helpers import nearest as _nearest
from harness.offline.spec.pass_helpers import use as _use
from harness.offline.spec.pass_helpers import word as _word
from harness.offline.spec.tokens import Tok
from harness.offline.spec.wordsets import word_set


def find_frequency(toks: list[Tok], mentions: dict[int, str], p: Parsed) -> None:
    """ "track a habit on a daily or weekly basis": a frequency field with those values; "choose
    how often I want to complete my habit": a frequency field of the record the clause names."""
    for i, t in enumerate(toks):
        if t.w == "often" and _word(toks, i - 1) == "how" and not t.used:
            _how_often(toks, i, mentions, p)
            continue
        if t.used or t.w != "basis" or i < 4:
            continue
        k = i - 1
        values: list[str] = []
        while k > 0 and (toks[k].w in _FREQUENCIES or toks[k].w in ("or", "and", ",", "/")):
            if toks[k].w in _FREQUENCIES:
                values.insert(0, toks[k].w)
            k -= 1
        if len(values) < 1 or toks[k].w not in ("a", "an") or _word(toks, k - 1) not in ("on", "per"):
            continue
        entity = _nearest(toks, i, mentions, reach=12)
        if entity is None:
            continue
        items = p.fields.setdefault(entity, [])
        if all(it.label != "frequency" for it in items):
            items.append(FieldItem(words=["frequency"], enum_values=values if len(values) > 1 else []))
        for x in range(k - 1, i + 1):
            if not toks[x].used:
                _use(toks[x], f"field:{entity}")


def _how_often(toks: list[Tok], i: int, mentions: dict[int, str], p: Parsed) -> None:
    entity = _nearest(toks, i, mentions, reach=10)
    if entity is None:
        return
    items = p.fields.setdefault(entity, [])
    if all(it.label != "frequency" for it in items):
        items.append(FieldItem(words=["frequency"]))
    for x in (i - 1, i):
        _use(toks[x], f"field:{entity}")


_FREQUENCIES = word_set("period_fields.frequencies")


_AMOUNT_WORDS = word_set("period_fields.amount_words")


def find_period_fields(toks: list[Tok], mentions: dict[int, str], p: Parsed) -> None:
    """ "their daily expenses": a record kept per day has a date; "daily / weekly / monthly total
    income": a period (daily, weekly, monthly) and, with "total" / "amount", that money column."""
    for i, t in enumerate(toks):
        if t.used or t.w not in _FREQUENCIES or i > 0 and toks[i - 1].w in _FREQUENCIES | {"/", "or"}:
            continue
        values, k = [t.w], i + 1
        while _word(toks, k) in ("/", "or", ",") and _word(toks, k + 1) in _FREQUENCIES:
            values.append(toks[k + 1].w)
            k += 2
        amount = toks[k].w if _word(toks, k) in _AMOUNT_WORDS else None
        entity = mentions.get(k + (amount is not None))
        if entity is None:
            continue
        items = p.fields.setdefault(entity, [])
        wanted = [FieldItem(words=["period"], enum_values=values)] if len(values) > 1 else [FieldItem(words=["date"])]
        if amount and not any(kind_for_name(it.words)[0] in ("money", "decimal") for it in items):
            wanted.append(FieldItem(words=[amount]))
        items.extend(w for w in wanted if all(it.label != w.label for it in items))
        for x in range(i, k):
            _use(toks[x], f"field:{entity}")
