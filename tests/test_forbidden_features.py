"""SPEC M12 audit: no functional code for the V1 non-goals (the browser stub is allowed)."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CODE = [p for d in ("harness", "pytest_harness") for p in (ROOT / d).rglob("*.py")]

FORBIDDEN = {
    "docker sandbox": r"^\s*(import docker|from docker)|docker\.from_env|\bdocker run\b",
    "web management UI": r"^\s*(import|from) (flask|streamlit|gradio|dash)\b",
    "parallel workers": r"^\s*(from concurrent\.futures|import multiprocessing|from multiprocessing)|ThreadPoolExecutor|ProcessPoolExecutor",
    "Playwright": r"^\s*(import|from) playwright",
    "Selenium": r"^\s*(import|from) selenium",
    "PostgreSQL backend": r"^\s*(import|from) (psycopg|psycopg2|asyncpg|sqlalchemy)|postgresql://",
    "web research": r"^\s*(import|from) (requests|bs4|scrapy)\b|duckduckgo|serpapi",
    "shell=True": r"shell\s*=\s*True",
}


@pytest.mark.parametrize("feature, pattern", sorted(FORBIDDEN.items()))
def test_no_forbidden_feature(feature, pattern):
    rx = re.compile(pattern, re.M | re.I)
    hits = [f"{p.relative_to(ROOT)}" for p in CODE if rx.search(p.read_text(encoding="utf-8"))]
    assert hits == [], f"{feature} found in {hits}"


def test_no_forbidden_directories():
    for name in ("docker", "web_ui", "webui", "workers"):
        assert not (ROOT / "harness" / name).exists()


def test_browser_verification_is_an_explicit_stub():
    from harness.verification.browser import verify_acceptance

    with pytest.raises(NotImplementedError, match="deferred post-V1"):
        verify_acceptance()


def test_audit_patterns_catch_what_they_forbid():
    assert re.search(FORBIDDEN["Playwright"], "from playwright.sync_api import sync_playwright", re.M)
    assert re.search(FORBIDDEN["parallel workers"], "from concurrent.futures import ThreadPoolExecutor", re.M)
    assert re.search(FORBIDDEN["shell=True"], "subprocess.run(cmd, shell=True)")
