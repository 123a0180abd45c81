"""Forgery scan: workspace code able to change test outcomes or the evidence (pure AST, no import).

The code under test runs in the same process as the plugin, so it could rewrite reports or the
evidence file. Any workspace module that defines a hook which can change outcomes or the session's
end, registers an `atexit` handler, or reaches into the harness plugin makes the evidence
untrusted; each finding names the file, line and what was found. A document rewritten after the
session is caught separately by the digest the plugin hands to the harness over a pipe.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

FORGING_HOOKS = frozenset({
    "pytest_runtest_makereport", "pytest_report_teststatus", "pytest_runtest_logreport",
    "pytest_runtest_protocol", "pytest_runtest_call", "pytest_pyfunc_call", "pytest_sessionfinish",
    "pytest_unconfigure", "pytest_collection_modifyitems", "pytest_deselected", "pytest_runtestloop",
    "pytest_exception_interact", "pytest_collectreport",
})
_HARNESS_NAMES = ("pytest_harness", "harness-recorder", "HARNESS_EVIDENCE_PATH", "HARNESS_DIGEST_FD")


def _finding(rel: str, node: ast.AST, what: str) -> dict:
    return {"file": rel, "line": getattr(node, "lineno", 0), "what": what}


def _node_findings(rel: str, node: ast.AST) -> list[dict]:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in FORGING_HOOKS:
        return [_finding(rel, node, f"defines hook {node.name}")]
    if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "atexit" for a in node.names):
        return [_finding(rel, node, "imports atexit")]
    if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "atexit":
        return [_finding(rel, node, "imports atexit")]
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        if node.value == "atexit":
            return [_finding(rel, node, "names the atexit module")]
        hit = next((name for name in _HARNESS_NAMES if name in node.value), None)
        if hit:
            return [_finding(rel, node, f"reaches into the harness plugin ({hit})")]
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        names = [node.module or ""] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
        if any(n.split(".")[0] == "pytest_harness" for n in names):
            return [_finding(rel, node, "imports the harness plugin (pytest_harness)")]
    return []


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of docstring constants (they may mention anything without doing it)."""
    out = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            out.add(id(body[0].value))
    return out


def scan_source(rel: str, source: str) -> list[dict]:
    """Findings in one module's source; a module that does not parse has none (pytest reports it)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return []
    skip = _docstrings(tree)
    return [f for node in ast.walk(tree) if id(node) not in skip for f in _node_findings(rel, node)]


def scan_files(root: Path, files: Iterable[str]) -> list[dict]:
    """Findings in every .py file of `files` (POSIX relpaths under `root`), sorted."""
    out: list[dict] = []
    for rel in sorted(files):
        if not rel.endswith(".py"):
            continue
        try:
            source = (Path(root) / rel).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        out += scan_source(rel, source)
    return sorted(out, key=lambda f: (f["file"], f["line"], f["what"]))
