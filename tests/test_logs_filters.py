"""`builder logs --stage/--task` with a name the run doesn't have is a usage error, not an empty listing."""
from __future__ import annotations

from run_copies import cli


def test_logs_unknown_stage_printed_nothing_and_exit_0_bug(tmp_path, capsys) -> None:
    assert cli(capsys, "new", "hello", "--run-id", "h1", "--runs-dir", str(tmp_path))[0] == 1
    code, out, err = cli(capsys, "logs", "h1", "--stage", "nosuch", "--runs-dir", str(tmp_path))
    assert code == 2 and out == ""
    assert "--stage nosuch: run h1 has no events of that stage; its stages: run" in err
    code, _, err = cli(capsys, "logs", "h1", "--task", "TASK-009", "--runs-dir", str(tmp_path))
    assert code == 2 and "--task TASK-009: run h1 has no such task; its tasks: none" in err
    code, out, _ = cli(capsys, "logs", "h1", "--stage", "run", "--runs-dir", str(tmp_path))
    assert code == 0 and out.strip() and all(" run " in line for line in out.splitlines())
