"""Tests for the deterministic app generator: unit layout, and generated apps that really work.

The end-to-end tests write the generated workspace to tmp_path and run its own pytest suite (and
small HTTP scripts) in real subprocesses.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from harness.errors import HarnessError, PlanError, SpecError
from harness.offline.generator.probes import ProbeStep, resolve, round_trip_steps
from harness.offline.generator.units import (
    BuildUnit, UnsupportedFeatureError, build_units, generate_files, generate_unit,
)
from harness.models.spec import AppSpec, DataEntity, EntityField, Page, Requirement
from helpers import write_files
from warm_suites import WarmSuites

REPO = Path(__file__).resolve().parents[1]


# ---- spec factories -----------------------------------------------------------------------------

def field(name: str, type_: str = "str", required: bool = False) -> EntityField:
    return EntityField(name=name, ident=name.replace(" ", "_"), type=type_, required=required)


def req(n: int, text: str, capability: str, entity: str | None = None) -> Requirement:
    return Requirement(id=f"REQ-{n:03d}", text=text, capability=capability, entity=entity)


def todo_spec() -> AppSpec:
    return AppSpec(
        title="Simple Todo App", pages=[Page(name="Todos", route="/", entity="todo")],
        data_model=[DataEntity(name="todo", plural="todos", ident="todo", has_status=True,
                               fields=[field("title", required=True)])],
        requirements=[req(1, "Add a todo", "create", "todo"), req(2, "List todos", "list", "todo"),
                      req(3, "Complete a todo", "complete", "todo"),
                      req(4, "Health check and home page", "health")])


def seed_spec() -> AppSpec:
    return AppSpec(
        title="Task manager", auth=True,
        pages=[Page(name="Login", route="/login"), Page(name="Dashboard", route="/dashboard"),
               Page(name="Projects", route="/projects", entity="project"),
               Page(name="Tasks", route="/tasks", entity="task")],
        data_model=[
            DataEntity(name="project", plural="projects", ident="project",
                       fields=[field("name", required=True), field("description", "text")]),
            DataEntity(name="task", plural="tasks", ident="task", parent="project", has_status=True,
                       fields=[field("title", required=True), field("due date", "date"),
                               field("priority", "int")]),
        ],
        requirements=[req(1, "Users can register and log in", "auth"),
                      req(2, "Users manage projects", "crud", "project"),
                      req(3, "Users manage tasks", "crud", "task"),
                      req(4, "Tasks belong to projects", "relation", "task"),
                      req(5, "A dashboard summarises projects and tasks", "dashboard"),
                      req(6, "Pages for projects and tasks", "pages"),
                      req(7, "Health endpoint", "health")])


def inventory_spec() -> AppSpec:
    return AppSpec(
        title="Inventory",
        data_model=[
            DataEntity(name="product", plural="products", ident="product", fields=[
                field("name", required=True), field("price", "float", required=True),
                field("quantity", "int"), field("in stock", "bool"), field("notes", "text")]),
            DataEntity(name="supplier", plural="suppliers", ident="supplier", fields=[
                field("company", required=True), field("since", "date"),
                field("last order", "datetime")]),
        ],
        requirements=[req(1, "Manage products", "crud", "product"),
                      req(2, "Manage suppliers", "crud", "supplier"),
                      req(3, "AI restock recommendations", "unsupported"),
                      req(4, "Health endpoint", "health")])


SPECS = {"todo": todo_spec, "seed": seed_spec, "inventory": inventory_spec}


# ---- helpers ------------------------------------------------------------------------------------

def child_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("APP_", "HARNESS_", "PYTEST_"))}
    return {**env, "PYTHONDONTWRITEBYTECODE": "1"}


def run_script(root: Path, code: str) -> subprocess.CompletedProcess:
    """Run `code` in a fresh interpreter inside the generated workspace (harness importable)."""
    env = {**child_env(), "APP_DB_PATH": str(root / "probe.db"), "APP_PASSWORD_HASH_ITERATIONS": "1000",
           "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-W", "ignore", "-c", textwrap.dedent(code)], cwd=root,
                          env=env, capture_output=True, text=True, timeout=120)


def closure(units: dict[str, BuildUnit], key: str) -> list[str]:
    out: list[str] = []
    for dep in units[key].depends_on:
        for k in [*closure(units, dep), dep]:
            if k not in out:
                out.append(k)
    return out


# ---- the generated suites pass ------------------------------------------------------------------

@pytest.fixture(scope="module")
def suites(tmp_path_factory):
    """Generated suites run as the harness verifies them: forked by warm workers (tests/warm_suites.py)."""
    pool = WarmSuites(tmp_path_factory.mktemp("suites"), lanes=2)
    yield pool
    pool.close()


PYTEST_ARGS = ("-q", "-p", "no:cacheprovider", "-W", "error::DeprecationWarning")


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SPECS))
def test_generated_suite_passes_without_warnings(name, suites):
    root = write_files(generate_files(SPECS[name]()), suites.base / f"whole_{name}")
    result = suites.run(root, *PYTEST_ARGS)
    assert result.exit_code == 0, result.stdout[-4000:] + result.stderr[-2000:]
    summary = result.stdout.strip().splitlines()[-1]
    assert " passed" in summary and "warning" not in summary and "skipped" not in summary


@pytest.mark.slow
def test_each_seed_unit_passes_with_only_its_dependencies(suites):
    spec = seed_spec()
    units = {u.key: u for u in build_units(spec)}
    jobs = {}
    for key, unit in units.items():
        if key == "acceptance":  # the whole suite: covered by the test above
            continue
        root = suites.base / ("unit_" + key.replace(":", "_"))
        for k in [*closure(units, key), key]:
            write_files(generate_unit(spec, k), root)
        assert unit.verification[0].startswith("python -m pytest -q tests/")
        jobs[key] = (root, (*PYTEST_ARGS, *unit.verification[0].split()[4:]))
    results = suites.run_all(jobs)  # two at a time, each in its own workspace with only its closure
    assert list(results) == [k for k in units if k != "acceptance"]
    for key, result in results.items():
        assert result.exit_code == 0, f"{key}:\n{result.stdout[-3000:]}{result.stderr[-1000:]}"
        assert " passed" in result.stdout.strip().splitlines()[-1], key


# ---- unit layout --------------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(SPECS))
def test_units_cover_every_file_exactly_once(name):
    spec = SPECS[name]()
    units = build_units(spec)
    supported = [u for u in units if not u.key.startswith("unsupported:")]
    owned = [path for u in supported for path in u.files]
    assert len(owned) == len(set(owned))
    assert sorted(owned) == list(generate_files(spec))
    seen: set[str] = set()
    for unit in units:
        assert 1 <= len(unit.files) <= 5 and unit.requirements and unit.verification
        assert set(unit.depends_on) <= seen, unit.key
        assert all(not p.startswith("/") and ".." not in p.split("/") for p in unit.files)
        seen.add(unit.key)
    covered = {r for u in units for r in u.requirements}
    assert covered == {r.id for r in spec.requirements}


def test_unit_order_and_keys_for_the_seed_spec():
    keys = [u.key for u in build_units(seed_spec())]
    assert keys == ["setup", "auth", "entity:project", "entity:task", "dashboard", "pages", "app",
                    "acceptance"]
    units = {u.key: u for u in build_units(seed_spec())}
    assert units["setup"].requirements == ("REQ-002", "REQ-003", "REQ-004")
    assert "tests/conftest.py" in units["auth"].files
    assert units["entity:task"].requirements == ("REQ-003", "REQ-004")
    assert "entity:project" in units["entity:task"].depends_on
    assert units["acceptance"].verification == ("python -m pytest -q",)
    assert set(units["acceptance"].depends_on) == set(keys[:-1])


def test_unsupported_units_come_right_after_setup():
    keys = [u.key for u in build_units(inventory_spec())]
    assert keys[:2] == ["setup", "unsupported:REQ-003"]
    assert keys[-1] == "acceptance"


def test_without_auth_the_conftest_goes_to_the_first_entity_unit():
    units = {u.key: u for u in build_units(inventory_spec())}
    assert "tests/conftest.py" in units["entity:product"].files
    assert "entity:product" in units["entity:supplier"].depends_on


@pytest.mark.slow
def test_build_units_and_files_are_deterministic():
    assert build_units(seed_spec()) == build_units(seed_spec())
    assert generate_files(seed_spec()) == generate_files(seed_spec())
    assert list(generate_files(seed_spec())) == sorted(generate_files(seed_spec()))


def test_generate_unit_returns_exactly_that_units_files():
    spec = seed_spec()
    for unit in build_units(spec):
        files = generate_unit(spec, unit.key)
        assert sorted(files) == sorted(unit.files)
        assert all(text.strip() for text in files.values())


def test_unsupported_unit_raises_with_the_requirement_text():
    spec = inventory_spec()
    with pytest.raises(UnsupportedFeatureError) as info:
        generate_unit(spec, "unsupported:REQ-003")
    assert isinstance(info.value, HarnessError)
    assert str(info.value) == "offline generator cannot implement AI restock recommendations"
    assert not any("feature_req_003" in path for path in generate_files(spec))


def test_unknown_unit_key_raises():
    with pytest.raises(PlanError):
        generate_unit(todo_spec(), "entity:nope")


def test_requirement_about_an_unknown_entity_or_other_is_unsupported():
    spec = todo_spec().model_copy(update={"requirements": [
        *todo_spec().requirements, req(5, "Manage invoices", "crud", "invoice"),
        req(6, "Play a game", "other")]})
    keys = [u.key for u in build_units(spec)]
    assert "unsupported:REQ-005" in keys and "unsupported:REQ-006" in keys


def test_spec_with_only_unsupported_requirements_generates_nothing():
    spec = AppSpec(requirements=[req(1, "A 3D shooter game", "unsupported")])
    assert [u.key for u in build_units(spec)] == ["unsupported:REQ-001"]
    assert generate_files(spec) == {}


def test_spec_without_requirements_is_rejected():
    with pytest.raises(SpecError):
        build_units(AppSpec())


def test_parents_come_first_and_parent_cycles_are_broken():
    spec = AppSpec(
        data_model=[DataEntity(name="task", plural="tasks", ident="task", parent="project"),
                    DataEntity(name="project", plural="projects", ident="project", parent="task"),
                    DataEntity(name="note", plural="notes", ident="note", parent="note")],
        requirements=[req(1, "tasks", "crud", "task"), req(2, "projects", "crud", "project"),
                      req(3, "notes", "crud", "note")])
    keys = [u.key for u in build_units(spec) if u.key.startswith("entity:")]
    assert keys == ["entity:project", "entity:task", "entity:note"]
    units = {u.key: u for u in build_units(spec)}
    assert "entity:task" not in units["entity:project"].depends_on
    assert "entity:project" in units["entity:task"].depends_on


# ---- static properties of the generated code ----------------------------------------------------

def test_generated_tests_are_all_marked_with_known_requirements():
    spec = seed_spec()
    known = {r.id for r in spec.requirements}
    for path, text in generate_files(spec).items():
        if not path.startswith("tests/test_"):
            continue
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                ids = [d.args[0].value for d in node.decorator_list
                       if isinstance(d, ast.Call) and ast.unparse(d.func) == "pytest.mark.req"]
                assert ids and set(ids) <= known, f"{path}::{node.name}"


def test_generated_code_uses_safe_primitives():
    files = generate_files(seed_spec())
    source = "\n".join(text for path, text in files.items() if path.startswith("src/"))
    assert "on_event" not in source and "lifespan=lifespan" in files["src/main.py"]
    assert 'execute(f"' not in source and "execute(f'" not in source
    auth = files["src/auth.py"]
    assert "pbkdf2_hmac" in auth and "DEFAULT_ITERATIONS = 600_000" in auth
    assert "secrets.token_urlsafe(32)" in auth and "hmac.compare_digest" in auth
    assert "PRAGMA foreign_keys = ON" in files["src/models.py"]
    assert '"owner_id" = ?' in files["src/models.py"]
    assert "fastapi" in files["requirements.txt"] and "req(id): requirement this test proves" in files["pytest.ini"]


# ---- probes and the HTTP contract, checked from outside the generated tests ----------------------

_PROBE_SCRIPT = """
import json
from fastapi.testclient import TestClient
from harness.offline.generator.probes import ProbeStep, resolve
from src.main import app

