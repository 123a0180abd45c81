"""Builds src/main.py (the FastAPI app) and tests/test_health.py."""

from __future__ import annotations

from harness.offline.generator.api_py import children_url, collection_url
from harness.offline.generator.appmodel import AppModel
from harness.offline.generator.links import link_paths
from harness.offline.generator.record_tool_files import tool_modules, tool_paths
from harness.offline.generator.codegen import doc, fill, lit, marks, module
from harness.offline.generator.templates_dir import template

_MAIN = template("main_py/main.tmpl")

_TESTS = template("main_py/tests.tmpl")

_JSON_INDEX = template("main_py/json_index.tmpl")

_HTML_INDEX_TEST = template("main_py/html_index_test.tmpl")

_JSON_INDEX_TEST = template("main_py/json_index_test.tmpl")


def account_modules(app: AppModel) -> list[str]:
    """The skeleton modules of the account features: people (roles, viewers), account (password)."""
    return (["people"] if app.access else []) + (["account"] if app.change_password else [])


def _modules(app: AppModel) -> list[str]:
    mods = (["auth"] if app.auth else []) + account_modules(app) + tool_modules(app) + [
        f"api_{e.ident}" for e in app.entities]
    return mods + (["dashboard"] if app.has_dashboard else []) + (["pages"] if app.html else [])


def main_py(app: AppModel) -> str:
    mods = _modules(app)
    return module(fill(
        _MAIN, title_doc=doc(app.title), title=lit(app.title),
        index_doc="GET / is the HTML index page." if app.html else
        "A JSON API only: GET / names the API's docs (/docs, /openapi.json); no HTML page.",
        modules=", ".join(sorted([*mods, "install_error_handlers", "models"])),
        includes="\n".join(f"app.include_router({m}.router)" for m in mods),
        json_index="" if app.html else "\n\n" + fill(_JSON_INDEX, title=lit(app.title))))


def api_paths(app: AppModel) -> list[str]:
    """Every JSON API path the app must expose."""
    paths = ["/health", "/api/health"]
    if app.auth:
        paths += ["/api/auth/register", "/api/auth/login", "/api/auth/logout", "/api/auth/me"]
        paths += ["/api/auth/users", "/api/auth/users/me", "/api/auth/users/{user_id}/role"] if app.access else []
        paths += ["/api/auth/password"] if app.change_password else []
    for e in app.entities:
        paths += [collection_url(e), collection_url(e) + "/{item_id}"]
        paths += [collection_url(e) + "/{item_id}/complete"] if e.has_status and not e.workflow else []
        paths += [collection_url(e) + "/export.csv"] if e.has("csv_export") else []
        paths += [collection_url(e) + "/totals"] if e.has("aggregate") else []
        paths += [collection_url(e) + "/counts"] if e.has("status_counts") else []
        paths += [collection_url(e) + "/summary"] if e.has("period_summary") else []
        paths += [children_url(app, e)] if e.parent else []
        paths += link_paths(app, e)
    return paths + tool_paths(app) + (["/api/dashboard"] if app.has_dashboard else [])


def error_paths(app: AppModel) -> dict[str, dict[str, list[str]]]:
    """The error codes each route must document: 404/409/422 on every entity route, 401 on every
    route that needs an account, 429 on login."""
    codes = ["404", "409", "422"] + (["401"] if app.auth else [])
    out: dict[str, dict[str, list[str]]] = {}
    for e in app.entities:
        out[collection_url(e)] = {"post": codes, "get": codes}
        out[collection_url(e) + "/{item_id}"] = {"get": codes, "put": codes, "delete": codes}
    if app.auth:
        out["/api/auth/login"] = {"post": ["401", "422", "429"]}
        out["/api/auth/register"] = {"post": ["409", "422"]}
        out["/api/auth/logout"] = {"post": ["401"]}
        out["/api/auth/me"] = {"get": ["401"]}
        if app.has_dashboard:
            out["/api/dashboard"] = {"get": ["401"]}
    return out


def test_health_py(app: AppModel, req_ids: tuple[str, ...]) -> str:
    index_test = fill(_HTML_INDEX_TEST if app.html else _JSON_INDEX_TEST, marks=marks(req_ids))
    return module(fill(_TESTS, marks=marks(req_ids), paths=lit(api_paths(app)),
                       error_paths=lit(error_paths(app)), index_test=index_test))

