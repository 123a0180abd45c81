"""The LLM path's contract pieces (#17): answer extraction, ask(), builder context, probes,
the offline-fallback decision, truncated answers, and the runtime check's database placement."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fake_openai_server import FakeOpenAIServer, Reply, answer

from harness.agents.ask import AnswerUnusableError, ask
from harness.agents.builder_context import dependency_context, dependency_tasks, interface
from harness.agents.planner import fallback_plan, offline_decision, parse_plan
from harness.models.probes import Probe
from harness.models.spec import AppSpec
from harness.models.tasks import Plan, Task
from harness.offline.spec import parse_request
from harness.agents.spec_agent import postprocess
from harness.providers.budget import Budget, MeteredProvider
from harness.providers.extract import ExtractError, extract_json
from harness.providers.mock import MockProvider
from harness.providers.openai_http import OpenAIHTTPClient, TruncatedAnswerError
from harness.verification.probe_plan import runtime_steps
from harness.verification.runtime import verify_runtime

TODO = postprocess(parse_request("Build a Simple Todo App with add/list/complete"))


@pytest.mark.parametrize("text, expected", [
    ('{"a": 1}', {"a": 1}),
    ('```json\n{"a": 1}\n```', {"a": 1}),
    ('Sure! Here it is:\n```json\n{"a": 1}\n```\nAnything else?', {"a": 1}),
    ('<think>maybe {"b": 2}? no.</think>{"a": 1}', {"a": 1}),
    ('<think>unclosed reasoning {"b": 2}', None),
    ('The answer is {"a": {"b": "x}"}} as requested', {"a": {"b": "x}"}}),
    ('use {name} then {"a": 1}', {"a": 1}),
    ("", None),
    ('{"a": ', None),
    ("no json here", None),
])
def test_extract_json_finds_the_object_in_prose_fences_and_think_blocks(text, expected):
    if expected is None:
        with pytest.raises(ExtractError):
            extract_json(text)
    else:
        assert extract_json(text) == expected


# ---- ask() --------------------------------------------------------------------------------------

def parse_number(text: str) -> int:
    value = extract_json(text)["n"]
    if not isinstance(value, int):
        raise ValueError(f"n must be an integer, got {value!r}")
    return value


def test_ask_retries_once_with_the_error_then_uses_the_answer():
    llm = MockProvider(script=['{"n": "three"}', '{"n": 3}'])
    got = ask(llm, "tester", "give n", parse_number, lambda: 0)
    assert (got.value, got.source, got.attempts) == (3, "llm", 2)
    assert "could not be used: n must be an integer, got 'three'" in llm.calls[1]
    assert llm.calls[1].startswith("give n")


def test_ask_reports_the_fallback_once_through_the_meter_hook():
    meter = MeteredProvider(MockProvider(script=["prose", "more prose"]), Budget())
    seen = []
    meter.on_fallback = lambda stage, agent, reason, **kw: seen.append((stage, agent, kw["tool"], reason))
    got = ask(meter, "tester", "give n", parse_number, lambda: 7, stage="test", fallback_tool="rules")
    assert (got.value, got.source) == (7, "rules")
    assert seen == [("test", "tester", "rules", got.reason)] and "no JSON object" in got.reason
    assert meter.calls == 2


def test_ask_without_fallback_raises_with_the_reason():
    with pytest.raises(AnswerUnusableError, match="stayed unusable after 2 attempts: .*no JSON object"):
        ask(MockProvider(script=["x", "y"]), "tester", "p", parse_number)


def test_ask_without_a_model_uses_the_fallback_silently():
    llm = MockProvider()
    got = ask(llm, "tester", "p", parse_number, lambda: 5)
    assert (got.value, got.source, got.reason) == (5, "generator", "") and llm.calls == []


def test_ask_puts_the_schema_in_the_message_text():
    llm = MockProvider(script=['{"tasks": []}'])
    ask(llm, "planner", "plan it", lambda t: Plan.model_validate(extract_json(t)), schema=Plan)
    assert "JSON schema (Plan)" in llm.calls[0] and '"files_touched"' in llm.calls[0]


# ---- truncated answers --------------------------------------------------------------------------

def test_finish_reason_length_is_a_truncated_answer_and_max_tokens_is_sent():
    """#17: a cut-off answer was parsed as if complete."""
    def cut(request):
        body = json.dumps({"id": "x", "object": "chat.completion", "choices": [
            {"index": 0, "finish_reason": "length", "message": {"role": "assistant", "content": '{"src/a.py": "de'}}]})
        return Reply("error", status=200, body=body)

    with FakeOpenAIServer(responder=cut) as server:
        client = OpenAIHTTPClient(server.url, "k", "m", max_tokens=123)
        with pytest.raises(TruncatedAnswerError, match="cut off at max_tokens=123"):
            client.chat_json("p")
        assert server.requests[0].body["max_tokens"] == 123
        assert server.requests[0].body["response_format"] == {"type": "json_object"}


# ---- builder context ----------------------------------------------------------------------------

