"""#47: the report shows a requirement's two legs apart — its own tests, then the harness's HTTP
checks (each with its source and what came back) — and the mutants its tests let survive."""

from harness.report.sections import requirement_evidence


def test_the_report_shows_the_black_box_checks_and_the_survivors():
    rep = {"status": "FAIL", "missing": ["black-box: acceptance check failed: complete a todo and read it back — x"],
           "tests": {}, "commands": [],
           "black_box": {"line": "Black-box: NO (1/2 checks: spec-derived)", "checks": [
               {"name": "complete a todo and read it back", "source": "spec", "ok": False,
                "detail": "after POST /api/todos/1/complete the todo reads status 'open'"},
               {"name": "complete an unknown todo → 404", "source": "spec", "ok": True, "detail": ""}]},
           "mutation": {"survived": ["src/api_todo.py:line 89: `!=` → `==`"]}}
    html = requirement_evidence({"requirements": [{"id": "REQ-003", "text": "complete"}],
                                 "requirement_reports": {"REQ-003": rep}})
    assert "White-box: its own tests" in html
    assert "Black-box: NO (1/2 checks: spec-derived)" in html
    assert "reads status &#x27;open&#x27;" in html or "reads status 'open'" in html
    assert "mutants that survived its tests" in html and "line 89" in html


def test_the_report_names_each_survivors_kind_and_the_invalid_mutants():
    """#47: a survivor shows which kind of mutant it was (a surviving comparison says more than a
    surviving `return None`); invalid mutants are counted apart, not as kills."""
    survivor = "src/api_todo.py:line 89: `!=` → `==` in `t.done != done`"
    rep = {"status": "FAIL", "missing": [], "tests": {}, "commands": [],
           "mutation": {"survived": [survivor], "invalid": 2, "details": [
               {"id": 3, "file": "src/api_todo.py", "line": 89, "kind": "compare",
                "description": "line 89: `!=` → `==` in `t.done != done`", "result": "passed"}]}}
    html = requirement_evidence({"requirements": [{"id": "REQ-003", "text": "complete"}],
                                 "requirement_reports": {"REQ-003": rep}})
    assert "<li>compare: <code>src/" in html and "line 89" in html
    assert "2 mutant(s) invalid" in html


def test_the_report_shows_each_survivors_diff():
    """#47: a survivor is listed with its line and diff (audit.json's `diff`: `-` the line as written,
    `+` the mutant's); before, only the one-line description."""
    survivor = "src/rooms.py:line 12: boundary `<` → `<=` in `taken < capacity`"
    rep = {"status": "FAIL", "missing": [], "tests": {}, "commands": [],
           "mutation": {"survived": [survivor], "details": [
               {"id": 81, "file": "src/rooms.py", "line": 12, "kind": "boundary", "result": "passed",
                "description": "line 12: boundary `<` → `<=` in `taken < capacity`",
                "diff": "-    if taken < capacity:\n+    if taken <= capacity:"}]}}
    html = requirement_evidence({"requirements": [{"id": "REQ-002", "text": "book a seat"}],
                                 "requirement_reports": {"REQ-002": rep}})
    assert "<li>boundary: <code>src/" in html
    assert "<pre>-    if taken &lt; capacity:\n+    if taken &lt;= capacity:</pre>" in html
