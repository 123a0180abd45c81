"""#16 commands are data: which verification commands a plan may contain."""

from __future__ import annotations

import pytest

from harness.agents.planner import fallback_plan, parse_plan
from harness.offline.spec.rules import rule_based_spec
from harness.sandbox.commands import command_problem
from harness.validation.plan_validator import validate_plan

ALLOWED = [
    "pytest -q", "pytest", "python -m pytest -q tests/test_models.py", "python3 -m pytest -x -q tests",
    "pytest -q tests/test_api.py::test_create", "pytest -k 'create and not delete' -q", "pytest --tb=short -q",
    "pytest --maxfail 1 -q", "pytest --timeout=30 -q", "python -m py_compile src/main.py src/models.py",
    "python -m compileall -q src",
]
REFUSED = [
    ("python -c \"open('x','w').write(__import__('os').popen('id').read())\"", "only pytest"),
    ("sh -c 'id > x'", "only pytest"), ("bash", "only pytest"), ("curl http://x", "only pytest"),
    ("python -m http.server", "not an allowed checker"), ("python -m pip install evil", "not an allowed checker"),
    ("python tests/test_x.py", "only pytest"), ("pytest -p evil_plugin", "'-p' is not allowed"),
    ("pytest -c /tmp/evil.ini", "'-c' is not allowed"), ("pytest --rootdir=/", "'--rootdir' is not allowed"),
    ("pytest -o addopts=-pevil", "'-o' is not allowed"), ("pytest /etc", "not a relative workspace path"),
    ("pytest ../other/tests", "escapes the workspace"), ("pytest --tb=$(id)", "shell syntax"),
    ("python -m py_compile", "needs the files"), ("python -m py_compile /etc/passwd", "not a relative"),
    ("pytest 'unclosed", "cannot be parsed"), ("", "empty command"),
]


@pytest.mark.parametrize("command", ALLOWED)
def test_vetted_commands_are_accepted(command):
    assert command_problem(command) is None


@pytest.mark.parametrize("command,why", REFUSED)
def test_anything_else_is_refused_with_the_reason(command, why):
    assert why in (command_problem(command) or "")


def test_llm_plan_with_a_non_pytest_command_is_a_plan_validation_error_naming_the_command():
    """#16: `python -c "open(...).write(os.popen('id').read())"` in an LLM plan ran and the build said COMPLETE."""
    spec = rule_based_spec("a todo app")
    plan = fallback_plan(spec)
    assert validate_plan(plan.tasks, spec) == []
    evil = "python -c \"open('pwned','w').write(__import__('os').popen('id').read())\""
    plan.tasks[0].verification = [evil]
    errors = validate_plan(plan.tasks, spec)
    assert any(evil in e and "refused" in e and plan.tasks[0].id in e for e in errors)
    with pytest.raises(ValueError, match="verification command"):
        parse_plan(plan.model_dump_json(), spec)


@pytest.mark.parametrize("command,op", [
    ("python -m pytest -q tests/test_a.py && rm -rf src", "&&"),
    ("pytest -q tests/ | tee out.txt", "|"),
    ("pytest -q $(cat list.txt)", "$("),
    ("pytest -q tests/test_a.py; echo done", ";"),
    ("pytest -q `ls tests`", "`"),
    ("pytest -q tests/ > log.txt", ">"),
    ("pytest -q tests/test_a.py&&true", "&&"),
])
def test_shell_syntax_is_refused_with_a_reason(command, op):
    """#50: `&&`, `|` and `$( )` passed validation as pytest arguments (harmless without a shell,
    but a plan that relies on them is wrong and should be told so)."""
    why = command_problem(command)
    assert why is not None and why.startswith(f"shell syntax {op!r} is not allowed") and "without a shell" in why


def test_pytest_selection_expressions_are_still_accepted():
    assert command_problem('python -m pytest -q -k "create and not delete" -m "not slow" tests/test_api.py') is None
