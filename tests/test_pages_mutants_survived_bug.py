"""Bug: examples/expense_receipts.toml ended BUILD FAILED on its pages requirement — the mutation
audit killed 1 of 4 mutants (the bar is 50%). The generated page tests never:
- asked a list page for a filter value that is digits but no choice (a choice filter that took
  digits as a record id filtered everything out: `f.kind == "reference"` → `!=` survived);
- registered and logged in with the shortest password allowed (`8 <= len(password)` → `8 <` survived);
- looked at whether the add form marks a required field `required` (the flag negated survived).

The generated tests (harness/offline/generator/templates/pages_tests/) now do each; every broken
app below fails tests/test_pages.py, the app as generated passes it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from harness.offline.generator import generate_files
from harness.offline.spec_file import load_spec_file
from helpers import write_files

RECEIPTS = Path(__file__).resolve().parents[1] / "examples" / "expense_receipts.toml"

# (what is broken, file, the generated text, the broken text): the audit's three survivors
BROKEN = [
    ("a choice filter's digits are read as a record id", "src/page_parts.py",
     'elif f.kind == "reference" and raw.isdigit():', 'elif f.kind != "reference" and raw.isdigit():'),
    ("an 8-character password cannot log in by the form", "src/pages.py",
     "and 8 <= len(password) <= 128:", "and 8 < len(password) <= 128:"),
    ("the add form does not mark required fields", "src/page_parts.py",
     '" required" if control.required else ""', '" required" if (not control.required) else ""'),
]


def _page_tests(ws: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0",
                           "tests/test_pages.py"], cwd=ws, capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_the_page_survivors_of_the_receipts_example_are_caught_by_the_page_tests_bug(tmp_path):
    files = generate_files(load_spec_file(RECEIPTS))
    kept = _page_tests(write_files(files, tmp_path / "kept"))
    assert kept.returncode == 0 and "failed" not in kept.stdout, kept.stdout[-3000:]
    for n, (what, rel, good, bad) in enumerate(BROKEN):
        assert files[rel].count(good) == 1, (what, rel)
        broken = _page_tests(write_files({**files, rel: files[rel].replace(good, bad)}, tmp_path / f"broken{n}"))
        assert broken.returncode == 1 and "1 failed" in broken.stdout, (what, broken.stdout[-3000:])
