"""The dev set's specs are identical to the golden files (tests/spec_golden.py says the canonical
form and how to regenerate them after a change of behaviour made on purpose)."""

from __future__ import annotations

import pytest

from tests.spec_golden import GOLDEN, current_text, main, request_ids


def test_every_request_has_a_golden_file():
    assert request_ids() and sorted(p.stem for p in GOLDEN.glob("*.json")) == request_ids()


@pytest.mark.parametrize("request_id", request_ids())
def test_spec_matches_golden(request_id):
    stored = (GOLDEN / f"{request_id}.json").read_text(encoding="utf-8")
    assert current_text(request_id) == stored, (
        f"{request_id}: the parser's spec changed; if on purpose, run "
        "`python -m tests.spec_golden --write` and say why in the commit")


def test_regeneration_command_rejects_unknown_arguments(capsys):
    assert main(["--force"]) == 2
    assert capsys.readouterr().err.strip() == "usage: python -m tests.spec_golden [--write]"
