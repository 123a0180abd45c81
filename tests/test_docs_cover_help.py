"""Every command and flag that `--help` shows is documented in the README or under docs/.

The README is kept short (what it is, the quickstart, the commands, the evidence principle in brief,
links); the reference lives in docs/. A new flag with no word in either fails here.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from harness.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent
README_MAX_LINES = 300


def _documentation() -> str:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    return "\n".join(page.read_text(encoding="utf-8") for page in pages)


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:  # argparse keeps subcommands here; no public accessor
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _builder_flags() -> list[tuple[str, str]]:
    pairs = []
    for name, sub in sorted(_subparsers(build_parser()).items()):
        pairs.append((name, name))
        for action in sub._actions:
            for flag in action.option_strings:
                if flag.startswith("--") and flag != "--help":
                    pairs.append((name, flag))
    return pairs


def _plugin_flags() -> list[str]:
    from pytest_harness import settings

    source = (ROOT / "pytest_harness" / "plugin.py").read_text(encoding="utf-8")
    flags = re.findall(r'addoption\(\s*"(--harness-[a-z-]+)"', source)
    flags += [opt.flag for opt in settings.OPTIONS] if hasattr(settings, "OPTIONS") else []
    return sorted(set(flags))


@pytest.mark.parametrize("command,flag", _builder_flags())
def test_builder_help_flag_is_documented(command, flag):
    docs = _documentation()
    if flag == command:
        assert f"builder {command}" in docs, f"`builder {command}` is in --help but in no doc page"
    else:
        assert flag in docs, f"`builder {command} {flag}` is in --help but in no doc page"


def test_plugin_flags_are_documented():
    docs = _documentation()
    flags = _plugin_flags()
    assert "--harness-run" in flags   # the scan finds the plugin's options at all
    missing = [flag for flag in flags if flag not in docs]
    assert not missing, f"plugin options in --help but in no doc page: {missing}"


def test_readme_is_short_and_links_exist():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= README_MAX_LINES
    for target in re.findall(r"\]\((docs/[^)#]+)", readme):
        assert (ROOT / target).is_file(), f"README links to a missing page: {target}"
