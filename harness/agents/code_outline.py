"""Outlines of a dependency's code at three depths, extracted with `ast` (in the spirit of Aider's
repo map): the whole text, its `interface` (signatures and first docstring lines) and its `names`
(one line of public top-level names); and which workspace files a file imports, to rank them."""

from __future__ import annotations

import ast
import posixpath
from functools import lru_cache


@lru_cache(maxsize=16)      # the three outlines of a file parse it once (each result is cached below)
def _tree(source: str) -> ast.Module | SyntaxError:
    try:
        return ast.parse(source)
    except SyntaxError as exc:
        return exc


@lru_cache(maxsize=256)     # a run's builder prompts show the same files again and again
def interface(path: str, source: str) -> str:
    """The public outline of a Python file: docstring line, names assigned, classes and functions
    with their signatures and first docstring line. Other files: their first lines."""
    if not path.endswith(".py"):
        return "\n".join(source.splitlines()[:15])
    tree = _tree(source)
    if isinstance(tree, SyntaxError):
        return f"# does not parse: {tree.msg} (line {tree.lineno})"
    lines = [f'"""{_doc(tree)}"""'] if _doc(tree) else []
    for node in tree.body:
        lines += _outline(node, "")
    return "\n".join(lines)


@lru_cache(maxsize=256)
def names(path: str, source: str) -> str:
    """One line: the public top-level names of a Python file (`def f(...)`, `class C`, `X`, with the
    first docstring line first); other files: their first three lines."""
    if not path.endswith(".py"):
        return " / ".join(line.strip() for line in source.splitlines()[:3] if line.strip())[:200]
    tree = _tree(source)
    if isinstance(tree, SyntaxError):
        return f"# does not parse: {tree.msg} (line {tree.lineno})"
    found: list[str] = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.append(f"def {node.name}(...)")
        elif isinstance(node, ast.ClassDef):
            found.append(f"class {node.name}")
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            found += [t.id for t in targets if isinstance(t, ast.Name)]
    public = [n for n in dict.fromkeys(found) if not n.split(" ")[-1].startswith("_")]
    doc = _doc(tree)
    return (f"{doc} | " if doc else "") + ", ".join(public)


def imported_paths(path: str, source: str, known: set[str]) -> set[str]:
    """The files of `known` that `path` imports (anywhere in it, absolute from the workspace root
    or relative to its package); a test file also uses every conftest.py above it."""
    found = {c for c in _conftests(path) if c in known}
    for module in _imported_modules(path, source):
        stem = module.replace(".", "/")
        found |= {p for p in (f"{stem}.py", f"{stem}/__init__.py") if p in known and p != path}
    return found


@lru_cache(maxsize=256)
def _imported_modules(path: str, source: str) -> tuple[str, ...]:
    """Every module name an import in the file may mean (`from a import b`: a and a.b)."""
    if not path.endswith(".py") or isinstance(tree := _tree(source), SyntaxError):
        return ()
    package, modules = posixpath.dirname(path), []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package
                for _ in range(node.level - 1):
                    up = posixpath.dirname(up)
                base = ".".join(p for p in [*up.split("/"), *base.split(".")] if p)
            modules += [base] + [f"{base}.{a.name}" if base else a.name for a in node.names]
    return tuple(dict.fromkeys(modules))


def _conftests(path: str) -> list[str]:
    base = posixpath.basename(path)
    if not (base.startswith("test_") and base.endswith(".py")):
        return []
    out, folder = [], posixpath.dirname(path)
    while True:
        out.append(posixpath.join(folder, "conftest.py") if folder else "conftest.py")
        if not folder:
            return out
        folder = posixpath.dirname(folder)


def _doc(node) -> str:
    doc = ast.get_docstring(node)
    return doc.strip().splitlines()[0] if doc and doc.strip() else ""


def _outline(node: ast.AST, indent: str) -> list[str]:
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return [indent + ast.unparse(node)] if not indent else []
    if isinstance(node, (ast.Assign, ast.AnnAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        names_ = [ast.unparse(t) for t in targets]
        value = ast.unparse(node.value) if node.value is not None else ""
        return [f"{indent}{' = '.join(names_)} = {value[:80]}"]
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        prefix = "async def" if isinstance(node, ast.AsyncFunctionDef) else "def"
        decorators = [f"{indent}@{ast.unparse(d)}" for d in node.decorator_list]
        returns = f" -> {ast.unparse(node.returns)}" if node.returns else ""
        doc = f'  # {_doc(node)}' if _doc(node) else ""
        return decorators + [f"{indent}{prefix} {node.name}({ast.unparse(node.args)}){returns}: ...{doc}"]
    if isinstance(node, ast.ClassDef):
        bases = f"({', '.join(ast.unparse(b) for b in node.bases)})" if node.bases else ""
        out = [f"{indent}class {node.name}{bases}:" + (f'  # {_doc(node)}' if _doc(node) else "")]
        for child in node.body:
            out += _outline(child, indent + "    ")
        return out
    return []
