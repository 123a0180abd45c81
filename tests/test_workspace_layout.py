"""harness.utils.workspace_layout: the one list of what every tool skips when it walks a workspace."""
from __future__ import annotations

from harness.utils.workspace_layout import role, workspace_files


def test_workspace_files_skips_caches_environments_and_vcs_at_any_depth(tmp_path) -> None:
    for rel in ("src/main.py", "tests/test_a.py", ".venv/lib/x.py", "src/__pycache__/m.cpython-311.pyc",
                ".git/HEAD", "node_modules/a/index.js", "src/m.pyc", "sub/.pytest_cache/v"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x")
    assert workspace_files(tmp_path) == ["src/main.py", "tests/test_a.py"]


def test_list_files_of_the_sandbox_uses_the_same_skip_rules(tmp_path) -> None:
    from harness.sandbox import LocalSandbox
    for rel in ("src/main.py", ".venv/lib/x.py", ".git/HEAD", "src/m.pyc"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x")
    assert LocalSandbox(tmp_path).list_files() == workspace_files(tmp_path) == ["src/main.py"]


def test_every_path_has_exactly_one_role() -> None:
    assert [role(p) for p in ("tests/test_a.py", "tests/conftest.py", "src/main.py", "requirements.txt")] == [
        "test", "config", "implementation", "config"]
