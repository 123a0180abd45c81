"""What makes recording evidence cheap keeps its meaning: one parse per module at session start,
a lighter AST walk, and no tracing before the first test (import and collection never count)."""

from __future__ import annotations

import ast
import json
from collections import Counter

import pytest

from pytest_harness import ast_walk, checks, forgery, measure

pytest_plugins = ["pytester"]
FAST = ("-p", "no:hypothesispytest", "-p", "no:cacheprovider")

SOURCE = '''"""Module docstring naming atexit and pytest_harness (harmless)."""
import os


class Thing:
    """Class docstring: pytest_sessionfinish."""

    def method(self):
        """Method docstring: atexit."""
        if os.environ:
            """Not a docstring position? it is: first statement of the if body."""
        name = "pytest_harness"
        return name


def test_one(x):
    assert x == x
    assert f(x) == 3
    with pytest.raises(ValueError):
        f(-1)
'''


SHARED_LEAVES = (ast.expr_context, ast.operator, ast.cmpop, ast.boolop, ast.unaryop)


def test_ast_walk_yields_every_node_but_contexts_and_operators():
    tree = ast.parse(SOURCE + "y = -a + b < c and not d\n")
    expected = Counter(type(n).__name__ for n in ast.walk(tree) if not isinstance(n, SHARED_LEAVES))
    assert Counter(type(n).__name__ for n in ast_walk.nodes(tree)) == expected


def test_ast_walk_yields_a_parent_before_its_children():
    tree = ast.parse(SOURCE)
    seen: set[int] = set()
    for node in ast_walk.nodes(tree):
        for child in ast.iter_child_nodes(node):
            assert isinstance(child, SHARED_LEAVES) or id(child) not in seen
        seen.add(id(node))


def test_one_walk_scan_skips_docstrings_at_any_depth_but_not_other_strings():
    findings = forgery.scan_source("pkg/thing.py", SOURCE)
    assert findings == [{"file": "pkg/thing.py", "line": 12,
                         "what": "reaches into the harness plugin (pytest_harness)"}]


def test_scan_files_hands_each_parsed_module_to_the_site_cache(tmp_path):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_a.py").write_text(SOURCE)
    (tmp_path / "lib.py").write_text("def f():\n    assert False\n")
    (tmp_path / "broken.py").write_text("def (:\n")
    seeded = measure.SiteCache(tmp_path)
    forgery.scan_files(tmp_path, ["tests/test_a.py", "lib.py", "broken.py"], on_tree=seeded.seed)
    assert seeded._sites == {"tests/test_a.py": checks.find_sites(SOURCE)}  # implementation code is never read
    (tmp_path / "tests" / "test_a.py").write_text("")  # seeded: the session-start parse is what counts
    assert [s.fake for s in seeded.sites("tests/test_a.py")] == ["same expression on both sides", None, None]


@pytest.mark.parametrize("source, fake", [
    ("assert a.b == a.b", "same expression on both sides"),
    ("assert a.b == a.c", None),
    ("assert [x] == (x,)", None),  # same elements, different node types
    ("assert f(1) == f(1) != g", "same expression on both sides"),
])
def test_same_expression_needs_the_same_node_type_and_dump(source, fake):
    assert [s.fake for s in checks.find_sites(source)] == [fake]


@pytest.mark.slow
def test_collection_is_not_traced_but_the_call_phase_and_fixture_threads_are(pytester, tmp_path):
    pytester.makepyfile(calc="def add(a, b):\n    return a + b\n")
    pytester.makepyfile(test_calc="""
        import sys
        import threading

        import pytest

        from calc import add

        TRACED_AT_IMPORT = sys.gettrace() is not None

        @pytest.fixture
        def worker():
            go, results = threading.Event(), []
            thread = threading.Thread(target=lambda: (go.wait(), results.append(add(2, 2))))
            thread.start()
            yield go, results
            thread.join()

        @pytest.mark.req("REQ-001")
        def test_thread_started_in_setup_runs_code_in_the_call(worker):
            go, results = worker
            go.set()
            while not results:
                pass
            assert results == [4]

        def test_import_was_not_traced():
            assert TRACED_AT_IMPORT is False
            assert sys.gettrace() is None  # unmarked: its call decides no requirement, not traced (#52)
    """)
    out = tmp_path / "ev.json"
    result = pytester.runpytest_subprocess(*FAST, f"--harness-evidence={out}", "--harness-reqs=REQ-001",
                                           '--harness-req-files={"REQ-001": ["calc.py"]}')
    assert result.ret == 0, result.stdout.str()
    doc = json.loads(out.read_text())
    assert doc["tests"]["test_calc.py::test_thread_started_in_setup_runs_code_in_the_call"]["lines"] == {
        "calc.py": [2]}
    assert doc["requirements"]["REQ-001"]["status"] == "verified"