def tasks() -> Plan:
    return Plan(source="llm", tasks=[
        Task(id="TASK-001", description="storage", files_touched=["src/store.py"], requirements=["REQ-001"]),
        Task(id="TASK-002", description="search", depends_on=["TASK-001"], files_touched=["src/search.py"],
             requirements=["REQ-001"]),
        Task(id="TASK-003", description="api", depends_on=["TASK-002"], files_touched=["src/main.py"],
             requirements=["REQ-001"])])


STORE = '"""Storage."""\nimport os\n\nPATH = os.environ.get("APP_DB_PATH", "app.db")\n\n\n' \
        'class Store:\n    """Notes in SQLite."""\n\n    def add(self, title: str, tags: list[str] | None = None) -> int:\n' \
        '        """Insert; the new id."""\n        return 1\n\n\ndef connect(path=None):\n    """A connection."""\n' \
        '    return None\n' + "# padding\n" * 200


def test_interface_lists_classes_functions_signatures_and_docstrings():
    outline = interface("src/store.py", STORE)
    assert outline.splitlines()[0] == '"""Storage."""'
    assert "class Store:  # Notes in SQLite." in outline
    assert "    def add(self, title: str, tags: list[str] | None=None) -> int: ...  # Insert; the new id." in outline
    assert "def connect(path=None): ...  # A connection." in outline
    assert "PATH = os.environ.get('APP_DB_PATH', 'app.db')" in outline and "padding" not in outline
    assert interface("src/bad.py", "def f(:\n") .startswith("# does not parse")


