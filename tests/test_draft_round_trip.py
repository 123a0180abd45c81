"""#48: the draft round trip over the whole dev set. For every dev-set request, the draft
`builder spec` writes (`request_draft`), read back by the `--spec` loader, builds the same app as
the run: the generator's model of the app (entities, columns with kinds, values, bounds and
references, parents, statuses, workflows, features with their options, access, links, pages, auth,
roles) and the same requirements, checked by the same black-box checks; the asks the run could not
build stay failing requirements. Spec level only (no build); `test_draft_builds.py` builds some.

The requirements are compared whole: ids, capabilities, entities, texts and acceptance (the loader
numbers and words them as the parser does, harness/offline/requirement_words.py)."""

from __future__ import annotations

import dataclasses
import glob
import tomllib
from pathlib import Path

import pytest

from harness.acceptance.derive import derive
from harness.fidelity import load_dataset
from harness.models.spec import AppSpec
from harness.offline.accounting.draft import draft_toml
from harness.offline.accounting.run_draft import request_draft
from harness.offline.generator.analyse import analyse
from harness.offline.spec import parse_request
from harness.offline.spec_file import SpecFileError, load_spec_file

ROOT = Path(__file__).resolve().parent.parent
_SAME_CRUD = {"create": "crud", "list": "crud"}   # the Todo spec's create + list is the loader's crud


def _req_key(r) -> tuple:
    return (_SAME_CRUD.get(r.capability, r.capability), r.entity,
            r.text if r.capability == "unsupported" else "")


def built_app(spec: AppSpec) -> dict:
    """The generator's model of the app a spec builds, requirements by what they are made of
    (capability, entity; an unsupported one by its text) and page names without case (the loader
    capitalises them: the one difference, cosmetic, docs/accounting.md)."""
    model = dataclasses.asdict(analyse(spec))
    for e in model["entities"]:
        e["reqs"] = sorted(map(_req_key, e["reqs"]))
    model["supported"] = sorted(map(_req_key, model["supported"]))
    model["unsupported"] = sorted(map(_req_key, model["unsupported"]))
    for page in model["pages"]:
        page["name"] = page["name"].casefold()
    return model


def _reqs(spec: AppSpec) -> list[tuple]:
    return [(r.id, r.capability, r.entity, r.text, r.acceptance) for r in spec.requirements]


def checks(spec: AppSpec) -> list[tuple]:
    """The black-box checks the spec's requirements get, by requirement content, not id."""
    by_id = {r.id: _req_key(r) for r in spec.requirements}
    return sorted((by_id[c.requirement], c.name, c.entity or "") for c in derive(spec))


def _round_trip(spec: AppSpec, text: str, path: Path) -> AppSpec:
    tomllib.loads(text)   # plain TOML first: a user's editor and tools read it
    path.write_text(text, encoding="utf-8")
    return load_spec_file(path)


def test_every_dev_set_draft_builds_the_same_app_and_requirements(tmp_path):
    built = stopped = 0
    for item in load_dataset():
        text, spec, clauses, error = request_draft(item["request"])
        for c in clauses:   # every clause is in the draft, with what it did not understand
            assert f"# {c.id} ({c.status}):" in text, (item["id"], c.id)
        path = tmp_path / f"{item['id']}.toml"
        if spec is None:    # stopped at the spec stage: a draft to fill in, not yet a spec
            assert error and tomllib.loads(text) == {}, item["id"]
            with pytest.raises(SpecFileError, match="at least one"):
                _round_trip(spec, text, path)
            stopped += 1
            continue
        again = _round_trip(spec, text, path)
        assert built_app(again) == built_app(spec), item["id"]
        assert _reqs(again) == _reqs(spec), item["id"]
        assert checks(again) == checks(spec), item["id"]
        assert (again.auth, again.login, again.language, again.title) == (
            spec.auth, spec.login, spec.language, spec.title), item["id"]
        built += 1
    assert built >= 60 and stopped >= 10, (built, stopped)


