"""List pages offer the filters the API has (#14 "search box and filters when those features exist";
bug: `/movies?watched=true` listed every movie — only the API honoured the filter). Checked on the
generated source and over HTTP on a real uvicorn serving the app the offline path builds."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request

import pytest

from harness.offline.generator import generate_files
from harness.offline.spec.rules import rule_based_spec
from helpers import write_files

MOVIES = ("A movie tracker: each movie has a title, a genre (drama, comedy or horror) and watched (yes/no). "
          "Users can filter movies by genre and by watched, and search movies by title.")


def test_list_page_of_a_filtered_entity_offers_its_filters_in_the_generated_source():
    files = generate_files(rule_based_spec(MOVIES))
    pages = files["src/pages.py"]
    assert "PageFilter('genre', 'genre', 'enum', options=('drama', 'comedy', 'horror'))" in pages
    assert "PageFilter('watched', 'watched', 'boolean')" in pages
    assert "def test_list_page_filter_shows_only_matching_records" in files["tests/test_pages.py"]


def test_an_entity_without_the_filter_feature_gets_no_page_filters():
    files = generate_files(rule_based_spec("A movie tracker: each movie has a title and watched (yes/no)."))
    assert "PageFilter(" not in files["src/pages.py"].split("SECTIONS", 1)[1]
    assert "test_list_page_filter" not in files["tests/test_pages.py"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.read().decode()


@pytest.mark.slow
def test_list_page_filters_over_http_watched_true_lists_only_watched_movies_bug(tmp_path):
    workspace = write_files(generate_files(rule_based_spec(MOVIES)), tmp_path / "ws")
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "uvicorn", "src.main:app", "--port", str(port)],
                              cwd=workspace, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                _get(base + "/health")
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise
                time.sleep(0.1)
        for movie in ({"title": "Heat", "genre": "drama", "watched": True},
                      {"title": "Alien", "genre": "horror", "watched": False}):
            req = urllib.request.Request(base + "/api/movies", json.dumps(movie).encode(),
                                         {"content-type": "application/json"})
            assert urllib.request.urlopen(req, timeout=10).status == 201

        def titles(query: dict) -> set[str]:
            page = _get(base + "/?" + urllib.parse.urlencode(query))
            return {t for t in ("Heat", "Alien") if f"<td>{t}</td>" in page}

        assert titles({"watched": "true"}) == {"Heat"}
        assert titles({"watched": "false"}) == {"Alien"}
        assert titles({"genre": "horror"}) == {"Alien"}
        assert titles({"genre": "horror", "watched": "true"}) == set()
        assert titles({"q": "hea", "watched": "true"}) == {"Heat"}
        assert titles({"genre": "not-a-genre"}) == {"Heat", "Alien"}     # outside the choices: ignored
        page = _get(base + "/?watched=true")
        assert '<option value="true" selected>yes</option>' in page
    finally:
        server.terminate()
        server.wait(timeout=10)
