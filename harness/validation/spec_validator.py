"""SpecValidator: structural and logical checks of an AppSpec (SPEC M2)."""

from __future__ import annotations

import re

from harness.models.spec import AppSpec
from harness.validation.clause_check import clause_errors
from harness.utils.ids import REQ_ID_RE

# Words that mean the same feature, so "login" as a non-goal conflicts with "sign in".
_SYNONYMS = [
    {"login", "log in", "sign in", "signin", "authentication", "auth", "register", "sign up", "password"},
    {"deployment", "deploy"},
    {"mobile app", "mobile-app", "ios", "android"},
    {"browser automation", "playwright", "selenium"},
]
_BACKEND_WORDS = re.compile(r"\b(api|backend|back-end|endpoint|server)\b", re.I)


def _terms(phrase: str) -> set[str]:
    phrase = phrase.lower().replace("-", " ").strip()
    for group in _SYNONYMS:
        if phrase in {g.replace("-", " ") for g in group}:
            return {g.replace("-", " ") for g in group}
    return {phrase}


def _mentions(text: str, term: str) -> bool:
    return re.search(r"\b" + re.escape(term) + r"\b", text.lower().replace("-", " ")) is not None


def _stems(word: str) -> set[str]:
    w = word.lower().strip()
    out = {w}
    for suffix in ("ies", "es", "s"):
        if w.endswith(suffix) and len(w) > len(suffix) + 2:
            out.add(w[: -len(suffix)] + ("y" if suffix == "ies" else ""))
    out.add(w + "s")
    return out


def structural_errors(spec: AppSpec) -> list[str]:
    errors = []
    if not spec.app_type.strip():
        errors.append("app_type is empty")
    for name in ("frontend", "backend", "db"):
        if not getattr(spec.stack, name).strip():
            errors.append(f"stack.{name} is empty")
    if not spec.requirements:
        errors.append("no requirements")
    if not spec.acceptance_criteria:
        errors.append("no acceptance criteria")
    seen: set[str] = set()
    for req in spec.requirements:
        if not REQ_ID_RE.match(req.id):
            errors.append(f"requirement id {req.id!r} does not match REQ-NNN")
        if req.id in seen:
            errors.append(f"duplicate requirement id {req.id}")
        seen.add(req.id)
    return errors


def logical_errors(spec: AppSpec) -> list[str]:
    errors = []
    entities = {e.ident for e in spec.data_model}
    for page in spec.pages:
        if page.entity and page.entity not in entities:
            errors.append(f"page {page.name!r} refers to unknown entity {page.entity!r}")
    for ent in spec.data_model:
        if ent.parent and ent.parent not in entities:
            errors.append(f"entity {ent.ident!r} has unknown parent {ent.parent!r}")
    texts: dict[str, str] = {}
    for req in spec.requirements:
        if req.entity and req.entity not in entities:
            errors.append(f"{req.id} refers to unknown entity {req.entity!r}")
        key = " ".join(req.text.lower().split())
        if key in texts:
            errors.append(f"{req.id} duplicates {texts[key]} (same text)")
        texts.setdefault(key, req.id)
        for goal in spec.explicit_non_goals:
            if any(_mentions(req.text, term) for term in _terms(goal)):
                errors.append(f"{req.id} conflicts with the explicit non-goal {goal!r}")
        if _BACKEND_WORDS.search(req.text) and not spec.stack.backend.strip():
            errors.append(f"{req.id} mentions an API/backend but no backend is defined")
    for item in spec.must_have:
        if not any(_covers(req, item) for req in spec.requirements):
            errors.append(f"must-have {item!r} maps to no requirement")
    return errors


def _covers(req, item: str) -> bool:
    words = [w for w in re.split(r"[^\w]+", item.lower()) if w]
    if not words:
        return True
    hay = f"{req.text} {req.capability} {req.entity or ''}".lower().replace("-", " ")
    return all(any(_mentions(hay, s) for s in _stems(w)) for w in words) or any(
        _mentions(hay, t) for t in _terms(item))


def validate_spec(spec: AppSpec, request: str | None = None) -> list[str]:
    """All problems of `spec` as one-line messages; an empty list means PASS. With the user's
    `request`, the spec must also account for it clause by clause."""
    return structural_errors(spec) + logical_errors(spec) + clause_errors(spec, request)


class SpecValidator:
    """Object form of validate_spec for callers that prefer one."""

    def validate(self, spec: AppSpec) -> list[str]:
        return validate_spec(spec)
