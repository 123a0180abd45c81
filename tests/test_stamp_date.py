"""Period summaries by a completion date (#51): `stamp = { "completed on" = "done" }` sets a task's
date field to today when its status moves to done (unless the request gives a date), so a weekly
summary by that date counts tasks by the week they were completed (examples/work_tasks.toml). The
reader refuses a stamp that cannot work in one line; the generated test and the black-box check
both catch an app that does not stamp."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import httpx
import pytest

from harness.acceptance import run_acceptance
from harness.offline.generator import generate_files
from harness.offline.spec_file import SpecFileError, load_spec_file
from helpers import write_files
from served_app import served
from warm_suites import suites  # noqa: F401  (module-scoped fixture)

TASKS = Path(__file__).parents[1] / "examples" / "work_tasks.toml"
STAMPS = "        values['completed_on'] = calc_today().isoformat()\n"
# An app that never stamps: the date stays empty when a task is done.
UNSTAMPED = (STAMPS, "        pass\n")

HEAD = ('[[entities]]\nname = "task"\nfields = ["title", { name = "completed on", kind = "date" }, '
        '{ name = "due", kind = "date", required = true }, { name = "hours", kind = "integer" }]\n')
FLOW = 'workflow = ["to do", "doing", "done"]\n'


def test_the_work_tracker_stamps_the_completion_date():
    spec = load_spec_file(TASKS)
    task = spec.entity("task")
    assert task.stamps == {"completed_on": "done"}
    req = next(r for r in spec.requirements if r.acceptance == "task.stamp completed_on")
    assert (req.capability, req.text) == ("workflow", "A task's completed on is set to the day it moves to done")
    files = generate_files(spec)
    assert ('    if values.get("status") == \'done\' != current["status"] and \'completed_on\' not in values:\n'
            + STAMPS) in files["src/api_task.py"]
    test = f"@pytest.mark.req('{req.id}')\ndef test_completed_on_is_set_to_the_day_a_task_moves_to_done("
    assert test in files["tests/test_api_task.py"]
    assert "'completed_on': \"2024-01-02\"" in files["tests/test_acceptance.py"]


@pytest.mark.parametrize("extra, message", [
    ('stamp = { "completed on" = "done" }\n', "entities[1].stamp: needs a workflow"),
    (FLOW + 'stamp = { "finished" = "done" }\n', "entities[1].stamp: no field 'finished'"),
    (FLOW + 'stamp = { "hours" = "done" }\n', "'hours' is of kind integer; a stamp sets a date field"),
    (FLOW + 'stamp = { "due" = "done" }\n', "'due' is required, so it is given before any move"),
    (FLOW + 'stamp = { "completed on" = "to do" }\n', "'completed on': 'to do' is not a later state of the workflow"),
    (FLOW + 'stamp = { "completed on" = "closed" }\n', "(states after the first: doing, done)"),
    (FLOW + 'stamp = "done"\n', "entities[1].stamp: must be dict"),
])
def test_a_stamp_that_cannot_be_built_is_one_line(tmp_path, extra, message):
    path = tmp_path / "app.toml"
    path.write_text(HEAD + extra, encoding="utf-8")
    with pytest.raises(SpecFileError) as raised:
        load_spec_file(path)
    text = str(raised.value)
    assert message in text and "\n" not in text and text.startswith(f"{path}:"), text


@pytest.mark.slow
def test_the_generated_stamp_test_passes_and_fails_when_nothing_is_stamped(suites):  # noqa: F811
    files = generate_files(load_spec_file(TASKS))
    ws = write_files(files, suites.base / "tasks")
    kept = suites.run(ws, "-q", "-p", "no:cacheprovider", "tests/test_api_task.py")
    assert kept.exit_code == 0 and "failed" not in kept.stdout, kept.stdout[-3000:]
    (ws / "src" / "api_task.py").write_text(files["src/api_task.py"].replace(*UNSTAMPED), encoding="utf-8")
    broken = suites.run(ws, "-q", "-p", "no:cacheprovider", "tests/test_api_task.py")
    assert broken.exit_code == 1 and "1 failed" in broken.stdout, broken.stdout[-3000:]
    assert "test_completed_on_is_set_to_the_day_a_task_moves_to_done" in broken.stdout


@pytest.mark.slow
def test_a_weekly_summary_counts_tasks_by_the_week_they_were_done_and_the_black_box_check_sees_it(tmp_path):
    spec = load_spec_file(TASKS)
    files = generate_files(spec)
    ws = write_files(files, tmp_path / "kept")
    with served(ws, tmp_path / "kept.db") as base, httpx.Client(base_url=base, timeout=10) as http:
        made = [http.post("/api/tasks", json={"date": "2024-01-02", "task": name}).json()["id"] for name in "ABC"]
        for item in made[:2]:
            assert http.put(f"/api/tasks/{item}", json={"status": "done"}).json()["completed_on"] == date.today().isoformat()
        week = f"{date.today():%Y}-W{date.today():%W}"
        summary = http.get("/api/tasks/summary", params={"period": "week", "status": "done"}).json()
        assert summary == [{"period": week, "count": 2, "sums": {}}]
        checks = run_acceptance(base, spec, [], [])
    assert [(c.name, c.detail) for c in checks if not c.ok] == []
    assert any(c.name == "task.completed_on is stamped on moving to done" for c in checks)
    ws = write_files({**files, "src/api_task.py": files["src/api_task.py"].replace(*UNSTAMPED)}, tmp_path / "unstamped")
    with served(ws, tmp_path / "unstamped.db") as base:
        failed = [(c.name, c.detail) for c in run_acceptance(base, spec, [], []) if not c.ok]
    assert [name for name, _ in failed] == ["task.completed_on is stamped on moving to done"], failed
    assert "moved to 'done', the task reads completed_on None, not today" in failed[0][1]
