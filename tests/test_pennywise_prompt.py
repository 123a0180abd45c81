"""The Pennywise build prompt (theaiinternship.com), verbatim: the offline spec builds four of its
five asks and its generated app's whole suite passes — e-mail accounts, the listed fields as asked
(no invented display name), choices in any letter case, newest first, kept after a restart."""

from __future__ import annotations

import pytest

from harness.offline.generator import generate_files
from harness.offline.spec.rules import rule_based_spec
from helpers import write_files
from warm_suites import suites  # noqa: F401  (module-scoped fixture)

PENNYWISE = (
    "Build a personal expense tracker called Pennywise. Email and password login for a single user. The user "
    "can add an expense with an amount, a category (Food, Transport, Bills, Shopping, Fun, Other), a date, and "
    "an optional note, and see a list of all their expenses, newest first, with the option to edit or delete "
    "each one. Save all expenses so they persist after refresh and login. Calm, premium design: warm cream "
    "background, one terracotta accent color, generous spacing, rounded cards, clean sans-serif.")


@pytest.mark.slow
def test_the_pennywise_prompt_builds_what_it_asks_offline_and_its_suite_passes(suites):  # noqa: F811
    spec = rule_based_spec(PENNYWISE)
    assert (spec.title, spec.auth, spec.login) == ("Pennywise", True, "email")
    fields = {f.ident: (f.kind, f.required) for f in spec.entity("expense").fields}
    assert fields == {"amount": ("money", True), "category": ("enum", True), "date": ("date", True),
                      "note": ("long_text", False)}
    assert {f.kind for f in spec.features} == {"newest_first", "persistence"}
    assert [c.status for c in spec.clauses] == ["mapped"] * 4 + ["not_built"]   # the visual design
    ws = write_files(generate_files(spec), suites.base / "pennywise")
    whole = suites.run(ws, "-q", "-p", "no:cacheprovider")
    assert whole.exit_code == 0, whole.stdout[-3000:]
    assert " passed" in whole.stdout and "failed" not in whole.stdout