def test_dependency_context_is_transitive_full_within_budget_and_interfaces_beyond(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src/store.py").write_text(STORE)
    (tmp_path / "src/search.py").write_text("from src.store import connect\n\ndef search(q):\n    return []\n")
    (tmp_path / "src/main.py").write_text("app = None  # the previous build\n")
    plan = tasks()
    api = plan.tasks[2]
    assert [t.id for t in dependency_tasks(api, plan)] == ["TASK-002", "TASK-001"]     # nearest first
    roomy = dependency_context(api, plan, tmp_path)
    assert set(roomy["dependency_files"]) == {"src/store.py", "src/search.py"} and not roomy["dependency_interfaces"]
    assert roomy["own_files"] == {"src/main.py": "app = None  # the previous build\n"}   # a rebuild sees its files
    assert roomy["dependency_tasks"] == ["TASK-002 search: src/search.py; REQ-001",
                                         "TASK-001 storage: src/store.py; REQ-001"]
    tight = dependency_context(api, plan, tmp_path, budget=800)
    assert set(tight["dependency_files"]) == {"src/search.py"}
    assert "def connect(path=None)" in tight["dependency_interfaces"]["src/store.py"]


# ---- plan: probes and the offline decision --------------------------------------------------------

def test_offline_decision_allows_the_generator_only_for_its_own_files():
    offline = fallback_plan(TODO)
    assert offline_decision(TODO, offline)[0] is True
    as_model = offline.model_copy(update={"source": "llm"})
    assert offline_decision(TODO, as_model)[0] is True
    mine = as_model.model_copy(deep=True)
    mine.tasks[0].files_touched.append("src/notes_search.py")
    allowed, note = offline_decision(TODO, mine)
    assert allowed is False and "src/notes_search.py" in note


def test_parse_plan_feeds_back_every_error_including_probes():
    plan = fallback_plan(TODO).model_dump(mode="json")
    plan["tasks"][0]["verification"] = []
    plan["tasks"][1]["requirements"] = ["REQ-099"]
    plan["probes"] = [{"requirement": "REQ-042", "method": "get", "path": "/health"}]
    with pytest.raises(ValueError) as caught:
        parse_plan(json.dumps(plan), TODO)
    text = str(caught.value)
    assert "has no verification command" in text and "unknown requirement REQ-099" in text
    assert "probe 'GET /health' refers to unknown requirement REQ-042" in text


def test_runtime_probes_come_from_the_plan_else_generator_only_for_its_own_app():
    offline = fallback_plan(TODO)
    steps, source = runtime_steps(TODO, offline)
    assert source == "generator" and any(s.path.startswith("/api/") for s in steps)
    declared = offline.model_copy(update={"probes": [Probe(path="/todos", method="post", expect_status=201)]})
    steps, source = runtime_steps(TODO, declared)
    assert source == "plan" and [(s.method, s.path, s.name) for s in steps] == [("POST", "/todos", "POST /todos")]
    foreign = offline.model_copy(update={"source": "llm", "offline_fallback": False})
    assert runtime_steps(TODO, foreign) == ([], "generic")
    with pytest.raises(ValueError, match="must start with '/'"):
        Probe(path="todos")


HARDCODED_DB_APP = '''import sqlite3
from fastapi import FastAPI

app = FastAPI()


@app.get("/health")
def health():
    conn = sqlite3.connect("app.db")        # ignores APP_DB_PATH
    conn.execute("CREATE TABLE IF NOT EXISTS t (x)")
    conn.close()
    return {"status": "ok"}
'''


@pytest.mark.slow
def test_runtime_check_never_writes_the_apps_database_into_the_workspace(tmp_path):
    """#17: the runtime check wrote the app's database into the workspace."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src/__init__.py").write_text("")
    (tmp_path / "src/main.py").write_text(HARDCODED_DB_APP)
    result = verify_runtime(tmp_path)
    assert result.status == "PASS", result.checks
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file() and "__pycache__" not in p.parts) == [
        "__init__.py", "main.py"]


@pytest.mark.slow
def test_runtime_uses_the_entry_point_the_plan_declares(tmp_path):
    (tmp_path / "web").mkdir()
    (tmp_path / "web/__init__.py").write_text("")
    (tmp_path / "web/server.py").write_text(HARDCODED_DB_APP.replace("app = FastAPI()", "api = FastAPI()")
                                            .replace("@app.", "@api."))
    result = verify_runtime(tmp_path, entry="web.server:api")
    assert result.status == "PASS" and result.checks[0].detail == "python web.server:api"


# ---- repair context and loop signatures -----------------------------------------------------------

def failing_result(stdout: str, command: str = "python -m pytest -q tests/test_search.py"):
    from harness.models.results import VerificationResult

    return VerificationResult(task_id="TASK-002", status="FAIL", command=command, exit_code=1, stdout=stdout)


PYTEST_OUT = """F
=================================== FAILURES ===================================
___________________ test_search_matches_every_word_in_any_case ___________________

    def test_search_matches_every_word_in_any_case(conn):
>       assert search(conn, "tent") == ["x"]

tests/test_search.py:21:
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _
src/search.py:17: in search
    for note in list_notes(conn, tag=tag):
src/store.py:46: in _row
    "tags": row["tags"].split(","),
E   AttributeError: 'NoneType' object has no attribute 'split'
=============================== warnings summary ===============================
""" + "".join(f"src/x.py:{n}: DeprecationWarning: old thing {n}\n" for n in range(400)) + """
-- Docs: https://docs.pytest.org/en/stable/how-to/capture-warnings.html
=========================== short test summary info ============================
FAILED tests/test_search.py::test_search_matches_every_word_in_any_case - AttributeError
1 failed in 0.10s
"""


def test_repair_context_keeps_the_assertion_ahead_of_the_warnings_summary():
    """#17: the 1500-character tail cut the assertion line off behind warnings."""
    from harness.agents.repair_context import failure_excerpt

    excerpt = failure_excerpt(failing_result(PYTEST_OUT))
    assert "E   AttributeError: 'NoneType' object has no attribute 'split'" in excerpt["key_lines"]
    assert ">       assert search(conn, \"tent\") == [\"x\"]" in excerpt["key_lines"]
    assert "DeprecationWarning" not in excerpt["output_tail"]


def test_traceback_files_names_the_earlier_tasks_file_and_the_failing_test():
    from harness.agents.repair_context import traceback_files

    files = ["src/search.py", "src/store.py", "tests/test_search.py", "src/main.py"]
    assert traceback_files(failing_result(PYTEST_OUT), files) == ["tests/test_search.py", "src/search.py", "src/store.py"]


@pytest.mark.parametrize("size", [100, 6_000, 60_000])
def test_repair_context_is_valid_json_within_the_cap_whatever_the_file_sizes(size):
    """#17: files over ~5 KB made the 8,000-character context invalid JSON (the string was cut)."""
    from harness.agents.repair_context import build_repair_context

    quoted = ('x = "quote \\" and newline"\n' * (size // 26 + 1))[:size]
    task = Task(id="TASK-002", description="search", files_touched=["src/search.py"], requirements=["REQ-001"])
    text = build_repair_context(task, TODO, failing_result(PYTEST_OUT), None, {"src/search.py": quoted},
                                {"src/store.py": quoted, "tests/test_search.py": "def test(): pass\n"},
                                [{"attempt": 1, "files_changed": [], "error": "refused: src/store.py"}],
                                {"src/store.py": "TASK-001"}, cap=12_000)
    doc = json.loads(text)
    assert len(text) <= 12_000
    assert doc["editable_files"]["src/search.py"].startswith('x = "quote \\" and newline"')
    assert doc["read_only_files"]["tests/test_search.py"] == "def test(): pass\n"
    assert doc["previous_attempts"][0]["error"] == "refused: src/store.py"
    assert "AttributeError" in doc["failing"]["key_lines"]
    if size <= 100:
        assert doc["editable_files"]["src/search.py"] == quoted


def test_loop_signature_ignores_hex_addresses_and_random_tokens():
    from harness.verification.signature import failure_signature

    def sig(addr: str, token: str) -> str:
        return failure_signature("pytest -q", 1, f"<Note object at {addr}> token {token!r} rejected")

    assert sig("0x7f3a2b1c", "q8Zx3kLm9PaW2sTrX") == sig("0x7f00aa00", "Lm29xQp0aZk3RtYwq")
    assert sig("0x7f3a2b1c", "q8Zx3kLm9PaW2sTrX") != failure_signature("pytest -q", 1, "other failure")
