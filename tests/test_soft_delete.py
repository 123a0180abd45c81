"""Soft delete (`delete = "soft"`, docs/spec-language.md): "when I delete a job, only mark it as
deleted, not remove it", "move to the trash and restore", "archive instead of deleting". Before,
the spec language could not say it: such a request ended BUILD FAILED naming those words, and "only
mark it as deleted" even gave the record a done/open status (a hard DELETE stayed).

The reader's one-line refusals, the requirement, the generated app (every read leaves deleted rows
out; the deleted list and restore; other apps' files unchanged), its own tests run by real pytest,
the black-box checks it gets, the request phrasings the parser reads and the word accounting that
credits them only when the spec has soft delete."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from harness.acceptance.derive import derive
from harness.offline.accounting.apply import apply_accounting
from harness.offline.generator import generate_files
from harness.offline.spec import parse_request
from harness.offline.spec_file import SpecFileError, load_spec_file
from helpers import run_builder, write_files

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "golink_trash.toml"
JOB = '[[entities]]\nname = "job"\nfields = ["title"]\n'


def _load(tmp_path: Path, text: str):
    path = tmp_path / "app.toml"
    path.write_text(text, encoding="utf-8")
    return load_spec_file(path)


@pytest.mark.parametrize("text, message", [
    (JOB + 'delete = "trash"\n', 'app.toml:4: entities[1].delete: must be "soft" (DELETE only marks the record deleted'),
    (JOB + "delete = true\n", "app.toml:4: entities[1].delete: must be a string"),
    (JOB + 'delete = "soft"\n[[entities]]\nname = "note"\nparent = "job"\non_parent_delete = "cascade"\n',
     "app.toml:8: entities[2].on_parent_delete: a deleted job is only marked deleted"),
])
def test_a_delete_that_cannot_be_built_is_one_line(tmp_path, text, message):
    with pytest.raises(SpecFileError) as raised:
        _load(tmp_path, text)
    assert str(raised.value).startswith(str(tmp_path / message.split(":")[0]) + message[len("app.toml"):]), raised.value


def test_a_bad_delete_exits_2_with_one_line(tmp_path):
    path = tmp_path / "app.toml"
    path.write_text(JOB + 'delete = "archive"\n', encoding="utf-8")
    done = run_builder("new", "--spec", str(path), "--runs-dir", str(tmp_path / "runs"))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [
        f'builder: {path}:4: entities[1].delete: must be "soft" (DELETE only marks the record deleted; it can be '
        'listed and restored) or "hard" (the default: DELETE removes the row)']


def test_hard_is_the_default_and_soft_is_a_requirement(tmp_path):
    assert not _load(tmp_path, JOB + 'delete = "hard"\n').data_model[0].soft_delete
    spec = _load(tmp_path, JOB + 'delete = "soft"\n')
    assert [(r.capability, r.entity) for r in spec.requirements if r.capability == "soft_delete"] == [("soft_delete", "job")]


def test_the_example_generates_a_soft_delete_with_its_deleted_list_and_restore():
    files = generate_files(load_spec_file(EXAMPLE))
    models = files["src/models.py"]
    assert '"deleted_at" TEXT' in models and "UPDATE \"golink\"" in models and "DELETE FROM \"golink\"" not in models
    assert ' WHERE "deleted_at" IS NULL) AS "golink"' in models          # every read leaves deleted rows out
    trash = files["src/trash.py"]
    for route in ("@router.get('/api/golinks/deleted')", "@router.post('/api/golinks/{item_id}/restore')",
                  "@router.get('/golinks/deleted', response_class=HTMLResponse)"):
        assert route in trash
    assert "def test_golink_delete_keeps_the_record_to_restore(" in files["tests/test_trash.py"]
    assert "trash.router" in files["src/main.py"]


def test_an_app_without_soft_delete_is_generated_as_before():
    files = generate_files(load_spec_file(ROOT / "examples" / "tool_library.toml"))
    assert "src/trash.py" not in files and not any("deleted_at" in text for text in files.values())


@pytest.mark.slow
def test_the_generated_apps_own_tests_pass(tmp_path):
    ws = write_files(generate_files(load_spec_file(EXAMPLE)), tmp_path / "ws")
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:cacheprovider"],
                          cwd=ws, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert " passed" in done.stdout


def test_the_black_box_checks_delete_list_and_restore():
    names = [c.name for c in derive(load_spec_file(EXAMPLE))]
    assert "a deleted golink leaves the list, is listed deleted and restored equal" in names


@pytest.mark.parametrize("request_text, record", [
    ("Jobs with a title. When I delete a job, only mark it as deleted, not remove it.", "job"),
    ("Deleting an expense should only mark it as deleted, not remove it from the database. Expenses have an amount.",
     "expense"),
    ("Tasks with a title. Deleted tasks move to the trash and can be restored.", "task"),
    ("Projects with a name. Users archive projects instead of deleting them.", "project"),
    ("Notes with a title. Soft delete notes so I can restore them later.", "note"),
    ("Tasks with a title. Users can restore deleted tasks.", "task"),
])
def test_the_parser_reads_soft_delete_and_accounts_for_its_words(request_text, record):
    spec = parse_request(request_text)
    assert [(e.ident, e.soft_delete) for e in spec.data_model] == [(record, True)]
    assert not any(e.has_status for e in spec.data_model)    # "mark it as deleted" is no done/open status
    assert all(c.status == "mapped" and c.unaccounted == [] for c in spec.clauses), spec.clauses


@pytest.mark.parametrize("request_text, named", [
    ("Jobs with a title. When I delete a job, only mark it as deleted, not remove it.", ["only mark", "not remove"]),
    ("Track expenses with an amount. Deleting an expense should only mark it as deleted, not remove it from the "
     "database.", ["only mark", "not remove"]),
    ("Tasks with a title. Deleted tasks move to the trash and can be restored.", ["move", "trash", "restored"]),
    ("Projects with a name. Users archive projects instead of deleting them.", ["archive", "instead"]),
])
def test_the_words_are_credited_only_when_the_spec_has_soft_delete(request_text, named):
    spec = parse_request(request_text)
    spec.data_model[0].soft_delete = False    # the same clauses over a hard delete
    again = apply_accounting(spec)
    asked = next(c for c in again.clauses if c.status == "not_built")
    assert asked.unaccounted == named, asked
