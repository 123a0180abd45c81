"""A small AST mutator: the mutants of a Python file's executed lines, as plain or guarded source.

Operators (one `Mutant` per site), in the order the audit prefers them (RANK, with the reason):
  compare  swap a comparison operator (`<` ↔ `>=`, `==` ↔ `!=`, `in` ↔ `not in`, `is` ↔ `is not`);
  boundary move a boundary by one: `<` ↔ `<=`, `>` ↔ `>=`, an integer constant compared with `==` / `!=`
           plus one, `range(n)` → `range(n - 1)` (the stop of `range(a, n)` too); ranked with `compare`;
  negate   negate the condition of an `if`, `while` or conditional expression;
  filter   drop a filter: a comprehension's `if`, or a `.where(…)` / `.filter(…)` / `.filter_by(…)` /
           `.exclude(…)` / `.having(…)` call (the query without it);
  update   drop a statement that changes state: an attribute or item assigned, an augmented
           assignment, a call whose result is thrown away (`.add()`, `.commit()`, `.append()`);
  arith    swap an arithmetic operator (`+` ↔ `-`, `*` ↔ `/`, `//` → `*`, `%` → `//`);
  drop     replace any other assignment or expression statement with `pass`;
  return   replace a returned value with None.

`apply(source, mutants)` renders one source holding every given mutant behind a guard
(`__harness_mutant__ == <id>`; the name resolves through builtins, 0 = original behaviour), so one
import of the module serves every mutant (mutant schemata); `apply(source, [m], guarded=False)`
renders that mutant alone. Sites are keyed by their node's position, so the same source always
yields the same mutants in the same order.
"""

from __future__ import annotations

import ast
import copy
import io
from bisect import bisect_left
from dataclasses import dataclass, field, replace

from pytest_harness import decoys

GUARD = "__harness_mutant__"

# Which mutant the audit prefers (pytest_harness/mutation_plan.py: on a line, and for a requirement's first
# mutant and its order of execution), first to last, and why (#47: mutants that change behaviour a
# requirement's test must check, before the ones a test kills without checking anything).
RANK: tuple[tuple[str, str], ...] = (
    ("compare", "a comparison swapped: other records match, the other branch runs"),
    ("boundary", "a boundary moved by one (`<` ↔ `<=`, a constant + 1, `range(n - 1)`): only a test that "
                 "probes the edge (the last free seat, the 14th day) sees it"),
    ("negate", "a condition negated: the guard lets through what it stopped"),
    ("filter", "a filter dropped: every record instead of the matching ones (a day's listing that "
               "returns every day's bookings)"),
    ("update", "a state change dropped: the record is not updated, stored or committed"),
    ("arith", "an arithmetic operator swapped: a computed figure is wrong"),
    ("drop", "another statement dropped (a local assignment): often seen only through a later error"),
    ("return", "`return None`: an `x is not None` check kills it without checking the value, so last"),
)
KINDS = tuple(kind for kind, _why in RANK)
# `boundary` shares `compare`'s rank: both change which records a comparison lets through; on a line
# holding both, the plan's seeded choice picks one (a boundary always first would leave `<` → `>=`,
# the mutant every honest test of the branch kills, never judged).
SAME_RANK = {"boundary": "compare"}
_ORDER = [kind for kind in KINDS if kind not in SAME_RANK]
KIND_RANK = {kind: _ORDER.index(SAME_RANK.get(kind, kind)) for kind in KINDS}
FILTER_METHODS = frozenset({"where", "filter", "filter_by", "exclude", "having"})

_COMPARE_SWAP = {ast.Lt: ast.GtE, ast.GtE: ast.Lt, ast.Gt: ast.LtE, ast.LtE: ast.Gt, ast.Eq: ast.NotEq,
                 ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is}
_BOUNDARY_SWAP = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt}
_ARITH_SWAP = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult,
               ast.FloorDiv: ast.Mult, ast.Mod: ast.FloorDiv}