steps = [ProbeStep(**s) for s in json.loads({steps!r})]
captured, out = {{}}, []
with TestClient(app) as client:
    for step in steps:
        path, body, headers = resolve(step, captured)
        response = client.request(step.method, path, json=body, headers=headers)
        out.append([step.name, response.status_code])
        for name, key in step.capture.items():
            captured[name] = response.json()[key]
print(json.dumps(out))
"""


@pytest.mark.slow
@pytest.mark.parametrize("name", ["seed", "inventory", "todo"])
def test_round_trip_probes_pass_against_the_generated_app(name, tmp_path):
    spec = SPECS[name]()
    steps = round_trip_steps(spec)
    root = write_files(generate_files(spec), tmp_path / "ws")
    payload = json.dumps([s.__dict__ for s in steps])
    result = run_script(root, _PROBE_SCRIPT.format(steps=payload))
    assert result.returncode == 0, result.stderr[-3000:]
    assert json.loads(result.stdout) == [[s.name, s.expect_status] for s in steps]


def test_probe_steps_shape_for_the_seed_spec():
    steps = round_trip_steps(seed_spec())
    assert [s.name for s in steps] == ["register", "login", "create_project", "get_project",
                                       "create_task", "get_task"]
    assert steps[1].capture == {"token": "token"} and not steps[0].auth and steps[2].auth
    assert steps[4].body["project_id"] == "{project_id}" and steps[4].path == "/api/tasks"
    assert steps[5].path == "/api/tasks/{task_id}" and steps[5].expect_status == 200
    path, body, headers = resolve(steps[4], {"token": "t", "project_id": 7})
    assert body["project_id"] == 7 and headers == {"Authorization": "Bearer t"}
    assert all(isinstance(s, ProbeStep) for s in steps)


def test_probe_steps_without_auth_have_no_login():
    steps = round_trip_steps(todo_spec())
    assert [s.name for s in steps] == ["create_todo", "get_todo"]
    assert steps[0].body == {"title": "Sample text"} and steps[0].expect_status == 201


_SEED_CONTRACT = """
from fastapi.testclient import TestClient
from src.main import app

