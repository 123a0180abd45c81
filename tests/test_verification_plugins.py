"""A workspace's pytest session loads the plugins of what it declares, not the harness's dev tools."""

from __future__ import annotations

import pytest

from harness.verification.plugins import dependency_closure, disable_args, foreign_plugins
from harness.verification.verifier import command_argv, verify_task
from harness.models import Task

STACK = "fastapi>=0.110\nuvicorn>=0.27\nhttpx>=0.27\npytest>=8\n"


def test_the_harness_dev_plugins_are_off_for_a_fastapi_workspace_and_its_own_stack_stays_on():
    off = foreign_plugins(STACK)
    assert {"xdist", "hypothesispytest"} <= set(off)       # dev extras of the harness (pyproject [dev])
    assert "anyio" not in off                               # fastapi -> starlette -> anyio
    assert "harness" not in off and "timeout" not in off    # the two plugins verification drives


def test_a_declared_plugin_distribution_keeps_its_plugin():
    assert "hypothesispytest" not in foreign_plugins(STACK + "hypothesis>=6\n")
    assert not {"xdist", "xdist.looponfail"} & set(foreign_plugins(STACK + "pytest-xdist\n"))


def test_without_requirements_only_the_harness_plugins_stay():
    assert "anyio" in foreign_plugins("") and "harness" not in foreign_plugins("")


def test_the_closure_follows_required_distributions_but_not_optional_extras():
    closure = dependency_closure(frozenset({"fastapi"}))
    assert {"fastapi", "starlette", "anyio", "pydantic"} <= closure
    assert "uvicorn" not in closure                          # only fastapi[standard] pulls it in


def test_verification_argv_disables_exactly_the_foreign_plugins(tmp_path):
    (tmp_path / "requirements.txt").write_text(STACK)
    argv = command_argv("pytest -q", None, [], tmp_path)
    assert " ".join(disable_args(STACK)) in " ".join(argv)
    assert "no:anyio" not in argv and "no:xdist" in argv


@pytest.mark.slow
@pytest.mark.parametrize("declared", [False, True])
def test_the_session_really_loads_xdist_only_when_the_workspace_declares_it(tmp_path, declared):
    ws = tmp_path / "ws"
    (ws / "tests").mkdir(parents=True)
    (ws / "requirements.txt").write_text(STACK + ("pytest-xdist>=3\n" if declared else ""))
    (ws / "tests" / "test_p.py").write_text(
        "def test_p(request):\n"
        f"    assert request.config.pluginmanager.hasplugin('xdist') is {declared}\n")
    [result] = verify_task(Task(id="TASK-001", description="t", files_touched=["tests/test_p.py"],
                                requirements=[], verification=["pytest -q"]), ws)
    assert result.status == "PASS", result.stdout + result.stderr
