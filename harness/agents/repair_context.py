"""What the repair agent sees: the failure with its assertion lines first, the files it may edit,
the failing test and the other files the traceback names (read-only), and the earlier attempts.
Contents are trimmed by their measured JSON size, so the context is always one valid JSON object."""

from __future__ import annotations

import json
import re

from harness.models.enums import FailureType
from harness.models.results import VerificationResult
from harness.models.spec import AppSpec
from harness.models.tasks import Task

CONTEXT_CAP = 24_000


def repair_cap(context_tokens: int | None) -> int:
    """The repair context's cap: CONTEXT_CAP, or less when the model's context window is smaller."""
    from harness.providers.context_window import prompt_chars

    return min(CONTEXT_CAP, prompt_chars(context_tokens, context_tokens)) if context_tokens else CONTEXT_CAP
KEY_LINES = 60
OUTPUT_TAIL = 3000
_KEY = re.compile(r"^(E\s|FAILED |ERROR |>\s|\S+\.py:\d+: \w*(Error|Exception)|\w*(Error|Exception)\b|"
                  r"AssertionError|assert )")
_WARNINGS = re.compile(r"^=+ warnings summary =+$.*?(?=^=+ |\Z)", re.M | re.S)
_FRAME = re.compile(r'File "([^"]+\.py)", line \d+|^([\w./-]+\.py):\d+:', re.M)


def failure_excerpt(result: VerificationResult, tail: int = OUTPUT_TAIL) -> dict:
    """{"key_lines", "output_tail"}: assertion/error lines first, then the output's tail with
    pytest's warnings summary removed (it used to push the assertion out of the window)."""
    text = "\n".join(part for part in (result.stdout, result.stderr) if part and part.strip())
    text = _WARNINGS.sub("", text)
    key = [line for line in text.splitlines() if _KEY.match(line.strip()) or _KEY.match(line)]
    return {"key_lines": "\n".join(key[:KEY_LINES]), "output_tail": text[-tail:]}


def traceback_files(result: VerificationResult, workspace_files: list[str]) -> list[str]:
    """Workspace files named by the failure's frames (innermost last), plus the failing command's test."""
    text = f"{result.stdout}\n{result.stderr}"
    known = set(workspace_files)
    out: list[str] = []
    for match in _FRAME.finditer(text):
        raw = (match.group(1) or match.group(2)).replace("<workspace>/", "")
        rel = next((f for f in known if raw == f or raw.endswith("/" + f)), None)
        if rel and rel not in out:
            out.append(rel)
    for word in result.command.split():
        if word in known and word not in out:
            out.append(word)
    return out


def _fit(text: str, limit: int) -> str:
    """The longest prefix of `text` whose JSON encoding fits in `limit` characters (measured)."""
    if len(json.dumps(text)) <= limit:
        return text
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if len(json.dumps(text[:mid] + " …(cut)")) <= limit:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo] + " …(cut)" if lo else ""


def _share(files: dict[str, str], budget: int) -> dict[str, str]:
    """Trim file contents so their JSON fits `budget`: small files whole, the rest share what is left."""
    out: dict[str, str] = {}
    left = max(0, budget)
    order = sorted(files, key=lambda p: len(json.dumps(files[p])))
    for n, rel in enumerate(order):
        share = left // (len(order) - n)
        out[rel] = _fit(files[rel], max(0, share - len(json.dumps(rel)) - 4))
        left -= len(json.dumps(out[rel])) + len(json.dumps(rel)) + 4
    return {p: out[p] for p in sorted(out)}


def build_repair_context(task: Task, spec: AppSpec, failing: VerificationResult, ftype: FailureType | None,
                         editable: dict[str, str], read_only: dict[str, str] | None = None,
                         attempts: list[dict] | None = None, reopened: dict[str, str] | None = None,
                         cap: int = CONTEXT_CAP) -> str:
    """The repair context as one JSON object of at most `cap` characters (contents trimmed first)."""
    reqs = [{"id": r.id, "text": r.text} for r in spec.requirements if r.id in task.requirements]
    head = {"task": {"id": task.id, "description": task.description}, "requirements": reqs,
            "failure_type": ftype.value if ftype else None,
            "failing": {"command": failing.command, "exit_code": failing.exit_code,
                        "location": failing.diagnostics.get("file"), "line": failing.diagnostics.get("line"),
                        **failure_excerpt(failing)},
            "allowed_files": sorted(editable),
            "reopened": [{"file": f, "task_id": t} for f, t in sorted((reopened or {}).items())],
            "previous_attempts": list(attempts or [])[-3:],
            "instructions": "Edit only allowed_files (files of reopened earlier tasks included); "
                            "read_only_files show the failing test and other files the traceback names."}
    fixed = len(json.dumps(head))
    if fixed > cap // 2:              # an enormous output: keep the key lines, shorten the tail
        head["failing"]["output_tail"] = _fit(head["failing"]["output_tail"], 1000)
        head["failing"]["key_lines"] = _fit(head["failing"]["key_lines"], cap // 4)
        fixed = len(json.dumps(head))
    room = max(0, cap - fixed - 60)
    head["editable_files"] = _share(editable, room * 2 // 3 if read_only else room)
    used = len(json.dumps(head["editable_files"]))
    head["read_only_files"] = _share(read_only or {}, room - used)
    return json.dumps(head)
