"""What a field means in its record: a word's kind can depend on the record ("steps" of a recipe
are its instructions, of a walk a count), and a field can name another record or its key ("room
number" of a student when rooms are records): a reference to it.
"""

from __future__ import annotations

from harness.offline.spec.fields import kind_for_name
from harness.offline.spec.wordsets import word_sets

WORDS = word_sets("record_fields")


def kind_in_record(words: list[str], record: str) -> tuple[str, str]:
    """The kind of a field of `record`: as `kind_for_name`, except that what a word means can depend
    on the record ("steps" of a recipe are its instructions, of a walk a count)."""
    if words == ["steps"] and record.rpartition(" ")[2] in WORDS.procedures:
        return "long_text", "text"
    return kind_for_name(words)


def referenced_record(words: list[str], record: str, records) -> str | None:
    """The other record a field of `record` names: the record itself ("project") or its key
    ("room number" of a student, when rooms are records): a reference to it; else None."""
    label = " ".join(words)
    if label in records:
        return label if label != record else None
    head = " ".join(words[:-1])
    if len(words) > 1 and words[-1] in WORDS.key_words and head in records and head != record:
        return head
    return None
