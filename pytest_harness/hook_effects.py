"""What a `pytest_collection_modifyitems` hook can do, read from its AST (nothing is imported).

pytest's documented `--runslow` recipe, python-dateutil's xfail/no_cover conftest and most honest
projects use this hook only to add markers or skips to the collected items: that can make a test
skipped (its requirement reads `not_run`), never passed. The same hook can also forge: replace a
test's `runtest`/`obj` (the test then passes without running), drop a failing test from `items`
without telling pytest (it vanishes from the evidence), or reach for anything else. So the hook
counts as outcome-changing unless its body is read-only apart from marker calls:

- no assignment, augmented assignment or `del` whose target is an attribute or a subscript,
  except a subscript of a local it made itself from a literal (`groups = {}`; `groups[k] = ...`);
- no call of a method that mutates a list or an object in place (`items.remove`, `items.clear`,
  `vars(item).update`, ...), and no `setattr`, `delattr`, `exec`, `eval`, `compile`, `__import__`;
- no nested function or class (a lambda, e.g. a sort key, is fine: storing it anywhere is caught above),
  no `global`/`nonlocal`, `yield` (a wrapper's result) or `await`.

Anything not on that list is allowed: reading options and markers, building marks, calling
`item.add_marker(...)`, `config.hook.pytest_deselected(items=...)` (the harness records
deselected tests as not_run), sorting `items` (order changes no outcome).
"""

from __future__ import annotations

import ast

MARKER_ONLY_HOOKS = frozenset({"pytest_collection_modifyitems"})
_MUTATING_METHODS = frozenset({
    "remove", "pop", "clear", "insert", "__setitem__", "__delitem__", "__setattr__", "update",
    "setdefault", "popitem", "discard", "register", "unregister", "setattr", "delattr", "patch",
    "add_finalizer", "addfinalizer", "__init__",
})
_FORBIDDEN_CALLS = frozenset({"setattr", "delattr", "exec", "eval", "compile", "__import__", "globals", "vars"})
_LOCAL_MAKERS = frozenset({"dict", "list", "set", "defaultdict", "OrderedDict", "Counter"})
_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Global, ast.Nonlocal,
           ast.Yield, ast.YieldFrom, ast.Await)


def _fresh_locals(func: ast.AST) -> set[str]:
    """Names the hook binds to a container it made itself (a literal or dict()/list()/... call)."""
    names: set[str] = set()
    for node in ast.walk(func):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            value = node.value
            made = isinstance(value, (ast.Dict, ast.List, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)) or (
                isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in _LOCAL_MAKERS)
            if made:
                names.add(node.targets[0].id)
    return names


def _target_problem(target: ast.AST, fresh: set[str]) -> str | None:
    if isinstance(target, ast.Attribute):
        return f"assigns the attribute .{target.attr}"
    if isinstance(target, ast.Subscript):
        if isinstance(target.value, ast.Name) and target.value.id in fresh:
            return None
        return "assigns through a subscript (e.g. items[:] = ...)"
    if isinstance(target, (ast.Tuple, ast.List)):
        return next((p for elt in target.elts if (p := _target_problem(elt, fresh))), None)
    if isinstance(target, ast.Starred):
        return _target_problem(target.value, fresh)
    return None


def _node_problem(node: ast.AST, fresh: set[str]) -> str | None:
    if isinstance(node, _NESTED):
        return f"contains {type(node).__name__.lower()}"
    if isinstance(node, ast.Delete):
        return next((p for t in node.targets if (p := _target_problem(t, fresh) or
                                                 (None if isinstance(t, ast.Name) else "deletes"))), None)
    if isinstance(node, ast.Assign):
        return next((p for t in node.targets if (p := _target_problem(t, fresh))), None)
    if isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        return _target_problem(node.target, fresh)
    if isinstance(node, ast.NamedExpr):
        return None
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Name) and func.id in _FORBIDDEN_CALLS:
            return f"calls {func.id}()"
        if isinstance(func, ast.Attribute) and func.attr in _MUTATING_METHODS:
            owner = func.value.id if isinstance(func.value, ast.Name) else "..."
            if owner in fresh:
                return None
            return f"calls {owner}.{func.attr}()"
    return None


def outcome_changes(func: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    """None when a marker-only hook's body can only add markers or skips; else what it does, with
    the line ("calls items.clear() at line 4"). Hooks outside MARKER_ONLY_HOOKS always can."""
    if func.name not in MARKER_ONLY_HOOKS:
        return "can change test outcomes or the session's end"
    if isinstance(func, ast.AsyncFunctionDef):
        return "is a coroutine"
    fresh = _fresh_locals(func)
    for decorator in func.decorator_list:
        for node in ast.walk(decorator):
            if isinstance(node, ast.keyword) and node.arg in ("hookwrapper", "wrapper"):
                return f"is a hook wrapper (line {decorator.lineno})"
    for statement in func.body:
        for node in ast.walk(statement):
            problem = _node_problem(node, fresh)
            if problem is not None:
                return f"{problem} at line {getattr(node, 'lineno', func.lineno)}"
    return None
