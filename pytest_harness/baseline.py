"""`--harness-baseline=PATH`: this session's evidence compared with an earlier evidence document.

Two findings, pure functions over the two documents (no I/O but reading the baseline):
- `changed`: requirements whose status differs (added or removed ones included), e.g.
  REQ-002 verified -> failing;
- `stale`: requirements verified in the baseline none of whose tests ran in this session
  (deselected, not reached, or carried from an earlier session), where a file those passing tests
  ran (implementation lines recorded in the baseline, and the test files themselves) has changed
  since, by the two documents' snapshot hashes. Their baseline verdict no longer speaks for the
  code: the document lists the changed files.
A requirement whose tests ran now is judged now (verified, failing, ...), whatever changed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path


def load(path: Path) -> dict:
    """The baseline document; ValueError with a one-line reason when it cannot be used."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as err:
        raise ValueError(f"cannot read baseline {path}: {err}") from None
    except json.JSONDecodeError as err:
        raise ValueError(f"baseline {path} is not JSON ({err.msg})") from None
    if not isinstance(data, dict) or not isinstance(data.get("requirements"), dict) or "snapshot" not in data:
        raise ValueError(f"baseline {path} is not an evidence document (no requirements or snapshot)")
    return data


def files_run(document: Mapping, rid: str) -> list[str]:
    """The files the passing tests of `rid` ran in `document`: implementation files and test files."""
    tests = document.get("tests", {})
    files: set[str] = set()
    for nodeid in document["requirements"][rid].get("tests", []):
        entry = tests.get(nodeid, {})
        if entry.get("outcome") != "passed":
            continue
        files.add(nodeid.split("::", 1)[0])
        files.update((entry.get("lines") or {}).keys())
    return sorted(files)


def _judged_now(document: Mapping, rid: str) -> bool:
    """True when a linked test ran in this session (passed, failed, skipped: not carried, not not_run)."""
    tests = document.get("tests", {})
    return any(tests.get(n, {}).get("outcome", "not_run") != "not_run" and not tests.get(n, {}).get("carried_from")
               for n in document["requirements"].get(rid, {}).get("tests", []))


def compare(baseline: Mapping, current: Mapping, path: str) -> dict:
    """The `baseline` block: {path, changed: [{id, was, now}], stale: {id: [changed files]}}."""
    old, new = baseline["requirements"], current["requirements"]
    changed = [{"id": rid, "was": old.get(rid, {}).get("status", "absent"), "now": new.get(rid, {}).get("status", "absent")}
               for rid in sorted(set(old) | set(new))
               if old.get(rid, {}).get("status") != new.get(rid, {}).get("status")]
    then = (baseline.get("snapshot") or {}).get("files") or {}
    now = (current.get("snapshot") or {}).get("files") or {}
    stale: dict[str, list[str]] = {}
    for rid, req in sorted(old.items()):
        if req.get("status") != "verified" or _judged_now(current, rid):
            continue
        moved = [rel for rel in files_run(baseline, rid) if then.get(rel) != now.get(rel)]
        if moved:
            stale[rid] = moved
    return {"path": path, "changed": changed, "stale": stale}


def summary_lines(block: Mapping) -> list[str]:
    """Terminal lines for the block (one per change, one per stale requirement)."""
    lines = [f"baseline: {c['id']} {c['was']} -> {c['now']}" for c in block["changed"]]
    lines += [f"baseline: {rid} stale: verified in the baseline, since changed: {', '.join(files)}"
              for rid, files in block["stale"].items()]
    return lines or [f"baseline: no requirement changed status and none is stale ({block['path']})"]
