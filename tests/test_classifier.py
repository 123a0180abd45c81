"""classify() and locate(): table-driven, on real captured pytest output plus synthetic rows.

tests/data/pytest_outputs/*.txt were produced by running `python -m pytest -q` in throw-away
workspaces (pytest 9, pytest-timeout 2.4, Python 3.11); only the workspace and interpreter paths
were rewritten to /tmp/ws and /usr/lib/python3.11, and long tracebacks were cut to their tail.
Add one row per real-world miss.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from harness.models.enums import FailureType as F
from harness.sandbox import LocalSandbox
from harness.verification.classifier import classify, locate
from harness.verification.plugins import disable_args

DATA = Path(__file__).parent / "data" / "pytest_outputs"
WORKSPACE_FILES = ["src/__init__.py", "src/main.py", "src/models.py", "tests/test_main.py",
                   "tests/test_models.py"]


def load(name: str) -> tuple[str, str, int]:
    """(stdout, stderr, exit_code) of a captured run."""
    text = (DATA / f"{name}.txt").read_text()
    exit_code = int(re.search(r"^# exit_code: (-?\d+)$", text, re.M).group(1))
    stdout, stderr = text.split("--- stdout ---\n", 1)[1].split("\n--- stderr ---\n", 1)
    return stdout, stderr, exit_code


@pytest.mark.parametrize(("name", "expected"), [
    ("syntax_error_import", F.CODE_ERROR),  # collection error, not a test failure
    ("name_error", F.CODE_ERROR),           # NameError raised in app code called by a test
    ("module_not_found", F.DEPENDENCY_ERROR),
    ("local_module_missing", F.CODE_ERROR),  # decision: src.api_task missing = code to write
    ("assertion_failure", F.TEST_FAILURE),
    ("timeout", F.TIMEOUT),                  # pytest-timeout "Failed: Timeout (>1.0s)"
    ("no_tests", F.CONFIG_ERROR),            # exit 5
    ("file_not_found", F.CONFIG_ERROR),      # exit 4, usage error
    ("passing", None),
])
def test_classify_real_pytest_output(name: str, expected: F | None) -> None:
    stdout, stderr, exit_code = load(name)
    assert classify(stdout, stderr, exit_code) == expected


NPM_EAI = ("npm ERR! code EAI_AGAIN\nnpm ERR! errno EAI_AGAIN\nnpm ERR! request to "
           "https://registry.npmjs.org/react failed, reason: getaddrinfo EAI_AGAIN registry.npmjs.org\n")
PIP_OFFLINE = ("WARNING: Retrying (Retry(total=4)) after connection broken by 'NewConnectionError("
               "'<HTTPSConnection object at 0x7f>: Failed to establish a new connection: [Errno 101] "
               "Network is unreachable')': /simple/fastapi/\nERROR: Could not find a version that "
               "satisfies the requirement fastapi (from versions: none)\n"
               "ERROR: No matching distribution found for fastapi\n")
PYDANTIC = ("E   pydantic_core._pydantic_core.ValidationError: 1 validation error for Task\nE   title\n"
            "E     Field required [type=missing, input_value={}, input_type=dict]\n"
            "FAILED tests/test_models.py::test_task - pydantic_core._pydantic_core.ValidationError: 1 "
            "validation error for Task\n1 failed in 0.10s\n")
MYPY = ('src/main.py:12: error: Incompatible return value type (got "int", expected "str")  '
        "[return-value]\nFound 1 error in 1 file (checked 3 source files)\n")
PY_TRACE = 'Traceback (most recent call last):\n  File "/ws/src/main.py", line 3, in <module>\n    {0}\n{1}\n'

SYNTHETIC = [
    # stdout, stderr, exit_code, expected
    pytest.param("", NPM_EAI, 1, F.ENVIRONMENT_ERROR, id="env-eai-again"),
    pytest.param("", PIP_OFFLINE, 1, F.ENVIRONMENT_ERROR, id="env-network-unreachable-beats-dependency"),
    pytest.param("", "ERROR: HTTP error 503 while getting https://files.pythonhosted.org/x.whl", 1,
                 F.ENVIRONMENT_ERROR, id="env-http-503"),
    pytest.param("", "socket.gaierror: [Errno -3] Temporary failure in name resolution", 1,
                 F.ENVIRONMENT_ERROR, id="env-dns"),
    pytest.param("", "Could not fetch URL https://pypi.org/simple/x/: connection error", 1,
                 F.ENVIRONMENT_ERROR, id="env-could-not-fetch"),
    pytest.param("", "error: registry unavailable, try again later", 1, F.ENVIRONMENT_ERROR, id="env-registry"),
    pytest.param("", "npm ERR! code E404\nnpm ERR! 404 Not Found - GET https://registry.npmjs.org/reactt", 1,
                 F.DEPENDENCY_ERROR, id="dep-npm-404"),
    pytest.param("", "npm ERR! ERESOLVE could not resolve\nnpm ERR! Could not resolve dependency:", 1,
                 F.DEPENDENCY_ERROR, id="dep-npm-resolve"),
    pytest.param("", "ERROR: No matching distribution found for fastapi==99.0", 1,
                 F.DEPENDENCY_ERROR, id="dep-pip-version"),
    pytest.param("", "ImportError: cannot import name 'Annotated' from 'fastapi' (/x/site-packages/fastapi)", 1,
                 F.DEPENDENCY_ERROR, id="dep-third-party-import-name"),
    pytest.param("", PY_TRACE.format("import jwt", "ModuleNotFoundError: No module named 'jwt'"), 1,
                 F.DEPENDENCY_ERROR, id="dep-script-traceback"),
    pytest.param(MYPY, "", 1, F.TYPE_ERROR, id="type-mypy"),
    pytest.param(PYDANTIC, "", 1, F.TYPE_ERROR, id="type-pydantic-validation-error"),
    pytest.param("src/App.tsx(12,7): error TS2322: Type 'string' is not assignable to type 'number'.", "", 2,
                 F.TYPE_ERROR, id="type-ts2322"),
    pytest.param("", "error: Property 'foo' does not exist on type 'Props'.", 2, F.TYPE_ERROR,
                 id="type-property-does-not-exist"),
    pytest.param("", "TypeError: expected str, bytes or os.PathLike object, not NoneType", 1,
                 F.TYPE_ERROR, id="type-typeerror-expected"),
    pytest.param(MYPY + "NameError: name 'x' is not defined", "", 1, F.TYPE_ERROR, id="type-beats-code"),
    pytest.param("FAILED tests/test_a.py::test_add - TypeError: add() missing 1 required positional "
                 "argument: 'b'\n1 failed in 0.01s", "", 1, F.CODE_ERROR, id="decision-plain-typeerror-is-code"),
    pytest.param("E   AttributeError: 'NoneType' object has no attribute 'id'\n1 failed", "", 1,
                 F.CODE_ERROR, id="decision-attributeerror-is-code"),
    pytest.param("", PY_TRACE.format("  x = 1", "IndentationError: unexpected indent"), 1,
                 F.CODE_ERROR, id="code-indentation"),
    pytest.param("", "ReferenceError: foo is not defined\n    at Object.<anonymous> (/ws/src/a.js:3:1)", 1,
                 F.CODE_ERROR, id="code-js-reference-error"),
    pytest.param("src/App.tsx(4,1): error TS1005: ';' expected.", "", 2, F.CODE_ERROR,
                 id="decision-ts1xxx-is-code"),
    pytest.param("E   ImportError: cannot import name 'Todo' from 'src.models' (/ws/src/models.py)", "", 2,
                 F.CODE_ERROR, id="decision-local-import-name-is-code"),
    pytest.param("E   SyntaxError: invalid syntax\nE   ModuleNotFoundError: No module named 'jwt'", "", 2,
                 F.DEPENDENCY_ERROR, id="dependency-beats-code"),
    pytest.param("____ ERROR collecting tests/test_a.py ____\ntests/test_a.py:3: in <module>\n"
                 "E   KeyError: 'APP_DB_PATH'\n!!! Interrupted: 1 error during collection !!!", "", 2,
                 F.CODE_ERROR, id="decision-collection-error-is-code"),
    pytest.param("____ ERROR collecting tests/test_a.py ____\nE   ModuleNotFoundError: No module named "
                 "'src'", "", 2, F.CONFIG_ERROR, id="collection-error-workspace-not-on-path-is-config"),
    pytest.param("E   ModuleNotFoundError: No module named 'src'", "", 2, F.CONFIG_ERROR,
                 id="decision-workspace-not-on-path-is-config"),
    pytest.param("", "ERROR:    [Errno 98] error while attempting to bind on address ('127.0.0.1', 8000): "
                 "address already in use", 1, F.CONFIG_ERROR, id="config-address-in-use"),
    pytest.param("", "Error: listen EADDRINUSE: port 3000 already in use", 1, F.CONFIG_ERROR,
                 id="config-port-in-use"),
    pytest.param("", "command not found: npm", 127, F.CONFIG_ERROR, id="config-sandbox-command-not-found"),
    pytest.param("", "bash: line 1: npm: command not found", 127, F.CONFIG_ERROR, id="config-bash-127"),
    pytest.param("", "", 127, F.CONFIG_ERROR, id="config-exit-127-silent"),
    pytest.param("", "permission denied: ./run.sh", 126, F.CONFIG_ERROR, id="config-exit-126"),
    pytest.param("", "ERROR: Could not open requirements file: [Errno 2] No such file or directory: "
                 "'requirements.txt'", 1, F.CONFIG_ERROR, id="config-requirements-file"),
    pytest.param("3 deselected in 0.01s", "", 5, F.CONFIG_ERROR, id="config-all-deselected"),
    pytest.param("", "ERROR: usage: pytest [options]\npytest: error: unrecognized arguments: --bogus", 4,
                 F.CONFIG_ERROR, id="config-pytest-usage"),
    pytest.param("E   assert 1 == 2\nFAILED tests/t.py::t - assert 1 == 2\n", "address already in use", 1,
                 F.CONFIG_ERROR, id="config-beats-test-failure"),
    pytest.param("FAIL tests/app.test.js\n  adds 1 + 2\nTests: 1 failed, 1 total", "", 1,
                 F.TEST_FAILURE, id="test-jest"),
    pytest.param("FAILED tests/test_api.py::test_create - KeyError: 'id'\n1 failed in 0.2s", "", 1,
                 F.TEST_FAILURE, id="test-generic-exception"),
    pytest.param("ERROR tests/test_api.py::test_list - sqlite3.OperationalError: no such table", "", 1,
                 F.TEST_FAILURE, id="test-setup-error"),
    pytest.param("FAILED tests/test_syntax_error.py::test_shown[NameError] - assert 1 == 2\n"
                 "1 failed", "", 1, F.TEST_FAILURE, id="guard-exception-names-in-test-ids"),
    pytest.param("    with pytest.raises(NameError):\n    except ImportError:\n>       assert f() == 1\n"
                 "E   assert 0 == 1\nFAILED tests/t.py::t - assert 0 == 1", "", 1,
                 F.TEST_FAILURE, id="guard-echoed-source"),
    pytest.param("", "subprocess.TimeoutExpired: Command '['sleep', '5']' timed out after 1 seconds", 1,
                 F.TIMEOUT, id="timeout-text"),
    pytest.param("+++++++++++++++++++ Timeout +++++++++++++++++++\n1 failed", "", 1, F.TIMEOUT,
                 id="timeout-pytest-timeout-thread"),
    pytest.param("", "error: something went wrong", 1, F.UNKNOWN, id="guard-bare-error-word-unknown"),
    pytest.param("", "Segmentation fault", -11, F.UNKNOWN, id="unknown-signal"),
    pytest.param("1 xfailed, 1 passed, FAILED earlier", "", 0, None, id="exit-0-is-success"),
]


@pytest.mark.parametrize(("stdout", "stderr", "exit_code", "expected"), SYNTHETIC)
def test_classify_table(stdout: str, stderr: str, exit_code: int, expected: F | None) -> None:
    assert classify(stdout, stderr, exit_code) == expected


def test_timeout_flags_win_over_everything() -> None:
    stdout, stderr, _ = load("syntax_error_import")
    assert classify(stdout, stderr, None, timed_out=True) is F.TIMEOUT
    assert classify("", "", 0, timed_out=True) is F.TIMEOUT
    assert classify(stdout, stderr, 1, duration_ms=120_000, timeout_s=120) is F.TIMEOUT
    assert classify(stdout, stderr, 1, duration_ms=119_999, timeout_s=120) is F.CODE_ERROR


LOCATE_REAL = [
    ("syntax_error_import", {"file": "src/main.py", "line": 4, "summary": "SyntaxError: invalid syntax"}),
    ("name_error", {"file": "src/main.py", "line": 2, "summary": "NameError: name 'itmes' is not defined"}),
    ("module_not_found", {"file": "src/models.py", "line": 1,
                          "summary": "ModuleNotFoundError: No module named 'sqlalchemy'"}),
    ("assertion_failure", {"file": "tests/test_main.py", "line": 6, "summary": "AssertionError: assert -1 == 5"}),
    ("timeout", {"file": "src/main.py", "line": 4, "summary": "Failed: Timeout (>1.0s) from pytest-timeout."}),
    ("no_tests", {}),
    ("passing", {}),
]


@pytest.mark.parametrize(("name", "expected"), LOCATE_REAL)
@pytest.mark.parametrize("files", [None, WORKSPACE_FILES])
def test_locate_real_pytest_output(name: str, expected: dict, files: list[str] | None) -> None:
    stdout, stderr, _ = load(name)
    assert locate(stdout, stderr, files) == expected


def test_locate_maps_absolute_paths_to_known_workspace_files() -> None:
    stderr = PY_TRACE.format("main()", "") + (
        '  File "/home/u/runs/run_1/workspace/src/app/core.py", line 9, in main\n    return x\n'
        "NameError: name 'x' is not defined\n")
    assert locate("", stderr, ["src/app/core.py", "src/main.py"]) == {
        "file": "src/app/core.py", "line": 9, "summary": "NameError: name 'x' is not defined"}


def test_locate_skips_frames_outside_the_workspace() -> None:
    stderr = ('Traceback (most recent call last):\n  File "/ws/src/main.py", line 7, in <module>\n'
              '  File "/usr/lib/python3.11/site-packages/fastapi/app.py", line 99, in f\n'
              '  File "/ws/src/not_listed.py", line 5, in g\n'
              "ValueError: bad\n")
    assert locate("", stderr, ["src/main.py"]) == {"file": "src/main.py", "line": 7, "summary": "ValueError: bad"}


def test_locate_mypy_and_tsc_lines() -> None:
    assert locate(MYPY, "") == {"file": "src/main.py", "line": 12, "summary":
                                'error: Incompatible return value type (got "int", expected "str")  [return-value]'}
    tsc = "src/App.tsx(12,7): error TS2322: Type 'string' is not assignable to type 'number'."
    assert locate(tsc, "")["file"] == "src/App.tsx" and locate(tsc, "")["line"] == 12


def test_locate_unknown_is_empty() -> None:
    assert locate("", "") == {}
    assert locate("1 failed", "boom", ["src/main.py"]) == {}
    site_only = 'File "/usr/lib/python3.11/site-packages/x.py", line 3\nKeyError: 1'
    assert locate(site_only, "") == {}


@pytest.mark.slow
def test_live_syntax_error_run_classifies_as_code_error(tmp_path: Path) -> None:
    """Guards the captured fixtures against drift in the installed pytest's output format."""
    sb = LocalSandbox(tmp_path / "ws")
    sb.write_file("pytest.ini", "[pytest]\npythonpath = .\n")
    sb.write_file("src/__init__.py", "")
    sb.write_file("src/main.py", "def broken(:\n    pass\n")
    sb.write_file("tests/test_main.py", "from src.main import broken\n\ndef test_x():\n    assert broken\n")
    # the foreign plugins off as the verifier has them (hypothesis's imports hypothesis at the end: ~1-2 s)
    result = sb.execute([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:harness",
                         *disable_args("")],
                        env={"PYTHONDONTWRITEBYTECODE": "1"}, timeout_s=60)
    assert result.exit_code == 2
    assert classify(result.stdout, result.stderr, result.exit_code) is F.CODE_ERROR
    assert locate(result.stdout, result.stderr, sb.list_files())["file"] == "src/main.py"


def test_syntax_error_is_located_in_the_broken_module_not_the_importing_test():
    """Regression: locate() named tests/test_health.py (pytest's location line) for a SyntaxError in src/main.py."""
    from pathlib import Path

    text = (Path(__file__).parent / "data" / "pytest_outputs" / "syntax_error_via_test_import.txt").read_text()
    where = locate(text, "", ["src/main.py", "tests/test_health.py", "tests/conftest.py"])
    assert where["file"] == "src/main.py" and where["line"] == 37
    assert classify(text, "", 1) == F.CODE_ERROR
