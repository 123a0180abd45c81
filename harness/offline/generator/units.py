"""The deterministic app generator's public API: AppSpec -> build units -> file texts.

A build unit is what the fallback planner turns into one task: at most 5 files, at least one
requirement, and a verification command that passes with only the unit's files and those of its
(transitive) dependencies present. Order: setup, unsupported:*, auth, entity:* (parents first),
dashboard, pages, app, acceptance.
"""

from __future__ import annotations

from dataclasses import dataclass

from harness.errors import HarnessError, PlanError
from harness.offline.generator.account_files import account_files
from harness.offline.generator.app_files import api_module_path, api_test_path, render_file
from harness.offline.generator.analyse import analyse
from harness.offline.generator.appmodel import AppModel
from harness.offline.generator.naming import py_ident
from harness.offline.generator.record_tool_files import tool_units
from harness.models.spec import AppSpec

CONFTEST = "tests/conftest.py"
FIELDTYPES = "src/fieldtypes.py"  # skeleton file every API module imports
UI = "src/ui.py"                  # skeleton file of the pages' look (pages and dashboard)


class UnsupportedFeatureError(HarnessError):
    """The offline generator cannot implement this requirement (game, chat, ML ...)."""


@dataclass(frozen=True)
class BuildUnit:
    """One plannable piece of the generated app."""

    key: str                        # "setup", "auth", "entity:<ident>", "dashboard", "pages", "app",
                                    # "acceptance", "unsupported:<REQ-ID>"
    description: str
    files: tuple[str, ...]          # <= 5 workspace-relative POSIX paths
    requirements: tuple[str, ...]   # REQ ids (>= 1)
    verification: tuple[str, ...]   # e.g. ("python -m pytest -q tests/test_models.py",)
    depends_on: tuple[str, ...]     # keys of earlier units


def _pytest(*paths: str) -> tuple[str, ...]:
    return (" ".join(["python -m pytest -q", *paths]),)


def build_units(spec: AppSpec) -> list[BuildUnit]:
    """The units of `spec` in dependency order (same spec -> same list)."""
    return _units(analyse(spec))


def _units(app: AppModel) -> list[BuildUnit]:
    unsupported = [
        BuildUnit(key=f"unsupported:{req.id}", description=f"Unsupported offline: {req.text}",
                  files=(f"src/feature_{py_ident(req.id)}.py", f"tests/test_feature_{py_ident(req.id)}.py"),
                  requirements=(req.id,),
                  verification=_pytest(f"tests/test_feature_{py_ident(req.id)}.py"), depends_on=())
        for req in app.unsupported
    ]
    if not app.supported:
        return unsupported  # nothing to build honestly; every requirement fails on its own
    fallback = app.first_supported
    names = ", ".join(e.name for e in app.entities) or "no entities"
    units = [BuildUnit(
        key="setup", description=f"Project setup and SQLite schema + data access ({names})",
        files=("requirements.txt", "pytest.ini", "src/__init__.py", "src/models.py", "tests/test_models.py"),
        requirements=app.entity_req_ids or fallback, verification=_pytest("tests/test_models.py"),
        depends_on=())]
    units += unsupported
    base = ("setup", "auth") if app.auth else ("setup",)
    account = account_files(app)
    base += ("account",) if app.access and account else ()
    # tests/conftest.py belongs to the first unit after setup; every later unit depends on it.
    owner = ("auth" if app.auth else f"entity:{app.entities[0].ident}" if app.entities
             else "dashboard" if app.has_dashboard else "pages")

    def unit(key: str, description: str, files: list[str], reqs: tuple[str, ...],
             deps: tuple[str, ...]) -> BuildUnit:
        """A unit whose verification runs its own test files."""
        if key == owner:
            files = [files[0], FIELDTYPES, UI, CONFTEST, *files[1:]]
        elif owner not in deps:
            deps = (*deps, owner)
        tests = [f for f in files if f.startswith("tests/test_")]
        return BuildUnit(key=key, description=description, files=tuple(files), requirements=reqs,
                         verification=_pytest(*tests), depends_on=tuple(dict.fromkeys(deps)))

    if app.auth:
        units.append(unit("auth", "Accounts: register, login, bearer sessions, password hashing",
                          ["src/auth.py", "tests/test_auth.py"], app.ids("auth") or fallback, ("setup",)))
    if account:
        units.append(unit("account", "Account features: " + ", ".join(
            (["roles and the people directory"] if app.access else []) + (["password change"] if app.change_password else [])),
            account, app.ids("account") or app.ids("auth") or fallback, ("setup", "auth")))
    for e in app.entities:
        deps = base + ((f"entity:{e.parent}",) if e.parent else ()) + tuple(f"entity:{o}" for o in e.many)
        units.append(unit(f"entity:{e.ident}", f"REST API for {e.plural} (/api/{e.slug})",
                          [api_module_path(e.ident), api_test_path(e.ident)],
                          tuple(r.id for r in e.reqs) or fallback, deps))
    entity_keys = tuple(f"entity:{e.ident}" for e in app.entities)
    if app.has_dashboard:
        units.append(unit("dashboard", "Dashboard: per-user counts as JSON and HTML",
                          ["src/dashboard.py", "tests/test_dashboard.py"], app.ids("dashboard"), base))
    pages = ("pages",) if app.html else ()
    if app.html:
        units.append(unit("pages", "Server-rendered HTML pages with forms" + (" and login" if app.auth else ""),
                          ["src/pages.py", "src/page_parts.py", "tests/test_pages.py"],
                          app.ids("pages") or app.ids("health") or fallback, base + entity_keys))
    for key, description, files, reqs in tool_units(app):
        units.append(unit(key, description, files, reqs, base + entity_keys + pages))
    built = tuple(u.key for u in units if not u.key.startswith("unsupported:"))
    units.append(unit("app", "FastAPI application: routers, /health, startup",
                      ["src/main.py", "tests/test_health.py"], app.ids("health") or fallback, built))
    units.append(BuildUnit(
        key="acceptance", description="End-to-end acceptance tests, one per requirement",
        files=("tests/test_acceptance.py",), requirements=tuple(r.id for r in app.supported),
        verification=("python -m pytest -q",), depends_on=(*built, "app")))
    return units


def generate_unit(spec: AppSpec, key: str) -> dict[str, str]:
    """Exactly the files of unit `key`; unsupported units raise UnsupportedFeatureError."""
    app = analyse(spec)
    if key.startswith("unsupported:"):
        req = next((r for r in app.unsupported if r.id == key.split(":", 1)[1]), None)
        if req is not None:
            raise UnsupportedFeatureError(f"offline generator cannot implement {req.text}")
    found = next((u for u in _units(app) if u.key == key), None)
    if found is None:
        raise PlanError(f"no build unit {key!r} for this spec; known units come from build_units()")
    return {path: render_file(app, path, found.requirements) for path in found.files}


def generate_files(spec: AppSpec) -> dict[str, str]:
    """Every file of every supported unit, keyed by workspace-relative path (sorted)."""
    app = analyse(spec)
    files: dict[str, str] = {}
    for found in _units(app):
        if not found.key.startswith("unsupported:"):
            files.update({p: render_file(app, p, found.requirements) for p in found.files})
    return dict(sorted(files.items()))
