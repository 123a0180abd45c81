"""Requirement coverage in formats CI systems read: GitHub workflow annotations, Cobertura XML.

- GitHub (`--harness-annotations=github`): one `::error` line per requirement that is not verified
  (a `::warning` for stale ones), on the first linked test's file, or on the requirement's line in
  the requirements file when no test is linked; GitHub shows them on the pull request's diff.
- Cobertura (`--harness-cobertura=PATH`): each requirement is a class with one line (its line in
  the requirements file, else its position), hit when verified; `line-rate` is the verified share,
  so a coverage widget or gate that reads Cobertura reads requirement coverage.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from pathlib import Path
from xml.sax.saxutils import quoteattr

from pytest_harness import gate


def id_lines(requirements_file: Path | None, ids: list[str]) -> dict[str, int]:
    """Each id's first line in the requirements file (1-based), for ids found there."""
    if requirements_file is None:
        return {}
    try:
        text = requirements_file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return {}
    found: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        for rid in ids:
            if rid not in found and rid in line:
                found[rid] = number
    return found


def _escape(text: str) -> str:
    """GitHub workflow-command data escaping."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _prop(text: str) -> str:
    return _escape(text).replace(":", "%3A").replace(",", "%2C")


def github_annotations(document: Mapping, requirements_file: str | None, lines: Mapping[str, int]) -> list[str]:
    """Workflow command lines, one per requirement not verified and per stale one."""
    tests = document.get("tests", {})
    out = []
    for rid, req in sorted(document["requirements"].items()):
        if req["status"] == "verified":
            continue
        title = f"{rid} {req['status']}"
        if req.get("tests"):
            where = f"file={_prop(req['tests'][0].split('::', 1)[0])}"
        elif requirements_file:
            where = f"file={_prop(requirements_file)},line={lines.get(rid, 1)}"
        else:
            where = ""
        reason = gate.requirement_reason(req, tests) or req["status"]
        label = f"{req.get('title')}: " if req.get("title") else ""
        out.append(f"::error {where + ',' if where else ''}title={_prop(title)}::{_escape(label + reason)}")
    for rid, files in (document.get("baseline") or {}).get("stale", {}).items():
        out.append(f"::warning title={_prop(rid + ' stale')}::{_escape('verified in the baseline; changed since: ' + ', '.join(files))}")
    return out


def cobertura(document: Mapping, requirements_file: str | None, lines: Mapping[str, int], source: str) -> str:
    """A Cobertura XML document of requirement coverage."""
    reqs = sorted(document["requirements"].items())
    verified = sum(1 for _, req in reqs if req["status"] == "verified")
    rate = f"{verified / len(reqs):.4f}" if reqs else "0"
    filename = requirements_file or "requirements"
    classes = []
    for position, (rid, req) in enumerate(reqs, 1):
        hit = 1 if req["status"] == "verified" else 0
        classes.append(f'<class name={quoteattr(rid)} filename={quoteattr(filename)} line-rate="{hit}" branch-rate="0" '
                       f'complexity="0"><methods/><lines><line number="{lines.get(rid, position)}" hits="{hit}"/>'
                       "</lines></class>")
    return ('<?xml version="1.0" ?>\n'
            f'<coverage line-rate="{rate}" branch-rate="0" lines-covered="{verified}" lines-valid="{len(reqs)}" '
            f'branches-covered="0" branches-valid="0" complexity="0" version="harness-requirements" '
            f'timestamp="{int(time.time() * 1000)}"><sources><source>{quoteattr(source)[1:-1]}</source></sources>'
            f'<packages><package name="requirements" line-rate="{rate}" branch-rate="0" complexity="0"><classes>'
            + "".join(classes) + "</classes></package></packages></coverage>\n")
