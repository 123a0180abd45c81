"""Decoy mutants: guarded rewrites that change a module's code and never its behaviour (#47).

A kill counts only when a test's failure is caused by a behaviour change. The audit cannot see
causes, so it plants controls: beside each requirement's real mutants it runs a few decoys, each
compiled into the scratch copy exactly as a mutant is (the same guard, `__harness_mutant__ == id`,
an id drawn from the same distribution, the same rendering by pytest_harness/mutator.py, on a line
the requirement's tests ran), handed to the lanes as an ordinary mutant run (nothing in the plan
file, the queue's messages or the child says which runs are decoys: only the planning process
knows), at a random place among the requirement's mutants. A test whose check fails on a decoy
failed on a program that behaves exactly as the original — it reacted to the audit, not to a
behaviour: a mutant detector (or a flaky test). mutation_verdict.py then voids its kills and the
requirement misses the bar, naming the test and the decoy.

Each kind imitates the shape of a real mutant's rewrite and is equivalent by construction, without
knowing any type:

  truth   a condition truth-tested anyway (an `if`, `while` or conditional expression's test, a
          comprehension's `if`) becomes `not not (test)`: the same single truth test, the same
          value (the shape of `negate`, and of `filter` on a comprehension);
  mirror  `a == c`, `a != c`, `a is c`, `a is not c` with a constant `c` on one side becomes
          `c == a` (...): a constant has no side effect, so the order of evaluation does not
          matter; identity is symmetric; and for `==` / `!=` a constant's type answers
          NotImplemented for any other type, so the other operand's own method decides either
          way (a subclass of the constant's type is asked first in both orders) — the shape of
          `compare`. Ordering comparisons are left out: their TypeError's message names the
          operator;
  twin    a statement `s` the mutator could drop, or a `return` with a value, becomes
          `if guard: s else: s` — the shape of `drop` / `update`.

What this does not stop: code that reads the guarded code itself and recognises these three
shapes can still tell a decoy from a mutant (docs/acceptance.md, "What the audit observes").
"""

from __future__ import annotations

import ast
import copy

KINDS = ("truth", "mirror", "twin")
PREFIX = "decoy-"   # a decoy's key: `decoy-<kind>:<position>:<index>` (mutator._key)
_MIRROR_OPS = (ast.Eq, ast.NotEq, ast.Is, ast.IsNot)
_TESTED = (ast.If, ast.While, ast.IfExp)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
_DROPPABLE = (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign)


def is_decoy_kind(kind: str) -> bool:
    return kind.startswith(PREFIX)


def _mirrorable(node: ast.Compare) -> bool:
    if len(node.ops) != 1 or not isinstance(node.ops[0], _MIRROR_OPS):
        return False
    left, right = node.left, node.comparators[0]
    return isinstance(left, ast.Constant) != isinstance(right, ast.Constant)


def _twin_able(node: ast.AST) -> bool:
    if isinstance(node, ast.AnnAssign) and node.value is None or isinstance(node, ast.Return) and node.value is None:
        return False
    return not (isinstance(node, ast.Expr) and isinstance(node.value, (ast.Yield, ast.YieldFrom)))


def sites(node: ast.AST, short=lambda _node, limit=40: "") -> list[tuple[str, int, str]]:
    """(kind, index, description) of every decoy this node offers (kinds prefixed with PREFIX)."""
    out = []
    if isinstance(node, _TESTED):
        out.append((PREFIX + "truth", 0, f"decoy: condition `{short(node.test)}` → `not not (…)`"))
    elif isinstance(node, _COMPREHENSIONS):
        for i, gen_if in enumerate(cond for gen in node.generators for cond in gen.ifs):
            out.append((PREFIX + "truth", i, f"decoy: filter `if {short(gen_if)}` → `if not not (…)`"))
    elif isinstance(node, ast.Compare) and _mirrorable(node):
        out.append((PREFIX + "mirror", 0, f"decoy: `{short(node)}` with its operands swapped"))
    if isinstance(node, (*_DROPPABLE, ast.Return)) and _twin_able(node):
        out.append((PREFIX + "twin", 0, f"decoy: statement `{short(node)}` on both sides of a guard"))
    return out


def _not_not(test: ast.expr) -> ast.expr:
    return ast.UnaryOp(op=ast.Not(), operand=ast.UnaryOp(op=ast.Not(), operand=copy.deepcopy(test)))


def render(node: ast.AST, current: ast.AST, kind: str, index: int, either, guard: ast.expr) -> ast.AST:
    """The node with the decoy `kind` applied behind its guard (`either(mutated, original)`: the
    mutator's guarded choice; `guard`: the guard test itself, for a statement)."""
    kind = kind[len(PREFIX):]
    if kind == "truth" and isinstance(node, _TESTED):
        node.test = either(_not_not(node.test), node.test)
        return node
    if kind == "truth":
        mutated = copy.deepcopy(node)
        conds = [(gen, j) for gen in mutated.generators for j in range(len(gen.ifs))]
        gen, j = conds[index]
        gen.ifs[j] = _not_not(gen.ifs[j])
        return either(mutated, current)
    if kind == "mirror":
        mutated = ast.Compare(left=copy.deepcopy(node.comparators[0]), ops=[type(node.ops[0])()],
                              comparators=[copy.deepcopy(node.left)])
        return either(mutated, current)
    return ast.If(test=guard, body=[copy.deepcopy(node)], orelse=[current])
