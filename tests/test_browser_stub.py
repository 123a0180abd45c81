"""The browser verifier stays a stub, and no browser-automation library is used anywhere."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from harness.verification.browser import verify_acceptance

HARNESS = Path(__file__).resolve().parents[1] / "harness"
_BROWSER_IMPORT = re.compile(r"^\s*(?:import|from)\s+(playwright|selenium)\b", re.M)


@pytest.mark.parametrize("args, kwargs", [((), {}), (("workspace", ["REQ-001"]), {"url": "http://x"})])
def test_verify_acceptance_is_deferred(args, kwargs):
    with pytest.raises(NotImplementedError, match="Browser verification deferred post-V1"):
        verify_acceptance(*args, **kwargs)


def test_harness_imports_no_browser_automation():
    offenders = [str(p) for p in HARNESS.rglob("*.py") if _BROWSER_IMPORT.search(p.read_text())]
    assert offenders == []
