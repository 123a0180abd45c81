"""What the plugin leaves behind at session end: the evidence file, the report, the summary table."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from pathlib import Path

from pytest_harness import baseline, ci_formats, evidence, gate, mutate, report
from pytest_harness.settings import Settings


def write_atomic(path: Path, text: str) -> None:
    """Write `text` to `path` via a temp file in the same directory and os.replace."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.chmod(tmp, 0o644)  # mkstemp's 0600 would hide the evidence from other readers
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_outputs(settings: Settings, document: Mapping) -> None:
    """Write the evidence JSON and the report that were asked for; OSError on failure."""
    if settings.evidence_path is not None:
        write_atomic(settings.evidence_path, evidence.dump_document(document))
    if settings.report_path is not None:
        text = report.render(document, report.format_for(settings.report_path.suffix))
        write_atomic(settings.report_path, text)
    if settings.cobertura_path is not None:
        write_atomic(settings.cobertura_path, ci_formats.cobertura(
            document, _requirements_rel(settings), _id_lines(settings, document), str(Path.cwd())))


def _requirements_rel(settings: Settings) -> str | None:
    path = settings.requirements_path
    if path is None:
        return None
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return str(path)


def _id_lines(settings: Settings, document: Mapping) -> dict[str, int]:
    return ci_formats.id_lines(settings.requirements_path, sorted(document["requirements"]))


def fails_threshold(document: Mapping) -> bool:
    """True when a `--harness-fail-under` threshold was set and not met."""
    block = document.get("fail_under")
    return block is not None and not block["met"]


def evidence_verdict(document: Mapping) -> str:
    """The document's gate (every requirement verified, nothing forged) in words, and what decided
    the exit status when the gate was not met: the line said "gate failed" beside a run that exited
    0 (4/5 verified with --harness-fail-under=80, or no threshold at all)."""
    gate_doc = document["gate"]
    if gate_doc["passed"]:
        return "gate passed"
    reasons = list(gate_doc["reasons"])
    named = "; ".join(reasons[:3]) + (f"; {len(reasons) - 3} more" if len(reasons) > 3 else "")
    if fails_threshold(document) or mutate.failed(document):
        return f"gate failed: {named}"
    if "fail_under" in document:
        return f"threshold met, so the run passes; not every requirement passed the gate: {named}"
    return f"gate not met: {named}; without --harness-fail-under the exit status is the tests' own"


def write_summary(terminal, settings: Settings, document: Mapping) -> None:
    """The `harness requirements` section: the table, other gate findings, the verdict, file paths."""
    terminal.section("harness requirements", sep="-")
    if settings.ignored:
        terminal.write_line(f"harness: judged session: ignored the project's own settings {', '.join(settings.ignored)} "
                            "(the harness sets them on its command line)")
    for line in gate.format_table(gate.summary_rows(document)):
        terminal.write_line(line)
    for reason in gate.other_reasons(document):
        terminal.write_line(f"gate: {reason}")
    for finding in document.get("forgery", []):
        if finding.get("trust"):
            terminal.write_line(f"harness: {finding['file']}:{finding['line']} {finding['what']}: {finding['trust']}")
    why = (document.get("tracing") or {}).get("why")
    if why and why != "no selected test is marked":
        terminal.write_line(f"harness: no test was line-traced ({why}): a passing test counts without the 'weak' "
                            "judgement; --harness-trace=marked judges it")
    block = document.get("baseline")
    if block is not None:
        for line in ([f"baseline: {block['error']}"] if block.get("error") else baseline.summary_lines(block)):
            terminal.write_line(line)
    if settings.annotations == "github":
        for line in ci_formats.github_annotations(document, _requirements_rel(settings), _id_lines(settings, document)):
            terminal.write_line(line)
    for line in mutate.summary_lines(dict(document)):
        terminal.write_line(line, red=" below the bar" in line or "produced no result" in line)
    failed = fails_threshold(document)
    terminal.write_line(f"harness: {gate.verdict_line(document)}", red=failed, green=not failed and
                        "fail_under" in document)
    if settings.evidence_path is not None:
        terminal.write_line(f"harness evidence: {settings.evidence_path} ({evidence_verdict(document)})")
    if settings.report_path is not None:
        terminal.write_line(f"harness report: {settings.report_path}")
    if settings.cobertura_path is not None:
        terminal.write_line(f"harness cobertura: {settings.cobertura_path}")
