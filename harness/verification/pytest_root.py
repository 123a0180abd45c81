"""A workspace's pytest session is configured by the workspace alone.

Without a configuration file of its own, pytest walks up from the test paths and takes the first
one it finds above: under bubblewrap nothing above the workspace is visible, but with the fallback
sandbox (`HARNESS_SANDBOX=none`, or no bwrap) a workspace under `runs/` of a harness checkout took
the checkout's `pyproject.toml` — its addopts (`-n auto`: "unrecognized arguments"), its rootdir
(the evidence plugin snapshotting the whole checkout) and its `conftest.py`. A workspace with no
configuration of its own gets `-c /dev/null --rootdir=<ws> --confcutdir=<ws>`: what bubblewrap's
view gives, in every sandbox and in both runners.
"""

from __future__ import annotations

import configparser
import os
import tomllib
from pathlib import Path

# pytest 9's search order (_pytest.config.findpaths); the first three kinds count when present.
ALWAYS = ("pytest.toml", ".pytest.toml", "pytest.ini", ".pytest.ini")


def _is_pytest_config(path: Path) -> bool:
    """Would pytest take this file as its configuration? An unreadable or malformed candidate
    counts: pytest reports it itself, and that error is the workspace's to see."""
    if path.name in ALWAYS:
        return True
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return True
    if path.name == "pyproject.toml":
        try:
            tool = tomllib.loads(text).get("tool", {})
        except tomllib.TOMLDecodeError:
            return True
        return isinstance(tool, dict) and "pytest" in tool
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read_string(text)
    except configparser.Error:
        return True
    return parser.has_section("pytest" if path.name == "tox.ini" else "tool:pytest")


def _has_config(directory: Path) -> bool:
    names = (*ALWAYS, "pyproject.toml", "tox.ini", "setup.cfg")
    return any((directory / n).is_file() and _is_pytest_config(directory / n) for n in names)


def _start_dirs(workspace: Path, args: list[str]) -> list[Path]:
    """The workspace directories pytest starts its search from: each test path that exists in the
    workspace (a file's directory), or the workspace itself."""
    starts = []
    for arg in args:
        if arg.startswith("-"):
            continue
        path = (workspace / arg.split("::", 1)[0]).resolve()
        if path.exists() and path.is_relative_to(workspace):
            starts.append(path if path.is_dir() else path.parent)
    return starts or [workspace]


def owns_config(workspace: Path, args: list[str]) -> bool:
    """Does pytest find a configuration file inside the workspace, searching from `args` up?"""
    ws = workspace.resolve()
    for start in _start_dirs(ws, args):
        for directory in (start, *start.parents):
            if _has_config(directory):
                return True
            if directory == ws:
                break
    return False


def root_args(workspace: Path, args: list[str]) -> list[str]:
    """Nothing for a workspace with its own configuration; else the flags that keep pytest in it."""
    if owns_config(workspace, args):
        return []
    ws = str(workspace.resolve())
    return ["-c", os.devnull, f"--rootdir={ws}", f"--confcutdir={ws}"]
