"""What the builder sees of the code it builds on: dependency files within a budget, else their
interfaces (classes and functions with signatures and docstrings, via `ast`, in the spirit of
Aider's repo map), the dependency tasks' descriptions, and on a rebuild the task's own files."""

from __future__ import annotations

import ast
from pathlib import Path

from harness.models.tasks import Plan, Task

CONTEXT_BUDGET_CHARS = 32_000     # ~8k tokens of dependency code (4 characters a token)
OWN_FILE_CHARS = 12_000


def dependency_tasks(task: Task, plan: Plan | None) -> list[Task]:
    """Every task `task` depends on, transitively; nearest first, then by id."""
    if plan is None:
        return []
    by_id = {t.id: t for t in plan.tasks}
    order, level = [], sorted(d for d in task.depends_on if d in by_id)
    seen = set(level)
    while level:
        order += level
        nxt = sorted({d for tid in level for d in by_id[tid].depends_on if d in by_id} - seen)
        seen |= set(nxt)
        level = nxt
    return [by_id[t] for t in order]


def interface(path: str, source: str) -> str:
    """The public outline of a Python file: docstring line, names assigned, classes and functions
    with their signatures and first docstring line. Other files: their first lines."""
    if not path.endswith(".py"):
        return "\n".join(source.splitlines()[:15])
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        return f"# does not parse: {exc.msg} (line {exc.lineno})"
    lines = [f'"""{_doc(tree)}"""'] if _doc(tree) else []
    for node in tree.body:
        lines += _outline(node, "")
    return "\n".join(lines)


def _doc(node) -> str:
    doc = ast.get_docstring(node)
    return doc.strip().splitlines()[0] if doc else ""


def _outline(node: ast.AST, indent: str) -> list[str]:
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return [indent + ast.unparse(node)] if not indent else []
    if isinstance(node, (ast.Assign, ast.AnnAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        names = [ast.unparse(t) for t in targets]
        value = ast.unparse(node.value) if node.value is not None else ""
        return [f"{indent}{' = '.join(names)} = {value[:80]}"]
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


def read(workspace: Path | None, rel: str) -> str | None:
    if workspace is None:
        return None
    from harness.sandbox.local import LocalSandbox  # through the jail: no symlink/hard link to a host file

    return LocalSandbox(workspace).read_if_file(rel)


def dependency_context(task: Task, plan: Plan | None, workspace: Path | None,
                       budget: int = CONTEXT_BUDGET_CHARS) -> dict:
    """{"dependency_tasks", "dependency_files", "dependency_interfaces", "own_files"} for the prompt."""
    deps = dependency_tasks(task, plan)
    files: dict[str, str] = {}
    outlines: dict[str, str] = {}
    left = budget
    pending: list[tuple[str, str]] = []
    for dep in deps:
        for rel in dep.files_touched:
            text = read(workspace, rel)
            if text is None or rel in files or rel in task.files_touched:
                continue
            if len(text) <= left:
                files[rel], left = text, left - len(text)
            else:
                pending.append((rel, text))
    for rel, text in pending:      # over budget: interfaces, while they fit
        outline = interface(rel, text)
        if len(outline) <= left:
            outlines[rel], left = outline, left - len(outline)
    own = {rel: text[:OWN_FILE_CHARS] for rel in task.files_touched
           if (text := read(workspace, rel)) is not None and text.strip()}
    return {"dependency_tasks": [{"id": d.id, "description": d.description, "files": list(d.files_touched),
                                  "requirements": list(d.requirements)} for d in deps],
            "dependency_files": files, "dependency_interfaces": outlines, "own_files": own}
