"""`builder --help` names exactly the commands that take --json (it listed three of seven)."""
from __future__ import annotations

import re

import pytest

from harness.cli import main


def _help(capsys, *argv: str) -> str:
    with pytest.raises(SystemExit):
        main([*argv, "--help"])
    return capsys.readouterr().out


def test_help_lists_every_command_that_takes_json_and_no_other_bug(capsys) -> None:
    top = " ".join(_help(capsys).split())
    named = re.search(r"piped\); (.*?) take --json", top).group(1)
    listed = set(re.findall(r"`(\w+)`", named))
    from harness.commands import COMMANDS
    takes = {c.name for c in COMMANDS if "--json" in _help(capsys, c.name)}
    assert listed == takes
