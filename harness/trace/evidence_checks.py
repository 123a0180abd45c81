"""What can make stored evidence worthless for a requirement, as readable "missing" lines (pure).

- the document was changed after the session (its digest differs from the one the plugin sent);
- the workspace holds forging code (the plugin's scan: hooks that change outcomes, atexit);
- a file changed since verification: a file every test may load (any conftest.py, the package
  __init__, pytest/dependency config) or one no task owns makes every requirement stale, a task's
  file makes that task's requirements stale, a test file its tests' requirements;
- a file exists that no task owns (nothing in the build vouches for it);
- mutation testing made mutants of its code and its tests killed none.
"""

from __future__ import annotations

from collections.abc import Iterable

from harness.utils.workspace_layout import PACKAGE_INIT, is_config_file

NO_DIGEST = "missing"


def is_global_file(rel: str) -> bool:
    """A file every test may import or be configured by (conservatively: all requirements depend on it)."""
    return rel == PACKAGE_INIT or is_config_file(rel) or rel.rsplit("/", 1)[-1] == "conftest.py"


def document_problems(evidence: dict | None, results: list, evidence_rel: str) -> list[str]:
    """Problems that void the whole evidence document (digest mismatch, forgery found)."""
    if not evidence:
        return []
    from pytest_harness.evidence import dump_document

    problems = []
    mine = [r for r in results if r.evidence_path == evidence_rel]
    sent = mine[-1].evidence_digest if mine else None
    if sent is not None:  # None: recorded before digests existed
        import hashlib

        actual = "sha256:" + hashlib.sha256(dump_document(evidence).encode()).hexdigest()
        if sent == NO_DIGEST:
            problems.append(f"evidence rejected: the plugin sent no digest for {evidence_rel}")
        elif actual != sent:
            problems.append(f"evidence rejected: {evidence_rel} changed after the pytest session ended")
    for f in evidence.get("forgery", []):
        problems.append(f"evidence untrusted: {f.get('file')}:{f.get('line')} {f.get('what')}" if isinstance(f, dict)
                        else f"evidence untrusted: a malformed forgery entry {str(f)[:80]!r}")
    return problems


def affected_stale(stale: Iterable[str], touched: set[str], owned: set[str]) -> list[str]:
    """The stale files that affect a requirement whose task/test files are `touched`."""
    return [f for f in stale if f in touched or is_global_file(f) or f not in owned]


def unowned_files(workspace_files: Iterable[str], owned: set[str]) -> list[str]:
    """Workspace files no task created."""
    return sorted(f for f in workspace_files if f not in owned)


def weak_lines(rid: str, ev_req: dict) -> list[str]:
    """Why a `weak` requirement's passing tests prove nothing, one line per test."""
    reasons = ev_req.get("weak_reasons") or {}
    if reasons:
        return [f"weak: {nodeid}: {why}" for nodeid, why in sorted(reasons.items())]
    return [f"weak: tests assert nothing ({', '.join(ev_req.get('weak', [])) or rid})"]


def mutation_figure(audit: dict | None, rid: str) -> dict | None:
    """{"killed", "total"} of a requirement the audit judged mutants for, else None."""
    entry = ((audit or {}).get("requirements") or {}).get(rid)
    from pytest_harness.mutation_verdict import judged

    if not entry or not entry.get("mutants"):
        return None
    return {"killed": entry.get("killed", 0), "total": judged(entry)}   # killed elsewhere: not counted (#47)


# The mutation bar (#47, pytest_harness/time_box.py): of a requirement's judged mutants (killed +
# survived; not run, unjudged and killed-elsewhere ones do not count), at least KILL_RATIO must be
# killed, and at least one. Which mutants are a requirement's: pytest_harness/mutation_attribution.py.
# Calibration: docs/acceptance.md.
from pytest_harness.time_box import KILL_RATIO  # noqa: E402


def mutation_lines(audit: dict | None, rid: str) -> list[str]:
    """A requirement whose tests kill less than KILL_RATIO of its judged mutants is not PASS; its
    survivors are named (file, line, what changed, the mutant's kind). Invalid mutants (a fixture or
    import error, a crash: pytest_harness/mutation_child.py) are neither killed nor judged; a
    requirement whose mutants were all invalid has no kill and fails too (mutation_verdict.py)."""
    from pytest_harness.mutation_verdict import bar_lines

    return bar_lines(((audit or {}).get("requirements") or {}).get(rid))


def unaudited_lines(audit: dict | None, rid: str, ev_req: dict, evidence: dict | None) -> list[str]:
    """An audited, verified requirement with implementation files of which the audit judged no mutant
    is not PASS: nothing showed that its tests fail when its code is broken (hostile trial i, A8:
    with tracing switched off the evidence held no executed line, the audit planned 0 mutants, and
    the run stayed PASS). [] when it was not audited (no audit, --no-audit) or already fails."""
    entry = ((audit or {}).get("requirements") or {}).get(rid)
    if not entry or entry.get("mutants") or entry.get("invalid") or entry.get("time_box"):
        return []
    if ev_req.get("status") != "verified" or not ev_req.get("files"):
        return []
    untraced = ((evidence or {}).get("tracing") or {}).get("why")
    why = f"its tests were not line-traced: {untraced}" if untraced else (entry.get("skipped") or "no mutant planned")
    return [f"mutation audit judged no mutant of its code ({why}): nothing shows its tests fail when it is broken"]
