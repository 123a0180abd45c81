"""Pure failure classification and localisation of command output (SPEC M5).

`classify` checks categories in a fixed precedence and returns the first that matches:
TIMEOUT > ENVIRONMENT_ERROR > DEPENDENCY_ERROR > TYPE_ERROR > CODE_ERROR > CONFIG_ERROR >
TEST_FAILURE > UNKNOWN. Exception names only match where Python/pytest print an exception
(`Name:` or a line ending in `Name`), so a test called `test_syntax_error` or source echoed in a
traceback (`raise NameError(...)`) does not count.

Decisions beyond SPEC (each pinned by a row in tests/test_classifier.py):
- `TypeError: ... expected ...` is TYPE_ERROR; any other TypeError is CODE_ERROR, as is
  AttributeError/UnboundLocalError/TabError (bugs in the code, not in a test's expectation).
- An import error naming a workspace module (`src.x`, `tests.x`) is CODE_ERROR (a missing or
  broken local module); `No module named 'src'` itself is CONFIG_ERROR (workspace not on path);
  any other missing module is DEPENDENCY_ERROR.
- TypeScript `error TS2xxx` (semantic) is TYPE_ERROR, `error TS1xxx` (syntax) is CODE_ERROR.
- A pytest collection error (`ERROR collecting x.py`) with no more specific cause is CODE_ERROR:
  the module or the code it imports cannot even be loaded.
- Exit codes 126/127 (not executable / command not found) are CONFIG_ERROR; pytest exit 5 (no
  tests ran) and pytest usage errors are CONFIG_ERROR.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from harness.models.enums import FailureType

LOCAL_PACKAGES = ("src", "tests")
_M = re.MULTILINE
_I = re.IGNORECASE | re.MULTILINE


def _exc(*names: str) -> re.Pattern[str]:
    """An exception name as printed in a traceback/pytest report (not in echoed source)."""
    alt = "|".join(names)
    return re.compile(rf"(?<!except )(?<!except \()\b(?:{alt})(?=:|[ \t]*$)", _M)


_TIMEOUT = [
    re.compile(r"\btimed out\b", re.I),
    re.compile(r"\bTimeoutExpired\b"),
    re.compile(r"\+{3,} Timeout \+{3,}"),
    re.compile(r"Failed: Timeout\b|Timeout \(>[\d.]+s\) from pytest-timeout"),
]

_ENVIRONMENT = [
    re.compile(r"\b(?:EAI_AGAIN|ENOTFOUND|ENETUNREACH|ECONNRESET)\b"),
    re.compile(r"registry (?:is )?unavailable", re.I),
    re.compile(r"network is unreachable", re.I),
    re.compile(r"\bHTTP(?: error)? 503\b|503 Service Unavailable", re.I),
    re.compile(r"could not fetch\b", re.I),
    re.compile(r"temporary failure in name resolution|name or service not known", re.I),
    re.compile(r"failed to establish a new connection", re.I),
    re.compile(r"^.*(?:registry|pypi|npmjs|pythonhosted|index-url).*connection refused.*$"
               r"|^.*connection refused.*(?:registry|pypi|npmjs|pythonhosted).*$", _I),
]

_DEPENDENCY = [
    re.compile(r"could not resolve dependenc", re.I),
    re.compile(r"npm ERR! (?:404|code E404)|\bERESOLVE\b"),
    re.compile(r"No matching distribution found for|Could not find a version that satisfies"),
    re.compile(r"\b(?:DistributionNotFound|PackageNotFoundError)\b"),
    re.compile(r"Cannot find module '[^./][^']*'"),
]

_TYPE = [
    re.compile(r"^\S+\.pyi?:\d+: error: .*\[[\w-]+\]\s*$", _M),  # mypy
    re.compile(r"^Found \d+ errors? in \d+ files? \(checked", _M),  # mypy summary
    _exc(r"(?:\w+\.)*ValidationError"),
    re.compile(r"\bTypeError: .*\bexpected\b"),
    re.compile(r"\berror TS2\d{3}\b"),
    re.compile(r"Property '[^']+' does not exist"),
]

_CODE = [
    _exc("SyntaxError", "IndentationError", "TabError", "NameError", "UnboundLocalError",
         "ReferenceError", "TypeError", "AttributeError"),
    re.compile(r"\berror TS1\d{3}\b"),
]

_CONFIG = [
    re.compile(r"missing configuration|invalid path configuration", re.I),
    re.compile(r"missing pyproject|pyproject\.toml.{0,40}(?:not found|does not exist|missing)"
               r"|does not appear to be a python project", re.I),
    re.compile(r"requirements file not found|could not open requirements file", re.I),
    re.compile(r"address already in use|port \S{0,20} ?(?:is )?already in use|\bEADDRINUSE\b", re.I),
    re.compile(r"command not found|working directory not found", re.I),
    re.compile(r"file or directory not found|^ERROR: usage:|unrecognized arguments", _I),
    re.compile(r"\bno tests ran\b|\bcollected 0 items\b", re.I),
]

_TEST = [
    re.compile(r"\bAssertionError\b"),
    re.compile(r"^FAILED\b|^ERROR \S+::", _M),
    re.compile(r"\b\d+ failed\b"),
    re.compile(r"^FAIL\s+\S+", _M),
    re.compile(r"^E\s+assert\b", _M),
]

_COLLECT_ERROR = re.compile(r"^_+ ERROR collecting \S+ _+$", _M)
_IMPORT_LINE = re.compile(
    r"^(?![\s>]*except\b).*(?:\b(?:ModuleNotFoundError|ImportError):|No module named ).*$", _M)
_QUOTED_MODULE = re.compile(r"'([\w.]+)'")


def _import_failures(text: str) -> tuple[bool, bool, bool]:
    """(third-party, local module, workspace root) import failures found in `text`."""
    third = local = root = False
    for line in _IMPORT_LINE.findall(text):
        modules = _QUOTED_MODULE.findall(line)
        tops = {m.split(".")[0] for m in modules}
        if tops & set(LOCAL_PACKAGES):
            if any(m in LOCAL_PACKAGES for m in modules) and "No module named" in line:
                root = True
            else:
                local = True
        else:
            third = True
    return third, local, root


def _any(patterns: Iterable[re.Pattern[str]], text: str) -> bool:
    return any(p.search(text) for p in patterns)


def classify(stdout: str, stderr: str, exit_code: int | None, timed_out: bool = False,
             duration_ms: int = 0, timeout_s: float | None = None) -> FailureType | None:
    """The FailureType of a command's outcome, or None when it succeeded (exit 0, no timeout)."""
    if exit_code == 0 and not timed_out:
        return None
    if timed_out or (timeout_s is not None and timeout_s > 0 and duration_ms >= timeout_s * 1000):
        return FailureType.TIMEOUT
    text = f"{stdout or ''}\n{stderr or ''}"
    third, local, root = _import_failures(text)
    checks: list[tuple[FailureType, Callable[[], bool]]] = [
        (FailureType.TIMEOUT, lambda: _any(_TIMEOUT, text)),
        (FailureType.ENVIRONMENT_ERROR, lambda: _any(_ENVIRONMENT, text)),
        (FailureType.DEPENDENCY_ERROR, lambda: third or _any(_DEPENDENCY, text)),
        (FailureType.TYPE_ERROR, lambda: _any(_TYPE, text)),
        (FailureType.CODE_ERROR, lambda: local or _any(_CODE, text)
         or (not root and bool(_COLLECT_ERROR.search(text)))),
        (FailureType.CONFIG_ERROR, lambda: root or exit_code in (126, 127) or _any(_CONFIG, text)
         or (exit_code == 5 and bool(re.search(r"deselected", text)))),
        (FailureType.TEST_FAILURE, lambda: _any(_TEST, text)),
    ]
    for failure_type, matches in checks:
        if matches():
            return failure_type
    return FailureType.UNKNOWN


