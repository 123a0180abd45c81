"""Unknown query parameters (#51): a generated list endpoint silently ignored a parameter it does not
take — `GET /api/tools?colour=red` answered 200 with every tool, so a user filtering by a misspelt or
unsupported field read the whole list as the filtered one. Every JSON route now answers 422 naming
the parameter; the generated suite tests it, and the black-box check fails an app that ignores one."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from harness.acceptance import run_acceptance
from harness.offline.generator import generate_files
from harness.offline.spec_file import load_spec_file
from helpers import write_files
from served_app import served
from warm_suites import suites  # noqa: F401  (module-scoped fixture)

TOOLS = Path(__file__).parents[1] / "examples" / "tool_library.toml"
THE_CHECK = "    app.router.dependencies.append(Depends(known_query_only))\n"

# One entity, no accounts, an enum filter: small enough to serve and check in a few seconds.
PAINTS = ('title = "Paint shelf"\n[[entities]]\nname = "paint"\n'
          'fields = [{ name = "name", required = true }, { name = "colour", values = ["red", "blue"] },\n'
          '          { name = "litres", kind = "decimal" }]\n'
          'features = ["search", { kind = "filter", fields = ["colour"] }]\n')


def _paint_spec(tmp_path: Path):
    path = tmp_path / "paints.toml"
    path.write_text(PAINTS, encoding="utf-8")
    return load_spec_file(path)


@pytest.mark.slow
def test_unknown_query_parameter_was_silently_ignored_bug(tmp_path):
    ws = write_files(generate_files(load_spec_file(TOOLS)), tmp_path / "ws")
    with served(ws, tmp_path / "app.db") as base, httpx.Client(base_url=base, timeout=10) as http:
        account = {"username": "librarian1", "password": "a-long-password-1"}
        assert http.post("/api/auth/register", json=account).status_code == 201
        token = http.post("/api/auth/login", json=account).json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        for name, category in (("Spade", "garden"), ("Drill", "power tool")):
            made = http.post("/api/tools", json={"name": name, "tool_number": name[:2], "category": category},
                             headers=auth)
            assert made.status_code == 201, made.text
        assert [t["name"] for t in http.get("/api/tools", params={"category": "garden"}, headers=auth).json()] == ["Spade"]
        for wrong in ("colour", "categoyr"):
            refused = http.get("/api/tools", params={wrong: "garden"}, headers=auth)
            assert refused.status_code == 422, refused.text
            assert refused.json()["detail"][0]["loc"] == ["query", wrong]
            assert f"unknown query parameter '{wrong}'" in refused.json()["detail"][0]["msg"]
            assert "category" in refused.json()["detail"][0]["msg"]   # it says what the list takes
        # every JSON route, not only the lists; the HTML pages keep taking what a browser sends
        assert http.get("/api/loans/counts", params={"since": "2026-01-01"}, headers=auth).status_code == 422
        assert http.get("/api/loans/counts", headers=auth).status_code == 200
        http.cookies.set("session", token)
        assert http.get("/tools", params={"utm_source": "mail"}).status_code == 200


@pytest.mark.slow
def test_the_black_box_check_refuses_an_app_that_ignores_unknown_query_parameters(tmp_path):
    spec = _paint_spec(tmp_path)
    files = generate_files(spec)
    assert THE_CHECK in files["src/__init__.py"]
    for label, init in (("kept", files["src/__init__.py"]), ("ignoring", files["src/__init__.py"].replace(THE_CHECK, ""))):
        ws = write_files({**files, "src/__init__.py": init}, tmp_path / label)
        with served(ws, tmp_path / f"{label}.db") as base:
            checks = run_acceptance(base, spec, [], [])
        failed = sorted(c.name for c in checks if not c.ok)
        if label == "kept":
            assert failed == [], [(c.name, c.detail) for c in checks if not c.ok]
            assert any(c.name == "the paints list refuses an unknown query parameter" for c in checks)
        else:
            assert failed == ["filter on paints", "the paints list refuses an unknown query parameter"], failed
            detail = next(c.detail for c in checks if c.name == "the paints list refuses an unknown query parameter")
            assert "?colour_not_a_parameter=red (no such parameter) answered GET /api/paints?colour_not_a_parameter=red → 200" in detail


@pytest.mark.slow
def test_the_generated_suite_tests_unknown_query_parameters(tmp_path, suites):  # noqa: F811
    files = generate_files(_paint_spec(tmp_path))
    tests = files["tests/test_api_paint.py"]
    assert "def test_list_refuses_an_unknown_query_parameter" in tests
    assert "misspelt = client.get(URL, params={'coloru': 'blue'}" in tests
    ws = write_files(files, suites.base / "paints")
    kept = suites.run(ws, "-q", "-p", "no:cacheprovider", "tests/test_api_paint.py")
    assert kept.exit_code == 0 and "failed" not in kept.stdout, kept.stdout[-3000:]
    (ws / "src" / "__init__.py").write_text(files["src/__init__.py"].replace(THE_CHECK, ""), encoding="utf-8")
    broken = suites.run(ws, "-q", "-p", "no:cacheprovider", "tests/test_api_paint.py")
    assert broken.exit_code == 1 and "2 failed" in broken.stdout, broken.stdout[-3000:]
    assert "test_list_refuses_an_unknown_query_parameter" in broken.stdout
    assert "test_filter_by_colour" in broken.stdout
