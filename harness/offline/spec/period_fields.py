"""Period fields: "their daily expenses" (a date), "weekly / monthly total income" (a period and
its money column). (A frequency, "on a daily or weekly basis", is rows of patterns/field_lists.jsonl.)
"""

from __future__ import annotations

from harness.offline.spec.build import Parsed
from harness.offline.spec.fields import FieldItem, kind_for_name
from harness.offline.spec.pass_helpers import use as _use
from harness.offline.spec.pass_helpers import word as _word
from harness.offline.spec.tokens import Tok
from harness.offline.spec.wordsets import word_set

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