_SYMBOL = {ast.Lt: "<", ast.GtE: ">=", ast.Gt: ">", ast.LtE: "<=", ast.Eq: "==", ast.NotEq: "!=",
           ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not", ast.Add: "+",
           ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%"}
_DROPPABLE = (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)


def _is_update(node: ast.stmt) -> bool:
    """A statement whose only effect is a state change: an attribute or item assigned, `x += …`,
    a call (awaited or not) whose result is thrown away."""
    if isinstance(node, ast.AugAssign):
        return True
    if isinstance(node, ast.Expr):
        value = node.value.value if isinstance(node.value, ast.Await) else node.value
        return isinstance(value, ast.Call)
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    return any(isinstance(sub, (ast.Attribute, ast.Subscript)) for t in targets for sub in ast.walk(t))


def _is_int(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int


def _boundary_operand(node: ast.Compare, index: int) -> ast.expr | None:
    """The integer constant an `==` / `!=` at `index` compares with (right side first), or None."""
    left = node.left if index == 0 else node.comparators[index - 1]
    right = node.comparators[index]
    return right if _is_int(right) else (left if _is_int(left) else None)


def _is_range_call(node: ast.AST) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range"
            and 1 <= len(node.args) <= 3 and not node.keywords
            and not any(isinstance(a, ast.Starred) for a in node.args))


def _range_stop(node: ast.Call) -> int:
    return 0 if len(node.args) == 1 else 1


def _comprehension_ifs(node: ast.AST) -> list[ast.expr]:
    return [cond for gen in node.generators for cond in gen.ifs]


def _is_filter_call(node: ast.AST) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in FILTER_METHODS and bool(node.args or node.keywords))


@dataclass(frozen=True)
class Mutant:
    """One mutation site: `key` identifies the node, `description` says what changes."""

    kind: str
    line: int
    key: str
    description: str
    node: ast.AST | None = field(default=None, compare=False, repr=False)  # until `described`


def _key(kind: str, node: ast.AST, index: int = 0) -> str:
    return f"{kind}:{node.lineno}:{node.col_offset}:{node.end_lineno}:{node.end_col_offset}:{index}"


