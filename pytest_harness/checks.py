"""Checks that can fail, found in a test file's AST (pure: source text in, line spans out).

A check is an `assert` statement, a `pytest.raises` / `pytest.warns` call (the `with` form or the
callable form), or a unittest `self.assert*` / `self.fail*` call. An assert whose test is constant
or a tautology by its AST is listed apart as fake: a literal truthy value (`assert 1`, `assert "x"`),
literals on both sides of a comparison (`assert "a" in "a"`, `assert 1 == 1`), the same expression
on both sides (`assert x == x`), or an `or` with a truthy literal. A test's checks are the sites
whose lines it executed.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass

from pytest_harness import ast_walk

_RAISES = frozenset({"raises", "warns", "deprecated_call"})


@dataclass(frozen=True)
class Site:
    """One check site: its first and last line, and why it is fake (None for a real check)."""

    first: int
    last: int
    fake: str | None = None


def _is_literal(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return all(_is_literal(e) for e in node.elts)
    if isinstance(node, ast.Dict):
        return all(k is not None and _is_literal(k) for k in node.keys) and all(_is_literal(v) for v in node.values)
    if isinstance(node, ast.UnaryOp):
        return _is_literal(node.operand)
    if isinstance(node, ast.BinOp):
        return _is_literal(node.left) and _is_literal(node.right)
    if isinstance(node, ast.BoolOp):
        return all(_is_literal(v) for v in node.values)
    if isinstance(node, ast.JoinedStr):
        return all(isinstance(v, ast.Constant) for v in node.values)
    return False


def _truthy_literal(node: ast.AST) -> bool:
    try:
        return _is_literal(node) and bool(ast.literal_eval(node))
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return _is_literal(node)


def tautology(test: ast.expr) -> str | None:
    """Why an assert's test cannot fail on the code under test, or None when it is a real check."""
    if _is_literal(test):
        return "constant assert"
    if isinstance(test, ast.Compare):
        operands = [test.left, *test.comparators]
        if all(_is_literal(op) for op in operands):
            return "compares literals"
        # Same node type first: ast.dump of big operands is the costly part of counting checks.
        if any(type(a) is type(b) and ast.dump(a) == ast.dump(b) for a, b in zip(operands, operands[1:])):
            return "same expression on both sides"
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or) and any(_truthy_literal(v) for v in test.values):
        return "or with a truthy literal"
    return None


def _call_name(func: ast.expr) -> tuple[str | None, str | None]:
    """(owner name, attribute/function name) of a call target: pytest.raises -> ("pytest", "raises")."""
    if isinstance(func, ast.Attribute):
        owner = func.value.id if isinstance(func.value, ast.Name) else None
        return owner, func.attr
    if isinstance(func, ast.Name):
        return None, func.id
    return None, None


def _is_check_call(node: ast.Call) -> bool:
    owner, name = _call_name(node.func)
    if name is None:
        return False
    if owner == "self" and (name.startswith("assert") or name == "fail"):
        return True
    return name in _RAISES and owner in (None, "pytest")


def _span(node: ast.AST) -> tuple[int, int]:
    return node.lineno, getattr(node, "end_lineno", None) or node.lineno


def find_sites(source: str) -> list[Site]:
    """Every check site of a module, sorted by line; [] when the source does not parse."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return []
    return sites_in_tree(tree)


def sites_in_tree(tree: ast.AST) -> list[Site]:
    """Every check site of an already parsed module, sorted by line."""
    sites = []
    for node in ast_walk.nodes(tree):
        if isinstance(node, ast.Assert):
            first, _ = _span(node)
            sites.append(Site(first, _span(node.test)[1], tautology(node.test)))
        elif isinstance(node, ast.Call) and _is_check_call(node):
            sites.append(Site(*_span(node)))
    return sorted(sites, key=lambda s: (s.first, s.last))


def executed_sites(sites: Iterable[Site], lines: set[int]) -> list[Site]:
    """The sites with at least one executed line."""
    return [s for s in sites if any(n in lines for n in range(s.first, s.last + 1))]
