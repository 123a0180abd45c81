"""A run that ended BUILD FAILED at the spec stage ("hello") is judged as failed, not as corrupt.

Bug (stranger walkthrough): status said "read the Missing lines above … builder review", review and
trace answered exit 3 ("has no spec yet; builder resume continues it"), and the report said the spec
records no clauses and to run `builder review` — a loop with no way out.
"""
from __future__ import annotations

from run_copies import cli

from harness.orchestration.reverify import reverify_run
from harness.errors import HarnessError, RunDataError
import pytest


@pytest.fixture
def hello_run(tmp_path, capsys):
    code, out, _ = cli(capsys, "new", "hello", "--run-id", "hello1", "--runs-dir", str(tmp_path))
    assert code == 1 and "BUILD FAILED at the spec stage" in out
    return tmp_path


def test_judging_a_spec_stage_failure_said_corrupt_exit_3_bug(hello_run, capsys) -> None:
    for command in ("review", "trace", "audit"):
        code, out, err = cli(capsys, command, "hello1", "--runs-dir", str(hello_run))
        assert code == 1, (command, out, err)
        assert "run hello1 ended BUILD FAILED at the spec stage: nothing was built to judge" in out + err
        assert "builder resume" not in out + err


def test_harness_run_of_a_spec_stage_failure_is_a_failure_not_damage(hello_run) -> None:
    with pytest.raises(HarnessError) as err:
        reverify_run("hello1", hello_run, say=lambda _l: None)
    assert not isinstance(err.value, RunDataError) and err.value.exit_code == 1


def test_status_of_a_spec_stage_failure_points_at_a_new_request(hello_run, capsys) -> None:
    code, out, _ = cli(capsys, "status", "hello1", "--runs-dir", str(hello_run))
    assert code == 0
    assert "next step: nothing was built" in out and "Missing lines" not in out


def test_report_of_a_spec_stage_failure_says_nothing_was_built(hello_run, capsys) -> None:
    code, out, _ = cli(capsys, "report", "hello1", "--runs-dir", str(hello_run))
    assert code == 0, out
    page = (hello_run / "hello1" / "report.html").read_text()
    assert "BUILD FAILED at the spec stage: nothing was built" in page
    assert "run `builder review`" not in page and "records no request clauses" not in page
