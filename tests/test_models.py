"""M1 models: round trips through JSON, str-enums, schema_version."""

from harness.models import AppSpec, DataEntity, EntityField, FailureType, Page, Requirement, RunState, Task, TaskStatus
from harness.models.enums import RunStatus


def _spec() -> AppSpec:
    todo = DataEntity(name="todo", plural="todos", ident="todo",
                      fields=[EntityField(name="title", ident="title", required=True)], has_status=True)
    return AppSpec(title="Todo", data_model=[todo], pages=[Page(name="home", route="/", entity="todo")],
                   requirements=[Requirement(id="REQ-001", text="add a todo", capability="create", entity="todo")],
                   acceptance_criteria=["a todo can be added"])


def test_appspec_round_trips_through_json():
    spec = _spec()
    again = AppSpec.model_validate_json(spec.model_dump_json())
    assert again == spec
    assert again.schema_version == 1


def test_task_round_trips_and_carries_no_status():
    """#12: tasks.json said PENDING for tasks state.json marked COMPLETED; a plan holds no status."""
    task = Task(id="TASK-001", description="setup", files_touched=["src/models.py"], requirements=["REQ-001"],
                verification=["pytest -q"])
    data = task.model_dump(mode="json")
    assert "status" not in data
    assert Task.model_validate(data) == task
    assert Task.model_validate({**data, "status": "PENDING"}) == task  # plans written before #12 still load


def test_enums_are_str_enums():
    for enum in (TaskStatus, RunStatus, FailureType):
        assert all(isinstance(member, str) for member in enum)
    assert TaskStatus.FAILED != TaskStatus.TIMED_OUT


def test_runstate_round_trip_keeps_spec_and_statuses():
    state = RunState(run_id="run_0000abcd", trace_id="t", user_request="x", spec=_spec(),
                     task_results={"TASK-001": TaskStatus.BLOCKED})
    again = RunState.model_validate_json(state.model_dump_json())
    assert again.task_results["TASK-001"] is TaskStatus.BLOCKED
    assert again.spec.entity("todo").has_status


def test_appspec_rejects_unknown_fields():
    import pytest
    from pydantic import ValidationError

    with pytest.raises(ValidationError):
        AppSpec.model_validate({"app_type": "web", "requirments": []})
