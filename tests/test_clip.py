"""Quoted clause text on the terminal is shortened visibly (bug: not-built lines cut at 80 characters
mid-word with no sign: "…overdue tracking and late fe", ", CSV export" silently dropped)."""

from __future__ import annotations

from harness.trace.coverage import format_coverage
from harness.utils.clip import clip


def test_short_text_is_kept_on_one_line():
    assert clip("add  todos\nwith dates") == "add todos with dates"


def test_not_built_line_cut_mid_word_gets_an_ellipsis_at_a_word_boundary():
    text = "Librarians manage book loans with due dates, renewal limits, overdue tracking and late fees"
    out = clip(text)
    assert out == "Librarians manage book loans with due dates, renewal limits, overdue tracking…"
    assert len(out) <= 80


def test_a_word_longer_than_half_the_limit_is_cut_inside_it():
    assert clip("x" * 200, 20) == "x" * 19 + "…"


def test_coverage_line_shows_the_cut():
    clause = ("Dashboard with totals per Day/Week/Month, Filter/Search by category and date range, CSV export")
    cov = {"recorded": True, "built": 1, "asking": 2, "not_built": [{"text": clause, "reason": "not built offline"}],
           "failing": [], "notes": []}
    line = format_coverage(cov)
    assert '…" (not built offline)' in line and "CSV ex\"" not in line
