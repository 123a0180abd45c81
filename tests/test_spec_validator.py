"""SpecValidator and spec_stage: the five named cases of SPEC M2 and the persisted artifacts."""

import json

import pytest

from harness.models import AppSpec, DataEntity, EntityField, Page, Requirement
from helpers import run_spec_stage
from harness.providers.mock import MockProvider
from harness.state.store import RunStore
from harness.utils.events import EVENT_KEYS, read_events
from harness.validation.spec_validator import validate_spec

TODO = "Build a Simple Todo App with add/list/complete"


def valid_todo() -> AppSpec:
    todo = DataEntity(name="todo", plural="todos", ident="todo",
                      fields=[EntityField(name="title", ident="title", required=True)], has_status=True)
    reqs = [Requirement(id="REQ-001", text="Users can add a todo", capability="create", entity="todo"),
            Requirement(id="REQ-002", text="Users can list todos", capability="list", entity="todo"),
            Requirement(id="REQ-003", text="Users can mark a todo complete", capability="complete", entity="todo"),
            Requirement(id="REQ-004", text="The app serves GET /health and an HTML page", capability="health")]
    return AppSpec(title="Todo", data_model=[todo], pages=[Page(name="home", route="/", entity="todo")],
                   requirements=reqs, must_have=["todo"], acceptance_criteria=["todos can be added"],
                   explicit_non_goals=["deployment"])


def test_valid_todo_passes():
    assert validate_spec(valid_todo()) == []


def test_conflicting_login_non_goal_fails():
    spec = valid_todo()
    spec.requirements.append(Requirement(id="REQ-005", text="Users can sign in with a password", capability="auth"))
    spec.explicit_non_goals.append("login")
    assert any("non-goal 'login'" in e for e in validate_spec(spec))


def test_missing_acceptance_fails():
    spec = valid_todo()
    spec.acceptance_criteria = []
    assert "no acceptance criteria" in validate_spec(spec)


def test_duplicate_requirement_fails():
    spec = valid_todo()
    spec.requirements.append(Requirement(id="REQ-005", text="users can ADD a todo"))
    assert any("duplicates REQ-001" in e for e in validate_spec(spec))


@pytest.mark.parametrize("mutate, expected", [
    (lambda s: setattr(s, "app_type", ""), "app_type is empty"),
    (lambda s: setattr(s.stack, "db", ""), "stack.db is empty"),
    (lambda s: setattr(s, "requirements", []), "no requirements"),
    (lambda s: setattr(s.requirements[0], "id", "REQ-1"), "does not match"),
    (lambda s: setattr(s.requirements[1], "id", "REQ-001"), "duplicate requirement id"),
    (lambda s: s.pages.append(Page(name="x", entity="ghost")), "unknown entity 'ghost'"),
    (lambda s: s.must_have.append("payments"), "must-have 'payments'"),
    (lambda s: (setattr(s.stack, "backend", ""), s.requirements.append(
        Requirement(id="REQ-009", text="Expose a REST API for stats"))), "no backend"),
])
def test_each_rule_detects_its_problem(mutate, expected):
    spec = valid_todo()
    mutate(spec)
    assert any(expected in e for e in validate_spec(spec)), validate_spec(spec)


def test_first_invalid_then_valid_generation_passes(runs_dir):
    bad = valid_todo()
    bad.acceptance_criteria = []
    bad.requirements.append(Requirement(id="REQ-005", text="Users can add a todo"))
    good = valid_todo()
    llm = MockProvider(script=[bad.model_dump_json(), good.model_dump_json()])
    store = RunStore(runs_dir)
    state = store.create_run(TODO)
    spec = run_spec_stage(store, state.run_id, llm)
    assert validate_spec(spec) == []
    assert len(llm.calls) == 2 and "rejected by the validator" in llm.calls[1]
    assert "duplicates REQ-001" in llm.calls[1]


def test_spec_stage_offline_persists_spec_checkpoint_and_events(runs_dir):
    store = RunStore(runs_dir)
    state = store.create_run(TODO)
    spec = run_spec_stage(store, state.run_id, MockProvider())
    run = runs_dir / state.run_id
    assert len(spec.requirements) >= 3
    on_disk = AppSpec.model_validate_json((run / "spec.json").read_text())
    assert validate_spec(on_disk) == []
    assert (run / "checkpoints" / "001-spec_created.json").exists()
    events = read_events(run / "events.log")
    assert events and all(all(k in e for k in EVENT_KEYS) for e in events)
    assert store.load(state.run_id).status.value == "SPEC_DONE"


def test_same_request_gives_byte_identical_spec(runs_dir):
    store = RunStore(runs_dir)
    texts = []
    for _ in range(2):
        st = store.create_run(TODO)
        run_spec_stage(store, st.run_id, MockProvider())
        texts.append((runs_dir / st.run_id / "spec.json").read_bytes())
    assert texts[0] == texts[1]


def test_example_todo_spec_is_the_fallback_output_and_valid():
    from pathlib import Path

    from harness.agents.spec_agent import SpecAgent

    example = Path(__file__).parent.parent / "examples" / "todo_spec.json"
    spec = AppSpec.model_validate_json(example.read_text())
    assert len(spec.requirements) == 4 and validate_spec(spec) == []
    assert json.loads(SpecAgent(MockProvider()).generate(TODO).model_dump_json()) == json.loads(example.read_text())
