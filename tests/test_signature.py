"""normalize() and failure_signature(): the same failure hashes the same across runs and dirs."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from harness.sandbox import LocalSandbox
from harness.verification.signature import failure_signature, normalize

DATA = Path(__file__).parent / "data" / "pytest_outputs"
CMD = "python -m pytest -q"


def load(name: str) -> tuple[str, str, int]:
    """(stdout, stderr, exit_code) of a captured run (see test_classifier.py)."""
    text = (DATA / f"{name}.txt").read_text()
    exit_code = int(re.search(r"^# exit_code: (-?\d+)$", text, re.M).group(1))
    stdout, stderr = text.split("--- stdout ---\n", 1)[1].split("\n--- stderr ---\n", 1)
    return stdout, stderr, exit_code


@pytest.mark.parametrize(("raw", "expected"), [
    ("FAILED Tests/X.py", "failed tests/x.py"),
    ("at 2024-05-01T12:00:03.123Z and 2024-05-01 12:00:03,5 then 09:15:02", "at <ts> and <ts> then <ts>"),
    ("object at 0x7f3a2b1c", "object at <hex>"),
    ("rootdir: /tmp/pytest-of-u/pytest-3/ws", "rootdir: <path>"),
    ("/runs/run_ab12cd34/workspace/src/main.py:3", "<path>/main.py:#"),
    ("run_ab12cd34 trace 1b4e28ba-2fa1-11d2-883f-0016d3cca427", "run_<id> trace <id>"),
    ('File "/tmp/pytest-of-u/pytest-3/x0/ws/src/main.py", line 12', 'file "<path>/main.py", line #'),
    ("--harness-evidence=/work/runs/run_1/evidence/TASK-001.json", "--harness-evidence=<path>/task-#.json"),
    ("tests/test_main.py:12: in <module>", "tests/test_main.py:#: in <module>"),
    ("1 failed in 0.12s", "# failed in #.#s"),
    ("12 failed in 104.5s", "# failed in #.#s"),
    ("==== 1 failed ========", "=== # failed ==="),
    ("_ _ _ _ _ _ _", "___"),
    ("a \t\n\n  b  ", "a b"),
    ("https://pypi.org/simple/x/", "https://pypi.org/simple/x/"),
    ("", ""),
])
def test_normalize_table(raw: str, expected: str) -> None:
    assert normalize(raw) == expected


def test_signature_is_a_sha256_hex_and_deterministic() -> None:
    sig = failure_signature(CMD, 1, "boom")
    assert re.fullmatch(r"[0-9a-f]{64}", sig) and sig == failure_signature(CMD, 1, "boom")


def test_different_failures_have_different_signatures() -> None:
    sigs = {name: failure_signature(CMD, 1, load(name)[1], stdout=load(name)[0])
            for name in ["syntax_error_import", "name_error", "assertion_failure", "module_not_found"]}
    assert len(set(sigs.values())) == len(sigs)


def test_same_error_with_a_different_exit_code_differs() -> None:
    stdout, stderr, _ = load("name_error")
    assert failure_signature(CMD, 1, stderr, stdout) != failure_signature(CMD, 2, stderr, stdout)
    assert failure_signature(CMD, 1, "x") != failure_signature(CMD, None, "x")


def test_command_is_part_of_the_signature_after_normalisation() -> None:
    assert failure_signature(CMD, 1, "x") != failure_signature(CMD + " tests/test_a.py", 1, "x")
    a = failure_signature("/usr/bin/python3 -m pytest --harness-evidence=/a/runs/r1/ev-1.json", 1, "x")
    b = failure_signature("/opt/py/bin/python3 -m pytest --harness-evidence=/b/long/runs/r2/ev-2.json", 1, "x")
    assert a == b


def test_only_the_last_2000_normalized_chars_count() -> None:
    tail = "\n".join(f"E   line {word}" for word in ["alpha", "beta", "gamma"] * 80)
    assert len(normalize(tail)) > 2000
    early_a = "x" * 500 + " /tmp/aaa/bbb/prefix.py\n"
    early_b = "y" * 900 + " /home/someone/else/prefix.py\n"
    assert failure_signature(CMD, 1, early_a + tail) == failure_signature(CMD, 1, early_b + tail)
    assert failure_signature(CMD, 1, tail + "\nextra") != failure_signature(CMD, 1, tail)


def test_error_text_uses_stdout_when_stderr_is_empty() -> None:
    assert failure_signature(CMD, 1, "", stdout="E NameError") != failure_signature(CMD, 1, "", stdout="E KeyError")


def _run_failing_pytest(workdir: Path) -> tuple[str, int | None, str, str]:
    sb = LocalSandbox(workdir)
    sb.write_file("pytest.ini", "[pytest]\npythonpath = .\n")
    sb.write_file("src/__init__.py", "")
    sb.write_file("src/main.py", "def total(items):\n    return sum(i for i in itmes)\n")
    sb.write_file("tests/test_main.py", "from src.main import total\n\n"
                  "def test_total():\n    assert total([1]) == 1\n\ndef test_ok():\n    assert True\n")
    # The command names the absolute workspace path, as the verifier's evidence flag does.
    # -p no:hypothesispytest: that plugin imports all of hypothesis at the end of a session (~1-2 s here)
    command = (f"{sys.executable} -m pytest -p no:cacheprovider -p no:harness -p no:hypothesispytest "
               f"--rootdir={sb.root}")
    result = sb.execute(command, env={"PYTHONDONTWRITEBYTECODE": "1"}, timeout_s=60)
    return command, result.exit_code, result.stderr, result.stdout


@pytest.mark.slow
def test_same_failure_in_two_dirs_has_the_same_signature(tmp_path: Path) -> None:
    first = _run_failing_pytest(tmp_path / "a")
    second = _run_failing_pytest(tmp_path / "a_much_longer_workspace_directory" / "nested")
    assert first[1] == second[1] == 1
    assert str(tmp_path / "a") in first[3]  # the raw outputs really differ
    assert first[3] != second[3]
    assert failure_signature(*first[:3], stdout=first[3]) == failure_signature(*second[:3], stdout=second[3])
