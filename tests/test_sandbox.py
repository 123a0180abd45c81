"""LocalSandbox: the path jail (SandboxError on any escape) and the bounded subprocess runner."""

from __future__ import annotations

import os
import sys
import time
import uuid
from pathlib import Path

import pytest

from harness.errors import SandboxError
from harness.sandbox import ExecResult, LocalSandbox

PY = sys.executable


@pytest.fixture
def sb(tmp_path: Path) -> LocalSandbox:
    sandbox = LocalSandbox(tmp_path / "ws")
    sandbox.create_workspace("run_test0001")
    return sandbox


def _alive(pid: int) -> bool:
    """True while `pid` runs; a zombie counts as dead (this container's PID 1 never reaps orphans)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, IndexError):
        return False


def _gone_soon(pid: int, within_s: float = 3.0) -> bool:
    # Signal delivery is asynchronous: allow the kernel a moment to finish the kill.
    deadline = time.monotonic() + within_s
    while _alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


# ---- workspace and files ---------------------------------------------------------------------

def test_create_workspace_creates_and_returns_root(tmp_path: Path) -> None:
    root = tmp_path / "runs" / "run_x" / "workspace"
    assert LocalSandbox(root).create_workspace("run_x") == root
    assert root.is_dir()


def test_write_read_roundtrip_creates_parents(sb: LocalSandbox) -> None:
    path = sb.write_file("src/pkg/mod.py", "x = 'é'\n")
    assert path == sb.root / "src" / "pkg" / "mod.py"
    assert sb.read_file("src/pkg/mod.py") == "x = 'é'\n"
    assert sb.exists("src/pkg/mod.py") and not sb.exists("src/other.py")


def test_write_replaces_atomically_and_leaves_no_temp_files(sb: LocalSandbox) -> None:
    sb.write_file("a.txt", "one")
    sb.write_file("a.txt", "two")
    assert sb.read_file("a.txt") == "two"
    assert sorted(p.name for p in sb.root.iterdir()) == ["a.txt"]


def test_list_files_is_sorted_recursive_and_skips_caches(sb: LocalSandbox) -> None:
    for rel in ["src/main.py", "README.md", "tests/test_a.py", "src/__pycache__/main.cpython-311.pyc",
                "src/stale.pyc", ".pytest_cache/v/x", ".hypothesis/db", "tests/__pycache__/t.py"]:
        sb.write_file(rel, "")
    assert sb.list_files() == ["README.md", "src/main.py", "tests/test_a.py"]
    assert sb.list_files("src") == ["src/main.py"]
    assert sb.list_files("src/main.py") == ["src/main.py"]
    assert sb.list_files("missing") == []


def test_delete_file(sb: LocalSandbox) -> None:
    sb.write_file("src/x.py", "")
    sb.delete_file("src/x.py")
    assert not sb.exists("src/x.py")
    with pytest.raises(FileNotFoundError):
        sb.delete_file("src/x.py")


def test_read_missing_file_is_file_not_found(sb: LocalSandbox) -> None:
    with pytest.raises(FileNotFoundError):
        sb.read_file("nope.txt")


BAD_PATHS = ["../x.py", "src/../../x.py", "a/../b.py", "..", "/etc/passwd", "//etc/passwd",
             "\\windows\\x", "C:/x.py", "", "   ", "a\x00b.py", "src\\..\\..\\x.py"]


@pytest.mark.parametrize("rel", BAD_PATHS)
@pytest.mark.parametrize("op", ["read", "write", "delete", "exists", "resolve", "cwd"])
def test_illegal_paths_are_rejected(sb: LocalSandbox, tmp_path: Path, op: str, rel: str) -> None:
    calls = {
        "read": lambda: sb.read_file(rel),
        "write": lambda: sb.write_file(rel, "pwned"),
        "delete": lambda: sb.delete_file(rel),
        "exists": lambda: sb.exists(rel),
        "resolve": lambda: sb.resolve(rel),
        "cwd": lambda: sb.execute([PY, "-c", "pass"], cwd=rel),
    }
    with pytest.raises(SandboxError) as err:
        calls[op]()
    assert "\n" not in str(err.value)
    assert not (tmp_path / "x.py").exists() and not (tmp_path / "b.py").exists()


def test_error_message_names_the_path(sb: LocalSandbox) -> None:
    with pytest.raises(SandboxError, match=r"\.\./secret\.txt"):
        sb.read_file("../secret.txt")


def test_root_itself_is_not_a_file(sb: LocalSandbox) -> None:
    with pytest.raises(SandboxError):
        sb.write_file(".", "x")
    assert sb.resolve(".") == Path(os.path.realpath(sb.root))


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    secret_dir = tmp_path / "outside"
    secret_dir.mkdir()
    (secret_dir / "secret.txt").write_text("top secret")
    return secret_dir


def test_symlinked_file_escape_is_rejected_for_read_write(sb: LocalSandbox, outside: Path) -> None:
    (sb.root / "link.txt").symlink_to(outside / "secret.txt")
    with pytest.raises(SandboxError, match="link.txt"):
        sb.read_file("link.txt")
    with pytest.raises(SandboxError):
        sb.write_file("link.txt", "overwritten")
    with pytest.raises(SandboxError):
        sb.exists("link.txt")
    assert (outside / "secret.txt").read_text() == "top secret"
    assert (sb.root / "link.txt").is_symlink()
    assert sb.list_files() == []


def test_delete_file_removes_a_symlink_itself_not_its_target(sb: LocalSandbox, outside: Path) -> None:
    """#16: delete_file on a symlink to a host file unlinks the link and leaves the host file alone."""
    (sb.root / "link.txt").symlink_to(outside / "secret.txt")
    sb.delete_file("link.txt")
    assert not (sb.root / "link.txt").is_symlink()
    assert (outside / "secret.txt").read_text() == "top secret"


