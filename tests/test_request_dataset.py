"""Schema checks for the development set of real app requests (tests/data/requests/).

Each file records a request someone wrote for an app builder and, written down before any build,
what a competent developer would deliver. `builder bench --fidelity` (issues #13/#14) compares runs
against these expectations, so a malformed or inconsistent record would silently skew it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import get_args

import pytest

from harness.models.spec import FieldKind

DATA_DIR = Path(__file__).parent / "data" / "requests"

TOP_KEYS = {"id", "category", "source", "licence", "language", "request", "expected", "notes"}
OPTIONAL_TOP_KEYS = {"tags"}
EXPECTED_KEYS = {"entities", "relations", "features", "not_built", "outcome"}
OPTIONAL_EXPECTED_KEYS = {"kinds", "enums", "ranges"}
CATEGORIES = {"crud", "mixed", "out_of_scope"}
LANGUAGES = {"en", "vi"}
ID_PATTERN = re.compile(r"^\d{2,3}-[a-z0-9]+(-[a-z0-9]+)*$")
# Requests whose source states no licence are kept as short excerpts only.
UNKNOWN_LICENCE_MAX_CHARS = 2500
# UI and layout vocabulary is never a data entity (issue #13, point 3).
UI_WORDS = {
    "header", "footer", "modal", "button", "page", "dropdown", "picker", "form", "screen", "tab",
    "table", "dashboard", "card", "sidebar", "navigation", "menu", "checkbox", "layout", "overlay",
    "search bar", "view", "trang", "bảng", "nút", "cột", "biểu mẫu", "giao diện",
}
# Credentials pasted into public prompts must never be copied into the set.
SECRET_PATTERNS = [re.compile(r"eyJhbGciOi"), re.compile(r"[a-z0-9]{20}\.supabase\.co"),
                   re.compile(r"sk-[A-Za-z0-9]{20,}"), re.compile(r"ghp_[A-Za-z0-9]{20,}")]
FIELD_KINDS = set(get_args(FieldKind))


def _is_str_list(value) -> bool:
    return isinstance(value, list) and all(isinstance(x, str) and x.strip() for x in value)


def _expected_problems(exp: dict) -> list[str]:
    problems: list[str] = []
    keys = set(exp)
    if missing := EXPECTED_KEYS - keys:
        problems.append(f"expected: missing keys {sorted(missing)}")
    if extra := keys - EXPECTED_KEYS - OPTIONAL_EXPECTED_KEYS:
        problems.append(f"expected: unknown keys {sorted(extra)}")
    entities = exp.get("entities")
    if not isinstance(entities, dict):
        return problems + ["expected.entities: not an object"]
    for name, fields in entities.items():
        if not name.strip() or name != name.lower():
            problems.append(f"entity {name!r}: names are lower-case and non-empty")
        if name in UI_WORDS:
            problems.append(f"entity {name!r}: UI vocabulary is never an entity")
        if not _is_str_list(fields):
            problems.append(f"entity {name!r}: fields must be a list of non-empty strings")
        elif len(set(fields)) != len(fields):
            problems.append(f"entity {name!r}: duplicate fields")
    relations = exp.get("relations")
    if not isinstance(relations, list):
        problems.append("expected.relations: not a list")
    else:
        for pair in relations:
            if not (_is_str_list(pair) and len(pair) == 2):
                problems.append(f"relation {pair!r}: must be [child, parent]")
            elif pair[0] == pair[1] or not set(pair) <= set(entities):
                problems.append(f"relation {pair!r}: both ends must be distinct expected entities")
        if len({tuple(p) for p in relations if isinstance(p, list)}) != len(relations):
            problems.append("expected.relations: duplicate pairs")
    for key in ("features", "not_built"):
        value = exp.get(key)
        if not _is_str_list(value):
            problems.append(f"expected.{key}: must be a list of non-empty strings")
        elif len(set(value)) != len(value):
            problems.append(f"expected.{key}: duplicate items")
    outcome, not_built = exp.get("outcome"), exp.get("not_built")
    if outcome not in ("complete", "failed"):
        problems.append(f"expected.outcome: {outcome!r} is not complete|failed")
    elif isinstance(not_built, list) and (outcome == "failed") != bool(not_built):
        problems.append("expected.outcome: must be 'failed' exactly when not_built is non-empty")
    problems += _typing_problems(exp, entities)
    return problems


def _field_ref_ok(ref: str, entities: dict) -> bool:
    entity, _, field = ref.partition(".")
    return isinstance(entities.get(entity), list) and field in entities[entity]


def _typing_problems(exp: dict, entities: dict) -> list[str]:
    problems: list[str] = []
    kinds = exp.get("kinds", {})
    if not isinstance(kinds, dict):
        return ["expected.kinds: not an object"]
    for ref, kind in kinds.items():
        if not _field_ref_ok(ref, entities):
            problems.append(f"kinds[{ref!r}]: not an expected entity.field")
        if kind not in FIELD_KINDS:
            problems.append(f"kinds[{ref!r}]: {kind!r} is not a FieldKind")
    enums = exp.get("enums", {})
    if not isinstance(enums, dict):
        return problems + ["expected.enums: not an object"]
    for ref, values in enums.items():
        if kinds.get(ref) != "enum":
            problems.append(f"enums[{ref!r}]: the field's kind must be 'enum'")
        if not _is_str_list(values) or len(values) < 2 or len(set(values)) != len(values):
            problems.append(f"enums[{ref!r}]: needs two or more distinct values")
    for ref, bounds in exp.get("ranges", {}).items():
        ok = (isinstance(bounds, list) and len(bounds) == 2
              and all(isinstance(b, (int, float)) for b in bounds) and bounds[0] < bounds[1])
        if not ok:
            problems.append(f"ranges[{ref!r}]: must be [low, high] with low < high")
        if kinds.get(ref) not in ("rating", "integer", "decimal", "money"):
            problems.append(f"ranges[{ref!r}]: only numeric or rating fields have a range")
    return problems


def record_problems(record: dict, filename: str) -> list[str]:
    """Everything wrong with one dataset record; an empty list means it is valid."""
    if not isinstance(record, dict):
        return ["record is not a JSON object"]
    problems: list[str] = []
    keys = set(record)
    if missing := TOP_KEYS - keys:
        problems.append(f"missing keys {sorted(missing)}")
    if extra := keys - TOP_KEYS - OPTIONAL_TOP_KEYS:
        problems.append(f"unknown keys {sorted(extra)}")
    for key in ("id", "source", "licence", "request", "notes"):
        if not isinstance(record.get(key), str) or not record.get(key, "").strip():
            problems.append(f"{key}: must be a non-empty string")
    rid = record.get("id", "")
    if not ID_PATTERN.match(str(rid)):
        problems.append(f"id {rid!r}: must look like NN-slug")
    if f"{rid}.json" != filename:
        problems.append(f"id {rid!r} does not match file name {filename!r}")
    if not str(record.get("source", "")).startswith("https://"):
        problems.append("source: must be an https URL (repository file or page)")
    if record.get("language") not in LANGUAGES:
        problems.append(f"language: {record.get('language')!r} is not one of {sorted(LANGUAGES)}")
    category = record.get("category")
    if category not in CATEGORIES:
        problems.append(f"category: {category!r} is not one of {sorted(CATEGORIES)}")
    if "tags" in record and not _is_str_list(record["tags"]):
        problems.append("tags: must be a list of non-empty strings")
    request = str(record.get("request", ""))
    if str(record.get("licence", "")).lower().startswith("unknown") and len(request) > UNKNOWN_LICENCE_MAX_CHARS:
        problems.append(f"request: {len(request)} characters from a source with no licence; keep a short excerpt")
    if any(p.search(request) for p in SECRET_PATTERNS):
        problems.append("request: contains what looks like a credential; redact it")
    exp = record.get("expected")
    if not isinstance(exp, dict):
        return problems + ["expected: not an object"]
    problems += _expected_problems(exp)
    outcome, entities = exp.get("outcome"), exp.get("entities") or {}
    if category == "crud" and outcome != "complete":
        problems.append("category crud: outcome must be complete")
    if category == "mixed" and (outcome != "failed" or not entities):
        problems.append("category mixed: buildable entities and a failed outcome expected")
    if category == "out_of_scope" and outcome != "failed":
        problems.append("category out_of_scope: outcome must be failed")
    return problems


def load_records() -> list[tuple[str, dict]]:
    records = []
    for path in sorted(DATA_DIR.glob("*.json")):
        records.append((path.name, json.loads(path.read_text(encoding="utf-8"))))
    return records


RECORDS = load_records()


@pytest.mark.parametrize("filename,record", RECORDS, ids=[name for name, _ in RECORDS])
def test_record_is_valid(filename, record):
    assert record_problems(record, filename) == []


def test_set_size_ids_and_mix():
    assert len(RECORDS) >= 25
    ids = [record["id"] for _, record in RECORDS]
    assert len(set(ids)) == len(ids)
    prefixes = [i.split("-", 1)[0] for i in ids]
    assert len(set(prefixes)) == len(prefixes), "each NN prefix is used once"
    categories = [record["category"] for _, record in RECORDS]
    assert categories.count("crud") >= 10
    assert categories.count("mixed") >= 5
    assert categories.count("out_of_scope") >= 3
    assert sum(record["language"] == "vi" for _, record in RECORDS) >= 2
    assert sum("prd" in record.get("tags", []) for _, record in RECORDS) >= 2


def test_no_stray_files():
    allowed = {"README.md"}
    stray = [p.name for p in DATA_DIR.iterdir() if p.suffix != ".json" and p.name not in allowed]
    assert stray == []


def test_readme_lists_every_request():
    readme = (DATA_DIR / "README.md").read_text(encoding="utf-8")
    missing = [record["id"] for _, record in RECORDS if f"`{record['id']}`" not in readme]
    assert missing == []


# --- the validator itself must reject what it is meant to reject -----------------------------

def _good() -> dict:
    return {
        "id": "99-sample", "category": "mixed", "source": "https://example.org/x", "licence": "MIT",
        "language": "en", "request": "Track books and send SMS reminders.", "notes": "n",
        "expected": {"entities": {"book": ["title"]}, "relations": [], "features": [],
                     "not_built": ["send SMS reminders"], "outcome": "failed"},
    }


def test_validator_accepts_a_good_record():
    assert record_problems(_good(), "99-sample.json") == []


@pytest.mark.parametrize("mutate,expected_fragment", [
    (lambda r: r["expected"].update(outcome="complete"), "failed' exactly when not_built"),
    (lambda r: r["expected"].update(not_built=[]), "failed' exactly when not_built"),
    (lambda r: r["expected"]["entities"].update(button=[]), "UI vocabulary"),
    (lambda r: r["expected"].update(relations=[["book", "shelf"]]), "distinct expected entities"),
    (lambda r: r["expected"].update(kinds={"book.title": "colour"}), "not a FieldKind"),
    (lambda r: r["expected"].update(kinds={"book.isbn": "short_text"}), "not an expected entity.field"),
    (lambda r: r["expected"].update(enums={"book.title": ["a", "b"]}), "kind must be 'enum'"),
    (lambda r: r.update(language="fr"), "language"),
    (lambda r: r.update(category="crud"), "outcome must be complete"),
    (lambda r: r.pop("licence"), "missing keys"),
    (lambda r: r.update(extra=1), "unknown keys"),
    (lambda r: r.update(licence="unknown", request="x" * 3000), "short excerpt"),
    (lambda r: r.update(request="key eyJhbGciOiJIUzI1NiJ9.abc"), "credential"),
    (lambda r: r.update(source="github.com/a/b"), "https URL"),
])
def test_validator_rejects(mutate, expected_fragment):
    record = _good()
    mutate(record)
    problems = record_problems(record, "99-sample.json")
    assert any(expected_fragment in p for p in problems), problems


def test_validator_rejects_id_file_mismatch():
    assert any("does not match file name" in p for p in record_problems(_good(), "98-other.json"))


def test_held_out_ids_are_dataset_requests():
    """A held-out id that names no file would silently shrink the held-out figures."""
    from harness.fidelity import HELD_OUT
    ids = {record["id"] for _, record in RECORDS}
    assert len(set(HELD_OUT)) == len(HELD_OUT)
    assert sorted(set(HELD_OUT) - ids) == []
    prefixes = {int(i.split("-", 1)[0]) for i in HELD_OUT}
    assert set(range(38, 48)) <= prefixes, "the fresh held-out set 38-47 stays held out"
    assert set(range(48, 56)) <= prefixes, "the fresh held-out set 48-55 stays held out"