def login(c, name):
    creds = {"username": name, "password": "long-enough-pw"}
    assert c.post("/api/auth/register", json=creds).status_code == 201
    r = c.post("/api/auth/login", json=creds)
    assert r.status_code == 200 and r.json()["token_type"] == "bearer"
    return {"Authorization": "Bearer " + r.json()["token"]}

with TestClient(app) as c:
    a, b = login(c, "alice"), login(c, "bobby")
    assert c.post("/api/auth/register", json={"username": "alice", "password": "long-enough-pw"}).status_code == 409
    r = c.get("/api/projects")
    assert r.status_code == 401 and r.headers["www-authenticate"] == "Bearer"
    p = c.post("/api/projects", json={"name": "Apollo"}, headers=a)
    assert p.status_code == 201 and p.json()["name"] == "Apollo"
    pid = p.json()["id"]
    t = c.post("/api/tasks", json={"title": "Launch", "project_id": pid}, headers=a)
    assert t.status_code == 201 and t.json()["status"] == "open"
    tid = t.json()["id"]
    assert c.post("/api/tasks", json={"title": "x"}, headers=a).status_code == 422
    assert c.post("/api/tasks", json={"title": "x", "project_id": 424242}, headers=a).status_code == 404
    assert c.post("/api/tasks", json={"title": "x", "project_id": pid}, headers=b).status_code == 404
    assert [x["id"] for x in c.get(f"/api/projects/{pid}/tasks", headers=a).json()] == [tid]
    assert c.get(f"/api/projects/{pid}/tasks", headers=b).status_code == 404
    assert c.get(f"/api/tasks/{tid}", headers=b).status_code == 404
    assert c.put(f"/api/tasks/{tid}", json={"title": "Hacked"}, headers=b).status_code == 404
    assert c.delete(f"/api/tasks/{tid}", headers=b).status_code == 404
    u = c.put(f"/api/tasks/{tid}", json={"priority": 3}, headers=a)
    assert u.status_code == 200 and u.json()["title"] == "Launch" and u.json()["priority"] == 3
    assert c.post(f"/api/tasks/{tid}/complete", headers=a).json()["status"] == "done"
    assert c.get("/api/dashboard", headers=a).json() == {
        "counts": {"projects": 1, "tasks": 1}, "status_counts": {"tasks": {"open": 0, "done": 1}}}
    assert c.get("/api/dashboard", headers=b).json()["counts"] == {"projects": 0, "tasks": 0}
    bad = c.post("/api/projects", content=b"{oops", headers={**a, "Content-Type": "application/json"})
    assert bad.status_code == 422
    assert c.post("/api/projects", json={"name": "x" * 100_000}, headers=a).status_code == 422
    assert c.get("/api/auth/me", headers=a).json() == {"id": 1, "username": "alice"}
    assert c.delete(f"/api/tasks/{tid}", headers=a).status_code == 204
    assert c.get(f"/api/tasks/{tid}", headers=a).status_code == 404
    page = c.post("/login", data={"username": "alice", "password": "long-enough-pw"}, follow_redirects=False)
    assert page.status_code == 303 and page.headers["location"] == "/dashboard"
    assert "Apollo" in c.get("/projects").text and "<form" in c.get("/tasks").text
    assert c.get("/health").json() == {"status": "ok"} and c.get("/api/health").json() == {"status": "ok"}
    assert c.post("/api/auth/logout", headers=a).status_code == 204
    assert c.get("/api/auth/me", headers=a).status_code == 401