def test_symlinked_parent_dir_escape_is_rejected(sb: LocalSandbox, outside: Path) -> None:
    (sb.root / "linkdir").symlink_to(outside, target_is_directory=True)
    with pytest.raises(SandboxError):
        sb.read_file("linkdir/secret.txt")
    with pytest.raises(SandboxError):
        sb.write_file("linkdir/new.txt", "x")
    with pytest.raises(SandboxError):
        sb.write_file("linkdir/deeper/new.txt", "x")
    with pytest.raises(SandboxError):
        sb.delete_file("linkdir/secret.txt")
    with pytest.raises(SandboxError):
        sb.execute([PY, "-c", "pass"], cwd="linkdir")
    assert sorted(p.name for p in outside.iterdir()) == ["secret.txt"]


def test_dangling_symlink_to_outside_is_rejected_for_write(sb: LocalSandbox, outside: Path) -> None:
    (sb.root / "dangling.txt").symlink_to(outside / "not_yet.txt")
    with pytest.raises(SandboxError):
        sb.write_file("dangling.txt", "x")
    assert not (outside / "not_yet.txt").exists()


def test_symlink_inside_the_root_is_allowed(sb: LocalSandbox) -> None:
    sb.write_file("real.txt", "data")
    (sb.root / "alias.txt").symlink_to(sb.root / "real.txt")
    assert sb.read_file("alias.txt") == "data"
    sb.delete_file("alias.txt")
    assert sb.read_file("real.txt") == "data"


# ---- execute ---------------------------------------------------------------------------------

def test_execute_success_result_and_dict_access(sb: LocalSandbox) -> None:
    result = sb.execute(f"{PY} -c \"print('a b')\"")
    assert isinstance(result, ExecResult)
    assert result.ok and result.exit_code == 0 and not result.timed_out
    assert result["stdout"] == "a b\n" and result["stderr"] == ""
    assert set(dict(result)) >= {"exit_code", "stdout", "stderr", "duration_ms"}
    assert result.to_dict()["exit_code"] == 0
    with pytest.raises(KeyError):
        result["nope"]


def test_execute_failing_command_returns_data(sb: LocalSandbox) -> None:
    result = sb.execute([PY, "-c", "import sys; sys.stderr.write('boom'); sys.exit(3)"])
    assert result.exit_code == 3 and result.stderr == "boom" and not result.ok


def test_execute_never_uses_a_shell(sb: LocalSandbox) -> None:
    result = sb.execute("echo $HOME && echo hi; touch pwned")
    assert result.stdout == "$HOME && echo hi; touch pwned\n"
    assert not sb.exists("pwned")


def test_execute_command_not_found_is_127(sb: LocalSandbox) -> None:
    result = sb.execute("definitely-not-a-command-xyz --flag")
    assert result.exit_code == 127 and result.stderr == "command not found: definitely-not-a-command-xyz"


def test_execute_permission_denied_is_126(sb: LocalSandbox) -> None:
    sb.write_file("run.sh", "#!/bin/sh\necho hi\n")
    os.chmod(sb.resolve("run.sh"), 0o644)
    result = sb.execute("./run.sh")
    assert result.exit_code == 126 and "permission denied" in result.stderr


def test_execute_runs_in_jailed_cwd(sb: LocalSandbox) -> None:
    sb.write_file("sub/marker.txt", "")
    result = sb.execute([PY, "-c", "import os; print(sorted(os.listdir('.')))"], cwd="sub")
    assert result.stdout.strip() == "['marker.txt']"
    missing = sb.execute([PY, "-c", "pass"], cwd="nope")
    assert missing.exit_code == 2 and "working directory not found: nope" in missing.stderr


def test_execute_env_is_an_allowlist_plus_extra_env(sb: LocalSandbox, monkeypatch: pytest.MonkeyPatch) -> None:
    """#16: DATABASE_URL, SSH_AUTH_SOCK, webhook URLs passed a denylist scrub; only the allowlist passes now."""
    for name in ["OPENAI_API_KEY", "FOO_TOKEN", "X_SECRET", "MY_KEY", "DATABASE_URL", "SECRET",
                 "SSH_AUTH_SOCK", "SLACK_WEBHOOK_URL", "HARMLESS_SETTING"]:
        monkeypatch.setenv(name, "s3cr3t")
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    result = sb.execute([PY, "-c", "import os; print(sorted(os.environ))"], env={"APP_DB_PATH": "t.db"})
    names = set(eval(result.stdout))  # the child printed a list literal of names
    assert names <= {"PATH", "HOME", "TMPDIR", "LC_ALL", "LANG", "TERM", "TZ", "LANGUAGE", "APP_DB_PATH",
                     "PYTHONNOUSERSITE", "PWD", "HARNESS_SPAWN", "HARNESS_SCOPE", "HARNESS_ISOLATION"}
    assert {"APP_DB_PATH", "LC_ALL", "HOME", "TMPDIR"} <= names
    assert "s3cr3t" not in result.stdout


