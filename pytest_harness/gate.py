"""The project's gate: share of verified requirements, `--harness-fail-under`, the summary table.

Pure functions over the evidence document (see evidence.py); no pytest objects, no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping

TITLE_CHARS = 40
REASON_CHARS = 70
COLUMNS = ("id", "title", "status", "tests", "reason")


def make_fail_under(requirements: Mapping[str, Mapping], threshold: float) -> dict:
    """{threshold, verified, total, percent, met}; no requirements never meets the gate."""
    total = len(requirements)
    verified = sum(1 for req in requirements.values() if req["status"] == "verified")
    percent = 100.0 * verified / total if total else 0.0
    return {"threshold": threshold, "verified": verified, "total": total,
            "percent": round(percent, 2), "met": bool(total) and percent >= threshold}


def annotate(document: Mapping, titles: Mapping[str, str], fail_under: float | None) -> dict:
    """The document with each requirement's title and, when a threshold is set, the `fail_under` block."""
    requirements = {rid: {**req, "title": titles.get(rid)} for rid, req in document["requirements"].items()}
    out = {**document, "requirements": requirements}
    if fail_under is not None:
        out["fail_under"] = make_fail_under(requirements, fail_under)
    return out


def _short(nodeid: str) -> str:
    return nodeid.rsplit("::", 1)[-1]


def requirement_reason(req: Mapping, tests: Mapping[str, Mapping]) -> str:
    """Why a requirement is not verified, in a few words naming the tests; "" when verified."""
    status = req["status"]
    if status == "uncovered":
        return "no test is marked with this id"
    if status == "failing":
        bad = [f"{_short(n)} {tests[n]['outcome']}" for n in req["tests"]
               if tests.get(n, {}).get("outcome") in ("failed", "error", "timeout")]
        return ", ".join(bad)
    if status == "not_run":
        counts = {k: v for k, v in req["counts"].items() if v}
        return "no linked test passed (" + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) + ")"
    if status == "weak":
        reasons = req.get("weak_reasons") or {}
        mutation = bool(reasons) and all(str(r).startswith("mutation audit") for r in reasons.values())
        head = "passing tests miss broken code: " if mutation else "passing tests prove nothing: "
        return head + ", ".join(
            f"{_short(n)} ({reasons[n]})" if n in reasons else _short(n) for n in req["weak"])
    if status == "untrusted":
        return "forging code in the workspace (see gate reasons)"
    return ""


def tests_cell(req: Mapping) -> str:
    """"passed/linked", e.g. "2/3"."""
    return f"{req['counts'].get('passed', 0)}/{len(req['tests'])}"


def summary_rows(document: Mapping) -> list[dict]:
    """One row per requirement, sorted by id: id, title, status, tests, reason."""
    tests = document.get("tests", {})
    return [{"id": rid, "title": req.get("title") or "", "status": req["status"], "tests": tests_cell(req),
             "reason": requirement_reason(req, tests)}
            for rid, req in sorted(document["requirements"].items())]


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."


def format_table(rows: list[dict]) -> list[str]:
    """Rows as aligned text lines with a header."""
    cells = [[_clip(str(row[col]), TITLE_CHARS if col == "title" else REASON_CHARS) for col in COLUMNS]
             for row in rows]
    header = [col.upper() if col != "tests" else "PASSED/TESTS" for col in COLUMNS]
    widths = [max(len(line[i]) for line in [header, *cells]) for i in range(len(COLUMNS))]
    return ["  ".join(cell.ljust(w) for cell, w in zip(line, widths)).rstrip() for line in [header, *cells]]


def verdict_line(document: Mapping) -> str:
    """One line: verified share, threshold verdict when one is set."""
    block = document.get("fail_under") or make_fail_under(document["requirements"], 100.0)
    share = f"{block['verified']}/{block['total']} requirements verified ({block['percent']:g}%)"
    if "fail_under" not in document:
        return share
    word = "met" if block["met"] else "NOT met"
    return f"{share}; fail-under {block['threshold']:g}% {word}"   # set by ini, env or CLI: name none of them


def other_reasons(document: Mapping) -> list[str]:
    """Gate reasons that are not a requirement's status (exit status, markers, collection, snapshot)."""
    ids = set(document["requirements"])
    return [r for r in document["gate"]["reasons"] if r.split(":", 1)[0] not in ids]
