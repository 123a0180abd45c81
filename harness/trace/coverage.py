"""Request coverage: which clauses of the request were built and verified (the first link of the
evidence chain). Pure: spec clauses + matrix rows in, a JSON-ready dict out."""

from __future__ import annotations

from harness.models.spec import AppSpec
from harness.utils.clip import clip

SCHEMA_VERSION = 1
FALLBACK_NOTE = "rule-based spec used"       # prefix of the spec note the spec stage adds on fallback
SET_ASIDE = "set aside as context"           # prefix of the reason of a background clause (accounting/context.py)


def request_coverage(spec: AppSpec | None, matrix) -> dict:
    """Counts and lists of the spec's clauses against the matrix's (TraceMatrix or dict) statuses."""
    rows = matrix.get("requirements", []) if isinstance(matrix, dict) else matrix.requirements
    status = {(r["id"] if isinstance(r, dict) else r.id): (r["status"] if isinstance(r, dict) else r.status)
              for r in rows}
    clauses = spec.clauses if spec else []
    asking = [c for c in clauses if c.status != "context"]
    built = [c for c in asking if c.status == "mapped" and c.reqs and all(status.get(r) == "PASS" for r in c.reqs)]
    not_built = [{"id": c.id, "text": c.text, "reason": c.reason} for c in asking if c.status == "not_built"]
    failing = [{"id": c.id, "text": c.text, "reqs": [r for r in c.reqs if status.get(r) != "PASS"]}
               for c in asking if c.status == "mapped" and c not in built]
    notes = [n for n in (spec.notes if spec else []) if n.startswith(FALLBACK_NOTE) or "entities ignored" in n]
    set_aside = [{"id": c.id, "text": c.text, "reason": c.reason} for c in clauses
                 if c.status == "context" and c.reason.startswith(SET_ASIDE)]
    return {"schema_version": SCHEMA_VERSION, "clauses": len(clauses), "asking": len(asking),
            "built": len(built), "context": len(clauses) - len(asking),
            "pct": round(100.0 * len(built) / len(asking), 1) if asking else (100.0 if not clauses else 0.0),
            "complete": (not clauses) or (bool(asking) and len(built) == len(asking)),
            "recorded": bool(clauses), "not_built": not_built, "failing": failing, "notes": notes,
            "set_aside": set_aside}


def format_coverage(cov: dict) -> str:
    """ 'Request coverage: 7 of 9 clauses built and verified. Not built: "…" (…)' (+ notes)."""
    if not cov or not cov.get("recorded"):
        return "Request coverage: not recorded (this spec predates clause accounting)"
    text = f"Request coverage: {cov['built']} of {cov['asking']} clauses built and verified."
    if cov["not_built"]:
        items = [f'"{clip(c["text"])}" ({c["reason"]})' for c in cov["not_built"]]   # all of them (issue #48)
        text += " Not built: " + ", ".join(items) + "."
    if cov["failing"]:
        items = [f'"{clip(c["text"])}" ({", ".join(c["reqs"])} not PASS)' for c in cov["failing"]]
        text += " Built but not verified: " + ", ".join(items) + "."
    if cov.get("set_aside"):   # background the accounting set aside: shown, so a real ask is never dropped unseen
        items = [f'{c["id"]} "{clip(c["text"])}"' for c in cov["set_aside"]]
        text += " Set aside as context (asks for nothing): " + ", ".join(items) + "."
    return "\n".join([text] + [f"Note: {n}" for n in cov.get("notes", [])])


def clause_summary(spec: AppSpec) -> str:
    """ "9 clauses (2 not built, 1 context)" for the SPEC stage line."""
    n = len(spec.clauses)
    nb = sum(1 for c in spec.clauses if c.status == "not_built")
    ctx = sum(1 for c in spec.clauses if c.status == "context")
    extra = ", ".join(x for x in (f"{nb} not built" if nb else "", f"{ctx} context" if ctx else "") if x)
    return f"{n} clause{'s' if n != 1 else ''}" + (f" ({extra})" if extra else "")


def spec_warnings(spec: AppSpec) -> list[str]:
    """Spec notes a person must see on the terminal: rule-based fallback, entity cap, not built."""
    out = [n for n in spec.notes if n.startswith(FALLBACK_NOTE) or "entities ignored" in n]
    out += [f'not built: "{clip(c.text)}" ({c.reason})' for c in spec.clauses if c.status == "not_built"]
    return out