def _short(node: ast.AST, limit: int = 40) -> str:
    text = " ".join(ast.unparse(node).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _annotation_ids(tree: ast.AST, nodes: list[ast.AST] | None = None) -> set[int]:
    """Nodes inside annotations: evaluated at definition time, never by a test's call
    (`nodes`: every node of `tree`, when the caller walked it already)."""
    roots: list[ast.AST] = []
    for node in ast.walk(tree) if nodes is None else nodes:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            roots += [a.annotation for a in (*node.args.args, *node.args.posonlyargs, *node.args.kwonlyargs,
                                             node.args.vararg, node.args.kwarg) if a and a.annotation]
            roots += [node.returns] if node.returns else []
        elif isinstance(node, ast.AnnAssign):
            roots.append(node.annotation)
    return {id(sub) for root in roots for sub in ast.walk(root)}


def _docstring_ids(tree: ast.AST, nodes: list[ast.AST] | None = None) -> set[int]:
    out = set()
    for node in ast.walk(tree) if nodes is None else nodes:
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                out.add(id(first))
    return out


def _sites(node: ast.AST, describe: bool = True) -> list[tuple[str, int, str]]:
    """(kind, index, description) of every mutation this node offers; without `describe` the
    descriptions leave the node's code out (rendering it unparses the node: most of the cost of
    applying mutants, which only needs the keys)."""
    short = _short if describe else (lambda _node, limit=40: "")
    out = []
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            if type(op) in _COMPARE_SWAP:
                out.append(("compare", i, f"`{_SYMBOL[type(op)]}` → `{_SYMBOL[_COMPARE_SWAP[type(op)]]}` in "
                                          f"`{short(node)}`"))
            if type(op) in _BOUNDARY_SWAP:
                out.append(("boundary", i, f"boundary `{_SYMBOL[type(op)]}` → `{_SYMBOL[_BOUNDARY_SWAP[type(op)]]}` "
                                           f"in `{short(node)}`"))
            elif isinstance(op, (ast.Eq, ast.NotEq)) and _boundary_operand(node, i) is not None:
                value = _boundary_operand(node, i).value
                out.append(("boundary", i, f"boundary `{value}` → `{value + 1}` in `{short(node)}`"))
    elif isinstance(node, ast.BinOp) and type(node.op) in _ARITH_SWAP:
        out.append(("arith", 0, f"`{_SYMBOL[type(node.op)]}` → `{_SYMBOL[_ARITH_SWAP[type(node.op)]]}` in "
                                f"`{short(node)}`"))
    elif isinstance(node, (ast.If, ast.While, ast.IfExp)):
        out.append(("negate", 0, f"condition `{short(node.test)}` negated"))
    elif isinstance(node, ast.Return) and node.value is not None and not (
            isinstance(node.value, ast.Constant) and node.value.value is None):
        out.append(("return", 0, f"`return {short(node.value)}` → `return None`"))
    elif isinstance(node, _COMPREHENSIONS):
        for i, cond in enumerate(_comprehension_ifs(node)):
            out.append(("filter", i, f"filter `if {short(cond)}` dropped from `{short(node)}`"))
    elif _is_filter_call(node):
        out.append(("filter", 0, f"filter `.{node.func.attr}(…)` dropped from `{short(node)}`"))
    elif _is_range_call(node):
        stop = node.args[_range_stop(node)]
        out.append(("boundary", 0, f"boundary `{short(stop)}` → `{short(stop)} - 1` in `{short(node)}`"))
    if isinstance(node, _DROPPABLE) and not (isinstance(node, ast.AnnAssign) and node.value is None) and not (
            isinstance(node, ast.Expr) and isinstance(node.value, (ast.Yield, ast.YieldFrom))):
        kind = "update" if _is_update(node) else "drop"
        out.append((kind, 0, f"{'update' if kind == 'update' else 'statement'} `{short(node)}` dropped"))
    return out


def candidates(source: str, lines: set[int] | None = None, *, describe: bool = True,
               tree: ast.AST | None = None) -> list[Mutant]:
    """Every mutant of `source` whose node starts on one of `lines` (all lines when None), in order.
    Without `describe` their descriptions are empty (`described` fills in those of the few that are
    chosen: rendering every site's code was most of the plan's time). `tree`: `source` parsed."""
    tree = ast.parse(source) if tree is None else tree
    nodes = list(ast.walk(tree))  # one walk for the skip sets and the sites
    skip = _annotation_ids(tree, nodes) | _docstring_ids(tree, nodes)
    found = []
    for node in nodes:
        if id(node) in skip or not hasattr(node, "lineno") or (lines is not None and node.lineno not in lines):
            continue
        for kind, index, text in _sites(node, describe):
            found.append(Mutant(kind=kind, line=node.lineno, key=_key(kind, node, index),
                                description=f"line {node.lineno}: {text}" if describe else "",
                                node=None if describe else node))
    return sorted(found, key=lambda m: (m.line, m.key))


def decoy_candidates(source: str, lines: set[int] | None = None, *, tree: ast.AST | None = None) -> list[Mutant]:
    """Every decoy (pytest_harness/decoys.py) of `source` whose node starts on one of `lines`, in
    order, described: the same walk, skips and keys as `candidates`."""
    tree = ast.parse(source) if tree is None else tree
    nodes = list(ast.walk(tree))
    skip = _annotation_ids(tree, nodes) | _docstring_ids(tree, nodes)
    found = []
    for node in nodes:
        if id(node) in skip or not hasattr(node, "lineno") or (lines is not None and node.lineno not in lines):
            continue
        for kind, index, text in decoys.sites(node, _short):
            found.append(Mutant(kind=kind, line=node.lineno, key=_key(kind, node, index),
                                description=f"line {node.lineno}: {text}"))
    return sorted(found, key=lambda m: (m.line, m.key))


def described(mutants: list[Mutant]) -> list[Mutant]:
    """`mutants` from `candidates(..., describe=False)` with their descriptions, as `candidates`
    gives them (each keeps its node until then, not after)."""
    out = []
    for m in mutants:
        text = {_key(kind, m.node, index): said for kind, index, said in _sites(m.node)} if m.node else {}
        out.append(replace(m, description=f"line {m.line}: {text[m.key]}" if m.key in text else m.description,
                           node=None))
    return out


def _node_position(node: ast.AST) -> str:
    return f"{node.lineno}:{node.col_offset}:{node.end_lineno}:{node.end_col_offset}"


def _position(key: str) -> str:
    """The node position a mutant key names (see _key)."""
    return key.split(":", 1)[1].rsplit(":", 1)[0]


def _guard(mutant_id: int) -> ast.expr:
    return ast.Compare(left=ast.Name(id=GUARD, ctx=ast.Load()), ops=[ast.Eq()],
                       comparators=[ast.Constant(value=mutant_id)])


class _Apply(ast.NodeTransformer):
    def __init__(self, chosen: dict[str, int], guarded: bool):
        self.chosen = chosen
        self.guarded = guarded
        self.positions = {_position(key) for key in chosen}  # only nodes there can offer a chosen site
        self.lines = sorted({int(p.split(":", 1)[0]) for p in self.positions})

    def _either(self, mutant_id: int, mutated: ast.expr, original: ast.expr) -> ast.expr:
        if not self.guarded:
            return mutated
        return ast.IfExp(test=_guard(mutant_id), body=mutated, orelse=original)

    def visit(self, node: ast.AST):
        if hasattr(node, "lineno") and not self._spans_a_site(node):
            return node  # nothing chosen starts inside it
        node = self.generic_visit(node)
        if not hasattr(node, "lineno") or _node_position(node) not in self.positions:
            return node
        original, result = node, node
        for kind, index, _ in _sites(original, describe=False):
            mutant_id = self.chosen.get(_key(kind, original, index))
            if mutant_id is not None:
                result = self._mutate(original, result, kind, index, mutant_id)
        for kind, index, _ in decoys.sites(original):   # after the real ones: a decoy's guard is outermost
            mutant_id = self.chosen.get(_key(kind, original, index))
            if mutant_id is not None:
                result = decoys.render(original, result, kind, index, lambda new, old: self._either(mutant_id, new, old),
                                       _guard(mutant_id))
        return result

    def _spans_a_site(self, node: ast.AST) -> bool:
        """Whether a chosen site starts within the node's lines (a definition's decorators included)."""
        i = bisect_left(self.lines, _first_line(node))
        return i < len(self.lines) and self.lines[i] <= (node.end_lineno or node.lineno)

    def _mutate(self, node, current, kind: str, index: int, mutant_id: int):
        """`current` is `node` with the mutants applied so far (only a comparison has several)."""
        if kind == "compare":
            mutated = copy.deepcopy(node)
            mutated.ops[index] = _COMPARE_SWAP[type(node.ops[index])]()
            return self._either(mutant_id, mutated, current)
        if kind == "boundary":
            return self._either(mutant_id, boundary_moved(node, index), current)
        if kind == "arith":
            mutated = copy.deepcopy(node)
            mutated.op = _ARITH_SWAP[type(node.op)]()
            return self._either(mutant_id, mutated, current)
        if kind == "negate":
            node.test = self._either(mutant_id, ast.UnaryOp(op=ast.Not(), operand=copy.deepcopy(node.test)), node.test)
            return node
        if kind == "return":
            node.value = self._either(mutant_id, ast.Constant(value=None), node.value)
            return node
        if kind == "filter" and isinstance(node, _COMPREHENSIONS):
            mutated = copy.deepcopy(node)
            drop = _comprehension_ifs(mutated)[index]
            for gen in mutated.generators:
                gen.ifs = [cond for cond in gen.ifs if cond is not drop]
            return self._either(mutant_id, mutated, current)
        if kind == "filter":
            return self._either(mutant_id, copy.deepcopy(node.func.value), current)
        # drop, update
        if not self.guarded:
            return ast.Pass()
        return ast.If(test=_guard(mutant_id), body=[ast.Pass()], orelse=[node])


def boundary_moved(node: ast.AST, index: int) -> ast.expr:
    """A copy of `node` (a comparison, or a `range(…)` call) with its boundary moved by one."""
    mutated = copy.deepcopy(node)
    if isinstance(mutated, ast.Call):
        at = _range_stop(mutated)
        mutated.args[at] = ast.BinOp(left=mutated.args[at], op=ast.Sub(), right=ast.Constant(value=1))
        return mutated
    op = mutated.ops[index]
    if type(op) in _BOUNDARY_SWAP:
        mutated.ops[index] = _BOUNDARY_SWAP[type(op)]()
        return mutated
    constant = _boundary_operand(mutated, index)
    constant.value += 1
    return mutated


def _first_line(node: ast.AST) -> int:
    return min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", ()))])


def apply(source: str, mutants: dict[str, int] | list[Mutant], *, guarded: bool = True) -> str:
    """The source with `mutants` ({key: id} or a list, ids 1..n) applied, guarded or plain.

    Only the module's top-level statements that hold a mutant are rendered from the tree; the
    others keep their original lines (rendering a whole file was most of an audit's set-up). The
    result parses to the same tree as rendering the whole mutated module would."""
    chosen = mutants if isinstance(mutants, dict) else {m.key: i for i, m in enumerate(mutants, start=1)}
    tree = ast.parse(source)
    mutate = _Apply(chosen, guarded)
    lines = io.StringIO(source, newline="").readlines()  # the lines ast counts (not str.splitlines')
    body = tree.body
    out: list[str] = []
    done = 0  # lines of `source` already in `out`
    for i, stmt in enumerate(body):
        if not mutate._spans_a_site(stmt):
            continue
        first, last = _first_line(stmt), stmt.end_lineno
        shares_a_line = (i and body[i - 1].end_lineno >= first) or (i + 1 < len(body) and body[i + 1].lineno <= last)
        if shares_a_line or first <= done:
            return ast.unparse(mutate.visit(tree)) + "\n"  # e.g. `a = 1; b = 2`: render it all
        rendered = mutate.visit(stmt)
        out += [*lines[done:first - 1], ast.unparse(rendered) + "\n"]
        done = last
    return "".join(out + lines[done:]) if out else source

