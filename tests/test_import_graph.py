"""#12: the package arrows of harness/ point one way. The import graph is read with `ast` (every
import, lazy ones inside functions included) and checked for upward imports and package cycles.

models/utils ← state/sandbox/providers ← agents/generators(offline) ← verification/trace ←
orchestration ← cli
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "harness"

# Package (first component under harness/, or a top-level module's name) -> layer; higher may
# import lower or equal, never higher.
LAYERS = {
    "harness": 0, "errors": 0, "models": 0, "utils": 0, "constructs": 1,
    "state": 1, "sandbox": 1, "interrupts": 1, "providers": 1, "validation": 1, "tools": 1, "acceptance": 1,
    "agents": 2, "offline": 2, "generators": 2,
    "verification": 3, "trace": 3, "report": 3, "audit": 3,
    "orchestration": 4, "speed": 4, "benchmarks": 4, "bench_plugin": 4, "bench_process": 4, "bench_floor": 4, "bench_toolz": 4, "fidelity": 4, "fidelity_features": 4, "fidelity_claims": 4,
    "cli": 5, "commands": 5, "cli_style": 5, "run_session": 5, "progress": 5, "views_json": 5, "entry": 5,
}


def package_of(module: str) -> str:
    """`harness.trace.matrix` -> `trace`; `harness.cli` -> `cli`; `harness` -> `harness`."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def module_name(path: Path, root: Path) -> str:
    rel = path.relative_to(root.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(source: str, module: str, is_package: bool, top: str = "harness") -> set[str]:
    """Every harness name `source` imports, absolute or relative, at any depth: for `from a import b`
    both `a` and `a.b` (b may be a module); package_graph keeps the ones that are modules."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == top}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")
                base = base if is_package else base[:-1]
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] == top:
                found.add(target)
                found |= {f"{target}.{a.name}" for a in node.names if a.name != "*"}
    return found


def package_graph(root: Path) -> dict[str, dict[str, list[str]]]:
    """package -> {imported package: [the modules whose import makes the edge]}."""
    graph: dict[str, dict[str, list[str]]] = {}
    paths = sorted(root.rglob("*.py"))
    modules = {module_name(path, root) for path in paths}
    for path in paths:
        module = module_name(path, root)
        source = path.read_text(encoding="utf-8")
        mine = package_of(module)
        graph.setdefault(mine, {})
        for target in imports_of(source, module, path.name == "__init__.py") & modules:
            theirs = package_of(target)
            if theirs != mine:
                graph[mine].setdefault(theirs, []).append(module)
    return graph


def upward_imports(graph: dict, layers: dict[str, int]) -> list[str]:
    problems = []
    for pkg, targets in sorted(graph.items()):
        for target, where in sorted(targets.items()):
            if pkg not in layers or target not in layers:
                problems.append(f"{pkg} -> {target}: unknown package (add it to LAYERS)")
            elif layers[target] > layers[pkg]:
                problems.append(f"{pkg} (layer {layers[pkg]}) imports {target} (layer {layers[target]}) "
                                f"in {', '.join(sorted(set(where)))}")
    return problems


def package_cycles(graph: dict) -> list[list[str]]:
    """Every cycle between packages found by depth-first search, as a list of names."""
    cycles, state, path = [], {}, []

    def visit(node: str) -> None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, {})):
            if state.get(nxt) == 1:
                cycles.append(path[path.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt)
        path.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)
    return cycles


@functools.lru_cache(maxsize=1)
def harness_graph() -> dict:
    """The graph of the real harness/ package, read once per session."""
    return package_graph(ROOT)


def test_harness_has_no_upward_import():
    assert upward_imports(harness_graph(), LAYERS) == []


def test_harness_has_no_cycle_between_packages():
    assert package_cycles(harness_graph()) == []


def test_trace_does_not_import_agents():
    assert "agents" not in harness_graph().get("trace", {})


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "harness"
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def test_the_check_fails_on_a_synthetic_cycle_and_an_upward_import(tmp_path):
    """The guard can fail: a lazy import from verification back into orchestration is caught twice."""
    root = _tree(tmp_path, {
        "__init__.py": "",
        "orchestration/__init__.py": "",
        "orchestration/pipeline.py": "from harness.verification.verifier import run\n",
        "verification/__init__.py": "",
        "verification/verifier.py": "def run():\n    from harness.orchestration import pipeline\n",
    })
    graph = package_graph(root)
    assert package_cycles(graph) == [["orchestration", "verification", "orchestration"]]
    assert upward_imports(graph, LAYERS) == [
        "verification (layer 3) imports orchestration (layer 4) in harness.verification.verifier"]


@pytest.mark.parametrize("source, module, is_package, expected", [
    ("import harness.models.spec", "harness.trace.matrix", False, {"harness.models.spec"}),
    ("from . import matrix", "harness.trace.review_stage", False, {"harness.trace", "harness.trace.matrix"}),
    ("from ..models import spec", "harness.trace.matrix", False, {"harness.models", "harness.models.spec"}),
    ("from .stage import Done", "harness.orchestration", True,
     {"harness.orchestration.stage", "harness.orchestration.stage.Done"}),
    ("from harness import interrupts", "harness.cli", False, {"harness", "harness.interrupts"}),
    ("import json\nfrom pathlib import Path", "harness.x", False, set()),
])
def test_imports_of_resolves_absolute_and_relative_imports(source, module, is_package, expected):
    assert imports_of(source, module, is_package) == expected


def module_graph(root: Path) -> dict[str, set[str]]:
    """module -> the harness modules it imports (lazy ones too), without edges to its own ancestor
    packages (Python initialises a package before its modules, so those never close a loop)."""
    paths = sorted(root.rglob("*.py"))
    modules = {module_name(path, root): path for path in paths}
    return {m: {t for t in imports_of(p.read_text(encoding="utf-8"), m, p.name == "__init__.py", root.name)
                & set(modules)
                if t != m and not m.startswith(t + ".")}
            for m, p in modules.items()}


def module_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan, iterative), each sorted."""
    index, low, stack, on_stack, out, counter = {}, {}, [], set(), [], [0]
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter[0]
                    counter[0] += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    out.append(sorted(group))
    return out


def test_harness_has_no_import_cycle_between_modules():
    """#46: the two module cycles were inside the speed machinery (audit.run <-> lanes ahead, steps <->
    runtime ahead); harness/speed/ is imported by the pipeline and imports nothing that imports it."""
    assert module_cycles(module_graph(ROOT)) == []


def test_the_module_cycle_check_fails_on_a_lazy_cycle(tmp_path):
    root = _tree(tmp_path, {
        "__init__.py": "",
        "audit/__init__.py": "",
        "audit/run.py": "def plan():\n    from harness.speed import lanes\n",
        "speed/__init__.py": "",
        "speed/lanes.py": "from harness.audit.run import plan\n",
        "speed/door.py": "from harness.speed import lanes\n",
    })
    assert module_cycles(module_graph(root)) == [["harness.audit.run", "harness.speed.lanes"]]


def importers_of(graph: dict[str, set[str]], prefix: str) -> set[str]:
    """The modules (outside `prefix` itself) that import `prefix` or a module under it."""
    return {m for m, targets in graph.items() if not (m == prefix or m.startswith(prefix + "."))
            and any(t == prefix or t.startswith(prefix + ".") for t in targets)}


def test_the_warm_worker_lives_behind_the_speed_door():
    """#46: every file of the warm worker (the harness's side, the script the sandbox runs and its
    siblings, the rewrite memo) is in harness/speed/warm/, nothing of it is left in harness/sandbox/,
    and only harness/speed/ imports it: the verifier and the audit receive a runner."""
    from harness.speed.runners import WarmRunner
    from harness.speed.warm import rewrite_cache, workers

    warm_dir = ROOT / "speed" / "warm"
    assert workers.WORKER_SCRIPT.parent == warm_dir and Path(rewrite_cache.__file__).parent == warm_dir
    assert sorted(p.name for p in (ROOT / "sandbox").glob("*.py") if "warm" in p.name or "rewrite" in p.name) == []
    outside = {m for m in importers_of(module_graph(ROOT), "harness.speed.warm") if not m.startswith("harness.speed.")}
    assert outside == set()
    assert callable(WarmRunner().release)   # how the audit ends what serves its lanes


def test_the_warm_importers_check_sees_a_lazy_import_from_outside(tmp_path):
    root = _tree(tmp_path, {
        "__init__.py": "",
        "speed/__init__.py": "",
        "speed/warm/__init__.py": "",
        "speed/warm/workers.py": "",
        "speed/door.py": "from harness.speed.warm import workers\n",
        "audit/__init__.py": "",
        "audit/scratch.py": "def clear():\n    from harness.speed.warm.workers import stop_workers\n",
    })
    assert importers_of(module_graph(root), "harness.speed.warm") == {"harness.speed.door", "harness.audit.scratch"}
