"""JUnit XML: each linked test carries its requirement ids as `<property name="requirement">`.

Registered when `--junitxml` is given; the ids travel in `item.user_properties`, which pytest's
junitxml writer reads from the test reports (so they also arrive from pytest-xdist workers).
"""

from __future__ import annotations

import re

import pytest

from pytest_harness import evidence

PROPERTY = "requirement"


def requirement_properties(marks: list[tuple[tuple, dict]], nodeid: str, pattern: re.Pattern) -> list[tuple[str, str]]:
    """(PROPERTY, id) pairs for the well-formed ids of a test's `req` markers, sorted and unique."""
    ids: set[str] = set()
    for args, kwargs in marks:
        found, _ = evidence.check_marker(nodeid, args, kwargs, pattern)
        ids.update(found)
    return [(PROPERTY, rid) for rid in sorted(ids)]


class JUnitProperties:
    """Adds requirement properties to the selected items once collection is final."""

    def __init__(self, pattern: re.Pattern) -> None:
        self.pattern = pattern

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        """Runs after collection and deselection: tag every linked item."""
        for item in session.items:
            marks = [(mark.args, mark.kwargs) for mark in item.iter_markers(name="req")]
            for prop in requirement_properties(marks, item.nodeid, self.pattern):
                if prop not in item.user_properties:
                    item.user_properties.append(prop)
