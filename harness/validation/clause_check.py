"""Clause accounting checks: every clause of the request that asks for something maps to
requirements, or is marked not built with an `unsupported` requirement (issue #13)."""

from __future__ import annotations

from harness.models.spec import AppSpec
from harness.utils.request_text import plain_text, unbulleted

NO_CLAUSES = ("spec has no clauses: split the request into clauses (sentences, bullets, user stories) "
              "and give each REQ ids (mapped), an unsupported REQ (not_built) or no REQ (context)")


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def _loose(text: str) -> str:
    """Lower case, commas and runs of spaces as one space: a joined bullet list's commas are ours."""
    return " ".join(text.lower().replace(",", " ").split())


def clause_errors(spec: AppSpec, request: str | None = None) -> list[str]:
    """Problems of spec.clauses; `request` given: clauses are required and must quote it."""
    if not spec.clauses:
        return [NO_CLAUSES] if request is not None and request.strip() else []
    reqs = {r.id: r for r in spec.requirements}
    errors, seen = [], set()
    whole = _norm(request or "")
    plain = _norm(plain_text(request or ""))   # the clause splitter reads a request's HTML as plain text
    listed = _loose(unbulleted(request or ""))   # "Events have:" and its bullets, joined as one clause
    for c in spec.clauses:
        if c.id in seen:
            errors.append(f"duplicate clause id {c.id}")
        seen.add(c.id)
        unknown = [r for r in c.reqs if r not in reqs]
        if unknown:
            errors.append(f"clause {c.id} refers to unknown requirement {unknown[0]}")
        kinds = {reqs[r].capability for r in c.reqs if r in reqs}
        if c.status == "mapped" and (not c.reqs or kinds <= {"unsupported"}):
            errors.append(f'clause {c.id} "{c.text[:60]}" asks for something but maps to no buildable '
                          "requirement; map it or mark it not_built with an unsupported requirement")
        elif c.status == "not_built" and "unsupported" not in kinds:
            errors.append(f"clause {c.id} is not built but names no unsupported requirement")
        elif c.status == "context" and c.reqs:
            errors.append(f"clause {c.id} is context but lists requirements")
        if (request is not None and _norm(c.text) not in whole and _norm(c.text) not in plain
                and _loose(c.text) not in listed):
            errors.append(f'clause {c.id} "{c.text[:60]}" is not text of the request')
    return errors