def test_draft_of_a_run_without_pages_builds_no_html_pages_bug(tmp_path):
    """The draft of a request that asks for no pages built an HTML page per entity (and a pages
    requirement the run did not have): the spec language had no way to say "no pages"."""
    spec = parse_request("Keep track of my expenses with an amount and a date.")
    assert not any(r.capability == "pages" for r in spec.requirements)
    again = _round_trip(spec, draft_toml(spec, spec.clauses), tmp_path / "app.toml")
    assert not any(r.capability == "pages" for r in again.requirements)
    assert [p.route for p in analyse(again).pages] == []
    assert built_app(again) == built_app(spec)


def test_unedited_draft_keeps_the_not_built_asks_failing_bug(tmp_path):
    """Building a run's draft as written dropped every ask the run could not build (the comments
    are not read), so `builder new --spec` of a failed run's draft could end BUILD COMPLETE."""
    spec = parse_request("Books with a title. Send SMS reminders to my friends.")
    text = draft_toml(spec, spec.clauses)
    assert tomllib.loads(text)["not_built"] == ["Send SMS reminders to my friends"]
    again = _round_trip(spec, text, tmp_path / "app.toml")
    unsupported = [r for r in again.requirements if r.capability == "unsupported"]
    assert [r.text for r in unsupported] == ["Send SMS reminders to my friends"]
    assert [c.status for c in again.clauses if c.reqs == [unsupported[0].id]] == ["not_built"]
    dropped = _round_trip(spec, text.replace('    "Send SMS reminders to my friends",\n', ""),
                          tmp_path / "edited.toml")
    assert not any(r.capability == "unsupported" for r in dropped.requirements)


def test_draft_of_a_spec_file_run_keeps_roles_access_and_links_bug(tmp_path):
    """A `builder new --spec` run's draft lost [auth] roles and change_password and the entity keys
    shared, manage, assigned_to and many: rebuilt, every record was private again."""
    examples = sorted(glob.glob(str(ROOT / "examples" / "*.toml")))
    assert len(examples) >= 5
    for example in examples:
        spec = load_spec_file(example)
        again = _round_trip(spec, draft_toml(spec, spec.clauses), tmp_path / Path(example).name)
        assert built_app(again) == built_app(spec), example
        assert checks(again) == checks(spec), example
    tools = load_spec_file(ROOT / "examples" / "tool_library.toml")
    assert tools.roles and any(e.shared or e.manage or e.assigned for e in tools.data_model)
    for name, key in (("store_expenses", "view"), ("work_tasks", "stamps"),   # the reading role, a stamped date
                      ("golink_trash", "soft_delete")):                         # delete = "soft"
        spec = load_spec_file(ROOT / "examples" / f"{name}.toml")
        again = _round_trip(spec, draft_toml(spec, spec.clauses), tmp_path / f"{name}-again.toml")
        assert getattr(spec.data_model[0], key) and getattr(again.data_model[0], key) == getattr(spec.data_model[0], key)


def test_draft_build_checks_the_login_and_dashboard_pages_like_the_run_bug(tmp_path):
    """The loader listed only the entity pages, so a draft's build did not check that /login and
    /dashboard answer HTML, as the run it came from did."""
    request = "A web app with login and a dashboard where users manage projects and tasks."
    spec = parse_request(request)
    again = _round_trip(spec, draft_toml(spec, spec.clauses), tmp_path / "app.toml")
    names = {name for _req, name, _e in checks(again)}
    assert {"page /login answers HTML", "page /dashboard answers HTML"} <= names
    assert checks(again) == checks(spec)


@pytest.mark.parametrize("bad, message", [
    ('not_built = "x"', "not_built: must be list"),
    ("not_built = [1]", "not_built: must be a list of non-empty strings"),
    ('pages = "no"', "pages: must be bool"),
])
def test_bad_not_built_or_pages_is_one_line_naming_the_key(tmp_path, bad, message):
    path = tmp_path / "app.toml"
    path.write_text(f'{bad}\n[[entities]]\nname = "book"\nfields = ["title"]\n', encoding="utf-8")
    with pytest.raises(SpecFileError, match=message) as err:
        load_spec_file(path)
    assert "\n" not in str(err.value) and str(err.value).startswith(f"{path}:1:")


