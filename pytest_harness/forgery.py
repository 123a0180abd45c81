"""Forgery scan: workspace code able to change test outcomes or the evidence (pure AST, no import).

The code under test runs in the same process as the plugin, so it could rewrite reports or the
evidence file. Any workspace module that defines a hook which can change outcomes or the session's
end, registers an `atexit` handler, or reaches into the harness plugin makes the evidence
untrusted; each finding names the file, line and what was found. A `pytest_collection_modifyitems`
that only adds markers or skips (pytest's `--runslow` recipe) is no finding (hook_effects.py); which
files are read and which reviewed findings a project accepts is forgery_scope.py. A document
rewritten after the session is caught separately by the digest the plugin hands to the harness.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Callable, Iterable
from pathlib import Path

from pytest_harness import ast_walk, hook_effects

FORGING_HOOKS = frozenset({
    "pytest_runtest_makereport", "pytest_report_teststatus", "pytest_runtest_logreport",
    "pytest_runtest_protocol", "pytest_runtest_call", "pytest_pyfunc_call", "pytest_sessionfinish",
    "pytest_unconfigure", "pytest_collection_modifyitems", "pytest_deselected", "pytest_runtestloop",
    "pytest_exception_interact", "pytest_collectreport",
})
_HARNESS_NAMES = ("pytest_harness", "harness-recorder", "HARNESS_EVIDENCE_PATH", "HARNESS_DIGEST_FD")


def _finding(rel: str, node: ast.AST, what: str, detail: str | None = None) -> dict:
    found = {"file": rel, "line": getattr(node, "lineno", 0), "what": what}
    if detail:
        found["detail"] = detail
    return found


def _function_findings(rel: str, node: ast.AST) -> list[dict]:
    """A forging hook; a marker-only hook (hook_effects) only when its body does more than add markers."""
    if node.name not in FORGING_HOOKS:
        return []
    effect = hook_effects.outcome_changes(node)
    if effect is None:
        return []
    detail = effect if node.name in hook_effects.MARKER_ONLY_HOOKS else None
    return [_finding(rel, node, f"defines hook {node.name}", detail)]


def _import_findings(rel: str, node: ast.Import) -> list[dict]:
    if any(a.name.split(".")[0] == "atexit" for a in node.names):
        return [_finding(rel, node, "imports atexit")]
    if any(a.name.split(".")[0] == "pytest_harness" for a in node.names):
        return [_finding(rel, node, "imports the harness plugin (pytest_harness)")]
    return []


def _import_from_findings(rel: str, node: ast.ImportFrom) -> list[dict]:
    top = (node.module or "").split(".")[0]
    if top == "atexit":
        return [_finding(rel, node, "imports atexit")]
    if top == "pytest_harness":
        return [_finding(rel, node, "imports the harness plugin (pytest_harness)")]
    return []


def _constant_findings(rel: str, node: ast.Constant) -> list[dict]:
    if not isinstance(node.value, str):
        return []
    if node.value == "atexit":
        return [_finding(rel, node, "names the atexit module")]
    hit = next((name for name in _HARNESS_NAMES if name in node.value), None)
    if hit:
        return [_finding(rel, node, f"reaches into the harness plugin ({hit})")]
    return []


# Only these node types can be findings; the scan looks every other node up once and moves on.
_FINDERS = {ast.FunctionDef: _function_findings, ast.AsyncFunctionDef: _function_findings,
            ast.Import: _import_findings, ast.ImportFrom: _import_from_findings,
            ast.Constant: _constant_findings}


def _node_findings(rel: str, node: ast.AST) -> list[dict]:
    finder = _FINDERS.get(type(node))
    return finder(rel, node) if finder is not None else []


def _docstring(node: ast.AST) -> ast.Constant | None:
    """The docstring constant of a module/class/function body (it may mention anything without doing it)."""
    body = getattr(node, "body", None)
    if isinstance(body, list) and body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        return body[0].value
    return None


def scan_tree(rel: str, tree: ast.AST) -> list[dict]:
    """Findings in one parsed module, in one walk: a body is visited before the constants in it,
    so a docstring is known to be one before it is reached."""
    docstrings: set[int] = set()
    out: list[dict] = []
    for node in ast_walk.nodes(tree):
        doc = _docstring(node)
        if doc is not None:
            docstrings.add(id(doc))
        if id(node) not in docstrings:
            out += _node_findings(rel, node)
    return out


def scan_source(rel: str, source: str) -> list[dict]:
    """Findings in one module's source; a module that does not parse has none (pytest reports it)."""
    tree = parse(source)
    return [] if tree is None else scan_tree(rel, tree)


