"""F1 of the hostile trial: a user who adds an honest test to a delivered app could never re-verify it.

A workspace file no task created voids every requirement ("not part of the build") — the rule that
catches a planted zip or plugin. `builder adopt <run> FILE` lets the user say, outside the
workspace, that they added it: the file is then judged like the build's own, but only after a fresh
re-verification ran it, and a later change to it still voids every requirement.
"""

import pytest

from run_copies import cli, harness_run_in_process

HONEST_TEST = '''import pytest

from src import api_todo


@pytest.fixture
def client(make_client):
    return make_client(api_todo.router)


@pytest.mark.req("REQ-003")
def test_completing_twice_keeps_it_done(client):
    item_id = client.post("/api/todos", json={"title": "buy milk"}).json()["id"]
    assert client.post(f"/api/todos/{item_id}/complete").status_code == 200
    assert client.post(f"/api/todos/{item_id}/complete").status_code == 200
    assert client.get(f"/api/todos/{item_id}").json()["status"] == "done"
'''


@pytest.mark.slow
def test_an_honest_added_test_passes_once_adopted_bug(fresh_todo_run, tmp_path, capsys):
    store, run_id = fresh_todo_run
    added = store.workspace(run_id) / "tests" / "test_more.py"
    added.write_text(HONEST_TEST)
    proc = harness_run_in_process(run_id, store.base, tmp_path, capsys)
    assert proc.returncode == 1
    assert f"tests/test_more.py is not part of the build (no task owns it; if you added it: " \
           f"`builder adopt <run> tests/test_more.py`" in proc.stdout
    added.write_text(HONEST_TEST + "\n# the user's second version, never run yet\n")
    code, out, err = cli(capsys, "adopt", run_id, "tests/test_more.py", "--runs-dir", str(store.base))
    assert (code, err) == (0, "") and "adopted tests/test_more.py" in out and "nothing was run" in out
    assert store.load(run_id).adopted_files == ["tests/test_more.py"]
    code, out, _ = cli(capsys, "review", run_id, "--runs-dir", str(store.base))
    assert code == 1 and "tests/test_more.py changed after verification" in out, out  # adopting ran nothing
    proc = harness_run_in_process(run_id, store.base, tmp_path, capsys)
    assert proc.returncode == 0 and "HARNESS RUN PASS" in proc.stdout, proc.stdout[-3000:]
    evidence = store.read_workspace_evidence(run_id)
    nodeid = "tests/test_more.py::test_completing_twice_keeps_it_done"
    assert evidence["tests"][nodeid]["outcome"] == "passed"
    assert nodeid in evidence["requirements"]["REQ-003"]["tests"]
    added.write_text(HONEST_TEST + "\n# edited after the re-verification\n")
    code, out, _ = cli(capsys, "trace", run_id, "--runs-dir", str(store.base), "--fail-under", "100")
    assert code == 1 and "coverage: 0/4" in out and "evidence stale: tests/test_more.py" in out


@pytest.mark.slow
def test_an_adopted_failing_test_fails_its_requirement(fresh_todo_run, tmp_path, capsys):
    store, run_id = fresh_todo_run
    (store.workspace(run_id) / "tests" / "test_more.py").write_text(
        HONEST_TEST.replace('["status"] == "done"', '["status"] == "open"'))
    assert cli(capsys, "adopt", run_id, "tests/test_more.py", "--runs-dir", str(store.base))[0] == 0
    proc = harness_run_in_process(run_id, store.base, tmp_path, capsys)
    assert proc.returncode == 1 and "failing test marked REQ-003: tests/test_more.py::" in proc.stdout


@pytest.mark.parametrize("rel, says", [
    ("../state.json", "not inside the run's workspace"),
    ("/etc/passwd", "not inside the run's workspace"),
    ("tests/nothing_here.py", "not a regular file in the workspace"),
    ("src/main.py", "already part of the build (a task created it)"),
])
def test_adopt_refuses_what_is_not_an_added_workspace_file(fresh_todo_run, capsys, rel, says):
    store, run_id = fresh_todo_run
    before = store.load(run_id).model_dump()
    code, out, err = cli(capsys, "adopt", run_id, rel, "--runs-dir", str(store.base))
    assert code == 2 and out == "" and says in err and len(err.strip().splitlines()) == 1
    assert store.load(run_id).model_dump() == before


def test_adopt_refuses_a_symlink_out_of_the_workspace(fresh_todo_run, capsys, tmp_path):
    store, run_id = fresh_todo_run
    (tmp_path / "outside.py").write_text("x = 1\n")
    (store.workspace(run_id) / "tests" / "link.py").symlink_to(tmp_path / "outside.py")
    code, _, err = cli(capsys, "adopt", run_id, "tests/link.py", "--runs-dir", str(store.base))
    assert code == 2 and "tests/link.py" in err and store.load(run_id).adopted_files == []


def test_adopt_of_an_unknown_run_is_exit_4(tmp_path, capsys):
    code, _, err = cli(capsys, "adopt", "run_nope", "x.py", "--runs-dir", str(tmp_path))
    assert code == 4 and len(err.strip().splitlines()) == 1
