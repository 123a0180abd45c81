"""Field names stay the user's words in the generated API: a field named after a Python keyword or
builtin ("type", "class", "from", "list") keeps that name in JSON, the database and the form; only
the Python attribute of the pydantic model differs (an alias). Checked over HTTP against the
generated app served by real uvicorn (the runtime verifier), and on the generated source."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from harness.models.spec import AppSpec, DataEntity, EntityField, Feature
from harness.offline.generator import generate_files
from harness.offline.generator.analyse import analyse
from harness.offline.generator.naming import field_ident, py_ident
from harness.offline.generator.probes import ProbeStep
from harness.offline.spec_file import with_requirements
from harness.verification.runtime import verify_runtime
from helpers import write_files

ASSET = {"name": "Laptop", "type": "hardware", "class": "A", "from": "2024-01-02", "list": 3}


def _spec(features: tuple[str, ...] = ()) -> AppSpec:
    fields = [EntityField(name="name", ident="name", type="str", kind="short_text", required=True),
              EntityField(name="type", ident=field_ident("type"), type="str", kind="enum",
                          enum_values=["hardware", "software"], required=True),
              EntityField(name="class", ident=field_ident("class"), type="str", kind="short_text"),
              EntityField(name="from", ident=field_ident("from"), type="date", kind="date"),
              EntityField(name="list", ident=field_ident("list"), type="int", kind="integer")]
    spec = AppSpec(title="Assets", data_model=[DataEntity(name="asset", plural="assets", ident="asset",
                                                          fields=fields)],
                   features=[Feature(kind=k, entity="asset") for k in features])
    return with_requirements(spec, dashboard=False)




def test_field_ident_keeps_python_reserved_words_but_py_ident_does_not():
    assert [field_ident(n) for n in ("type", "class", "From", "list", "Due date", "1st")] == [
        "type", "class", "from", "list", "due_date", "item_1st"]
    assert py_ident("type") == "type_item"   # entity/module names still avoid shadowing


def test_reserved_field_names_are_aliased_python_attributes_with_the_users_json_name():
    columns = {c.ident: c for c in analyse(_spec()).entities[0].columns}
    assert list(columns) == ["name", "type", "class", "from", "list"]
    assert [(c.attr, c.needs_alias) for c in columns.values()] == [
        ("name", False), ("type_", True), ("class_", True), ("from_", True), ("list_", True)]
    source = generate_files(_spec())["src/api_asset.py"]
    assert "alias='type'" in source and "alias='class'" in source
    assert "type_item" not in source


@pytest.mark.slow
def test_field_named_type_is_not_renamed_type_item_in_the_api_bug(tmp_path):
    """Bug: a field named "type" became the API key `type_item` (the Python-builtin guard was
    applied to JSON names). POST {"type": ...} must be 201 and GET must return "type"; the
    Python-side names are unknown fields (422); filtering by "type" works."""
    workspace = write_files(generate_files(_spec(("filter",))), tmp_path / "ws")
    steps = [
        ProbeStep("create", "POST", "/api/assets", dict(ASSET), 201, {"asset_id": "id"}, False),
        ProbeStep("read back", "GET", "/api/assets/{asset_id}", None, 200,
                  {"type": "type", "class": "class", "from": "from", "list": "list"}, False),
        ProbeStep("python name rejected", "POST", "/api/assets", {"name": "x", "type_item": "hardware"},
                  422, {}, False),
        ProbeStep("alias attr rejected", "POST", "/api/assets", {"name": "x", "type_": "hardware"},
                  422, {}, False),
        ProbeStep("bad enum", "POST", "/api/assets", {**ASSET, "type": "furniture"}, 422, {}, False),
        ProbeStep("update", "PUT", "/api/assets/{asset_id}", {"type": "software"}, 200, {"updated": "type"},
                  False),
        ProbeStep("filter", "GET", "/api/assets?type=software", None, 200, {}, False),
        ProbeStep("filter bad value", "GET", "/api/assets?type=furniture", None, 422, {}, False),
    ]
    result = verify_runtime(workspace, steps, startup_timeout_s=60)
    assert result.status == "PASS", [c for c in result.checks if not c.ok]
    evidence = "\n".join(result.evidence)
    assert '"type":"hardware"' in evidence and '"class":"A"' in evidence and '"from":"2024-01-02"' in evidence
    assert '"loc":["body","type_item"],"msg":"Extra inp' in evidence   # unknown, not a second name


@pytest.mark.slow
def test_filter_by_a_text_field_was_silently_ignored_bug(tmp_path):
    """Bug: "filter courts by location" built a filter feature, but `location` (short text) was no
    filter parameter, so ?location=Soho listed every court. Now an exact-value text filter: the
    generated test creates two courts, filters by the second one's location and gets only it (and
    a 201-character value is a 422); run in the generated workspace's own pytest."""
    fields = [EntityField(name="name", ident="name", type="str", kind="short_text", required=True),
              EntityField(name="location", ident="location", type="str", kind="short_text"),
              EntityField(name="class", ident=field_ident("class"), type="str", kind="short_text")]
    spec = with_requirements(AppSpec(title="Courts", data_model=[DataEntity(
        name="court", plural="courts", ident="court", fields=fields)],
        features=[Feature(kind="filter", entity="court")]), dashboard=False)
    workspace = write_files(generate_files(spec), tmp_path / "ws")
    source = (workspace / "src" / "api_court.py").read_text()
    assert "location: Annotated[str | None, Query(max_length=200)] = None" in source
    assert "class_: Annotated[str | None, Query(max_length=200, alias='class')] = None" in source
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:hypothesispytest",
                             "-rA", "tests/test_api_court.py", "-k", "filter"], cwd=workspace, capture_output=True,
                            text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-3000:]
    assert "PASSED tests/test_api_court.py::test_filter_by_location" in result.stdout
    assert "PASSED tests/test_api_court.py::test_filter_by_class" in result.stdout