print("ok")
"""

_TODO_CONTRACT = """
from fastapi.testclient import TestClient
from src.main import app

with TestClient(app) as c:
    r = c.post("/api/todos", json={"title": "Buy milk"})
    assert r.status_code == 201 and r.json()["title"] == "Buy milk" and r.json()["status"] == "open"
    tid = r.json()["id"]
    assert [t["title"] for t in c.get("/api/todos").json()] == ["Buy milk"]
    done = c.post(f"/api/todos/{tid}/complete")
    assert done.status_code == 200 and done.json()["status"] == "done"
    assert c.post("/api/todos/999/complete").status_code == 404
    assert c.post("/api/todos", json={"title": ""}).status_code == 422
    form = c.post("/forms/todos", data={"title": "Walk <dog>", "next": "/"}, follow_redirects=False)
    assert form.status_code == 303 and form.headers["location"] == "/"
    home = c.get("/")
    assert home.status_code == 200 and "<form" in home.text and "Walk &lt;dog&gt;" in home.text
    assert c.get("/health").json() == {"status": "ok"}
print("ok")
"""


@pytest.mark.slow
@pytest.mark.parametrize("name,script", [("seed", _SEED_CONTRACT), ("todo", _TODO_CONTRACT)],
                         ids=["seed", "todo"])
def test_generated_app_meets_the_http_contract(name, script, tmp_path):
    root = write_files(generate_files(SPECS[name]()), tmp_path / "ws")
    result = run_script(root, script)
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stderr[-3000:]


def test_a_reference_cycle_keeps_one_reference_a_plain_number():
    """Two entities referring to each other: the first reference read is kept, the one that would
    close the cycle is not (the table order must stay acyclic for the schema)."""
    from harness.models.spec import AppSpec
    from harness.offline.generator.analyse import _effective_refs

    spec = AppSpec.model_validate({"title": "T", "data_model": [
        {"name": "team", "plural": "teams", "ident": "team",
         "fields": [{"name": "captain", "ident": "captain", "kind": "reference", "ref": "player"}]},
        {"name": "player", "plural": "players", "ident": "player",
         "fields": [{"name": "team", "ident": "team", "kind": "reference", "ref": "team"}]},
        {"name": "match", "plural": "matches", "ident": "match",
         "fields": [{"name": "home", "ident": "home", "kind": "reference", "ref": "team"}]}]})
    raw = {e.ident: e for e in spec.data_model}
    assert _effective_refs(raw, {}) == {"team": {"captain": "player"}, "match": {"home": "team"}}
