"""A workspace's pytest session takes its configuration from the workspace alone (pytest_root.py)."""

import json

import pytest

from harness.verification.pytest_root import owns_config, root_args
from harness.verification.verifier import command_argv, verify_task
from tests.test_verifier import PASSING, task


@pytest.mark.parametrize("name, text, owns", [
    ("pytest.ini", "", True),
    (".pytest.ini", "[pytest]\n", True),
    ("pytest.toml", "", True),
    ("pyproject.toml", "[tool.pytest.ini_options]\naddopts = '-q'\n", True),
    ("pyproject.toml", "[tool.pytest]\naddopts = ['-q']\n", True),
    ("pyproject.toml", "[project]\nname = 'app'\n", False),
    ("pyproject.toml", "[tool.pytest.ini_options\n", True),  # malformed: pytest reports it, not us
    ("tox.ini", "[pytest]\naddopts = -q\n", True),
    ("tox.ini", "[tox]\nenvlist = py311\n", False),
    ("setup.cfg", "[tool:pytest]\naddopts = -q\n", True),
    ("setup.cfg", "[metadata]\nname = app\n", False),
])
def test_which_files_make_a_workspace_own_its_pytest_config(tmp_path, name, text, owns):
    (tmp_path / name).write_text(text)
    assert owns_config(tmp_path, ["-q", "tests"]) is owns
    assert (root_args(tmp_path, []) == []) is owns


def test_a_config_in_a_test_directory_is_found_from_its_path_and_one_above_the_workspace_is_not(tmp_path):
    ws = tmp_path / "checkout" / "runs" / "ws"
    (ws / "tests" / "unit").mkdir(parents=True)
    (ws / "tests" / "unit" / "test_a.py").write_text("")
    (tmp_path / "checkout" / "pyproject.toml").write_text("[tool.pytest.ini_options]\naddopts = '-n 2'\n")
    assert not owns_config(ws, ["tests/unit/test_a.py::test_x", "-p", "pytest_harness.mutation_runner"])
    assert root_args(ws, []) == ["-c", "/dev/null", f"--rootdir={ws.resolve()}", f"--confcutdir={ws.resolve()}"]
    (ws / "tests" / "tox.ini").write_text("[pytest]\n")
    assert owns_config(ws, ["tests/unit/test_a.py::test_x"]) and not owns_config(ws, ["-q"])


def test_command_argv_pins_a_configless_workspace_and_leaves_one_with_its_own_ini(tmp_path):
    argv = command_argv("pytest -q tests", None, [], tmp_path)
    assert argv[argv.index("-c") + 1] == "/dev/null" and f"--confcutdir={tmp_path.resolve()}" in argv
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    argv = command_argv("pytest -q tests", None, [], tmp_path)
    assert "-c" not in argv and not any(a.startswith("--rootdir") for a in argv)
    assert command_argv("python -c 'print(1)'", None, [], tmp_path)[-1] == "print(1)"  # not pytest: untouched


@pytest.mark.slow
@pytest.mark.parametrize("sandbox, warm", [("none", "0"), ("none", "1"), ("auto", "1")])
def test_a_workspace_without_config_under_a_checkout_does_not_take_the_checkouts_pytest_config(
        tmp_path, monkeypatch, sandbox, warm):
    """Regression: with HARNESS_SANDBOX=none a workspace under runs/ of a harness checkout ran with
    the checkout's pyproject addopts (`-n auto`: exit 4, "unrecognized arguments"), its rootdir (the
    evidence snapshot listed the checkout's files) and its conftest.py."""
    checkout = tmp_path / "checkout"
    ws = checkout / "runs" / "run_x" / "workspace"
    (ws / "tests").mkdir(parents=True)
    (checkout / "pyproject.toml").write_text("[tool.pytest.ini_options]\naddopts = \"-n auto --dist loadscope\"\n")
    (checkout / "conftest.py").write_text("raise RuntimeError('the checkout conftest was loaded')\n")
    (checkout / "harness_file.py").write_text("X = 1\n")
    (ws / "tests" / "conftest.py").write_text(
        "def pytest_configure(config):\n    config.addinivalue_line('markers', 'req(id): requirement')\n")
    (ws / "tests" / "test_a.py").write_text(PASSING)
    monkeypatch.setenv("HARNESS_SANDBOX", sandbox)
    monkeypatch.setenv("HARNESS_WARM", warm)
    from harness.speed.runners import WarmRunner

    [result] = verify_task(task("python -m pytest -q tests/test_a.py"), ws, evidence_dir=tmp_path / "evidence",
                           reqs=["REQ-001"], runner=WarmRunner())
    assert (result.exit_code, result.status) == (0, "PASS"), result.stderr
    assert result.runner == ("warm" if warm == "1" else "cold")
    doc = json.loads((tmp_path / result.evidence_path).read_text())
    assert doc["requirements"]["REQ-001"]["status"] == "verified"
    assert set(doc["snapshot"]["files"]) == {"tests/conftest.py", "tests/test_a.py"}