# ---- localisation ----------------------------------------------------------------------------

_FRAMES = [
    re.compile(r'File "(?P<path>[^"]+)", line (?P<line>\d+)'),
    re.compile(r"^(?:E\s+)?(?P<path>[^\s:\"'()<>]+\.(?:py|pyi|js|jsx|mjs|cjs|ts|tsx)):(?P<line>\d+):"
               r"(?:[ \t]+(?P<trailer>[^\n]*))?$", _M),
    re.compile(r"^(?P<path>[^\s(]+\.tsx?)\((?P<line>\d+),\d+\): (?P<trailer>error[^\n]*)$", _M),
    re.compile(r"\((?P<path>/[^\s():]+\.(?:js|mjs|cjs|jsx|ts|tsx)):(?P<line>\d+):\d+\)"),
]
_EXC_LINE = re.compile(
    r"^(?:E\s+)?(?P<summary>(?:[A-Za-z_]\w*\.)*(?:[A-Z]\w*(?:Error|Exception|Exit|Interrupt)|Failed)"
    r"(?::[^\n]*)?)$", _M)
_SYNTAX = re.compile(r"^(?:E\s+)?(SyntaxError|IndentationError|TabError)\b", _M)
_NOT_WORKSPACE = ("site-packages", "dist-packages", "/lib/python", "<", "node_modules")
_SUMMARY_MAX = 300


