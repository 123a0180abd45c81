"""Builder + FileTools: bounded context, allowlist, fallback to the generator (SPEC M4)."""

import json

import pytest

from harness.agents.builder import Builder, build_prompt
from harness.agents.file_map import FileMapError, parse_file_map
from harness.models import Task, VerificationResult
from harness.providers.mock import MockProvider
from harness.sandbox.local import LocalSandbox
from harness.tools.file_tools import FileTools
from test_spec_validator import valid_todo


def task(tid="TASK-001", files=("src/a.py",), kind=""):
    return Task(id=tid, description=f"do {tid}", files_touched=list(files), requirements=["REQ-001"],
                verification=["python -m pytest -q"], kind=kind)


def test_allowed_write_succeeds_and_outside_allowlist_raises(tmp_path):
    violations = []
    tools = FileTools(LocalSandbox(tmp_path), ["src/a.py"], on_violation=violations.append)
    tools.write_file("src/a.py", "x = 1\n")
    assert (tmp_path / "src/a.py").read_text() == "x = 1\n"
    with pytest.raises(PermissionError):
        tools.write_file("src/b.py", "y = 2\n")
    with pytest.raises(PermissionError):
        tools.write_file("../escape.py", "")
    assert violations == ["src/b.py", "../escape.py"]
    assert not (tmp_path / "src/b.py").exists() and not (tmp_path.parent / "escape.py").exists()


def test_llm_file_map_is_written_inside_allowlist(tmp_path):
    llm = MockProvider(script=[json.dumps({"src/a.py": "A = 1\n"})])
    out = Builder(llm).build(task(), valid_todo(), FileTools(LocalSandbox(tmp_path), ["src/a.py"]))
    assert out.source == "llm" and (tmp_path / "src/a.py").read_text() == "A = 1\n"


def test_llm_write_outside_allowlist_raises_permission_error(tmp_path):
    llm = MockProvider(script=[json.dumps({"src/a.py": "A = 1\n", "src/evil.py": "x"})])
    with pytest.raises(PermissionError):
        Builder(llm).build(task(), valid_todo(), FileTools(LocalSandbox(tmp_path), ["src/a.py"]))
    assert not (tmp_path / "src/evil.py").exists()


def test_unparseable_llm_output_falls_back_to_the_generator(tmp_path):
    from harness.agents.planner import fallback_plan

    spec = valid_todo()
    first = fallback_plan(spec).tasks[0]
    llm = MockProvider(script=["Here you go! ```python print(1)```", "Still prose."])
    out = Builder(llm).build(first, spec, FileTools(LocalSandbox(tmp_path), first.files_touched))
    assert out.source == "generator" and "not JSON" in out.fallback_reason
    assert len(llm.calls) == 2 and "could not be used: not JSON" in llm.calls[1]   # one corrective retry
    assert sorted(out.written) == sorted(first.files_touched)


@pytest.mark.parametrize("text", ["prose", "[1, 2]", "{}", '{"a": 1}', "```json\n{\"a\": \n```"])
def test_parse_file_map_rejects_non_maps(text):
    with pytest.raises(FileMapError):
        parse_file_map(text)


def test_parse_file_map_accepts_fenced_json():
    assert parse_file_map('```json\n{"a.py": "x"}\n```') == {"a.py": "x"}


def test_prompt_is_bounded_to_the_task():
    spec = valid_todo()
    history = [VerificationResult(task_id="TASK-001", status="PASS", command="pytest -q", exit_code=0,
                                  stdout="SECRET-OUTPUT-OF-TASK-1 " * 50)]
    other = task("TASK-001", files=("src/other.py",))
    mine = task("TASK-002", files=("src/mine.py",))
    mine.depends_on = ["TASK-001"]
    prompt = build_prompt(mine, spec, history)
    assert "src/other.py" not in prompt and "SECRET-OUTPUT-OF-TASK-1" not in prompt
    assert "src/mine.py" in prompt and '"TASK-001: PASS `pytest -q` exit 0"' in prompt   # its result, not its output
    assert other.description not in prompt


def test_prompt_for_last_of_ten_tasks_is_not_larger_than_first():
    spec = valid_todo()
    tasks = [task(f"TASK-{n:03d}", files=(f"src/m{n:02d}.py",)) for n in range(1, 11)]
    results = []
    sizes = []
    for n, tk in enumerate(tasks):
        tk.depends_on = [tasks[n - 1].id] if n else []
        deps = [r for r in results if r.task_id in tk.depends_on]
        sizes.append(len(build_prompt(tk, spec, deps)))
        results.append(VerificationResult(task_id=tk.id, status="PASS", command="pytest -q", exit_code=0,
                                          stdout="x" * 1000))
    assert sizes[-1] <= sizes[1] + 5 and max(sizes) - min(sizes) < 200


def test_an_entity_tasks_context_carries_its_entity_and_the_ones_it_references_only():
    from harness.agents.builder import build_context
    from harness.models.spec import AppSpec, DataEntity as Entity, EntityField

    base = valid_todo().model_dump()
    base["data_model"] = [
        Entity(name="customer", plural="customers", ident="customer").model_dump(),
        Entity(name="order", plural="orders", ident="order",
               fields=[EntityField(name="customer", ident="customer_id", kind="reference", ref="customer")]).model_dump(),
        Entity(name="invoice", plural="invoices", ident="invoice").model_dump(),
    ]
    spec = AppSpec.model_validate(base)
    def seen(t):   # an entity task's entities as JSON; a task wiring every entity: one line an entity
        shown = build_context(t, spec, [])["spec"]["data_model"]
        return [e["ident"] if isinstance(e, dict) else e.split(" ", 1)[0] for e in shown]

    assert seen(task(kind="entity:order")) == ["customer", "order"]
    assert seen(task(kind="entity:customer")) == ["customer", "order"]  # an order points at it
    assert seen(task(kind="entity:invoice")) == ["invoice"]
    assert seen(task(kind="pages")) == ["customer", "order", "invoice"]  # it wires every entity
    assert seen(task(kind="entity:unknown")) == ["customer", "order", "invoice"]