def parse(source: str) -> ast.Module | None:
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError):
        return None


# Parsed and scanned workspace modules, by absolute path: (source, tree, relpath, findings). Filled
# only by `prime`, which the warm verification worker calls before it forks a session (it runs no
# workspace code); each child then parses and scans only the files that changed since the previous
# session (at 20 entities, ~65 files: ~0.2 s a session, so O(files x sessions) over a build). A pure
# cache of `parse` and `scan_tree`: an entry is used only for the exact source (and relpath) it was
# made from, so a cold session (empty cache) finds the same.
_PARSED: dict[str, tuple[str, ast.Module | None, str, list[dict]]] = {}
# The same, made by `remember` for files the harness expects to be written (the worker parses them
# while a session runs); `prime` takes an entry once the file exists with exactly that source.
_AHEAD: dict[str, tuple[str, ast.Module | None, str, list[dict]]] = {}


def remember(root: Path | str, rel: str, source: str) -> None:
    """Parse and scan `source` as the file `rel` under `root` before it exists (see _AHEAD)."""
    tree = parse(source)
    _AHEAD[os.path.join(os.path.abspath(root), rel)] = (source, tree, rel, [] if tree is None else scan_tree(rel, tree))


def prime(root: Path | str) -> int:
    """Parse and scan every .py file under `root` whose source is not cached yet (and forget files
    that are gone), and let measure.SiteCache find the test files' check sites; the number parsed."""
    from pytest_harness import measure
    from pytest_harness.snapshot import iter_files

    base = os.path.abspath(root)
    seen, parsed = set(), 0
    for rel, path in iter_files(Path(base)):
        if not rel.endswith(".py"):
            continue
        try:
            source = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        key = os.path.join(base, rel)
        seen.add(key)
        hit = _PARSED.get(key)
        if hit is None or hit[0] != source or hit[2] != rel:
            ahead = _AHEAD.pop(key, None)
            if ahead is not None and ahead[0] == source and ahead[2] == rel:
                _PARSED[key] = ahead
            else:
                tree = parse(source)
                _PARSED[key] = (source, tree, rel, [] if tree is None else scan_tree(rel, tree))
            tree = _PARSED[key][1]
            if tree is not None:
                measure.remember_sites(key, rel, tree)
            parsed += 1
    for key in [k for k in _PARSED if k.startswith(base + os.sep) and k not in seen]:
        del _PARSED[key]
        measure.forget_sites(key)
    return parsed


def _scanned(path: str, rel: str, source: str) -> tuple[ast.Module | None, list[dict]]:
    """(tree, findings) of one module: from the primed cache when its source is the same."""
    hit = _PARSED.get(path)
    if hit is not None and hit[0] == source and hit[2] == rel:
        return hit[1], hit[3]
    tree = parse(source)
    return tree, ([] if tree is None else scan_tree(rel, tree))


def scan_files(root: Path, files: Iterable[str],
               on_tree: Callable[[str, ast.Module], None] | None = None) -> list[dict]:
    """Findings in every .py file of `files` (POSIX relpaths under `root`), sorted. Each parsed
    module is also handed to `on_tree` (so check sites come from the same single parse)."""
    out: list[dict] = []
    base = os.path.abspath(root)
    for rel in sorted(files):
        if not rel.endswith(".py"):
            continue
        try:
            source = (Path(root) / rel).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        tree, findings = _scanned(os.path.join(base, rel), rel, source)
        if tree is None:
            continue
        out += [dict(f) for f in findings]
        if on_tree is not None:
            on_tree(rel, tree)
    return sorted(out, key=lambda f: (f["file"], f["line"], f["what"]))