def test_draft_of_a_spec_file_run_keeps_calendar_and_csv_import_bug(tmp_path):
    """A `--spec` run's draft dropped the record tools: rebuilt, the sessions had no calendar
    (and the chosen date field was lost) and no CSV import."""
    source = tmp_path / "source.toml"
    source.write_text('[[entities]]\nname = "session"\nfields = [{ name = "title", required = true }, '
                      '{ name = "booked on", kind = "date" }, { name = "held on", kind = "date" }]\n'
                      'calendar = { date = "held on" }\ncsv_import = { max_rows = 250 }\n', encoding="utf-8")
    spec = load_spec_file(source)
    assert (spec.data_model[0].calendar, spec.data_model[0].csv_import) == ("held_on", 250)
    again = _round_trip(spec, draft_toml(spec, spec.clauses), tmp_path / "app.toml")
    assert (again.data_model[0].calendar, again.data_model[0].csv_import) == ("held_on", 250)
    assert built_app(again) == built_app(spec)
    assert checks(again) == checks(spec)


# What the draft writer (harness/offline/accounting/draft.py) carries of each spec model, and what it
# leaves out on purpose. A field added to a model fails this test until the draft writes it (and a
# round-trip test shows it) or it is named here as derived.
_DRAFTED = {
    "AppSpec": {"title", "language", "html", "auth", "login", "roles", "change_password", "data_model", "features",
                "requirements",   # dashboard, pages = false, not_built = [...] (the unsupported asks)
                "clauses"},       # as comments
    "DataEntity": {"name", "plural", "ident", "fields", "parent", "on_parent_delete", "has_status", "workflow",
                   "transitions", "shared", "manage", "assigned", "many", "calendar", "csv_import",
                   "attachment_types", "attachment_max_kb", "computed", "view", "stamps", "read", "soft_delete"},
    "EntityField": {"name", "ident", "kind", "type", "required", "unique", "enum_values", "min_value",
                    "max_value", "ref"},
    "Feature": {"kind", "entity", "fields", "options"},
}
_DERIVED = {   # rebuilt by the --spec loader from the rest, or read only by the LLM path's prompts
    "AppSpec": {"schema_version", "app_type", "stack", "pages", "components", "must_have",
                "explicit_non_goals", "acceptance_criteria", "notes"},
}


def test_the_draft_writes_every_field_of_the_spec_models():
    from harness.models.spec import AppSpec, DataEntity, EntityField, Feature

    for model in (AppSpec, DataEntity, EntityField, Feature):
        name = model.__name__
        missing = set(model.model_fields) - _DRAFTED[name] - _DERIVED.get(name, set())
        assert not missing, (f"{name} has {sorted(missing)}: write it in the draft "
                             "(harness/offline/accounting/draft.py) with a round-trip test, or list it as derived")


def test_draft_build_numbers_and_words_its_requirements_as_the_run_bug(tmp_path):
    """A run's draft rebuilt as "REQ-001 The app starts and answers GET /health", "REQ-004 Users can
    create, list, update and delete tasks": other ids, other words and no acceptance than the run's
    "REQ-003 Users can create, list, view, update and delete tasks" with its HTTP acceptance."""
    spec = parse_request("Build me a task management web app with authentication, projects, tasks, and a "
                         "dashboard. Tasks have a title and a due date; users can search tasks by title.")
    again = _round_trip(spec, draft_toml(spec, spec.clauses), tmp_path / "app.toml")
    assert _reqs(again) == _reqs(spec)
    assert [r.capability for r in again.requirements] == [
        "auth", "crud", "crud", "relation", "feature", "dashboard", "pages", "health"]
    assert again.requirements[4].text == "Users can search tasks by title"
    assert again.clauses[1].text == "entity project"   # where in the file each requirement comes from
