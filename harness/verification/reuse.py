"""Whole-suite evidence the build already holds: the VERIFY stage does not run the same suite twice.

The last task of a plan usually verifies with the whole suite (`python -m pytest -q`), and VERIFY
then ran exactly that command again on exactly the same files. `reusable_suite_run` finds such an
earlier run and accepts it only when it is evidence of the final workspace state:

- the same argv: a whole-suite pytest command (`pytest -q` / `python -m pytest -q`, no other
  argument), run for this run id, with the same requirement ids and requirement → files map;
- it passed (exit 0, not timed out) and wrote a complete evidence document;
- the document on disk still has the digest the plugin sent over its pipe when the session ended
  (persisted, digest-checked);
- every workspace file hashes today to what the document's snapshot recorded — no file added,
  removed or changed since (the same rule that makes evidence stale in the matrix);
- nothing was verified after it (it is the run's latest verification result).

Anything else — a failing or timed-out run, a changed file, a later repair — runs the suite again.
The reused result keeps the real command, says `reused_from` (the source document) beside its
runner, and its document is copied byte for byte to the workspace evidence path.
"""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path

from harness.models.results import VerificationResult
from harness.verification.evidence_inputs import NO_DIGEST, document_digest

WHOLE_SUITE = (["pytest", "-q"], ["python", "-m", "pytest", "-q"], ["python3", "-m", "pytest", "-q"])


def is_whole_suite(command: str) -> bool:
    try:
        return shlex.split(command) in [list(a) for a in WHOLE_SUITE]
    except ValueError:
        return False


def reusable_suite_run(results: list[VerificationResult], run_dir: Path, workspace: Path, *, run_id: str,
                       reqs: list[str], req_files: dict[str, list[str]] | None) -> tuple[VerificationResult, Path] | None:
    """(the earlier whole-suite result, its evidence document) when it is evidence of the workspace as
    it is now; None when the suite must run again."""
    if not results:
        return None
    last = results[-1]
    if not (is_whole_suite(last.command) and last.status == "PASS" and last.exit_code == 0 and not last.timed_out
            and last.evidence_path and last.evidence_digest and last.evidence_digest != NO_DIGEST):
        return None
    path = run_dir / last.evidence_path
    if document_digest(path) != last.evidence_digest:
        return None
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not _same_inputs(doc, run_id, reqs, req_files) or not _same_files(doc, workspace):
        return None
    return last, path


def _same_inputs(doc: dict, run_id: str, reqs: list[str], req_files: dict[str, list[str]] | None) -> bool:
    requirements = doc.get("requirements")
    if not (doc.get("complete") is True and doc.get("run_id") == run_id and isinstance(requirements, dict)
            and sorted(requirements) == sorted(reqs)):
        return False
    files = req_files or {}
    return all(sorted(requirements[rid].get("files", [])) == sorted(files.get(rid, [])) for rid in reqs)


def _same_files(doc: dict, workspace: Path) -> bool:
    from pytest_harness.snapshot import changed_files, snapshot_files

    recorded = (doc.get("snapshot") or {}).get("files")
    if not isinstance(recorded, dict) or not recorded:
        return False
    return not changed_files(recorded, snapshot_files(workspace)["files"])


def adopt(source: VerificationResult, source_doc: Path, evidence_path: Path, evidence_rel: str,
          task_id: str = "WORKSPACE", command: str = "pytest -q") -> VerificationResult:
    """The workspace result made of `source`: its document copied atomically to `evidence_path`."""
    evidence_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = evidence_path.with_name(f".{evidence_path.name}.tmp")
    tmp.write_bytes(source_doc.read_bytes())
    os.replace(tmp, evidence_path)
    if document_digest(evidence_path) != source.evidence_digest:  # the copy is what the plugin signed
        evidence_path.unlink(missing_ok=True)
        raise OSError(f"copy of {source.evidence_path} does not match its digest")
    return source.model_copy(update={
        "task_id": task_id, "command": command, "evidence_path": evidence_rel, "duration_ms": 0,
        "attempt": 0, "batch": 0, "reused_from": source.evidence_path})
