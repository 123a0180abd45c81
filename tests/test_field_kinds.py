"""The field-kind registry: names imply kinds, and every kind's generated annotation accepts its
valid samples and rejects its invalid ones (checked with the real skeleton src/fieldtypes.py)."""

from __future__ import annotations

import importlib.util
import typing
from pathlib import Path

import pydantic
import pytest

from harness.models.spec import FieldKind
from harness.offline.field_kinds import KINDS, MATCH_ORDER, Bounds, kind_for_name, kind_of_type

FIELDTYPES = Path(__file__).parents[1] / "harness/offline/generator/skeleton/src/fieldtypes.py"


@pytest.fixture(scope="module")
def fieldtypes():
    spec = importlib.util.spec_from_file_location("skeleton_fieldtypes", FIELDTYPES)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("name", "kind"), [
    ("title", "short_text"), ("zip code", "short_text"), ("condition", "short_text"),
    ("status", "short_text"), ("room number", "short_text"),
    ("description", "long_text"), ("ingredients", "long_text"), ("notes", "long_text"),
    ("quantity", "integer"), ("number of guests", "integer"), ("hours", "integer"),
    ("age", "integer"), ("số lượng", "integer"),
    ("amount", "money"), ("price per night", "money"), ("salary", "money"),
    ("hourly rate", "money"), ("giá", "money"),
    ("weight", "decimal"),
    ("date", "date"), ("due date", "date"), ("deadline", "date"), ("birthday", "date"),
    ("date of birth", "date"), ("end date", "date"), ("ngày hết hạn", "date"),
    ("start time", "time"), ("Clock-In time", "time"), ("clock out", "time"), ("end", "time"),
    ("opened at", "datetime"), ("timestamp", "datetime"),
    ("is paid", "boolean"), ("in stock", "boolean"), ("active", "boolean"), ("has_wifi", "boolean"),
    ("email", "email"), ("email address", "email"),
    ("phone number", "phone"), ("số điện thoại", "phone"),
    ("website", "url"), ("link", "url"),
    ("rating", "rating"), ("stars", "rating"),
    ("paid by", "short_text"), ("assigned to", "short_text"),   # a person, not a yes/no
    ("photo", "url"), ("picture", "url"), ("logo", "url"),      # a link to the image
    ("steps", "integer"), ("daily steps", "integer"), ("preparation steps", "long_text"),
    ("cooking time", "integer"), ("prep time", "integer"), ("start time", "time"),   # a duration in minutes
    ("personal information", "long_text"), ("references", "long_text"), ("reference", "short_text"),
])
def test_kind_for_name(name, kind):
    assert kind_for_name(name) == kind


def test_enum_and_reference_are_never_implied_by_a_name_alone():
    assert "enum" not in MATCH_ORDER and "reference" not in MATCH_ORDER
    assert kind_for_name("priority") == "short_text"


def test_every_kind_has_one_entry_and_old_types_map_to_kinds():
    assert set(KINDS) == set(typing.get_args(FieldKind))
    assert [kind_of_type(t) for t in ("str", "text", "int", "float", "bool", "date", "datetime")] == [
        "short_text", "long_text", "integer", "decimal", "boolean", "date", "datetime"]


BOUNDS = {"enum": Bounds(values=("low", "high")), "rating": Bounds(lo=1, hi=5)}


def _model(fieldtypes, kind: str, required: bool):
    annotation = KINDS[kind].annotation(BOUNDS.get(kind, Bounds()), required)
    namespace = vars(fieldtypes)
    return pydantic.create_model("Probe", __base__=fieldtypes.Strict,
                                 value=(eval(annotation, namespace), ...))


@pytest.mark.parametrize("kind", [k for k in KINDS if k != "reference"])
def test_samples_are_valid_and_round_trip(fieldtypes, kind):
    model = _model(fieldtypes, kind, required=True)
    for variant in (0, 1):
        value = KINDS[kind].sample(BOUNDS.get(kind, Bounds()), variant)
        assert model.model_validate({"value": value}).model_dump(mode="json") == {"value": value}


@pytest.mark.parametrize("kind", list(KINDS))
def test_invalid_samples_are_rejected(fieldtypes, kind):
    model = _model(fieldtypes, kind, required=True)
    bad = KINDS[kind].bad_values(BOUNDS.get(kind, Bounds()))
    assert bad, f"{kind} has no invalid samples"
    for value in bad:
        with pytest.raises(pydantic.ValidationError):
            model.model_validate({"value": value})


def test_rating_range_comes_from_the_field():
    entry = KINDS["rating"]
    assert entry.annotation(Bounds(lo=0, hi=10), True) == "Annotated[int, Field(ge=0, le=10)]"
    assert entry.bad_values(Bounds(lo=0, hi=10))[:2] == (11, -1)
    assert entry.sample(Bounds(lo=3, hi=3), 1) == 3


def test_unknown_fields_are_refused_by_the_strict_base(fieldtypes):
    model = _model(fieldtypes, "short_text", required=False)
    with pytest.raises(pydantic.ValidationError, match="Extra inputs are not permitted"):
        model.model_validate({"value": "x", "amount": -3000})


def test_optional_annotation_accepts_null(fieldtypes):
    model = _model(fieldtypes, "money", required=False)
    assert model.model_validate({"value": None}).value is None


def test_generated_python_is_parsed_before_it_is_returned(monkeypatch):
    """#14: a generator bug surfaces as GeneratorError naming the file, not a broken workspace."""
    from harness.offline.generator import app_files
    from harness.offline.generator.units import generate_files
    from harness.offline.spec import parse_request

    monkeypatch.setattr(app_files, "_render", lambda app, path, reqs: "def broken(:\n")
    with pytest.raises(app_files.GeneratorError, match=r"generated requirements.txt|generated .*\.py does not parse \(line 1"):
        generate_files(parse_request("Build a Simple Todo App with add/list/complete"))


def test_a_participle_after_a_column_noun_keeps_the_nouns_kind_bug():
    """A public animal-hospital spec (solutioninn.com): "Payment information (date paid, amount paid)"
    made both columns booleans (from "paid"), and the payment then got an implied amount beside them."""
    from harness.offline.spec import parse_request

    assert [kind_for_name(n) for n in ("amount paid", "date paid", "hours spent", "date completed")] == [
        "money", "date", "integer", "date"]
    assert [kind_for_name(n) for n in ("is paid", "paid", "paid by")] == ["boolean", "boolean", "short_text"]
    spec = parse_request("Users can manage payments. Payment information (date paid, amount paid) is recorded too.")
    payment = next(e for e in spec.data_model if e.name == "payment")
    assert {f.name: f.kind for f in payment.fields} == {"date paid": "date",
                                                         "amount paid": "money"}
