"""A mutant as a diff of the lines it changes (`-` as written, `+` the mutant's), for audit.json, the
plugin's mutation block and its report: the changed part rendered by ast.unparse, the rest of the
line kept as written. The mutants themselves: mutator.py."""

from __future__ import annotations

import ast
import copy
import io

from pytest_harness import mutator


def _site_node(tree: ast.AST, key: str) -> ast.AST | None:
    where = mutator._position(key)
    line = int(where.split(":", 1)[0])
    kind, at = key.split(":", 1)[0], int(key.rsplit(":", 1)[1])
    for node in ast.walk(tree):
        if getattr(node, "lineno", None) == line and mutator._node_position(node) == where and any(
                k == kind and i == at for k, i, _ in mutator._sites(node, describe=False)):
            return node
    return None


def _replacement(node: ast.AST, kind: str, index: int) -> tuple[ast.AST, ast.AST]:
    """(the part of the site's node that changes, what it becomes) — unguarded, for a diff."""
    if kind == "negate":
        return node.test, ast.UnaryOp(op=ast.Not(), operand=copy.deepcopy(node.test))
    if kind == "return":
        return node.value, ast.Constant(value=None)
    if kind in ("drop", "update"):
        return node, ast.Pass()
    if kind == "boundary":
        return node, mutator.boundary_moved(node, index)
    mutated = copy.deepcopy(node)
    if kind == "compare":
        mutated.ops[index] = mutator._COMPARE_SWAP[type(node.ops[index])]()
    elif kind == "arith":
        mutated.op = mutator._ARITH_SWAP[type(node.op)]()
    elif isinstance(node, mutator._COMPREHENSIONS):
        drop = mutator._comprehension_ifs(mutated)[index]
        for gen in mutated.generators:
            gen.ifs = [cond for cond in gen.ifs if cond is not drop]
    else:  # a filter call: the query it was called on
        mutated = mutated.func.value
    return node, mutated


def line_diff(source: str, mutant: mutator.Mutant) -> str:
    """The mutant as a diff of the source lines it changes: `-` the original line(s), `+` the
    mutated one(s) (the changed part rendered by ast.unparse, the rest of the line as written);
    "" when the site is not in `source`. A mutant from `candidates(..., describe=False)` brings its
    node (nothing is parsed); any other is looked up in `source` parsed."""
    node = mutant.node
    if node is None:
        try:
            node = _site_node(ast.parse(source), mutant.key)
        except (SyntaxError, ValueError):
            return ""
    if node is None:
        return ""
    kind, index = mutant.key.split(":", 1)[0], int(mutant.key.rsplit(":", 1)[1])
    target, new = _replacement(node, kind, index)
    lines = io.StringIO(source, newline="").readlines()
    before = [line.rstrip("\r\n") for line in lines[target.lineno - 1:target.end_lineno]]
    first, last = before[0].encode(), before[-1].encode()   # ast's column offsets count UTF-8 bytes
    rendered = ast.unparse(new)
    if isinstance(target, ast.expr) and isinstance(new, ast.expr) and not isinstance(new, ast.Constant):
        rendered = f"({rendered})" if kind == "negate" else rendered
    after = (first[:target.col_offset].decode("utf-8", "replace") + rendered
             + last[target.end_col_offset:].decode("utf-8", "replace"))
    return "\n".join([*(f"-{line}" for line in before), *(f"+{line}" for line in after.split("\n"))])
