"""Issue 52, the plugin's HTML report in headless Chromium: counts, failures first, folded details,
a working status filter and search, screenshots at a desktop and a phone width."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from pytest_harness import evidence, gate, report_html

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (.ci/run installs it)")
LONG = "src/very_long_package_name/subsystem_with_a_long_name/authentication_and_sessions.py"


def _document() -> dict:
    """A real evidence document (the plugin's own builders) of 24 requirements in every status."""
    tests, titles, files = {}, {}, {}
    kinds = ["passed", "failed", "skipped", "passed_weak"]
    for n in range(1, 21):
        kind = kinds[n % 4]
        nodeid = f"tests/integration/test_login_flows_and_sessions.py::TestGroup{n}::test_case_number_{n}"
        entry = evidence.make_test_entry([f"REQ-{n:03d}"])
        entry.update(outcome="passed" if kind == "passed_weak" else kind,
                     failure="AssertionError: expected 200, got 500\n" * 3 if kind == "failed" else None,
                     checks=0 if kind == "passed_weak" else 2, executed={LONG: 3}, lines={LONG: [1, 2, 3]})
        tests[nodeid] = entry
        titles[f"REQ-{n:03d}"] = f"{'Login' if n % 3 == 0 else 'Orders'} requirement {n} with a reasonably long title"
        files[f"REQ-{n:03d}"] = [LONG]
    expected = [f"REQ-{n:03d}" for n in range(1, 25)]
    doc = evidence.make_document(run_id=None, complete=True, session=evidence.make_session(1, 20, 1.0, {}),
                                 snapshot={"files": {}, "digest": None}, tests=tests, expected=expected,
                                 marker_errors=[], collection_errors=[], proofs=None, req_files=files)
    return gate.annotate(doc, titles, 100.0)


def _chromium(tmp_path: Path, url: str, *flags: str) -> str:
    argv = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-extensions",
            "--hide-scrollbars", f"--user-data-dir={tmp_path / 'profile'}", *flags, url]
    return subprocess.run(argv, capture_output=True, text=True, timeout=120, check=True).stdout


def _visible(dom: str) -> list[tuple[str, str]]:
    """(id, status) of each requirement entry the filter left visible, in page order."""
    out = []
    for tag in re.findall(r"<details [^>]*>", dom):
        if " hidden" not in tag:
            out.append((re.search(r'id="req-([^"]+)"', tag)[1], re.search(r'data-status="([^"]+)"', tag)[1]))
    return out


def test_failures_first_counts_and_folded_entries():
    page = report_html.render_html(_document())
    ids = re.findall(r'<details class="req (\w+)"', page)
    assert ids[0] == "failing" and ids[-1] == "verified"
    assert ids == sorted(ids, key=report_html.ORDER.index)
    assert "<details open" not in page                                        # folded until opened
    assert '<b>5</b>failing' in page and '<b>4</b>no test (not built)' in page
    assert "authentication_and_sessions.<wbr>py" in page and "subsystem_with_a_long_name/<wbr>" in page
    assert "http" not in page and "<script src" not in page and "<link" not in page


@pytest.mark.slow
@needs_chromium
def test_report_filter_and_search_work_in_headless_chromium_at_two_widths(tmp_path):
    page = tmp_path / "report.html"
    page.write_text(report_html.render_html(_document()))
    everything = _visible(_chromium(tmp_path, page.as_uri(), "--dump-dom"))
    assert len(everything) == 24 and everything[0][1] == "failing"
    failing = _visible(_chromium(tmp_path, page.as_uri() + "#status=failing", "--dump-dom"))
    assert [s for _, s in failing] == ["failing"] * 5
    dom = _chromium(tmp_path, page.as_uri() + "#status=weak&q=login", "--dump-dom")
    found = _visible(dom)
    assert found and all(s == "weak" for _, s in found)
    assert all("login" in re.search(rf'id="req-{rid}"[^>]*data-text="([^"]*)"', dom)[1] for rid, _ in found)
    assert f"{len(found)} of 24 shown" in dom
    for width in (1280, 390):
        shot = tmp_path / f"report-{width}.png"
        _chromium(tmp_path, page.as_uri(), f"--window-size={width},1100", f"--screenshot={shot}")
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000


def test_builder_report_file_names_wrap_at_separators_not_mid_word():
    from harness.report import html_parts

    assert html_parts.code_list(["app/models/order_items.py"]) == (
        '<ul class="compact"><li><code>app/<wbr>models/<wbr>order_items.<wbr>py</code></li></ul>')
    assert "anywhere" not in html_parts.CSS    # overflow-wrap:anywhere broke file names mid-word
