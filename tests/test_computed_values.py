"""Computed values (#51): "next watering = last watered + interval", "days until", "overdue"
(examples/plant_watering.toml). The expression language is parsed and typed by the harness (never
eval'd), a bad expression is one line naming the entity and the value, the generated app answers
every read with the values, its own test catches a wrong computation, the black-box check catches
it from outside, and the example builds BUILD COMPLETE."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from harness.acceptance import run_acceptance
from harness.constructs.computed_expr import ExprError, evaluate, parse, shown
from harness.offline.generator import generate_files
from harness.offline.spec_file import SpecFileError, load_spec_file
from helpers import run_builder, write_files
from served_app import served
from warm_suites import suites  # noqa: F401  (module-scoped fixture)

PLANTS = Path(__file__).parents[1] / "examples" / "plant_watering.toml"
NAMES = {"last_watered": "date", "interval_days": "number", "due_on": "date", "status": "text",
         "price": "number", "paid": "bool"}
ROW = {"last_watered": "2024-01-10", "interval_days": 7, "due_on": "2024-01-20", "status": "out",
       "price": 12.5, "paid": 0}
TODAY = date(2024, 1, 15)


@pytest.mark.parametrize("text, value", [
    ("last_watered + interval_days days", "2024-01-17"),
    ("last_watered + 2 weeks", "2024-01-24"),
    ("due_on - today", 5),
    ("today - due_on", -5),
    ("due_on - 1 days", "2024-01-19"),
    ("due_on < today", False),
    ("last_watered + interval_days days <= today", False),
    ("due_on > today and status != 'returned'", True),
    ("not paid or status = 'lost'", True),
    ("price * 2 + interval_days", 32.0),
    ("price / 0", None),
    ("(interval_days - 1) / 2", 3.0),
])
def test_expressions_mean_what_they_say(text, value):
    assert shown(evaluate(parse(text, NAMES), ROW, TODAY)) == value


def test_a_missing_input_is_missing_and_a_comparison_with_it_false():
    row = {**ROW, "last_watered": None}
    assert evaluate(parse("last_watered + interval_days days", NAMES), row, TODAY) is None
    assert evaluate(parse("last_watered + interval_days days <= today", NAMES), row, TODAY) is False
    assert evaluate(parse("not (last_watered + interval_days days > today)", NAMES), row, TODAY) is True


@pytest.mark.parametrize("text, problem", [
    ("last_watered + last_watered", "cannot add date to date (a date moves by '<n> days')"),
    ("watered + 1", "no field 'watered' (known: last_watered, interval_days, due_on, status, price, paid)"),
    ("status < 'a'", "cannot compare text < text"),
    ("due_on < 3", "cannot compare date < number"),
    ("due_on days", "'days' follows a date, not a number"),
    ("today and paid", "'and' needs true/false on both sides"),
    ("__import__('os')", "no field '__import__'"),
    ("price.real", "cannot read '.real'"),
    ("price +", "ends too early"),
    ("(price", "ends too early"),
    ("x" * 201, "longer than 200 characters"),
])
def test_a_bad_expression_says_what_is_wrong(text, problem):
    with pytest.raises(ExprError) as raised:
        parse(text, NAMES)
    assert problem in str(raised.value)


TASK = '[[entities]]\nname = "task"\nfields = [{ name = "due on", kind = "date" }, "title"]\n'


@pytest.mark.parametrize("computed, message", [
    ('computed = { late = "due_on < yesterday" }', "entities[1].computed.late: no field 'yesterday'"),
    ('computed = { title = "due_on - today" }', "entities[1].computed.title: 'title' is already a field"),
    ('computed = { class = "due_on - today" }', "'class' is a word of the generated code"),
    ('computed = { Late = "due_on < today" }', "a computed name is lower-case letters"),
    ('computed = { late = 3 }', "entities[1].computed.late: must be an expression in a string"),
    ('computed = { left = "due_on - today", late = "left < today" }', "cannot compare number < date"),
])
def test_a_computed_value_that_cannot_be_built_is_one_line(tmp_path, computed, message):
    path = tmp_path / "app.toml"
    path.write_text(TASK + computed + "\n", encoding="utf-8")
    with pytest.raises(SpecFileError) as raised:
        load_spec_file(path)
    assert message in str(raised.value) and "\n" not in str(raised.value), str(raised.value)


def test_the_plant_example_computes_on_every_read_and_tests_it():
    spec = load_spec_file(PLANTS)
    req = next(r for r in spec.requirements if r.capability == "computed")
    assert req.text == "Plants show values computed from each record: next watering, days until watering, needs water"
    files = generate_files(spec)
    api = files["src/api_plant.py"]
    assert ("values['next_watering'] = calc_plus(calc_day(row.get('last_watered')), "
            "calc_times(row.get('watering_interval_days'), 1))") in api
    assert "next_watering: str | None = None" in api and "eval(" not in api
    assert f"@pytest.mark.req('{req.id}')\ndef test_computed_values_follow_the_record" in files["tests/test_api_plant.py"]
    assert "computed=(('next_watering', 'Next watering')," in files["src/pages.py"]


# An app that moves the next watering back instead of forward.
WRONG = ("values['next_watering'] = calc_plus(", "values['next_watering'] = calc_minus(")


@pytest.mark.slow
def test_the_generated_computed_test_passes_and_fails_on_a_wrong_date(tmp_path, suites):  # noqa: F811
    files = generate_files(load_spec_file(PLANTS))
    ws = write_files(files, suites.base / "plants")
    kept = suites.run(ws, "-q", "-p", "no:cacheprovider")
    assert kept.exit_code == 0 and "failed" not in kept.stdout, kept.stdout[-3000:]
    (ws / "src" / "api_plant.py").write_text(files["src/api_plant.py"].replace(*WRONG), encoding="utf-8")
    broken = suites.run(ws, "-q", "-p", "no:cacheprovider",
                        "tests/test_api_plant.py::test_computed_values_follow_the_record")
    assert broken.exit_code == 1 and "1 failed" in broken.stdout, broken.stdout[-3000:]


@pytest.mark.slow
def test_the_black_box_computed_check_fails_an_app_that_computes_wrong(tmp_path):
    spec = load_spec_file(PLANTS)
    files = generate_files(spec)
    files["src/api_plant.py"] = files["src/api_plant.py"].replace(*WRONG)
    ws = write_files(files, tmp_path / "ws")
    with served(ws, tmp_path / "app.db") as base:
        checks = run_acceptance(base, spec, [], [])
    failed = [(c.name, c.detail) for c in checks if not c.ok]
    assert [name for name, _ in failed] == ["computed values of a plant"], failed
    assert "next_watering of a plant with dates -30 days from today: create answered" in failed[0][1]


@pytest.mark.slow
def test_the_plant_example_builds_complete_with_its_values_checked_from_outside(tmp_path):
    done = run_builder("new", "--spec", PLANTS, "--runs-dir", tmp_path, "--run-id", "plants", "--no-audit",
                       timeout=600)
    assert done.returncode == 0 and "BUILD COMPLETE" in done.stdout, done.stdout[-3000:] + done.stderr[-2000:]
    report = done.stdout.split("Plants show values computed from each record", 1)[1].split("Status:", 1)[0]
    assert "Black-box: YES (1/1 checks" in report