def test_execute_refuses_extra_env_outside_the_allowlist(sb: LocalSandbox) -> None:
    with pytest.raises(ValueError, match="DATABASE_URL"):
        sb.execute([PY, "-c", "pass"], env={"DATABASE_URL": "postgres://"})


def test_execute_output_keeps_the_last_4000_chars(sb: LocalSandbox) -> None:
    code = "import sys; print('H' * 6000 + 'TAIL'); sys.stderr.write('e' * 5000 + 'END')"
    result = sb.execute([PY, "-c", code])
    assert len(result.stdout) == 4000 and result.stdout.endswith("TAIL\n")
    assert len(result.stderr) == 4000 and result.stderr.endswith("END")


def test_execute_stdin_is_closed(sb: LocalSandbox) -> None:
    result = sb.execute([PY, "-c", "import sys; print(repr(sys.stdin.read()))"], timeout_s=10)
    assert result.ok and result.stdout.strip() == "''"


def _sleep_arg() -> str:
    """A unique `sleep` duration: the process is found on the host by its command line, not by a pid
    printed from inside a PID namespace."""
    return f"{1000 + uuid.uuid4().int % 10**6 / 1000:.3f}"


def _pids_running(arg: str) -> list[int]:
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                argv = Path(f"/proc/{name}/cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if arg.encode() in argv and _alive(int(name)):
                found.append(int(name))
    return found


def _none_left(arg: str, within_s: float = 3.0) -> bool:
    # Signal delivery is asynchronous: allow the kernel a moment to finish the kill.
    deadline = time.monotonic() + within_s
    while _pids_running(arg):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


GRANDCHILD = ("import subprocess, sys, time{extra}; "
              "p = subprocess.Popen(['sleep', '{arg}']); print('started', flush=True); time.sleep(30)")


@pytest.mark.slow
def test_timeout_kills_the_whole_process_group(sb: LocalSandbox) -> None:
    arg = _sleep_arg()
    start = time.monotonic()
    result = sb.execute([PY, "-c", GRANDCHILD.format(extra="", arg=arg)], timeout_s=1)
    assert result.timed_out and result.exit_code is None and not result.ok
    assert "timed out after 1s" in result.stderr
    assert 1000 <= result.duration_ms and time.monotonic() - start < 10
    assert result.stdout == "started\n" and _none_left(arg)


@pytest.mark.slow
def test_timeout_escalates_to_sigkill_when_sigterm_is_ignored(sb: LocalSandbox) -> None:
    arg = _sleep_arg()
    extra = ", signal; signal.signal(signal.SIGTERM, signal.SIG_IGN)"
    result = sb.execute([PY, "-c", GRANDCHILD.format(extra=extra, arg=arg)], timeout_s=0.5)
    assert result.timed_out and result.exit_code is None
    assert result.duration_ms < 5000  # timeout + ~1 s SIGTERM grace, not the child's 30 s
    assert _none_left(arg)


def test_background_grandchild_is_reaped_after_normal_exit(sb: LocalSandbox) -> None:
    arg = _sleep_arg()
    code = f"import subprocess; p = subprocess.Popen(['sleep', '{arg}']); print('started')"
    result = sb.execute([PY, "-c", code], timeout_s=10)
    assert result.ok and not result.timed_out and result.stdout == "started\n"
    assert _none_left(arg)


def test_bad_command_strings_return_data(sb: LocalSandbox) -> None:
    assert sb.execute("").exit_code == 127
    unbalanced = sb.execute("echo 'unclosed")
    assert unbalanced.exit_code == 2 and "invalid command" in unbalanced.stderr


def test_wait_returns_when_the_leader_exits_and_times_out_while_it_runs_without_reaping_it(tmp_path: Path):
    """SandboxProcess.wait (pidfd, since the eighth pass of #19): True once the leader exits, with
    its exit status still there for stop(); False after the timeout while it runs."""
    from harness.sandbox import runner

    ws = tmp_path / "ws"
    ws.mkdir()
    quick = runner.spawn([PY, "-c", "import sys; sys.exit(3)"], workspace=ws)
    assert quick.wait(60) is True and not quick.alive()
    assert quick.stop() == 3   # not reaped by wait: stop() still reads its exit code
    slow = runner.spawn([PY, "-c", "import signal; signal.pause()"], workspace=ws)   # runs until stopped
    try:
        assert slow.wait(0.2) is False and slow.alive()
    finally:
        slow.stop()
    assert not slow.alive()