def _to_workspace(path: str, workspace_files: list[str] | None) -> str | None:
    """Map a frame path to a workspace-relative POSIX path, or None if it is not ours."""
    p = path.replace("\\", "/")
    if any(marker in p for marker in _NOT_WORKSPACE):
        return None
    if p.startswith("./"):
        p = p[2:]
    if workspace_files is not None:
        for known in sorted(workspace_files, key=len, reverse=True):
            if p == known or p.endswith("/" + known):
                return known
        return None
    if not p.startswith("/"):
        return None if p.startswith("..") else p
    parts = p.split("/")
    for i in range(len(parts) - 1, 0, -1):
        if parts[i] in LOCAL_PACKAGES and i < len(parts) - 1:
            return "/".join(parts[i:])
    return None


def _e_block_before(text: str, offset: int) -> list[str]:
    """The pytest `E   ...` lines just before `offset` (blank lines skipped), in order."""
    lines = text[:offset].splitlines()
    i = len(lines) - 1
    while i >= 0 and not lines[i].strip():
        i -= 1
    block: list[str] = []
    while i >= 0 and (lines[i].startswith("E ") or lines[i] == "E"):
        block.append(lines[i][1:].strip())
        i -= 1
    return [line for line in reversed(block) if line]


def _summary(text: str, match: re.Match[str]) -> str:
    trailer = (match.groupdict().get("trailer") or "").strip()
    if trailer.startswith("error"):
        return trailer
    if trailer and not trailer.startswith("in ") and re.fullmatch(r"[\w.]+", trailer):
        block = _e_block_before(text, match.start())
        for line in block:
            if line.startswith(trailer) or line.split(":")[0].endswith(trailer):
                return line
        return f"{trailer}: {block[0]}" if block else trailer
    after = _EXC_LINE.search(text, match.end())
    if after:
        return after.group("summary").strip()
    before = [m for m in _EXC_LINE.finditer(text, 0, match.start())]
    return before[-1].group("summary").strip() if before else ""


def locate(stdout: str, stderr: str, workspace_files: list[str] | None = None) -> dict:
    """{"file", "line", "summary"} for the innermost frame that is a workspace file, else {}.

    Frames: `File "...", line N`, pytest `path.py:N: ...`, mypy `path.py:N: error: ...`, tsc
    `path.ts(N,C): error ...`. Without `workspace_files`, relative paths count as workspace files
    and absolute ones are cut at their last `src/` or `tests/` component.
    """
    text = f"{stdout or ''}\n{stderr or ''}"
    frames = sorted((m for pattern in _FRAMES for m in pattern.finditer(text)), key=lambda m: m.start())
    candidates = [frames]
    if _SYNTAX.search(text):
        # A SyntaxError's real location is the `File "...", line N` Python printed for it; pytest's
        # own `test_x.py:N: SyntaxError` line only names the test that imported the broken module.
        candidates.insert(0, [m for m in frames if m.re is _FRAMES[0]])
    for group in candidates:
        for match in reversed(group):
            rel = _to_workspace(match.group("path"), workspace_files)
            if rel is None:
                continue
            summary = _summary(text, match)
            return {"file": rel, "line": int(match.group("line")), "summary": summary[:_SUMMARY_MAX]}
    return {}
