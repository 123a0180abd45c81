"""The draft of a request or a run: `builder spec` prints it, every `builder new` writes it to
runs/<id>/app.toml (also when the spec stage stops), BUILD FAILED names it as the next step."""

from __future__ import annotations

from pathlib import Path

from harness.offline.accounting.account import account_text
from harness.offline.accounting.draft import draft_toml
from harness.errors import SpecError
from harness.models.spec import AppSpec, Clause

DRAFT_NAME = "app.toml"


def unread_clauses(texts: list[str]) -> list[Clause]:
    """Clauses of a request nothing was built from: every content word is unaccounted."""
    empty = AppSpec()
    out = []
    for n, text in enumerate(texts, 1):
        acc = account_text(text, empty)
        out.append(Clause(id=f"C-{n:03d}", text=" ".join(text.split()),
                          status="not_built" if acc.unaccounted else "context", words=acc.words,
                          unaccounted=acc.unaccounted,
                          reason="nothing to build was recognised" if acc.unaccounted else ""))
    return out


def failure_clauses(exc: SpecError) -> list[Clause]:
    return unread_clauses(list(getattr(exc, "clauses", []) or []))


def request_draft(request: str) -> tuple[str, AppSpec | None, list[Clause], str]:
    """(draft text, spec or None, clauses, error) for a request, by the offline rules only."""
    from harness.offline.spec import parse_request

    try:
        spec = parse_request(request)
    except SpecError as exc:
        clauses = failure_clauses(exc)
        return draft_toml(None, clauses, request), None, clauses, str(exc).split(". Clauses:")[0]
    return draft_toml(spec, spec.clauses, request), spec, spec.clauses, ""


def draft_path(store, run_id: str) -> Path:
    return store.run_dir(run_id) / DRAFT_NAME


def write_run_draft(store, run_id: str, request: str, spec: AppSpec | None, clauses: list[Clause]) -> Path:
    """runs/<id>/app.toml for a run (spec None: the spec stage stopped; clauses say what was read)."""
    path = draft_path(store, run_id)
    tmp = path.with_suffix(".toml.tmp")
    tmp.write_text(draft_toml(spec, clauses, request), encoding="utf-8")
    tmp.replace(path)
    return path


def next_step_line(store, run_id: str) -> str:
    path = draft_path(store, run_id)
    return f"edit {path}, then: builder new --spec {path}"
