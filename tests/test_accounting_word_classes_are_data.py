"""#48/#53 "keep the word lists as data files", "word lists in one place": the accounting's closed
word classes (determiners, modals, people words, rule verbs ...) live in
harness/offline/words/accounting_closed_en.txt, not as literal sets inside its checks."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from harness.offline.accounting import lexicon

ACCOUNTING = Path(lexicon.__file__).resolve().parent


def _inline_word_sets(source: str) -> list[list[str]]:
    """Every set, tuple or list literal of three or more alphabetic words, its words in order."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Set, ast.Tuple, ast.List)):
            words = [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)
                     and e.value.replace("'", "").replace("-", "").isalpha()]
            if len(words) >= 3 and len(words) == len(node.elts):
                found.append(words)
    return found


# Literal tuples that are names of the spec's own vocabulary (element labels, capabilities, access
# keys, role-right groups), not English words a request may use.
_SPEC_LABELS = {
    "comparison_asks.py": {("integer", "decimal", "money", "rating", "date", "datetime"),
                           ("and", "or", "not", "today", "days", "day", "weeks", "week")},   # kinds, the expression language
    "comparers.py": {("integer", "decimal", "money", "rating", "date", "datetime")},
    "context.py": {("entity", "field", "enum", "workflow", "computed")},
    "draft.py": {("entity", "field", "enum", "bound", "workflow", "kind"), ("unsupported", "health", "pages", "other")},
    "elements.py": {("crud", "create", "list")},
    "identity_asks.py": {("shared", "manage", "view")},
    "role_rights.py": {("add", "change", "delete", "manage", "see")},
}


def test_no_closed_word_class_is_written_inside_an_accounting_check():
    inline = {}
    for path in sorted(ACCOUNTING.glob("*.py")):
        if path.name == "lexicon.py":   # the stemmer's suffixes
            continue
        found = [words for words in _inline_word_sets(path.read_text(encoding="utf-8"))
                 if tuple(words) not in _SPEC_LABELS.get(path.name, set())]
        if found:
            inline[path.name] = found
    assert inline == {}


def test_the_inline_check_sees_a_word_set():
    assert _inline_word_sets('_MODALS = frozenset({"can", "could", "must"})\n') == [["can", "could", "must"]]
    assert _inline_word_sets('_STATES = ("feature:a", "dashboard")\n') == []


def test_every_closed_class_is_read_by_a_check_and_an_unknown_one_is_an_error():
    keys = lexicon.keyed_forms(lexicon.CLOSED_FILE)
    sources = "".join(p.read_text(encoding="utf-8") for p in ACCOUNTING.glob("*.py"))
    unread = [k for k in keys if f'"{k}"' not in sources and not k.startswith("rights ")]
    assert unread == []
    assert "can" in lexicon.closed("modals") and lexicon.closed_stems("status nouns") >= {lexicon.stem("statuses")}
    with pytest.raises(KeyError):
        lexicon.closed("no such class")
