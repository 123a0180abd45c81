"""#46: a build generates every file twice (the worker is handed the later tasks' files when BUILD
starts, each task then generates its own); the generator's parse check runs once per distinct text."""

from __future__ import annotations

import pytest

from harness.offline.generator import app_files
from harness.offline.generator.units import generate_files
from harness.offline.spec import parse_request

TODO = "Build a Simple Todo App with add/list/complete"


def test_the_same_generated_text_is_parsed_once_and_gives_the_same_files():
    spec = parse_request(TODO)
    first = generate_files(spec)
    before = app_files._syntax_error.cache_info()
    again = generate_files(spec)
    after = app_files._syntax_error.cache_info()
    python = sum(1 for rel in again if rel.endswith(".py"))
    assert again == first
    assert after.misses == before.misses and after.hits - before.hits == python > 0


def test_a_memoized_check_still_refuses_text_that_does_not_parse(monkeypatch):
    monkeypatch.setattr(app_files, "_render", lambda app, path, reqs: "def broken(:\n")
    for _ in range(2):  # the second time from the memo: the same GeneratorError
        with pytest.raises(app_files.GeneratorError, match=r"generated requirements.txt|generated .*\.py does not parse \(line 1"):
            generate_files(parse_request(TODO))
