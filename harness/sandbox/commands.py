"""Verification commands are data: a plan may ask for pytest or a compile check, nothing else.

Accepted: `pytest ARGS` / `python -m pytest ARGS` with vetted options and test paths inside the
workspace, `python -m py_compile FILES`, `python -m compileall [-q] PATHS`. Options that load
code or move pytest's configuration (-p, -c, -o, --rootdir, --confcutdir, --pyargs …) are refused,
and so is shell syntax (`&&`, `|`, `;`, `$( )`, backticks, redirections): commands run without a
shell, so these would only reach pytest as odd arguments — refused with the reason instead.
"""

from __future__ import annotations

import re
import shlex
from pathlib import PurePosixPath

PYTHONS = ("python", "python3")
PYTEST_FLAGS = frozenset({"-q", "-qq", "-v", "-vv", "-x", "-s", "-l", "-ra", "-rA", "--quiet", "--verbose",
                          "--exitfirst", "--no-header", "--strict-markers", "--disable-warnings", "--lf", "--ff"})
PYTEST_VALUED = frozenset({"--tb", "-k", "-m", "--maxfail", "--timeout", "--durations"})
COMPILEALL_FLAGS = frozenset({"-q"})
_VALUE = {"--tb": re.compile(r"(auto|long|short|line|native|no)"), "--maxfail": re.compile(r"\d{1,4}"),
          "--timeout": re.compile(r"\d{1,4}(\.\d+)?"), "--durations": re.compile(r"\d{1,3}")}


def path_problem(path: str) -> str | None:
    """Why `path` is not a relative path inside the workspace (a pytest node id is allowed)."""
    file_part = path.split("::", 1)[0]
    if not file_part or file_part.startswith(("/", "-")) or "\\" in file_part or "\x00" in file_part:
        return "not a relative workspace path"
    if ".." in PurePosixPath(file_part).parts:
        return "path escapes the workspace (..)"
    return None


def _pytest_problem(args: list[str]) -> str | None:
    i = 0
    while i < len(args):
        arg = args[i]
        name, eq, value = arg.partition("=")
        if arg in PYTEST_FLAGS:
            i += 1
            continue
        if name in PYTEST_VALUED:
            if not eq:
                if i + 1 >= len(args):
                    return f"option {name} needs a value"
                value, i = args[i + 1], i + 1
            if name in _VALUE and not _VALUE[name].fullmatch(value):
                return f"bad value {value!r} for {name}"
            i += 1
            continue
        if arg.startswith("-"):
            return f"option {arg.split('=')[0]!r} is not allowed"
        if (why := path_problem(arg)) is not None:
            return f"{arg!r}: {why}"
        i += 1
    return None


def _module_problem(module: str, args: list[str]) -> str | None:
    if module == "pytest":
        return _pytest_problem(args)
    if module in ("py_compile", "compileall"):
        flags = COMPILEALL_FLAGS if module == "compileall" else frozenset()
        paths = [a for a in args if a not in flags]
        if not paths:
            return f"{module} needs the files to check"
        for a in paths:
            if a.startswith("-"):
                return f"option {a!r} is not allowed"
            if (why := path_problem(a)) is not None:
                return f"{a!r}: {why}"
        return None
    return f"module {module!r} is not an allowed checker (pytest, py_compile, compileall)"


_SHELL = ("&&", "||", "$(", "`", "|", ";", ">", "<", "&")


def shell_syntax(argv: list[str]) -> str | None:
    """The first shell operator in the words of a command, or None."""
    for word in argv:
        for op in _SHELL:
            if op in word:
                return op
    return None


def command_problem(command: str) -> str | None:
    """Why `command` may not run as a verification command, or None when it may."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        return f"cannot be parsed ({exc})"
    if not argv:
        return "empty command"
    known = argv[0] == "pytest" or (argv[0] in PYTHONS and len(argv) >= 3 and argv[1] == "-m")
    if known and (op := shell_syntax(argv)) is not None:
        return (f"shell syntax {op!r} is not allowed: commands run without a shell; list each command "
                f"separately in verification")
    if argv[0] == "pytest":
        return _pytest_problem(argv[1:])
    if argv[0] in PYTHONS and len(argv) >= 3 and argv[1] == "-m":
        return _module_problem(argv[2], argv[3:])
    return "only pytest, python -m pytest, python -m py_compile and python -m compileall may run"
