"""Stranger trial 2026-12-07j e02: "Tasks can be marked done, but a done task cannot be reopened."
stopped at the spec stage with "no data entity recognized in the request; name what the app
manages" — although it names tasks. The clause is not built ("reopened"), so no clause at all was
built and the pass "unasked entities dropped" took `task` for a noun naming the kind of product. A
record the request acts on (a status, a feature or a rule said of it) is asked for and stays."""

from __future__ import annotations

import pytest

from harness.errors import SpecError
from harness.offline.spec.rules import rule_based_parse


@pytest.mark.parametrize("request_text", ["Tasks can be marked done, but a done task cannot be reopened.",
                                          "Tasks can be marked done but not reopened."])
def test_a_record_acted_on_in_an_unbuilt_clause_is_kept_bug(request_text):
    p = rule_based_parse(request_text)
    assert p.entities == ["task"] and [a.status for a in p.accounts] == ["not_built"]


def test_a_noun_naming_the_product_is_still_no_record():
    with pytest.raises(SpecError, match="no data entity recognized"):
        rule_based_parse("Build an online 3D room planner with furniture drag and drop.")
