"""#52: the report of a failed run gave no reason on its first screen and showed its clauses with a
green "mapped" — a failed run looked fine at a glance. Now a red box right under the title says why
it failed (the run's error, failed tasks, requirements with what is missing) and "mapped" is a
neutral badge beside the clause's actual result; checked in headless Chromium at two widths on
what the first screen (the viewport) shows."""

from __future__ import annotations

import pytest
from test_report_page import CHROMIUM, _chromium, _data, needs_chromium

from harness.report.page import render_page

FAILBOX_BORDER = (0xC6, 0x28, 0x28)   # .failbox in harness/report/html_parts.py
REASON = "black-box: acceptance check failed: complete a todo and read it back"


def _failed_run() -> dict:
    data = _data()
    data["run"]["error"] = "review FAIL: 1 of 2 requirements did not pass"
    data["run"]["request"] = "Build a Simple Todo App with add/list/complete " * 6
    data["matrix"]["requirements"][0]["status"] = "FAIL"
    data["matrix"]["passed"] = 0
    data["statuses"] = {"TASK-001": "COMPLETED", "TASK-002": "FAILED"}
    data["requirement_reports"] = {"REQ-001": {"status": "FAIL", "missing": [REASON], "tests": {}, "commands": []}}
    return data


def test_a_failed_run_says_why_right_under_its_title_and_mapped_is_not_green_bug():
    page = render_page(_failed_run())
    assert 'class="badge ok" data-status="mapped"' not in page          # before: a green "mapped"
    assert 'class="badge info" data-status="mapped"' in page
    box = page.index('id="why-failed"')
    assert page.index("<h1>") < box < page.index('id="request"') < page.index("<table")
    reasons = page[box:page.index("</section>", box)]
    assert "error: review FAIL: 1 of 2 requirements did not pass" in reasons
    assert f"REQ-001 FAIL: {REASON}" in reasons and "TASK-002 FAILED" in reasons
    clause_row = page[page.index("<td>C-001</td>"):page.index("</tr>", page.index("<td>C-001</td>"))]
    assert 'data-status="FAIL"' in clause_row                              # the clause's result


def test_a_passing_run_has_no_failure_box():
    data = _data()
    data["run"]["status"] = "PASS"
    assert 'id="why-failed"' not in render_page(data)


@needs_chromium
@pytest.mark.parametrize("width", [1280, 390])
def test_the_failure_reason_is_on_the_first_screen_in_headless_chromium(tmp_path, width):
    from png_pixels import rows

    page = tmp_path / "report.html"
    page.write_text(render_page(_failed_run()), encoding="utf-8")
    dom = _chromium(tmp_path, page, "--dump-dom").stdout
    assert "Why this run failed" in dom and REASON in dom
    shot = tmp_path / f"first-screen-{width}.png"
    _chromium(tmp_path, page, f"--window-size={width},700", f"--screenshot={shot}")
    pixels = rows(shot)
    assert len(pixels) == 700 and CHROMIUM
    border = [y for y, line in enumerate(pixels) if sum(1 for p in line if p == FAILBOX_BORDER) > width // 4]
    assert border and border[0] < 350, f"the failure box's top edge is not on the first screen: {border[:3]}"
