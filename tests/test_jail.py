"""#16 jail without races: descriptors + O_NOFOLLOW, hard links refused, every reader jailed."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from types import SimpleNamespace

import pytest

from harness.agents.builder_context import read as context_read
from harness.errors import SandboxError
from harness.models.tasks import Task
from harness.orchestration.steps import file_hashes
from harness.orchestration.repair import missing_files
from harness.sandbox import LocalSandbox


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    (root / "src").mkdir(parents=True)
    (root / "src" / "models.py").write_text("x = 1\n")
    (tmp_path / "host").mkdir()
    (tmp_path / "host" / "secret.txt").write_text("HOST SECRET")
    return root


def test_a_hard_link_to_a_host_file_is_never_read(ws: Path, tmp_path: Path) -> None:
    os.link(tmp_path / "host" / "secret.txt", ws / "src" / "linked.py")
    with pytest.raises(SandboxError, match="hard links"):
        LocalSandbox(ws).read_file("src/linked.py")
    assert LocalSandbox(ws).read_if_file("src/linked.py") is None


def test_repair_and_context_readers_do_not_follow_a_symlink_swapped_in_by_a_test(ws: Path, tmp_path: Path) -> None:
    """#16: repair read the failing file with read_text, so a symlink to a host file reached the model."""
    (ws / "src" / "models.py").unlink()
    (ws / "src" / "models.py").symlink_to(tmp_path / "host" / "secret.txt")
    task = Task(id="TASK-001", description="models", requirements=["REQ-001"], files_touched=["src/models.py"],
                verification=["pytest -q"])
    ctx = SimpleNamespace(workspace=ws)
    assert missing_files(ctx, task) == ["src/models.py"]   # treated as missing, never read
    assert file_hashes(ctx, task.files_touched) == {}
    assert context_read(ws, "src/models.py") is None


def test_a_directory_swapped_for_a_symlink_mid_read_never_escapes(ws: Path, tmp_path: Path) -> None:
    """Check-then-use race: a test flips src/ between a real directory and a symlink to the host."""
    real, parked, outside = ws / "src", ws / "src_real", tmp_path / "host"
    (outside / "models.py").write_text("HOST SECRET")
    stop = threading.Event()

    def flip() -> None:
        while not stop.is_set():
            os.rename(real, parked)
            os.symlink(outside, real)
            os.unlink(real)
            os.rename(parked, real)

    flipper = threading.Thread(target=flip)
    flipper.start()
    seen = set()
    try:
        for _ in range(2000):
            try:
                seen.add(LocalSandbox(ws).read_file("src/models.py"))
            except (SandboxError, FileNotFoundError):
                seen.add("refused")
    finally:
        stop.set()
        flipper.join()
    assert "HOST SECRET" not in seen and seen <= {"x = 1\n", "refused"}


def test_jail_race_notadirectoryerror_a_dir_that_became_a_symlink_is_refused_not_raised(tmp_path: Path) -> None:
    """CI bug: O_DIRECTORY|O_NOFOLLOW on a symlink fails with ENOTDIR (not ELOOP); that escaped as a bare OSError."""
    from harness.sandbox import jail
    (tmp_path / "host").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "host")
    (tmp_path / "file").write_text("x")
    root = os.open(tmp_path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for name in ("link", "file"):
            with pytest.raises(SandboxError, match="changed while being resolved"):
                jail._open_dir(name, root, f"{name}/models.py")
    finally:
        os.close(root)


def test_jail_race_einval_a_symlink_that_became_a_directory_before_readlink_is_refused(tmp_path: Path, monkeypatch) -> None:
    """CI bug: stat saw a symlink, the swap put the directory back, readlink raised a bare EINVAL OSError."""
    from harness.sandbox import jail
    ws = tmp_path / "ws"
    (ws / "src").mkdir(parents=True)
    (ws / "src" / "models.py").write_text("x = 1\n")
    real_stat = os.stat

    def stat_sees_a_symlink(name, *a, **kw):
        st = real_stat(name, *a, **kw)
        if name == "src":
            return os.stat_result((0o120777,) + tuple(st)[1:])
        return st
    monkeypatch.setattr(jail.os, "stat", stat_sees_a_symlink)
    with pytest.raises(SandboxError, match="changed while being resolved"):
        LocalSandbox(ws).read_file("src/models.py")
