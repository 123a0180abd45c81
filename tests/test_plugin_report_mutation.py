"""#52: the plugin's HTML report shows the mutation audit when `--harness-mutate` ran — a folded block
under the verdict (the bar, each requirement's kill ratio), and in each requirement's folded entry
its figures and every surviving mutant with file, line and diff. Before, the page had no trace of the
audit (only the weak reason). From a real session (tests/seats_project.py, REQ-002's test made one
that never looks at the days: its line's boundary and arithmetic mutants both survive), read in
headless Chromium like tests/test_plugin_report_page.py."""

from __future__ import annotations

import html
import re

import pytest
from seats_project import make_project, mutate
from test_plugin_report_page import CHROMIUM, _chromium, needs_chromium

from pytest_harness import report_html

DIFF = "-    return list(range(start, start + days))\n+    return list(range(start, start + days - 1))"


def _visible_requirements(dom: str) -> list[str]:
    return [re.search(r'id="req-([^"]+)"', tag)[1] for tag in re.findall(r'<details class="req[^>]*>', dom)
            if " hidden" not in tag]


def _entry(dom: str, rid: str) -> str:
    return dom.split(f'id="req-{rid}"', 1)[1].split("</details>", 1)[0]


def test_no_mutation_block_without_the_audit():
    from test_plugin_report_page import _document

    page = report_html.render_html(_document())
    assert 'id="mutation"' not in page and "Mutation audit" not in page


@pytest.mark.slow
@needs_chromium
def test_the_report_shows_kill_ratios_bar_and_survivors_with_diffs_in_chromium(tmp_path):
    assert CHROMIUM
    project = make_project(tmp_path)
    tests = project / "tests" / "test_seats.py"
    # #47: a requirement with one own line is judged on more than one site of it (the boundary and
    # `+` → `-`); the first-day check killed `-` (an empty range) and met the bar at 1/2
    tests.write_text(tests.read_text().replace("assert next_days(3, 2)[0] == 3", "assert isinstance(next_days(3, 2), list)"))
    done, document = mutate(project, "--harness-report=report.html")
    assert document and (project / "report.html").is_file(), done.stdout[-3000:] + done.stderr[-2000:]
    page = project / "report.html"
    dom = _chromium(tmp_path, page.as_uri(), "--dump-dom")
    block = re.search(r'<details class="mutation" id="mutation">(.*?)</details>', dom, re.S)
    assert block, dom[:3000]
    assert "Mutation audit: 2 requirements, 1 below the 50% bar" in block[1]
    assert "0/2 killed (0%); bar 50%: below the bar" in block[1]              # REQ-002
    assert re.search(r"REQ-001</a></td><td class=\"meets\">\d/\d killed \(\d+%\); bar 50%: meets the bar", block[1])
    assert "<details open" not in dom and "<details class=\"mutation\" id=\"mutation\" open" not in dom   # folded
    req2 = _entry(dom, "REQ-002")
    assert "<h3>Mutation audit</h3>" in req2 and "0/2 killed (0%); bar 50%: below the bar" in req2
    assert "src/seats.py:10" in req2 and "<em>boundary</em>" in req2
    assert html.unescape(re.search(r"<pre>(.*?)</pre>", req2.split("Mutation audit", 1)[1], re.S)[1]) == DIFF
    assert "weak" in re.search(r'<details class="req (\w+)" id="req-REQ-002"', dom)[1]
    # the search reaches a survivor's description; the filter by status still works with the block there
    assert _visible_requirements(_chromium(tmp_path, page.as_uri() + "#q=start%20%2B%20days%20-%201", "--dump-dom")) == [
        "REQ-002"]
    assert _visible_requirements(_chromium(tmp_path, page.as_uri() + "#status=weak", "--dump-dom")) == ["REQ-002"]
    for width in (1280, 390):
        shot = tmp_path / f"report-mutation-{width}.png"
        _chromium(tmp_path, page.as_uri(), f"--window-size={width},1100", f"--screenshot={shot}")
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000
