"""`builder new --spec app.toml`: a hand-written spec is read exactly; every error names the file,
line and key in one line with exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.cli import main
from harness.offline.spec_file import SpecFileError, load_spec_file

EXAMPLE = Path(__file__).parents[1] / "examples" / "club_bookings.toml"


def test_the_example_spec_is_read_exactly():
    spec = load_spec_file(EXAMPLE)
    assert [e.ident for e in spec.data_model] == ["member", "court", "booking", "payment"]
    booking = spec.entity("booking")
    assert booking.parent == "court" and booking.workflow == ["requested", "confirmed", "completed"]
    kinds = {f.ident: f.kind for f in booking.fields}
    assert kinds == {"member": "reference", "date": "date", "start_time": "time",
                     "end_time": "time", "notes": "long_text"}
    court = {f.ident: f for f in spec.entity("court").fields}
    assert court["surface"].kind == "enum" and court["surface"].enum_values == ["clay", "grass", "hard"]
    assert court["hourly_rate"].kind == "money" and court["indoor"].kind == "boolean"
    rating = next(f for f in spec.entity("payment").fields if f.ident == "rating")
    assert (rating.kind, rating.min_value, rating.max_value) == ("rating", 1, 5)
    features = {(f.entity, f.kind) for f in spec.features}
    assert {("booking", "no_double_booking"), ("booking", "csv_export"), ("member", "search"),
            ("payment", "aggregate")} <= features
    assert spec.auth and any(r.capability == "dashboard" for r in spec.requirements)
    assert [f.ident for f in spec.entity("member").fields if f.unique] == ["email"]

    assert all(c.status == "mapped" and c.reqs for c in spec.clauses)


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "app.toml"
    path.write_text(text, encoding="utf-8")
    return path


ONE = '[[entities]]\nname = "task"\n'


@pytest.mark.parametrize(("text", "expected"), [
    ('title = "x"\ncolour = "red"\n' + ONE, "app.toml:2: colour: unknown key"),
    ('title = "x"\n', "app.toml:1: entities: the spec needs at least one [[entities]] table"),
    (ONE + 'fields = [{ name = "amount", kind = "moneyy" }]\n',
     "app.toml:3: entities[1].fields[1].kind: unknown kind 'moneyy'"),
    (ONE + 'fields = [{ name = "status", kind = "enum", values = ["a"] }]\n',
     "app.toml:3: entities[1].fields[1].values: an enum field needs at least two values"),
    (ONE + 'parent = "ghost"\n', "app.toml:3: entities[1].parent: no other entity named 'ghost'"),
    (ONE + 'fields = [{ name = "owner", ref = "ghost" }]\n', "app.toml:3: entities[1].owner.ref: no entity named 'ghost'"),
    (ONE + 'features = ["teleport"]\n', "app.toml:3: entities[1].features[1].kind: unknown feature 'teleport'"),
    (ONE + 'features = ["aggregate"]\n', "app.toml:3: entities[1].features[1]: aggregate on tasks needs a field of kind"),
    (ONE + 'features = ["ownership"]\n', "app.toml:3: entities[1].features[1]: ownership needs accounts"),
    (ONE + 'on_parent_delete = "explode"\n', "app.toml:3: entities[1].on_parent_delete: must be"),
    (ONE + '[[entities]]\nname = "note"\nfields = [{ name = "body", kind = "text" }]\n',
     "app.toml:5: entities[2].fields[1].kind: unknown kind 'text'"),
    ('auth = "yes"\n' + ONE, "app.toml:1: auth: must be bool"),
    ('[[entities]\n', "app.toml:1: not valid TOML"),
    ('title = "x"\n[[entity]]\nname = "task"\n', "app.toml:2: entity: unknown key"),
])
def test_errors_name_the_line_and_key(tmp_path, text, expected):
    path = _write(tmp_path, text)
    with pytest.raises(SpecFileError) as caught:
        load_spec_file(path)
    message = str(caught.value)
    assert message.startswith(expected.replace("app.toml", str(path))), message
    assert "\n" not in message


def test_cli_reports_a_bad_spec_file_in_one_line_with_exit_2(tmp_path, capsys):
    path = _write(tmp_path, ONE + 'fields = [{ name = "amount", kind = "moneyy" }]\n')
    assert main(["new", "--spec", str(path), "--runs-dir", str(tmp_path / "runs")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"builder: {path}:3: ")
    assert not (tmp_path / "runs").exists()


def test_cli_needs_a_request_or_a_spec_but_not_both(tmp_path, capsys):
    assert main(["new", "--runs-dir", str(tmp_path)]) == 2
    assert main(["new", "a todo app", "--spec", str(EXAMPLE), "--runs-dir", str(tmp_path)]) == 2
    assert "not both" in capsys.readouterr().err


def test_spec_file_errors_leaked_exception_class_names_and_dropped_the_path_bug(tmp_path):
    """Bug: 'cannot read spec file x: FileNotFoundError: [Errno 2] …'; messages showed only the file name."""
    with pytest.raises(SpecFileError) as caught:
        load_spec_file(tmp_path / "nosuch.toml")
    assert str(caught.value) == f"cannot read spec file {tmp_path / 'nosuch.toml'}: No such file or directory"
    with pytest.raises(SpecFileError) as caught:
        load_spec_file(tmp_path)
    assert str(caught.value) == f"cannot read spec file {tmp_path}: Is a directory"


def test_relation_requirement_names_the_parent_by_its_name_bug(tmp_path):
    """The relation requirement read "Each borrow belongs to a inventory_item": the parent's
    identifier and a fixed article instead of its name."""
    path = tmp_path / "app.toml"
    path.write_text('[[entities]]\nname = "inventory item"\nfields = ["name"]\n\n'
                    '[[entities]]\nname = "borrow"\nparent = "inventory item"\nfields = ["notes"]\n\n'
                    '[[entities]]\nname = "return"\nparent = "borrow"\nfields = ["notes"]\n', encoding="utf-8")
    texts = [r.text for r in load_spec_file(path).requirements if r.capability == "relation"]
    assert texts == ["Each borrow belongs to an inventory item; borrows can be listed per inventory item",
                     "Each return belongs to a borrow; returns can be listed per borrow"]
